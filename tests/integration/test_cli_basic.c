/* steno's commands against a real sandbox: help, exit codes, listing, showing, deleting,
 * organization settings, local commands, key files, and that the key never shows. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test_cli_util.h"

#define RUN(res, h, s, ...) \
	cr_assert_eq(cli_exec(res, h, s, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static struct sbx sb;
static struct cli_home home;

static void setup(void)
{
	cr_assert_eq(sbx_start(&sb, NULL), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

static void setup_home_only(void)
{
	cr_assert_eq(cli_home_init(&home), 0);
}

static void teardown_home_only(void)
{
	cli_home_free(&home);
}

/* Creates n transcriptions with the admin seed route. */
static void seed(int n)
{
	char path[128], body[64];
	snprintf(path, sizeof(path), "/_sandbox/organizations/%s/seed", sb.org_id);
	snprintf(body, sizeof(body), "{\"transcriptions\":%d}", n);
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "POST", path, sb.admin_key, body, NULL, &r), 0);
	cr_assert(r.status / 100 == 2, "seed: %ld %s", r.status, r.body);
	sbx_resp_free(&r);
}

Test(cli_local, help_version_and_usage_errors, .init = setup_home_only, .fini = teardown_home_only)
{
	struct cli_result r;
	RUN(&r, &home, NULL, "--help");
	cr_expect_eq(r.code, 0);
	cr_expect(strstr(r.out, "transcribe") && strstr(r.out, "Exit status"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "--version");
	cr_expect_eq(r.code, 0);
	cr_expect(strncmp(r.out, "steno ", 6) == 0);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "frobnicate");
	cr_expect_eq(r.code, 2);
	cr_expect(strstr(r.err, "unknown command"), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "--no-such-option");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
	static const char *const cmds[] = {"ls", "show", "upload", "transcribe", "rm", "export",
					   "translate", "glossaries", "style-guides", "config",
					   "languages", "download"};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		RUN(&r, &home, NULL, cmds[i], "--help");
		cr_expect_eq(r.code, 0, "%s --help", cmds[i]);
		cr_expect(strstr(r.out, "Usage: steno "), "%s --help: %s", cmds[i], r.out);
		cli_result_free(&r);
	}
	static const char *const sub[] = {"create", "translation", "show", "confirm", "watch"};
	for (size_t i = 0; i < 5; i++) {
		RUN(&r, &home, NULL, "order", sub[i], "--help");
		cr_expect_eq(r.code, 0, "order %s --help", sub[i]);
		cli_result_free(&r);
	}
	RUN(&r, &home, NULL, "ls", "--page", "x");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "ls", "--page", "1", "--all");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "show");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "order");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
}

Test(cli_local, languages_and_config_paths, .init = setup_home_only, .fini = teardown_home_only)
{
	struct cli_result r;
	RUN(&r, &home, NULL, "languages", "--pro", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_assert(a && json_object_is_type(a, json_type_array));
	cr_expect_gt(json_object_array_length(a), 5);
	for (size_t i = 0; i < json_object_array_length(a); i++)
		cr_expect(json_object_get_boolean(sbx_get(json_object_array_get_idx(a, i), "pro")));
	json_object_put(a);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "languages", "--translation");
	cr_expect_eq(r.code, 0);
	cr_expect(strstr(r.out, "cmn-Hans-CN"), "sources listed");
	cli_result_free(&r);
	RUN(&r, &home, NULL, "config", "paths");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "config file") && strstr(r.out, home.dir), "%s", r.out);
	cli_result_free(&r);
}

Test(cli_local, languages_carry_english_and_own_names, .init = setup_home_only,
     .fini = teardown_home_only)
{
	struct cli_result r;
	RUN(&r, &home, NULL, "languages");
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "Japanese (Japan)") && strstr(r.out, "日本語 (日本)"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "languages", "--translation", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\"name\": \"Mandarin Chinese (Simplified Han, China)\""), "%s", r.out);
	cli_result_free(&r);
}

Test(cli_local, config_error_is_reported, .init = setup_home_only, .fini = teardown_home_only)
{
	cr_assert_eq(cli_home_config(&home, "refresh_interval = banana\nnot a line\n"), 0);
	struct cli_result r;
	RUN(&r, &home, NULL, "config", "paths");
	cr_expect(strstr(r.err, "config:"), "diagnostics on stderr: %s", r.err);
	cli_result_free(&r);
}

