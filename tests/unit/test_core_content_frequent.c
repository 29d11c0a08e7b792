/* core/content_frequent.c: the words each transcription says often (schema step 8), from
 * which a query of one word takes the transcriptions it shows. Every query is run both ways:
 * with the table, and with it emptied (the usual ranking over every match); the hits must be
 * the same, field by field. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content_fixture.h"
#include "core/content_internal.h"

/* Transcription i says "budget" budget_times(i) times (ties among them; some under
 * CONTENT_FREQUENT_MIN), "Zoë" and "ships" a few times, over several passages. */
static int budget_times(int i)
{
	return (i * 7) % 23;
}

static void seed_many(int count)
{
	for (int i = 0; i < count; i++) {
		char *blocks[8], id[16], name[32], version[16];
		int b = budget_times(i), z = (i * 5) % 13, s = i % 3;
		for (int k = 0; k < 8; k++) {
			char text[2048];
			int o = snprintf(text, sizeof text, "S%d|", k % 2 + 1);
			for (int w = k; w < 24; w += 8) {   /* three sentences a block */
				o += snprintf(text + o, sizeof text - (size_t)o, "%s%s%s river. ",
					      w < b ? "The budget is late" : "We met",
					      w < z ? ", said Zoë" : "", w < s ? " and the ships" : "");
			}
			blocks[k] = strdup(text);
		}
		snprintf(id, sizeof id, "f%02d", i);
		snprintf(name, sizeof name, "Meeting %d", i);
		snprintf(version, sizeof version, "%d", 1000 + i);
		struct steno_error err;
		struct steno_transcript t;
		listed(id, i % 4 == 3 ? "o2" : "o1", name, "automatic_done", NULL, 1000 + i);
		make_transcript(&t, 0, (const char *const *)blocks, 8);
		cr_assert_eq(content_db_put(db, id, version, &t, 1700000000, &err), 0, "%s",
			     err.message);
		steno_transcript_free(&t);
		for (int k = 0; k < 8; k++)
			free(blocks[k]);
	}
}

static size_t search_with(const struct content_query *q, struct content_hit **hits)
{
	size_t n;
	struct steno_error err;
	cr_assert_eq(content_db_search(db, q, hits, &n, &err), 0, "%s: %s", q->text, err.message);
	return n;
}

/* Runs of the usual ranking (every transcription's matches walked). */
static long ranking_runs(void)
{
	return statement_runs("ORDER BY r, rowid");
}

/* q both ways; *fast_ranked: whether the first way did without the usual ranking. */
static void both_ways(const struct content_query *q, bool *fast_ranked)
{
	struct steno_error err;
	struct content_hit *fast, *slow;
	long runs = ranking_runs();
	size_t nf = search_with(q, &fast);
	*fast_ranked = ranking_runs() == runs;
	cr_assert_eq(content_exec(db, "SAVEPOINT slow; DELETE FROM content_frequent", &err), 0,
		     "%s", err.message);
	size_t ns = search_with(q, &slow);
	cr_assert_eq(content_exec(db, "ROLLBACK TO slow; RELEASE slow", &err), 0, "%s",
		     err.message);
	same_hits(q->text, fast, nf, slow, ns);
	content_hits_free(fast, nf);
	content_hits_free(slow, ns);
}

