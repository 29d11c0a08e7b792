/* Security, end to end through the steno binary (issue 7): the API key never appears in any
 * command's stdout/stderr (tables and --json), in a --trace file, in any file steno writes,
 * or in a request to a host other than the base URL's: a redirect to another origin, a
 * download_link and a signedUrl on another loopback port (a recording server). The TUI's
 * screens are in test_security_tui.c. */
#include "config.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "security_server.h"
#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;
static char wav[700], trace[700];
static const char *secret; /* the key the current test must never see */

static void setup(void)
{
	static const char *const fast[] = {"--clock-speed", "1000", "--seed-demo", "3", NULL};
	cr_assert_eq(sbx_start(&sb, fast), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(cli_home_config(&home, "refresh_interval = 1\nrefresh_max = 1\n"), 0);
	size_t len = 0;
	void *data = sbx_make_wav(3.0, &len);
	cli_home_path(&home, "a.wav", wav, sizeof wav);
	cli_home_path(&home, "trace.log", trace, sizeof trace);
	FILE *f = fopen(wav, "wb");
	cr_assert(f && data);
	fwrite(data, 1, len, f);
	fclose(f);
	free(data);
	secret = sb.api_key;
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

/* Runs steno --trace TRACE ARGS... and checks that its output holds no key. */
static int run(struct cli_result *r, const char *const *env, const char *const *args)
{
	const struct sbx *s = env ? NULL : &sb; /* env: the whole account comes from it */
	const char *argv[32] = {"--trace", trace};
	size_t n = 2;

	for (size_t i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	cr_assert_eq(cli_exec(r, &home, s, env, argv), 0);
	cr_expect(r->code >= 0 && r->code < 128, "steno %s crashed: %d", args[0], r->code);
	cr_expect(!strstr(r->out, secret), "the key is in the stdout of %s %s:\n%s", args[0],
		  args[1] ? args[1] : "", r->out);
	cr_expect(!strstr(r->err, secret), "the key is in the stderr of %s %s:\n%s", args[0],
		  args[1] ? args[1] : "", r->err);
	return r->code;
}

#define RUN(res, ...) run(res, NULL, (const char *const[]){__VA_ARGS__, NULL})

static char *json_member(const char *text, const char *name)
{
	json_object *o = json_tokener_parse(text);
	const char *v = sbx_str(o, name);
	char *copy = v ? strdup(v) : NULL;
	json_object_put(o);
	cr_assert_not_null(copy, "no %s in %s", name, text);
	return copy;
}

/* Every file under the home dir (config, state, cache, downloads, the trace) is free of the
 * key. */
static int scan_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	char *text = cli_read_file(path);
	size_t n = (size_t)st->st_size, k = strlen(secret);
	int found = 0;
	for (size_t i = 0; text && k && i + k <= n; i++)
		if (memcmp(text + i, secret, k) == 0)
			found = 1;
	cr_expect(!found, "the key is in %s", path);
	free(text);
	return 0;
}

Test(security_key, every_command_output_and_trace, .init = setup, .fini = teardown)
{
	struct cli_result r;

	cr_expect_eq(RUN(&r, "transcribe", wav, "--language", "en-US", "--wait", "--json"), 0, "%s", r.err);
	char *tid = json_member(r.out, "id");
	cli_result_free(&r);
	const char *const *cmds[] = {
		(const char *const[]){"ls", NULL},
		(const char *const[]){"ls", "--json", NULL},
		(const char *const[]){"ls", "--all", "--json", NULL},
		(const char *const[]){"show", tid, NULL},
		(const char *const[]){"show", "--json", tid, NULL},
		(const char *const[]){"upload", wav, NULL},
		(const char *const[]){"export", tid, "--format", "txt", "-o", "dl", "--json", NULL},
		(const char *const[]){"export", tid, "--format", "srt", "-o", "dl", NULL},
		(const char *const[]){"translate", tid, "--to", "fr", "--task", "--wait", "--json", NULL},
		(const char *const[]){"translate", tid, "--to", "de", "--confirm", "--wait", NULL},
		(const char *const[]){"order", "create", wav, "--language", "en-US", "--json", NULL},
		(const char *const[]){"glossaries", NULL},
		(const char *const[]){"glossaries", "--json", NULL},
		(const char *const[]){"style-guides", "--json", NULL},
		(const char *const[]){"config", "paths", NULL},
		(const char *const[]){"languages", NULL},
		(const char *const[]){"show", "--json", "no-such-id", NULL},
		(const char *const[]){"transcribe", "http://127.0.0.1:1/x.wav", "--language", "xx", NULL},
		(const char *const[]){"--help", NULL},
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		run(&r, NULL, cmds[i]);
		cli_result_free(&r);
	}
	/* The order and export ids the commands created, shown and watched. */
	cr_expect_eq(RUN(&r, "order", "create", wav, "--language", "en-US", "--json"), 0, "%s", r.err);
	char *oid = json_member(r.out, "id");
	cli_result_free(&r);
	cr_expect_eq(RUN(&r, "order", "show", oid), 0, "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(RUN(&r, "order", "confirm", oid, "--wait", "--json"), 0, "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(RUN(&r, "export", tid, "--format", "vtt", "--json"), 0, "%s", r.err);
	char *eid = json_member(r.out, "id");
	cli_result_free(&r);
	cr_assert_eq(sbx_advance(&sb, 60), 0);
	cr_expect_eq(RUN(&r, "show", "--export", eid, "--json"), 0, "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(RUN(&r, "download", eid, "-o", "dl3", "--json"), 0, "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(RUN(&r, "rm", tid, "--permanent"), 0, "%s", r.err);
	cli_result_free(&r);
	char *text = cli_read_file(trace);
	cr_assert(text && strstr(text, "/transcriptions"), "the trace has the requests");
	cr_expect(!strstr(text, secret), "the key is in the trace");
	free(text);
	secret = sb.api_key;
	nftw(home.dir, scan_file, 16, FTW_PHYS);
	free(tid);
	free(oid);
	free(eid);
}

/* A key the server refuses: the 401 is reported without echoing the key. */
Test(security_key, refused_key_is_not_echoed, .init = setup, .fini = teardown)
{
	char base[300], org[64];
	const char *const env[] = {"STENO_API_KEY=sk-refused-SECRET-4711", base, org, NULL};
	struct cli_result r;

	snprintf(base, sizeof base, "STENO_BASE_URL=%s", sb.base_url);
	snprintf(org, sizeof org, "STENO_ORG_ID=%s", sb.org_id);

	secret = "sk-refused-SECRET-4711";
	const char *const a1[] = {"ls", NULL}, *const a2[] = {"ls", "--json", NULL};
	cr_expect_eq(run(&r, env, a1), 1);
	cr_expect(strstr(r.err, "401") || strstr(r.err, "nauthori"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(run(&r, env, a2), 1);
	cli_result_free(&r);
	char *text = cli_read_file(trace);
	cr_assert(text && strstr(text, " 401 "), "%s", text ? text : "no trace");
	cr_expect(!strstr(text, secret));
	free(text);
}

/* A hostile API whose links all point at another origin on loopback: the key goes to the
 * base URL's origin only. */
static struct sec_server api, other;

static void hostile_setup(void)
{
	setup();
	cr_assert_eq(sec_server_start(&api), 0);
	cr_assert_eq(sec_server_start(&other), 0);
}

static void hostile_teardown(void)
{
	sec_server_stop(&api);
	sec_server_stop(&other);
	teardown();
}

/* steno ARGS against the hostile API (instead of the sandbox). */
static int run_hostile(struct cli_result *r, const char *const *args)
{
	char base[128], key[200];
	snprintf(base, sizeof base, "STENO_BASE_URL=%s/api/v1", api.origin);
	snprintf(key, sizeof key, "STENO_API_KEY=%s", sb.api_key);
	const char *const env[] = {base, key, "STENO_ORG_ID=1", NULL};
	return run(r, env, args);
}

Test(security_key, not_sent_to_other_origins, .init = hostile_setup, .fini = hostile_teardown)
{
	struct cli_result r;
	char auth[200];

	snprintf(auth, sizeof auth, "Bearer %s", sb.api_key);
	/* 1. A redirect to another origin. */
	char loc[200];
	snprintf(loc, sizeof loc, "%s/api/v1/transcriptions?organization_id=1", other.origin);
	sec_server_route(&api, "GET", "/api/v1/transcriptions", 302, loc, "{}");
	sec_server_route(&other, "GET", "/api/v1/transcriptions", 200, NULL, "{\"results\":[]}");
	run_hostile(&r, (const char *const[]){"ls", "--json", NULL});
	cli_result_free(&r);
	/* 2. A ready export whose download_link is on the other origin. */
	sec_server_route(&api, "GET", "/api/v1/exports/e1", 200, NULL,
			 "{\"id\":\"e1\",\"state\":\"ready\",\"format\":\"txt\",\"transcription_ids\":[\"t1\"],"
			 "\"download_link\":\"%s/files/e1.txt?sig=abc\"}", other.origin);
	sec_server_route(&other, "GET", "/files/e1.txt", 200, NULL, "hello\n");
	cr_expect_eq(run_hostile(&r, (const char *const[]){"download", "e1", "-o", "dl", NULL}), 0, "%s", r.err);
	cli_result_free(&r);
	/* 3. An upload whose signedUrl is on the other origin. */
	sec_server_route(&api, "GET", "/api/v1/uploads/new", 200, NULL,
			 "{\"signedUrl\":\"%s/storage/a.wav?sig=abc\"}", other.origin);
	sec_server_route(&other, "PUT", "/storage/a.wav", 200, NULL, "{}");
	cr_expect_eq(run_hostile(&r, (const char *const[]){"upload", wav, NULL}), 0, "%s", r.err);
	cli_result_free(&r);
	cr_expect(sec_server_log_has(&api, auth), "the base URL's origin got the key:\n%s", api.log);
	cr_expect(sec_server_log_has(&other, "GET /files/e1.txt") &&
		  sec_server_log_has(&other, "PUT /storage/a.wav"), "the other origin was used:\n%s", other.log);
	cr_expect(!sec_server_log_has(&other, sb.api_key), "the key reached another origin:\n%s",
		  other.log);
	cr_expect(!sec_server_log_has(&other, "Authorization"), "credentials reached another origin:\n%s",
		  other.log);
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Issue 24 item 4, through the steno binary: with http_proxy and ALL_PROXY set (a recording
 * stand-in proxy), the sandbox's loopback base URL goes straight: the proxy gets nothing. A
 * plain http:// base URL elsewhere through that proxy is warned about, once. */
Test(security_key, loopback_never_through_a_proxy, .init = hostile_setup, .fini = hostile_teardown)
{
	struct cli_result r;
	char hp[128], ap[128];
	snprintf(hp, sizeof hp, "http_proxy=%s", other.origin);
	snprintf(ap, sizeof ap, "ALL_PROXY=%s", other.origin);
	const char *const env[] = {hp, ap, NULL};
	cr_assert_eq(cli_exec(&r, &home, &sb, env, (const char *const[]){"ls", "--json", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect_eq(sec_server_requests(&other), 0, "the proxy got:\n%s", other.log);
	cr_expect_null(strstr(r.err, "warning"), "%s", r.err);
	cli_result_free(&r);

	char key[200];
	snprintf(key, sizeof key, "STENO_API_KEY=%s", sb.api_key);
	const char *const far[] = {hp, key, "STENO_BASE_URL=http://steno.invalid/api/v1",
				   "STENO_ORG_ID=1", NULL};
	cr_assert_eq(cli_exec(&r, &home, NULL, far, (const char *const[]){"ls", "--json", NULL}), 0);
	cr_expect_eq(count_of(r.err, "goes in clear through that proxy"), 1, "%s", r.err);
	cr_expect(sec_server_log_has(&other, "steno.invalid"), "the proxy was not used:\n%s", other.log);
	cli_result_free(&r);
}
