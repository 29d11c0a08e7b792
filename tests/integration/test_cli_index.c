/* steno index on the earlier API form (no downloadUrl): the transcripts come through JSON
 * exports, counted by the sandbox; under --read-only no export is created and they wait.
 * And an interrupted index goes on where it stopped (what waits is read from the store). */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <sqlite3.h>
#include <string.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

static void setup_legacy(void)
{
	static const char *const extra[] = { "--api-form", "legacy", "--seed-demo", "8",
		"--clock-speed", "1000", NULL };
	cr_assert_eq(sbx_start(&sb, extra), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

/* "N transcriptions held, M waiting" of the last line: held and waiting. */
static void counts(const char *out, long *held, long *waiting)
{
	const char *l = strstr(out, "transcriptions held");
	cr_assert(l, "%s", out);
	while (l > out && l[-1] != '\n')
		l--;
	cr_assert_eq(sscanf(l, "%ld transcriptions held, %ld waiting", held, waiting), 2, "%s", l);
}

Test(cli_index, earlier_form_reads_through_exports_never_under_read_only, .init = setup_legacy,
     .fini = teardown)
{
	struct cli_result r;
	long held, waiting, exports = cli_count_rows(&sb, "exports");   /* the demo's own */
	cr_assert_geq(exports, 0);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL,
			      (const char *const[]){"--read-only", "index", NULL}), 0);
	counts(r.out, &held, &waiting);
	cr_expect_eq(r.code, 1, "transcripts wait: %s", r.out);
	cr_expect_eq(held, 0);
	cr_expect_gt(waiting, 0);
	cr_expect(strstr(r.err, "read-only"), "says why: %s", r.err);
	cli_result_free(&r);
	cr_expect_eq(cli_count_rows(&sb, "exports"), exports, "--read-only created an export");
	/* a second read-only index stops at the first transcription again: one retrieve */
	long before = sbx_reads(&sb, "/api/v1/transcriptions/:id", "received");
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL,
			      (const char *const[]){"--read-only", "index", NULL}), 0);
	cli_result_free(&r);
	cr_expect_eq(sbx_reads(&sb, "/api/v1/transcriptions/:id", "received"), before + 1);

	/* without --read-only: one JSON export per transcription, then they are held */
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"index", NULL}), 0);
	counts(r.out, &held, &waiting);
	cli_result_free(&r);
	cr_expect_eq(waiting, 0, "still waiting: %ld", waiting);
	cr_expect_gt(held, 0);
	cr_expect_eq(cli_count_rows(&sb, "exports"), exports + held, "one JSON export each");

	/* --json: one document (the clock runs fast: more may have finished meanwhile) */
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"index", "--json", NULL}),
		     0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "not JSON: %s", r.out);
	cr_expect_geq(json_object_get_int64(sbx_get(o, "held")), held);
	cr_expect_eq(json_object_get_int64(sbx_get(o, "waiting")), 0);
	cr_expect_eq(json_object_get_int64(sbx_get(o, "failed")), 0);
	json_object_put(o);
	cli_result_free(&r);
}

/* Transcriptions renamed on the server (their updatedAt kept): the next index lists them and
 * `search --names` finds the new names, read from the store's list, while no transcript is
 * read again (the sandbox counts the exports). */
Test(cli_index, renamed_found_by_new_name_without_reading_again, .init = setup_legacy,
     .fini = teardown)
{
	struct cli_result r;
	long held, waiting, held2;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"index", NULL}), 0);
	counts(r.out, &held, &waiting);
	cli_result_free(&r);
	cr_assert_gt(held, 0);
	long exports = cli_count_rows(&sb, "exports");

	/* every transcription of the organization listed (that of ls's first row) */
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"ls", "--json", NULL}),
		     0);
	json_object *ls = json_tokener_parse(r.out);
	cr_assert(ls, "not JSON: %s", r.out);
	json_object *rows = json_object_is_type(ls, json_type_array) ? ls : sbx_get(ls, "items");
	cr_assert(rows && json_object_array_length(rows) > 0, "%s", r.out);
	char path[700], sql[400];
	snprintf(sql, sizeof sql, "UPDATE transcriptions SET name = name || ' Xylograph'"
		 " WHERE deleted = 0 AND org_id = (SELECT org_id FROM transcriptions WHERE id = '%s')",
		 sbx_str(json_object_array_get_idx(rows, 0), "id"));
	json_object_put(ls);
	cli_result_free(&r);
	sqlite3 *db;
	snprintf(path, sizeof path, "%s/sandbox.db", sb.dir);
	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 10000);
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	long renamed = sqlite3_changes(db);
	sqlite3_close(db);
	cr_assert_gt(renamed, 0);

	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"index", NULL}), 0);
	counts(r.out, &held2, &waiting);
	cli_result_free(&r);
	cr_expect_eq(cli_count_rows(&sb, "exports") - exports, held2 - held,
		     "only transcriptions finished meanwhile are read");
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"search", "xylograph",
			      "--names", "--json", NULL}), 0);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "not JSON: %s / %s", r.out, r.err);
	json_object *hits = sbx_get(o, "hits");
	cr_expect_eq((long)json_object_array_length(hits), renamed, "%s", r.out);
	for (size_t i = 0; i < json_object_array_length(hits); i++)
		cr_expect(strstr(sbx_str(json_object_array_get_idx(hits, i), "name"), "Xylograph"),
			  "%s", r.out);
	json_object_put(o);
	cli_result_free(&r);

	/* `cache clear` forgets the transcriptions, and their transcripts and names with them */
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"cache", "clear", NULL}),
		     0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"search", "xylograph",
			      "--names", "--json", NULL}), 0);
	o = json_tokener_parse(r.out);
	cr_assert(o, "not JSON: %s / %s", r.out, r.err);
	cr_expect_eq(json_object_array_length(sbx_get(o, "hits")), 0, "%s", r.out);
	json_object_put(o);
	cli_result_free(&r);
}