Test(content_frequent, a_word_said_often_gives_the_hits_the_usual_ranking_gives,
     .init = setup, .fini = teardown)
{
	seed_many(40);
	static const char *const words[] = { "budget", "BUDGET", "zoe", "Zoë", "budg*", "ships",
		"(budget)", "river", "nothing", "budget OR nowhere", "nowhere OR (Zoë OR never)",
		"budget OR zoe", "\"budget\" OR \"budget\"" };
	static const long limits[] = { 50, 7, 1, 400 };
	static const long pers[] = { 5, 2 };
	static const char *const orgs[] = { NULL, "o1", "o2" };
	int fast = 0, runs = 0;
	for (size_t w = 0; w < sizeof words / sizeof *words; w++)
		for (size_t l = 0; l < sizeof limits / sizeof *limits; l++)
			for (size_t p = 0; p < sizeof pers / sizeof *pers; p++)
				for (size_t o = 0; o < sizeof orgs / sizeof *orgs; o++) {
					struct content_query q = { .text = words[w], .limit = limits[l],
						.per_item = pers[p], .org = orgs[o], .names = o == 1,
						.mark_open = "[", .mark_close = "]" };
					bool f;
					both_ways(&q, &f);
					fast += f;
					runs++;
				}
	/* "budget" and "zoe" are said often enough in enough transcriptions for most limits;
	 * "ships" never 8 times, "nothing" nowhere, a limit of 400 is more than they hold */
	cr_expect_gt(fast, runs / 3, "%d of %d queries did without the usual ranking", fast, runs);
	cr_expect_lt(fast, runs, "every query did without the usual ranking");
	/* words joined by OR of which the store holds one: as that word */
	static const char *const one[] = { "budget", "budget OR nowhere", "budg*",
		"nowhere OR (budget OR never)" };
	for (size_t w = 0; w < sizeof one / sizeof *one; w++) {
		struct content_query q = { .text = one[w], .limit = 20, .mark_open = "[",
			.mark_close = "]" };
		bool f;
		both_ways(&q, &f);
		cr_expect(f, "%s: the usual ranking ran", one[w]);
	}
}

static long long frequent_rows(const char *where)
{
	char sql[300];
	sqlite3_stmt *st;
	struct steno_error err;
	snprintf(sql, sizeof sql, "SELECT count(*) FROM content_frequent f JOIN content_items c"
		 " ON c.n = f.n WHERE %s", where);
	cr_assert_eq(content_prepare(db, sql, &st, &err), 0, "%s", err.message);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	long long k = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return k;
}

/* The words of content_words that start with prefix. */
static int vocab_terms(const char *prefix)
{
	sqlite3_stmt *st;
	struct steno_error err;
	cr_assert_eq(content_words_vocab(db), 0);
	cr_assert_eq(content_prepare(db, "SELECT count(*) FROM temp.content_words_vocab"
				     " WHERE term >= ?1 AND term < ?1 || '~'", &st, &err), 0, "%s",
		     err.message);
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	int k = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return k;
}

Test(content_frequent, a_changed_or_deleted_transcription_leaves_no_stale_count,
     .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed_many(12);
	cr_assert_eq(frequent_rows("c.id = 'f03' AND f.term = 'budget' AND f.tf = 21"), 1);
	static const char *const said_once[] = { "S1|The budget, once." };
	put("f03", "Meeting 3", "5000", 0, said_once, 1);
	cr_expect_eq(frequent_rows("c.id = 'f03'"), 0, "f03 says no word 8 times now");
	cr_assert_eq(content_db_remove(db, "f06", &err), 0, "%s", err.message);
	sqlite3_stmt *st;
	cr_assert_eq(content_prepare(db, "SELECT count(*) FROM content_frequent WHERE n NOT IN"
				     " (SELECT n FROM content_items)", &st, &err), 0, "%s",
		     err.message);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_expect_eq(sqlite3_column_int(st, 0), 0, "rows of a deleted transcription");
	sqlite3_finalize(st);
	struct content_query q = { .text = "budget", .limit = 50, .mark_open = "[",
		.mark_close = "]" };
	bool f;
	both_ways(&q, &f);
	/* the words a prefix stands for leave with the last transcription that says them */
	static const char *const rare[] = { "S1|A xylophone and a xylograph." };
	put("x1", "Music", "6000", 0, rare, 1);
	cr_expect_eq(vocab_terms("xylo"), 2);
	put("x1", "Music", "6001", 0, said_once, 1);
	cr_expect_eq(vocab_terms("xylo"), 0, "the words of a transcription's earlier content");
	put("x1", "Music", "6002", 0, rare, 1);
	cr_assert_eq(content_db_remove(db, "x1", &err), 0, "%s", err.message);
	cr_expect_eq(vocab_terms("xylo"), 0, "the words of a deleted transcription");
	struct content_hit *h;
	cr_expect_eq(search("xylo*", false, &h), 0);
	content_hits_free(h, 0);
}