Test(cli, ls_show_rm, .init = setup, .fini = teardown)
{
	seed(5);
	struct cli_result r;
	RUN(&r, &home, &sb, "ls", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_assert(a && json_object_array_length(a) == 5, "%s", r.out);
	char id[64];
	snprintf(id, sizeof(id), "%s", sbx_str(json_object_array_get_idx(a, 0), "id"));
	json_object_put(a);
	cli_result_free(&r);

	RUN(&r, &home, &sb, "ls");
	cr_expect_eq(r.code, 0);
	cr_expect(strncmp(r.out, "ID ", 3) == 0 && strstr(r.out, id), "%s", r.out);
	cli_result_free(&r);

	RUN(&r, &home, &sb, "show", id);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "state"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "show", "--json", id);
	a = json_tokener_parse(r.out);
	cr_expect(a && !strcmp(sbx_str(a, "id"), id));
	json_object_put(a);
	cli_result_free(&r);

	RUN(&r, &home, &sb, "rm", id);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "show", id);
	cr_expect_eq(r.code, 1, "a deleted transcription is an API error");
	cr_expect(strstr(r.err, "410"), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "show", "00000000000000000000000000000000");
	cr_expect_eq(r.code, 1);
	cr_expect(strstr(r.err, "404"), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "--read-only", "rm", "--permanent", id);
	cr_expect_eq(r.code, 2, "read-only refuses rm");
	cr_expect(strstr(r.err, "read-only"), "%s", r.err);
	cli_result_free(&r);
}

/* How many items of a JSON list satisfy pred. */
static size_t count_where(json_object *a, bool (*pred)(json_object *))
{
	size_t n = 0;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		n += pred(json_object_array_get_idx(a, i));
	return n;
}

static char first_state[64];

static bool in_first_state(json_object *o)
{
	return strcmp(sbx_str(o, "state"), first_state) == 0;
}

static size_t ls_where_count(const char *query, const char *fmt)
{
	struct cli_result r;
	RUN(&r, &home, &sb, "ls", "--all", fmt, "--where", query);
	cr_assert_eq(r.code, 0, "%s", r.err);
	size_t n = 0;
	if (strcmp(fmt, "--json") == 0) {
		json_object *a = json_tokener_parse(r.out);
		cr_assert(a, "%s", r.out);
		n = json_object_array_length(a);
		json_object_put(a);
	} else {
		for (const char *p = strchr(r.out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
			n++;
	}
	cli_result_free(&r);
	return n;
}

Test(cli, ls_where_filters_with_the_query_language, .init = setup, .fini = teardown)
{
	seed(30);
	struct cli_result r;
	RUN(&r, &home, &sb, "ls", "--all", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cli_result_free(&r);
	cr_assert(a && json_object_array_length(a) == 30);
	snprintf(first_state, sizeof first_state, "%s", sbx_str(json_object_array_get_idx(a, 0), "state"));
	size_t done = count_where(a, in_first_state);
	char by_state[80], not_state[80];
	snprintf(by_state, sizeof by_state, "state:%s", first_state);
	snprintf(not_state, sizeof not_state, "-state:%s", first_state);
	const char *lang = sbx_str(json_object_array_get_idx(a, 0), "language");
	char by_code[64];
	snprintf(by_code, sizeof by_code, "lang:%s", lang);
	json_object_put(a);

	cr_expect_eq(ls_where_count(by_state, "--json"), done);
	cr_expect_eq(ls_where_count(not_state, "--json"), 30 - done);
	cr_expect_eq(ls_where_count(by_state, "--all"), done, "table rows after the header");
	cr_expect_geq(ls_where_count(by_code, "--json"), 1);
	cr_expect_eq(ls_where_count("no-such-word-anywhere", "--json"), 0);
	RUN(&r, &home, &sb, "ls", "--where", "colour:red");
	cr_expect_eq(r.code, 2, "a bad query is a usage error");
	cr_expect(strstr(r.err, "unknown field 'colour'"), "%s", r.err);
	cli_result_free(&r);
}

Test(cli, ls_filters_and_org_settings, .init = setup, .fini = teardown)
{
	seed(30);
	struct cli_result r;
	RUN(&r, &home, &sb, "ls", "--page", "1", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_expect(a && json_object_array_length(a) == 10, "second page of 30 at 20/page");
	json_object_put(a);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "ls", "--tags", "no-such-tag", "--json");
	cr_expect_eq(r.code, 0);
	cr_expect(strstr(r.out, "[]"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "ls", "--org", "999999");
	cr_expect_eq(r.code, 1, "another org's list is refused by the server");
	cli_result_free(&r);
	RUN(&r, &home, &sb, "glossaries", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	a = json_tokener_parse(r.out);
	/* a list is an array of items, as ls --json (issue 15: shapes consistent) */
	cr_expect(a && json_object_is_type(a, json_type_array), "%s", r.out);
	json_object_put(a);
	cli_result_free(&r);
	RUN(&r, &home, &sb, "style-guides");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "ID ", 3) == 0, "%s", r.out);
	cli_result_free(&r);
}

/* No organization given and the key sees several (the admin key, once a second organization
 * exists): a usage error that names steno orgs. (A key that sees one uses it:
 * test_cli_realshapes.c.) */
Test(cli, no_organization_is_a_usage_error, .init = setup, .fini = teardown)
{
	char url[300], key[200];
	struct sbx_resp made;
	cr_assert_eq(sbx_request(&sb, "POST", "/_sandbox/organizations", sb.admin_key, "{}", NULL, &made), 0);
	cr_assert_eq(made.status, 201, "%s", made.body);
	sbx_resp_free(&made);
	snprintf(url, sizeof(url), "STENO_BASE_URL=%s", sb.base_url);
	snprintf(key, sizeof(key), "STENO_API_KEY=%s", sb.admin_key);
	const char *const env[] = {url, key, NULL};
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){"ls", NULL}), 0);
	cr_expect_eq(r.code, 2, "%s", r.err);
	cr_expect(strstr(r.err, "organization") && strstr(r.err, "steno orgs"), "%s", r.err);
	cli_result_free(&r);
	char org[64];
	snprintf(org, sizeof(org), "%s", sb.org_id);
	cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){"--org", org, "ls", NULL}), 0);
	cr_expect_eq(r.code, 0, "--org given: %s", r.err);
	cli_result_free(&r);
}

