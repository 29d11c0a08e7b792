/* core/content_db: transcript content and its full-text index in a temp database:
 * folded diacritics, phrases, prefixes, NOT, ranking, snippets, replaced and removed content,
 * what waits, the reader's paragraphs, time codes. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "content_fixture.h"
#include "core/content_internal.h"
#include "core_helpers.h"

static bool has_hit(const char *q, const char *id)
{
	struct content_hit *h;
	size_t n = search(q, false, &h);
	bool found = false;
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(h[i].id, id);
	content_hits_free(h, n);
	return found;
}

static void seed(void)
{
	static const char *const a[] = {
		"Zoë|We met Zoë in the garden today.",
		"Speaker 2|The seven ships sailed at dawn. Gardening is hard work.",
	};
	static const char *const b[] = { "Anna|Seven people and the ships of the fleet." };
	put("t1", "Interview with Zoë", "1704067200000", 10, a, 2);
	put("t2", "Harbour notes", "1704153600000", 0, b, 1);
}

Test(content, folded_diacritics_find_both_ways, .init = setup, .fini = teardown)
{
	seed();
	cr_expect(has_hit("Zoe", "t1"));
	cr_expect(has_hit("zoë", "t1"));
	cr_expect(has_hit("ZOE", "t1"));
	cr_expect(!has_hit("Zoe", "t2"));
}

Test(content, phrase_prefix_and_not, .init = setup, .fini = teardown)
{
	seed();
	struct content_hit *h;
	size_t n = search("\"seven ships\"", false, &h);
	cr_assert_eq(n, 1, "phrase matched %zu", n);
	cr_expect_str_eq(h[0].id, "t1");
	cr_expect_str_eq(h[0].speaker, "Speaker 2");
	/* block 2 starts after block 1's 7 words: "The" at 17 s, the sentence "The seven ships
	 * sailed at dawn." is its first segment */
	cr_expect_float_eq(h[0].start, 17.0, 1e-6);
	cr_expect_float_eq(h[0].end, 26.8, 1e-6);   /* the segment runs to the next sentence end after 12 words: the block's end */
	cr_expect(strstr(h[0].snippet, "The [seven ships] sailed"), "%s", h[0].snippet);
	content_hits_free(h, n);
	/* both words, not the phrase: t2 too */
	cr_expect(has_hit("seven ships", "t2"));
	n = search("gard*", false, &h);
	cr_expect_eq(n, 2, "garden and Gardening: %zu", n);   /* two segments of t1 */
	content_hits_free(h, n);
	cr_expect(!has_hit("ships NOT fleet", "t2"));
	cr_expect(has_hit("ships NOT fleet", "t1"));
	cr_expect(has_hit("fleet OR garden", "t2"));
	/* a word FTS5 would refuse as syntax is searched as a word */
	cr_expect(!has_hit("don't", "t1"));
}

Test(content, ranking_puts_the_denser_match_first, .init = setup, .fini = teardown)
{
	static const char *const a[] = { "A|budget budget budget and the budget." };
	static const char *const b[] = { "B|the budget was one of many things we talked about "
					 "that long afternoon in the office." };
	put("dense", "Dense", "1", 0, a, 1);
	put("thin", "Thin", "1", 0, b, 1);
	struct content_hit *h;
	size_t n = search("budget", false, &h);
	cr_assert_eq(n, 2);
	cr_expect_str_eq(h[0].id, "dense");
	cr_expect_lt(h[0].rank, h[1].rank);
	content_hits_free(h, n);
}

Test(content, replaced_content_leaves_no_stale_hit, .init = setup, .fini = teardown)
{
	seed();
	static const char *const c[] = { "Zoë|Nothing about boats any more." };
	put("t1", "Interview with Zoë", "1709251200000", 0, c, 1);
	cr_expect(!has_hit("dawn", "t1"), "old content still found");
	cr_expect(!has_hit("garden", "t1"));
	cr_expect(has_hit("boats", "t1"));
	/* the index agrees with its content table */
	struct steno_error err;
	cr_expect_eq(content_exec(db, "INSERT INTO content_fts(content_fts, rank)"
				  " VALUES('integrity-check', 1)", &err), 0, "%s", err.message);
}

