/* core/content_db's search: the snippets it makes (steno_snippet, content_snippet.c) are
 * FTS5's snippet(), and its statements stay prepared between searches. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content_fixture.h"
#include "core/content_internal.h"

static void seed_long(void)
{
	static const char *const a[] = {
		"S1|The budget was late again. We met at the office: the budget review took all "
		"morning and the budget team left early, so the budget stays open for now. Nobody "
		"asked about the river.",
		"S2|Seven ships and seven more ships sailed past the harbour while the new team "
		"watched the budget and the river and the ships. The end of the budget.",
		"S3|Budget budget budget. River garden budget ships seven team review morning office "
		"budget late early open now asked nobody about harbour watched end.",
	};
	static const char *const b[] = {
		"S1|A short one about the budget.",
		"S2|Long before the budget meeting the team talked about ships, rivers, gardens, "
		"offices and mornings; then the budget: seven ships of budget.",
	};
	put("t1", "One", "1", 0, a, 3);
	put("t2", "Two", "1", 0, b, 2);
}

/* Every passage that matches q: FTS5's snippet() and steno_snippet() of n tokens. */
static void same_as_fts5(const char *q, int n)
{
	struct content_hit *h = NULL;
	size_t nh = search("budget", false, &h);   /* defines steno_snippet */
	content_hits_free(h, nh);
	char *fts = content_fts_query(q);
	sqlite3_stmt *st;
	cr_assert_eq(sqlite3_prepare_v2(db, "SELECT snippet(content_fts, 0, '[', ']', '…', ?2),"
					" steno_snippet(content_fts, s.text, '[', ']', '…', ?2)"
					" FROM content_fts JOIN content_segs s ON s.seg = content_fts.rowid"
					" WHERE content_fts MATCH ?1", -1, &st, NULL), SQLITE_OK,
		     "%s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, fts, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, n);
	int rows = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *ours = (const char *)sqlite3_column_text(st, 1);
		const char *fts5 = (const char *)sqlite3_column_text(st, 0);
		cr_expect_str_eq(ours, fts5, "%s, %d tokens: %s against %s", q, n, ours, fts5);
		rows++;
	}
	cr_expect_gt(rows, 0, "%s", q);
	sqlite3_finalize(st);
	free(fts);
}

Test(content_search, snippets_are_fts5_snippets, .init = setup, .fini = teardown)
{
	seed_long();
	static const char *const q[] = { "budget", "ships", "\"seven ships\"", "budget ships",
		"budget OR river", "bud*", "\"the budget\" team", "budget NOT river", "nobody",
		"end" };
	static const int n[] = { 12, 5, 3, 2, 40 };
	for (size_t i = 0; i < sizeof q / sizeof *q; i++)
		for (size_t k = 0; k < sizeof n / sizeof *n; k++)
			same_as_fts5(q[i], n[k]);
}

/* Statements of the search kept on the handle: how many (their SQL calls steno_snippet or
 * steno_bm25). */
static int kept_statements(void)
{
	int k = 0;
	for (sqlite3_stmt *st = sqlite3_next_stmt(db, NULL); st; st = sqlite3_next_stmt(db, st)) {
		const char *sql = sqlite3_sql(st);
		k += sql && (strstr(sql, "steno_snippet(") || strstr(sql, "steno_bm25("));
	}
	return k;
}

Test(content_search, statements_stay_prepared_between_searches, .init = setup, .fini = teardown)
{
	seed_long();
	struct content_hit *h1, *h2;
	size_t n1 = search("budget", false, &h1);
	int kept = kept_statements();
	cr_assert_geq(kept, 2, "the ranking and the passages stay prepared");
	size_t n2 = search("budget", false, &h2);
	cr_expect_eq(kept_statements(), kept, "the second search prepared none of its own");
	cr_assert_eq(n1, n2);
	for (size_t i = 0; i < n1; i++) {
		cr_expect_str_eq(h1[i].id, h2[i].id);
		cr_expect_str_eq(h1[i].snippet, h2[i].snippet);
		cr_expect_eq(h1[i].item_hits, h2[i].item_hits);
	}
	content_hits_free(h1, n1);
	content_hits_free(h2, n2);
	content_db_forget(db);
	cr_expect_eq(kept_statements(), 0);
	/* and searching again after it works */
	n2 = search("ships", false, &h2);
	cr_expect_gt(n2, 0);
	content_hits_free(h2, n2);
}

/* ---- a query of phrases joined by OR or by AND: its passages read from the whole text's
 * index ---- */

/* Passages that cut a phrase: "the | budget" across two blocks (and two passages), a
 * passage of punctuation only, folded diacritics, a phrase at a passage's end. */