/* A key file readable by others is refused with the chmod hint; 0600 works. */
Test(cli, key_file_permissions, .init = setup, .fini = teardown)
{
	char keyfile[700], cfg[1600];
	cli_home_path(&home, "key", keyfile, sizeof(keyfile));
	FILE *f = fopen(keyfile, "w");
	cr_assert(f);
	fprintf(f, "%s\n", sb.api_key);
	fclose(f);
	chmod(keyfile, 0644);
	snprintf(cfg, sizeof(cfg), "[profile default]\nbase_url = %s\napi_key_file = %s\n"
		 "organization = %s\n", sb.base_url, keyfile, sb.org_id);
	cr_assert_eq(cli_home_config(&home, cfg), 0);
	struct cli_result r;
	RUN(&r, &home, NULL, "ls");
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect(strstr(r.err, "chmod"), "the hint: %s", r.err);
	cr_expect(!strstr(r.err, sb.api_key) && !strstr(r.out, sb.api_key));
	cli_result_free(&r);
	chmod(keyfile, 0600);
	RUN(&r, &home, NULL, "ls");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
}

/* No stdout, stderr, trace or --json of any command ever holds the key. */
Test(cli, key_never_shown, .init = setup, .fini = teardown)
{
	seed(3);
	char trace[700];
	cli_home_path(&home, "trace.log", trace, sizeof(trace));
	const char *const cmds[][8] = {
		{"ls", "--json", NULL},
		{"ls", "--all", NULL},
		{"show", "nope", NULL},
		{"glossaries", "--json", NULL},
		{"style-guides", NULL},
		{"config", "paths", "--json", NULL},
		{"transcribe", "http://127.0.0.1:1/a.wav", "--language", "xx-XX", NULL},
		{"transcribe", "http://127.0.0.1:1/a.wav", "--language", "en-US", "--json", NULL},
		{"export", "nope", "--format", "txt", NULL},
		{"order", "show", "nope", NULL},
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const char *argv[12] = {"--trace", trace};
		for (size_t k = 0; cmds[i][k]; k++)
			argv[2 + k] = cmds[i][k];
		struct cli_result r;
		cr_assert_eq(cli_exec(&r, &home, &sb, NULL, argv), 0);
		cr_expect(!strstr(r.out, sb.api_key), "stdout of %s", cmds[i][0]);
		cr_expect(!strstr(r.err, sb.api_key), "stderr of %s", cmds[i][0]);
		cli_result_free(&r);
	}
	char *t = cli_read_file(trace);
	cr_assert(t && strstr(t, "GET "), "the trace was written");
	cr_expect(!strstr(t, sb.api_key));
	free(t);
}