/* A store of schema 7 counts the words of what it holds at its next opening. */
Test(content_frequent, a_store_of_schema_7_counts_its_words, .init = setup, .fini = teardown)
{
	struct steno_error err;
	seed_many(12);
	long long before = frequent_rows("1");
	cr_assert_gt(before, 0);
	int words = vocab_terms("");
	cr_assert_gt(words, 0);
	cr_assert_eq(content_exec(db, "DROP TABLE temp.content_words_vocab;"
				  "DROP TABLE content_frequent; DROP TABLE content_words;"
				  "DROP TRIGGER IF EXISTS content_words_items_bd;"
				  "DROP TRIGGER IF EXISTS content_frequent_items_ad;"
				  "DELETE FROM localdb_migrations WHERE version >= 8;"
				  "PRAGMA user_version = 7", &err), 0, "%s", err.message);
	reopen();
	cr_expect_eq(frequent_rows("1"), before);
	cr_expect_eq(frequent_rows("c.id = 'f03' AND f.term = 'budget' AND f.tf = 21"), 1);
	cr_expect_eq(frequent_rows("c.id = 'f01' AND f.term = 'zoe' AND f.tf = 5"), 0,
		     "under CONTENT_FREQUENT_MIN");
	cr_expect_eq(frequent_rows("c.id = 'f02' AND f.term = 'zoe' AND f.tf = 10"), 1);
	cr_expect_eq(vocab_terms(""), words);
}

/* Runs of the statement that reads a transcription's passages from the passages' index. */
static long passage_runs(void)
{
	return statement_runs("content_fts.rowid BETWEEN ?6 AND ?7");
}

/* One block of `times` sentences, each `sentence`. */
static void put_said(const char *id, const char *sentence, int times)
{
	static char text[1 << 16];
	int o = snprintf(text, sizeof text, "S1|");
	for (int i = 0; i < times; i++)
		o += snprintf(text + o, sizeof text - (size_t)o, "%s ", sentence);
	const char *blocks[] = { text };
	put(id, id, "1000", 0, blocks, 1);
}

/* Of a word said more often than a transcription's matches noted (CONTENT_NOTE_FIRST, 48),
 * the first passages come from its first matches, the count of them from content_frequent:
 * unless those matches all lie in the passages shown (then the passages' index is asked). */
Test(content_frequent, a_word_said_more_often_than_noted_gives_the_same_hits, .init = setup,
     .fini = teardown)
{
	/* dense: 100 in 3 passages (cut at 40 words); sparse: 80 in 13 passages; single: 60
	 * in more */
	put_said("dense", "budget", 100);
	put_said("sparse", "We said budget and then we talked of other things for a while and"
		 " budget again.", 40);
	put_said("single", "We said budget once and then we talked of other things for a long"
		 " while.", 60);
	static const long limits[] = { 1, 3, 8, 13 };
	static const long pers[] = { 5, 1, 30 };
	for (size_t l = 0; l < sizeof limits / sizeof *limits; l++)
		for (size_t p = 0; p < sizeof pers / sizeof *pers; p++) {
			struct content_query q = { .text = "budget", .limit = limits[l],
				.per_item = pers[p], .mark_open = "[", .mark_close = "]" };
			bool f;
			both_ways(&q, &f);
			cr_expect(f || limits[l] > 3 * pers[p] + 4, "limit %ld, %ld each: the usual"
				  " ranking ran", limits[l], pers[p]);
		}
	/* "sparse" shows its first five passages of 13 from its first 48 matches */
	struct content_query q = { .text = "budget", .limit = 8, .mark_open = "[",
		.mark_close = "]" };
	struct content_hit *h;
	long runs = passage_runs();
	size_t n = search_with(&q, &h);
	cr_expect_leq(passage_runs() - runs, 1, "the passages' index was asked for \"sparse\"");
	cr_assert_eq(n, 8);
	cr_expect_str_eq(h[3].id, "sparse");
	cr_expect_gt(h[3].item_hits, 5, "%ld: %s", h[3].item_hits, h[3].snippet);
	cr_expect_str_eq(h[0].id, "dense");
	cr_expect_eq(h[0].item_hits, 3);
	content_hits_free(h, n);
}
