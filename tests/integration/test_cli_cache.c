/* The local store from the command line: --offline sends nothing (counted by the sandbox)
 * and answers ls, show and orgs from the store; ls --cached; cache info / clear with --json;
 * a corrupt store set aside with a message; several steno processes writing it at once. */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/localdb.h"
#include "core/store.h"
#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;
static char first_id[64], first_name[256];

static void setup(void)
{
	const char *const extra[] = {"--seed-demo", "8", "--page-size", "5", NULL};
	cr_assert_eq(sbx_start(&sb, extra), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

TestSuite(cli_cache, .init = setup, .fini = teardown, .timeout = 120);

static void store_path(char *out, size_t n)
{
	char cache[1024];
	cli_home_path(&home, "cache/steno", cache, sizeof cache);
	cr_assert_eq(localdb_file_path(cache, sb.base_url, out, n), 0);
}

/* The store of this home's cache for the sandbox, as the browser opens it (store_free closes
 * it). */
static struct steno_store *open_store(void)
{
	char cache[1024];
	cli_home_path(&home, "cache/steno", cache, sizeof cache);
	struct localdb_options o = {.cache_dir = cache, .base_url = sb.base_url};
	struct localdb *db = NULL;
	struct steno_error err;
	cr_assert_eq(localdb_open(&o, &db, NULL, &err), 0, "%s", err.message);
	struct steno_store *st = store_new();
	cr_assert_eq(store_attach_db(st, db, NULL, NULL, &err), 0);
	return st;
}

/* The organization's list as the browser leaves it in the store: page 1 of the server. */
static void fill_store(void)
{
	struct steno_store *st = open_store();
	struct steno_error err;
	char target[128];
	snprintf(target, sizeof target, "transcriptions?organization_id=%s", sb.org_id);
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "GET", target, sb.api_key, NULL, NULL, &r), 0);
	struct steno_transcription_page p;
	cr_assert_eq(steno_transcription_page_parse(r.body, r.len, &p, &err), 0);
	sbx_resp_free(&r);
	snprintf(first_id, sizeof first_id, "%s", p.items[0].id);
	snprintf(first_name, sizeof first_name, "%s", p.items[0].name);
	struct store_view *v = store_view_get(st, sb.org_id, NULL, NULL, true);
	cr_assert_geq(store_view_add_page(st, v, &p, true, 0, &err), 0);
	/* and the organizations, as the browser keeps the answer of GET /organizations */
	cr_assert_eq(sbx_request(&sb, "GET", "organizations", sb.api_key, NULL, NULL, &r), 0);
	cr_assert_eq(store_answer_put(st, "organizations", r.body), 0);
	sbx_resp_free(&r);
	cr_assert_null(store_db_error(st));
	store_free(st);
}

static long received(void)
{
	return sbx_received_total(&sb);
}

static struct cli_result run(const char *const *argv)
{
	struct cli_result r;
	cli_exec(&r, &home, &sb, NULL, argv);
	return r;
}