Test(content, removed_and_gone_leave_no_row_and_no_hit, .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed();
	cr_assert_eq(content_db_remove(db, "t2", &err), 0);
	cr_expect(!has_hit("fleet", "t2"));
	struct content_hit *h;
	size_t n = search("Harbour", true, &h);
	cr_expect_eq(n, 0);
	content_hits_free(h, n);
	/* a complete list without t1 */
	const char *ids[] = { "t9" };
	cr_expect_eq(content_db_keep_only(db, "o1", ids, 1, &err), 1);
	cr_expect(!has_hit("garden", "t1"));
	n = search("Zoë", true, &h);
	cr_expect_eq(n, 0, "a name gone from the list: %zu", n);
	content_hits_free(h, n);
	/* listed again: its name is found again (its transcript waits to be read) */
	const char *back[] = { "t1" };
	cr_expect_eq(content_db_keep_only(db, "o1", back, 1, &err), 0);
	n = search("Zoë", true, &h);
	cr_expect_eq(n, 1, "listed again: %zu", n);
	content_hits_free(h, n);
	cr_assert_eq(content_db_keep_only(db, "o1", ids, 1, &err), 1, "%s", err.message);
	sqlite3_stmt *st;
	cr_assert_eq(content_prepare(db, "SELECT (SELECT count(*) FROM content_items) +"
				     " (SELECT count(*) FROM content_segs)", &st, &err), 0);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_expect_eq(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	cr_expect_eq(content_exec(db, "INSERT INTO content_fts(content_fts, rank)"
				  " VALUES('integrity-check', 1)", &err), 0, "%s", err.message);
}

Test(content, names_and_tags_are_searched_with_names, .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed();
	listed("t3", "o1", "Quarterly", "failed", "café,board", -1);
	struct content_hit *h;
	size_t n = search("zoe", true, &h);
	cr_assert_eq(n, 2, "the name and the text: %zu", n);
	cr_expect_str_eq(h[0].id, "t1");
	cr_expect_lt(h[0].start, 0);           /* a name hit first, no time code */
	cr_expect(strstr(h[0].snippet, "[Zoë]"), "%s", h[0].snippet);
	cr_expect_geq(h[1].start, 0);
	content_hits_free(h, n);
	n = search("cafe", true, &h);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(h[0].id, "t3");
	cr_expect(strstr(h[0].snippet, "[café]"), "%s", h[0].snippet);
	content_hits_free(h, n);
	/* a renamed item is found by its new name only */
	listed("t3", "o1", "Yearly", "failed", "café,board", -1);
	n = search("Quarterly", true, &h);
	cr_expect_eq(n, 0);
	content_hits_free(h, n);
	n = search("yearly", true, &h);
	cr_expect_eq(n, 1);
	content_hits_free(h, n);
	cr_expect_eq(content_exec(db, "INSERT INTO content_names(content_names, rank)"
				  " VALUES('integrity-check', 1)", &err), 0, "%s", err.message);
}

/* The store's own writes of its transcriptions table (a list read, a rename read later)
 * are what the names search reads: nothing copies them (schema 5). */
Test(content, names_follow_the_stores_transcriptions, .init = setup, .fini = teardown)
{
	struct steno_error err;
	cr_assert_eq(content_exec(db, "INSERT INTO transcriptions(id, org_id, name, state, tags,"
				  " data) VALUES ('s1', 'o1', 'Budget meeting', 'automatic_done',"
				  " 'finance,q3', '{}')", &err), 0, "%s", err.message);
	struct content_hit *h;
	size_t n = search("budget", true, &h);
	cr_assert_eq(n, 1, "a listed name is found: %zu", n);
	cr_expect_str_eq(h[0].id, "s1");
	cr_expect_str_eq(h[0].state, "automatic_done");
	content_hits_free(h, n);
	cr_assert_eq(content_exec(db, "UPDATE transcriptions SET name = 'Forecast review',"
				  " tags = 'planning' WHERE id = 's1'", &err), 0, "%s", err.message);
	n = search("budget OR finance", true, &h);
	cr_expect_eq(n, 0, "the old name and tags are gone: %zu", n);
	content_hits_free(h, n);
	n = search("forecast", true, &h);
	cr_expect_eq(n, 1, "the new name: %zu", n);
	content_hits_free(h, n);
	n = search("planning", true, &h);
	cr_expect_eq(n, 1, "the new tag: %zu", n);
	content_hits_free(h, n);
	/* what may change what waits is counted; a write that changes none of it is not */
	long long news = content_db_news(db);
	cr_assert_geq(news, 1);
	cr_assert_eq(content_exec(db, "UPDATE transcriptions SET listed_ms = 5, name = name",
				  &err), 0, "%s", err.message);
	cr_expect_eq(content_db_news(db), news);
	cr_assert_eq(content_exec(db, "UPDATE transcriptions SET updated_ms = 7", &err), 0);
	cr_expect_eq(content_db_news(db), news + 1);
	cr_assert_eq(content_exec(db, "DELETE FROM transcriptions WHERE id = 's1'", &err), 0);
	n = search("forecast", true, &h);
	cr_expect_eq(n, 0, "a row the store deletes leaves the index: %zu", n);
	content_hits_free(h, n);
	cr_expect_eq(content_exec(db, "INSERT INTO content_names(content_names, rank)"
				  " VALUES('integrity-check', 1)", &err), 0, "%s", err.message);
}

Test(content, what_waits_follows_updated_at, .init = setup, .fini = teardown)
{
	struct steno_error err;
	char id[64], ver[64];
	long held, waiting;
	seed();
	listed("t4", "o1", "New", "automatic_done", NULL, 1714521600000LL);
	listed("t5", "o1", NULL, "automatic_transcribing", NULL, 1714608000000LL);
	cr_assert_eq(content_db_counts(db, "o1", &held, &waiting, &err), 0);
	cr_expect_eq(held, 2);
	cr_expect_eq(waiting, 1);
	cr_assert_eq(content_db_next_waiting(db, "o1", NULL, id, sizeof id, ver, sizeof ver, &err), 1);
	cr_expect_str_eq(id, "t4");
	cr_expect_str_eq(ver, "1714521600000");
	/* t1 changed on the server: it waits again, with its old content until then */
	listed("t1", "o1", "Interview with Zoë", "automatic_done", NULL, 1717200000000LL);
	cr_assert_eq(content_db_next_waiting(db, "o1", NULL, id, sizeof id, ver, sizeof ver, &err), 1);
	cr_expect_str_eq(id, "t1");
	cr_assert_eq(content_db_next_waiting(db, "o1", "t1", id, sizeof id, ver, sizeof ver, &err), 1);
	cr_expect_str_eq(id, "t4");
	/* a failure for this version: not handed out again until it changes */
	cr_assert_eq(content_db_put_failed(db, "t4", "1714521600000", "404", &err), 0);
	cr_assert_eq(content_db_counts(db, "o1", &held, &waiting, &err), 0);
	cr_expect_eq(held, 1);
	cr_expect_eq(waiting, 1);
	cr_expect_eq(content_db_next_waiting(db, "o2", NULL, id, sizeof id, ver, sizeof ver, &err), 0);
}

Test(content, reader_paragraphs, .init = setup, .fini = teardown)
{
	struct steno_error err;
	struct content_doc d;
	seed();
	cr_assert_eq(content_db_load(db, "t1", &d, &err), 1);
	cr_assert_eq(d.n, 2);
	cr_expect_str_eq(d.paras[0].speaker, "Zoë");
	cr_expect_str_eq(d.paras[0].text, "We met Zoë in the garden today.");
	cr_expect_str_eq(d.paras[1].text, "The seven ships sailed at dawn. Gardening is hard work.");
	cr_expect_float_eq(d.paras[1].start, 17.0, 1e-6);
	cr_expect_eq(d.fetched_s, 1700000000);
	cr_expect_str_eq(d.version, "1704067200000");
	content_doc_free(&d);
	cr_expect_eq(content_db_load(db, "nope", &d, &err), 0);
}

Test(content, time_codes)
{
	char b[32];
	double s;
	content_timecode(750, b, sizeof b);
	cr_expect_str_eq(b, "12:30");
	content_timecode(3723.9, b, sizeof b);
	cr_expect_str_eq(b, "1:02:03");
	content_timecode(-1, b, sizeof b);
	cr_expect_str_eq(b, "--:--");
	cr_expect_eq(content_parse_timecode("12:30", &s), 0);
	cr_expect_float_eq(s, 750, 1e-9);
	cr_expect_eq(content_parse_timecode("1:02:03", &s), 0);
	cr_expect_float_eq(s, 3723, 1e-9);
	cr_expect_eq(content_parse_timecode("12m30s", &s), 0);
	cr_expect_float_eq(s, 750, 1e-9);
	cr_expect_eq(content_parse_timecode("95", &s), 0);
	cr_expect_float_eq(s, 95, 1e-9);
	cr_expect_eq(content_parse_timecode("12:75", &s), -1);
	cr_expect_eq(content_parse_timecode("abc", &s), -1);
	cr_expect_eq(content_parse_timecode("", &s), -1);
}

Test(content, fts_query_quotes_words_keeps_operators)
{
	char *q = content_fts_query("\"seven ships\" gard* NOT don't (a OR b)");
	cr_assert_not_null(q);
	cr_expect_str_eq(q, "\"seven ships\" AND \"gard\"* NOT \"don't\" AND ( \"a\" OR \"b\" ) ");
	free(q);
	q = content_fts_query("x (a OR b) y");   /* operands side by side: an explicit AND */
	cr_assert_not_null(q);
	cr_expect_str_eq(q, "\"x\" AND ( \"a\" OR \"b\" ) AND \"y\" ");
	free(q);
}

/* The number of entries of content_docs (the whole-text index) that match q. */
static int docs_matching(const char *q)
{
	struct steno_error err;
	sqlite3_stmt *st;
	cr_assert_eq(content_prepare(db, "SELECT count(*) FROM content_docs WHERE content_docs"
				     " MATCH ?1", &st, &err), 0, "%s", err.message);
	sqlite3_bind_text(st, 1, q, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	int n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

Test(content, hits_grouped_by_transcription_in_the_order_said, .init = setup, .fini = teardown)
{
	/* "many" says budget in 6 passages, the last one the densest; "few" once */
	static const char *const many[] = {
		"A|We start with the budget and then we go on to other things today.",
		"B|Nothing here about money at all, only the weather and the trains.",
		"A|The budget again, said in a longer sentence than it needs to be here.",
		"B|A third budget passage with a good many words around the one we want.",
		"A|The fourth budget passage, as long as the others are, more or less so.",
		"B|And the fifth budget passage comes here with its own share of words.",
		"A|Budget budget budget.",
	};
	static const char *const few[] = { "C|Only once is the budget said in this one here." };
	put("many", "Many", "1", 0, many, 7);
	put("few", "Few", "1", 0, few, 1);
	struct content_hit *h;
	size_t n;
	struct steno_error err;
	struct content_query cq = { .text = "budget", .per_item = 3, .mark_open = "[",
		.mark_close = "]" };
	cr_assert_eq(content_db_search(db, &cq, &h, &n, &err), 0, "%s", err.message);
	cr_assert_eq(n, 4, "3 of many, 1 of few: %zu", n);
	/* the transcription that says it most comes first, its hits in time order */
	for (size_t i = 0; i < 3; i++) {
		cr_expect_str_eq(h[i].id, "many");
		cr_expect_eq(h[i].item_hits, 6);
		if (i)
			cr_expect_gt(h[i].start, h[i - 1].start);
	}
	cr_expect_eq(h[0].start, 0);
	cr_expect(strstr(h[0].snippet, "[budget]"), "%s", h[0].snippet);
	cr_expect_str_eq(h[3].id, "few");
	cr_expect_eq(h[3].item_hits, 1);
	cr_expect_lt(h[0].rank, h[3].rank);
	content_hits_free(h, n);
	/* the limit cuts across transcriptions */
	cq.limit = 2;
	cr_assert_eq(content_db_search(db, &cq, &h, &n, &err), 0, "%s", err.message);
	cr_expect_eq(n, 2);
	content_hits_free(h, n);
}

Test(content, a_not_inside_a_group_still_finds_the_passage, .init = setup, .fini = teardown)
{
	seed();
	cr_expect(has_hit("ships NOT (fleet OR people)", "t1"));
	cr_expect(!has_hit("ships NOT (fleet OR people)", "t2"));
	cr_expect(has_hit("(ships NOT \"the fleet\") OR nothing", "t1"));
	cr_expect(!has_hit("(ships NOT \"the fleet\") OR nothing", "t2"));
}

Test(content, the_whole_text_index_follows_replace_and_delete, .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed();
	cr_expect_eq(docs_matching("dawn"), 1);
	static const char *const c[] = { "Zoë|Nothing about boats any more." };
	put("t1", "Interview with Zoë", "1709251200000", 0, c, 1);
	cr_expect_eq(docs_matching("dawn"), 0, "the old text is still indexed");
	cr_expect_eq(docs_matching("boats"), 1);
	cr_assert_eq(content_db_remove(db, "t1", &err), 0, "%s", err.message);
	cr_expect_eq(docs_matching("boats"), 0, "a removed transcription is still indexed");
	cr_expect_eq(docs_matching("fleet"), 1);
	cr_expect_eq(content_exec(db, "INSERT INTO content_docs(content_docs, rank)"
				  " VALUES('integrity-check', 1)", &err), 0, "%s", err.message);
}

Test(content, a_store_of_schema_2_gets_its_whole_text_index, .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed();
	/* as a store written before step 3 */
	cr_assert_eq(content_exec(db, "DROP TABLE content_docs;"
				  "DELETE FROM localdb_migrations WHERE version >= 3;"
				  "PRAGMA user_version = 2", &err), 0, "%s", err.message);
	reopen();
	cr_expect_eq(docs_matching("dawn"), 1);
	cr_expect(has_hit("\"seven ships\"", "t1"));
	cr_assert_eq(content_db_remove(db, "t1", &err), 0, "%s", err.message);
	cr_expect_eq(docs_matching("dawn"), 0);
}

/* A store written before step 5 (the list's facts copied into content_items, no updated_ms
 * in transcriptions) keeps its content: the versions match the updatedAt of the store's
 * records, so nothing waits again, and the names come from the store, not the copies. */
Test(content, a_store_of_schema_4_reads_names_and_versions_from_the_store, .init = setup,
     .fini = teardown)
{
	struct steno_error err;
	long held, waiting;
	seed();
	cr_assert_eq(content_exec(db,
		"DROP TRIGGER content_status_transcriptions_ai;"
		"DROP TRIGGER content_status_transcriptions_au; DROP TRIGGER content_status_items_ai;"
		"DROP TRIGGER content_status_items_au; DROP TRIGGER content_status_items_ad;"
		"DROP TABLE content_status;"
		"DROP TRIGGER content_transcriptions_ai; DROP TRIGGER content_transcriptions_au;"
		"DROP TRIGGER content_transcriptions_bd; DROP TRIGGER content_items_ai;"
		"DROP VIEW content_view;"
		"ALTER TABLE content_items ADD COLUMN org; ALTER TABLE content_items ADD COLUMN name;"
		"ALTER TABLE content_items ADD COLUMN state; ALTER TABLE content_items ADD COLUMN"
		" language; ALTER TABLE content_items ADD COLUMN tags; ALTER TABLE content_items ADD"
		" COLUMN updated_at; ALTER TABLE content_items ADD COLUMN cost_cents;"
		"CREATE INDEX content_items_org ON content_items(org, state);"
		"UPDATE content_items SET org = 'o1', name = 'stale copy', state = 'automatic_done',"
		" updated_at = version;"
		"UPDATE transcriptions SET data = json_object('updatedAt', CASE id WHEN 't1'"
		" THEN '2024-01-01T00:00:00.000Z' ELSE '2024-01-02T00:00:00Z' END);"
		"ALTER TABLE transcriptions DROP COLUMN updated_ms;"
		"DELETE FROM localdb_migrations WHERE version >= 5; PRAGMA user_version = 4",
		&err), 0, "%s", err.message);
	reopen();
	cr_assert_eq(content_db_counts(db, "o1", &held, &waiting, &err), 0, "%s", err.message);
	cr_expect_eq(held, 2);
	cr_expect_eq(waiting, 0, "the content kept is current: not read again");
	struct content_hit *h;
	size_t n = search("stale", true, &h);
	cr_expect_eq(n, 0);
	content_hits_free(h, n);
	n = search("harbour", true, &h);
	cr_assert_geq(n, 1);
	cr_expect_str_eq(h[0].id, "t2");
	cr_expect_str_eq(h[0].name, "Harbour notes");
	content_hits_free(h, n);
	cr_expect(has_hit("\"seven ships\"", "t1"));
}

static int segments_of(const char *table)
{
	struct steno_error err;
	sqlite3_stmt *st;
	char sql[200];
	snprintf(sql, sizeof sql, "SELECT count(DISTINCT segid) FROM %s_idx", table);
	cr_assert_eq(content_prepare(db, sql, &st, &err), 0, "%s", err.message);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	int n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

Test(content, optimize_leaves_one_segment_an_index, .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed();   /* two transcriptions, each in its own transaction: two segments */
	cr_assert_geq(segments_of("content_fts"), 2);
	cr_assert_geq(segments_of("content_docs"), 2);
	cr_assert_eq(content_db_optimize(db, &err), 0, "%s", err.message);
	cr_expect_eq(segments_of("content_fts"), 1);
	cr_expect_eq(segments_of("content_docs"), 1);
	cr_expect(has_hit("\"seven ships\"", "t1"));
	cr_expect_eq(docs_matching("fleet"), 1);
}

Test(content, one_transcription_is_indexed_in_one_segment, .init = setup, .fini = teardown)
{
	/* 12 paragraphs, a segment each: written row by row (a trigger a row), FTS5 made a
	 * segment of each row's statement, and every query read them all */
	const char *blocks[12];
	char text[12][64];
	for (int i = 0; i < 12; i++) {
		snprintf(text[i], sizeof text[i], "S%d|paragraph %d here.", i % 2, i);
		blocks[i] = text[i];
	}
	put("long", "Long", "1", 0, blocks, 12);
	cr_expect_eq(segments_of("content_fts"), 1);
	struct content_hit *h;
	size_t n = search("paragraph", false, &h);
	cr_expect_eq(n, 5);
	cr_expect_eq(n ? h[0].item_hits : 0, 12);
	content_hits_free(h, n);
}

Test(content, snippets_and_passages_start_on_a_word, .init = setup, .fini = teardown)
{
	/* the second segment of a block begins after a spacing "word" */
	static const char *const a[] = { "A|One two three four five six seven eight nine ten "
					 "eleven twelve. Budget starts the second passage here." };
	put("t", "T", "1", 0, a, 1);
	struct content_hit *h;
	size_t n = search("budget", false, &h);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(h[0].snippet, "[Budget] starts the second passage here.");
	content_hits_free(h, n);
	struct steno_error err;
	struct content_doc d;
	cr_assert_eq(content_db_load(db, "t", &d, &err), 1);
	cr_expect_str_eq(d.paras[0].text, "One two three four five six seven eight nine ten "
			 "eleven twelve. Budget starts the second passage here.");
	content_doc_free(&d);
}

/* A prefix of ASCII letters is written as the store's words that start with it (a query of
 * words, read transcription by transcription); any other is read by one scan: both find the
 * same passages. */
Test(content, prefixes_as_words_and_by_scan, .init = setup, .fini = teardown)
{
	seed();
	struct content_hit *h;
	size_t n = search("gard*", false, &h);   /* garden, gardening */
	cr_expect_eq(n, 2);
	for (size_t i = 0; i < n; i++)
		cr_expect(strstr(h[i].snippet, "[garden]") || strstr(h[i].snippet, "[Gardening]"),
			  "%s", h[i].snippet);
	content_hits_free(h, n);
	n = search("zoë*", false, &h);   /* not ASCII: the scan */
	cr_expect_eq(n, 1);
	cr_expect(n && strstr(h[0].snippet, "[Zoë]"), "%s", n ? h[0].snippet : "");
	content_hits_free(h, n);
	n = search("zo* AND gard*", false, &h);
	cr_expect_eq(n, 1);
	content_hits_free(h, n);
	n = search("qqq*", false, &h);   /* no word */
	cr_expect_eq(n, 0);
	content_hits_free(h, n);
}

/* What the results pane sends as you type: the last word a prefix, after other words (found
 * on the tour: "budget the" and "the b" were FTS5 syntax errors). */
Test(content, words_then_a_prefix_as_typed, .init = setup, .fini = teardown)
{
	seed();
	static const char *const typed[] = { "the gard*", "garden t*", "dawn the*", "t*",
		"\"seven ships\" s*" };
	for (size_t i = 0; i < sizeof typed / sizeof *typed; i++)
		for (int names = 0; names < 2; names++) {
			struct content_hit *h = NULL;
			size_t n = 0;
			struct steno_error err;
			struct content_query cq = { .text = typed[i], .names = names,
				.mark_open = "[", .mark_close = "]" };
			cr_expect_eq(content_db_search(db, &cq, &h, &n, &err), 0, "%s (names %d): %s",
				     typed[i], names, err.message);
			content_hits_free(h, n);
		}
}