/* --sandbox starts a sandbox, uses it, and leaves no process or directory behind. */
Test(cli_local, sandbox_option, .init = setup_home_only, .fini = teardown_home_only)
{
	char marker[128];
	snprintf(marker, sizeof(marker), "STENO_TEST_MARKER=%d-%ld", (int)getpid(), (long)time(NULL));
	const char *const env[] = {marker, NULL};
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){"--sandbox", "ls", "--json", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_expect(a && json_object_array_length(a) > 0, "demo data listed");
	json_object_put(a);
	cli_result_free(&r);
	/* No process carries the marker any more. */
	DIR *d = opendir("/proc");
	cr_assert(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char p[300];
		snprintf(p, sizeof(p), "/proc/%s/environ", e->d_name);
		FILE *f = fopen(p, "rb");
		if (!f)
			continue;
		char buf[65536];
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (size_t i = 0; i < n; i += strlen(buf + i) + 1) {
			buf[n] = '\0';
			cr_expect(strcmp(buf + i, marker) != 0, "process %s left behind", e->d_name);
		}
	}
	closedir(d);
	/* Its temp data dir (under our TMPDIR) is gone. */
	char tmp[700];
	cli_home_path(&home, "tmp", tmp, sizeof(tmp));
	DIR *t = opendir(tmp);
	cr_assert(t);
	int entries = 0;
	while ((e = readdir(t)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			entries++;
	closedir(t);
	cr_expect_eq(entries, 0, "temp dir left in %s", tmp);
}

/* A profile's folder.NAME works as --folder; an unknown folder is the server's 404. */
Test(cli, folder_names_from_the_profile, .init = setup, .fini = teardown)
{
	seed(3);
	char cfg[1200];
	snprintf(cfg, sizeof(cfg), "[profile default]\nbase_url = %s\napi_key = %s\n"
		 "org.demo = %s\norganization = demo\nfolder.ws = demo:1\n", sb.base_url, sb.api_key,
		 sb.org_id);
	cr_assert_eq(cli_home_config(&home, cfg), 0);
	struct cli_result r;
	RUN(&r, &home, NULL, "ls", "--folder", "ws", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	RUN(&r, &home, NULL, "--org", "demo", "ls", "--folder", "424242");
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect(strstr(r.err, "404"), "%s", r.err);
	cli_result_free(&r);
}

/* Without a steno-sandbox next to it (nor installed), --sandbox says so and exits 1. */
Test(cli_local, sandbox_missing, .init = setup_home_only, .fini = teardown_home_only)
{
	char copy[700], cmd[1600];
	cli_home_path(&home, "steno", copy, sizeof(copy));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", getenv("STENO_BIN"), copy);
	cr_assert_eq(system(cmd), 0);
	char *saved = strdup(getenv("STENO_BIN"));
	setenv("STENO_BIN", copy, 1);
	struct cli_result r;
	RUN(&r, &home, NULL, "--sandbox", "ls");
	setenv("STENO_BIN", saved, 1);
	free(saved);
	if (r.code != 0) {
		cr_expect_eq(r.code, 1);
		cr_expect(strstr(r.err, "steno-sandbox"), "%s", r.err);
	}
	cli_result_free(&r);
}

/* --sandbox names its demo organization as a profile would: `--org "sandbox demo"` reaches it
 * (the TUI's organizations pane shows the same name). */
Test(cli_local, sandbox_demo_organization_has_a_name, .init = setup_home_only,
     .fini = teardown_home_only)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, NULL, NULL, (const char *const[]){"--sandbox", "--org",
		     "sandbox demo", "ls", "--json", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_expect(a && json_object_array_length(a) > 0, "demo data listed: %s", r.out);
	json_object_put(a);
	cli_result_free(&r);
}