static void seed_cuts(void)
{
	static const char *const a[] = {
		"S1|We spoke of the budget twice: the budget is late. And then the",
		"S2|budget came back, as Zoë said of the budget and of ships.",
		"S1|— … —",
		"S2|Zoe and ZOË met the budget team; seven ships sailed. The end of the budget",
		"S1|budget budget. The budget.",
	};
	static const char *const b[] = {
		"S1|Only the",
		"S2|budget here, never said whole.",
	};
	static const char *const c[] = {
		"S3|Rivers and ships and a garden, the review of the budget, gardening at dawn.",
	};
	seed_long();
	put("c1", "Cuts", "1", 0, a, 5);
	put("c2", "Cut once", "1", 0, b, 2);
	put("c3", "Gardens", "1", 0, c, 1);
}

/* Runs of the statement that reads a transcription's passages from the passages' index. */
static long passage_runs(void)
{
	return statement_runs("content_fts.rowid BETWEEN ?6 AND ?7");
}

static const char *const any_queries[] = {
	"budget", "\"the budget\"", "budget OR ships", "zoe", "ZOË", "bud*", "\"budget budget\"",
	"\"of the budget\" OR river", "(ships OR garden) OR \"seven ships\"", "end", "dawn",
	"\"budget came\"", "\"the budget the\"" /* in no passage */,
	/* phrases joined by AND: a passage that holds every one */
	"budget ships", "budget AND river", "\"the budget\" team", "zoe ships", "budget budget",
	"the budget seven", "river garden", "ships dawn", "nobody harbour", "\"the budget\" end",
};

Test(content_search, phrases_joined_by_or_or_and_find_the_passages_the_passages_index_finds,
     .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed_cuts();
	for (size_t i = 0; i < sizeof any_queries / sizeof *any_queries; i++) {
		struct content_hit *fast, *slow;
		long runs = passage_runs();
		size_t nf = search(any_queries[i], false, &fast);
		cr_expect(nf > 0 || !strcmp(any_queries[i], "\"the budget the\""), "%s: no hit",
			  any_queries[i]);
		cr_expect_eq(passage_runs(), runs, "%s: the passages' index was asked",
			     any_queries[i]);
		/* without where the passages start, each transcription's passages are asked of
		 * the passages' index, as before */
		cr_assert_eq(content_exec(db, "SAVEPOINT slow; UPDATE content_items"
					  " SET seg_starts = NULL", &err), 0, "%s", err.message);
		size_t ns = search(any_queries[i], false, &slow);
		cr_assert_eq(content_exec(db, "ROLLBACK TO slow; RELEASE slow", &err), 0, "%s",
			     err.message);
		same_hits(any_queries[i], fast, nf, slow, ns);
		content_hits_free(fast, nf);
		content_hits_free(slow, ns);
	}
}

Test(content_search, a_phrase_cut_by_two_passages_is_not_a_hit, .init = setup, .fini = teardown)
{
	seed_cuts();
	struct content_hit *h;
	size_t n = search("\"the budget\"", false, &h);
	bool c1 = false;
	for (size_t i = 0; i < n; i++) {
		cr_expect_str_neq(h[i].id, "c2", "c2 says \"the budget\" only across two passages");
		if (!strcmp(h[i].id, "c1")) {
			c1 = true;
			cr_expect_eq(h[i].item_hits, 4, "%s", h[i].snippet);
		}
	}
	cr_expect(c1);
	content_hits_free(h, n);
}

/* A store of schema 5 (no seg_starts) gets where its passages start at its next opening. */
Test(content_search, a_store_of_schema_5_learns_where_its_passages_start, .init = setup,
     .fini = teardown)
{
	struct steno_error err;
	seed_cuts();
	struct content_hit *before, *after;
	size_t nb = search("budget OR ships", false, &before);
	cr_assert_eq(content_exec(db, "ALTER TABLE content_items DROP COLUMN seg_starts;"
				  "DELETE FROM localdb_migrations WHERE version >= 6;"
				  "PRAGMA user_version = 5", &err), 0, "%s", err.message);
	reopen();
	sqlite3_stmt *st;
	cr_assert_eq(content_prepare(db, "SELECT count(*) FROM content_items WHERE version IS NOT"
				     " NULL AND seg_starts IS NULL", &st, &err), 0, "%s",
		     err.message);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_expect_eq(sqlite3_column_int(st, 0), 0, "transcriptions without their passages' starts");
	sqlite3_finalize(st);
	long runs = passage_runs();
	size_t na = search("budget OR ships", false, &after);
	cr_expect_eq(passage_runs(), runs);
	same_hits("budget OR ships", before, nb, after, na);
	content_hits_free(before, nb);
	content_hits_free(after, na);
}

/* The log of matches gives up past CONTENT_LOG_MAX: the search then asks the passages'
 * index (it reads the log only when it is whole). */
Test(content_search, the_log_of_matches_gives_up_past_its_bound)
{
	struct content_log log = { 0 };
	long i = 0;
	while (i <= CONTENT_LOG_MAX && content_log_inst(&log, 0, (int)i, 1) == 0)
		i++;
	cr_expect_eq(i, CONTENT_LOG_MAX, "kept %ld matches", i);
	cr_expect(log.incomplete);
	cr_expect_leq(log.cap_inst, (size_t)CONTENT_LOG_MAX);
	content_log_free(&log);
}
