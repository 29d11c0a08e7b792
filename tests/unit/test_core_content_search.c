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
		cr_expect_str_eq((const char *)sqlite3_column_text(st, 1),
				 (const char *)sqlite3_column_text(st, 0), "%s, %d tokens: %s against %s", q, n, sqlite3_column_text(st, 1), sqlite3_column_text(st, 0));
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