Test(cli_cache, offline_answers_from_the_store_and_sends_nothing)
{
	fill_store();
	struct cli_result r = run((const char *const[]){"orgs", NULL});   /* keeps the list */
	cr_assert_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	long before = received(), count = cli_count_transcriptions(&sb);

	r = run((const char *const[]){"--offline", "ls", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert(strstr(r.out, first_name), "%s", r.out);
	cli_result_free(&r);
	r = run((const char *const[]){"--offline", "show", first_id, NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert(strstr(r.out, first_name), "%s", r.out);
	cli_result_free(&r);
	r = run((const char *const[]){"--offline", "orgs", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert(strstr(r.out, sb.org_id), "%s", r.out);
	cli_result_free(&r);
	/* what would send is refused with the reason */
	r = run((const char *const[]){"--offline", "rm", first_id, NULL});
	cr_assert_eq(r.code, 2);
	cr_assert(strstr(r.err, "refused offline"), "%s", r.err);
	cli_result_free(&r);
	r = run((const char *const[]){"--offline", "export", "--format", "txt", first_id, NULL});
	cr_assert_neq(r.code, 0);
	cli_result_free(&r);
	cr_assert_eq(cli_home_config(&home, "offline = true\n"), 0);
	r = run((const char *const[]){"show", "--export", "nope", NULL});
	cr_assert_eq(r.code, 1, "%s", r.err);
	cli_result_free(&r);

	cr_assert_eq(received(), before, "offline: the sandbox received nothing");
	cr_assert_eq(cli_count_transcriptions(&sb), count, "nothing deleted");
}

Test(cli_cache, ls_cached_and_cache_info_clear_json)
{
	struct cli_result r = run((const char *const[]){"ls", "--cached", "--json", NULL});
	cr_assert_eq(r.code, 1, "nothing cached yet");
	json_object *o = json_tokener_parse(r.out);
	cr_assert_not_null(o, "one JSON document: %s", r.out);
	json_object_put(o);
	cli_result_free(&r);

	fill_store();
	long before = received();
	r = run((const char *const[]){"ls", "--cached", "--json", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	o = json_tokener_parse(r.out);
	cr_assert(json_object_is_type(o, json_type_array), "%s", r.out);
	cr_assert_eq(json_object_array_length(o), 5);
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(o, 0), "id"), first_id);
	json_object_put(o);
	cli_result_free(&r);
	cr_assert_eq(received(), before, "--cached sends nothing");

	r = run((const char *const[]){"cache", "info", "--json", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	o = json_tokener_parse(r.out);
	cr_assert_not_null(o, "%s", r.out);
	cr_assert_eq(json_object_get_int64(sbx_get(o, "items")), 5);
	json_object *orgs = sbx_get(o, "organizations");
	cr_assert_eq(json_object_array_length(orgs), 1);
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(orgs, 0), "organization_id"), sb.org_id);
	char path[1024];
	store_path(path, sizeof path);
	cr_assert_str_eq(sbx_str(o, "path"), path);
	json_object_put(o);
	cli_result_free(&r);

	r = run((const char *const[]){"cache", "clear", "--org", sb.org_id, "--json", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	o = json_tokener_parse(r.out);
	cr_assert_eq(json_object_get_int64(sbx_get(o, "transcriptions")), 5, "%s", r.out);
	json_object_put(o);
	cli_result_free(&r);
	r = run((const char *const[]){"cache", "info", "--json", NULL});
	o = json_tokener_parse(r.out);
	cr_assert_eq(json_object_get_int64(sbx_get(o, "items")), 0, "%s", r.out);
	json_object_put(o);
	cli_result_free(&r);
}

Test(cli_cache, corrupt_store_set_aside_with_a_message)
{
	fill_store();
	char path[1024];
	store_path(path, sizeof path);
	int fd = open(path, O_WRONLY | O_TRUNC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "not a database, not at all", 26), 26);
	close(fd);
	unlink(strcat(strcpy((char[1100]){0}, path), "-wal"));
	struct cli_result r = run((const char *const[]){"ls", "--cached", NULL});
	cr_assert_eq(r.code, 1, "nothing cached any more: %s", r.err);
	cr_assert(strstr(r.err, "set aside as"), "%s", r.err);
	cli_result_free(&r);
	r = run((const char *const[]){"cache", "info", NULL});
	cr_assert_eq(r.code, 0, "a new store: %s", r.err);
	cr_assert_null(strstr(r.err, "set aside"), "once: %s", r.err);
	cli_result_free(&r);
}

/* Several steno processes write the store at once (each keeps the organizations it read):
 * every one succeeds, no file is set aside, the store answers after. */
Test(cli_cache, processes_write_the_store_at_once)
{
	pid_t pids[4];
	for (int i = 0; i < 4; i++) {
		char out[1100], err[1100];
		snprintf(out, sizeof out, "%s/out%d", home.dir, i);
		snprintf(err, sizeof err, "%s/err%d", home.dir, i);
		pids[i] = cli_spawn(&home, &sb, NULL, (const char *const[]){"orgs", NULL}, out, err);
		cr_assert_gt(pids[i], 0);
	}
	fill_store();   /* and this process too, meanwhile */
	for (int i = 0; i < 4; i++) {
		int status;
		cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "steno orgs %d failed", i);
	}
	struct cli_result r = run((const char *const[]){"--offline", "orgs", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert_null(strstr(r.err, "set aside"), "%s", r.err);
	cli_result_free(&r);
	r = run((const char *const[]){"--offline", "ls", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
}

/* steno run with the sandbox's key and server but no organization configured. */
static struct cli_result run_no_org(const char *const *argv)
{
	char url[600], key[600];
	snprintf(url, sizeof url, "STENO_BASE_URL=%s", sb.base_url);
	snprintf(key, sizeof key, "STENO_API_KEY=%s", sb.api_key);
	struct cli_result r;
	cli_exec(&r, &home, NULL, (const char *const[]){url, key, NULL}, argv);
	return r;
}

/* No organization configured: ls --cached and --offline take the one the store keeps for this
 * server and send nothing (no GET /organizations); the other reads fail offline (exit 1). */
Test(cli_cache, no_org_configured_takes_the_stored_organization)
{
	fill_store();
	long before = received();
	struct cli_result r = run_no_org((const char *const[]){"ls", "--cached", "-q", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert(strstr(r.out, first_id), "%s", r.out);
	cli_result_free(&r);
	r = run_no_org((const char *const[]){"--offline", "ls", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert(strstr(r.out, first_name), "%s", r.out);
	cli_result_free(&r);
	r = run_no_org((const char *const[]){"--offline", "glossaries", NULL});
	cr_assert_eq(r.code, 1, "%s", r.err);
	cr_assert(strstr(r.err, "offline: nothing is sent"), "%s", r.err);
	cr_assert_null(strstr(r.err, "no organization"), "%s", r.err);
	cli_result_free(&r);
	cr_assert_eq(received(), before, "the sandbox received nothing");
}

/* Several organizations kept and none configured: ls --cached says so and asks for --org. */
Test(cli_cache, several_stored_organizations_ask_for_org)
{
	fill_store();
	struct steno_store *st = open_store();
	char *body = store_answer_get(st, "organizations", NULL);
	json_object *o = json_tokener_parse(body), *res = sbx_get(o, "organizations");
	cr_assert(res && json_object_array_length(res) == 1, "%s", body);
	json_object *two = NULL;
	cr_assert_eq(json_object_deep_copy(json_object_array_get_idx(res, 0), &two, NULL), 0);
	json_object_object_add(two, "id", json_object_new_int64(987654321));
	json_object_array_add(res, two);
	cr_assert_eq(store_answer_put(st, "organizations", json_object_to_json_string(o)), 0);
	json_object_put(o);
	free(body);
	store_free(st);
	long before = received();
	struct cli_result r = run_no_org((const char *const[]){"ls", "--cached", NULL});
	cr_assert_eq(r.code, 2, "%s", r.err);
	cr_assert(strstr(r.err, "keeps 2 organizations") && strstr(r.err, "--org"), "%s", r.err);
	cli_result_free(&r);
	cr_assert_eq(received(), before, "the sandbox received nothing");
}

/* The refusal names where offline came from: the flag, or the config file that says so. */
Test(cli_cache, offline_refusal_names_its_source)
{
	struct cli_result r = run((const char *const[]){"--offline", "rm", "x", NULL});
	cr_assert_eq(r.code, 2, "%s", r.err);
	cr_assert(strstr(r.err, "(--offline)"), "%s", r.err);
	cr_assert_null(strstr(r.err, "config"), "no config file was involved: %s", r.err);
	cli_result_free(&r);
	cr_assert_eq(cli_home_config(&home, "offline = true\n"), 0);
	r = run((const char *const[]){"rm", "x", NULL});
	cr_assert_eq(r.code, 2, "%s", r.err);
	cr_assert(strstr(r.err, "offline in ") && strstr(r.err, "/config"), "%s", r.err);
	cli_result_free(&r);
}

/* A live steno ls writes what it reads into the store: ls --cached answers after it, from the
 * rows the server listed, with no request. */
Test(cli_cache, live_ls_fills_the_store)
{
	struct cli_result r = run((const char *const[]){"ls", "-q", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	char *live = strdup(r.out);
	cli_result_free(&r);
	long before = received();
	r = run((const char *const[]){"ls", "--cached", "-q", NULL});
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_assert_str_eq(r.out, live);
	cr_assert(strstr(r.err, "5 cached"), "%s", r.err);
	cli_result_free(&r);
	free(live);
	cr_assert_eq(received(), before, "--cached sends nothing");
}
