/* Benchmarks of transcripts as content (bench/content_bench.sh runs them; docs/PERFORMANCE.md):
 *   content_bench stats CACHE_DIR BASE_URL          text bytes, FTS index bytes, file bytes
 *   content_bench export CACHE_DIR BASE_URL DIR     every transcript as DIR/ID.txt (for grep)
 *   content_bench query CACHE_DIR BASE_URL Q...     ms of content_db_search per query (median of 5)
 *   content_bench reader DIR                        the reader on a generated two-hour transcript:
 *                                                   time to the first screen, key-to-screen
 *                                                   while paging and while / highlights "the"
 * Never part of make check. */
#include "config.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/content_db.h"
#include "core/localdb.h"
#include "ui/frame.h"
#include "ui/pane_reader.h"
#include "ui/session.h"
#include "ui/term.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof *v, cmp_d);
	int i = (int)(p * (n - 1) + 0.5);
	return v[i];
}

static struct localdb *open_store(const char *cache, const char *base)
{
	struct localdb_options o = { .cache_dir = cache, .base_url = base, .skip_check = true };
	struct localdb *ldb;
	struct steno_error err;
	if (localdb_open(&o, &ldb, NULL, &err) != 0) {
		fprintf(stderr, "content_bench: %s\n", err.message);
		exit(1);
	}
	return ldb;
}

static long long one(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int stats(const char *cache, const char *base)
{
	struct localdb *ldb = open_store(cache, base);
	sqlite3 *db = localdb_handle(ldb);
	printf("transcripts %lld\n", one(db, "SELECT count(*) FROM content_items WHERE version IS NOT NULL"));
	printf("segments %lld\n", one(db, "SELECT count(*) FROM content_segs"));
	printf("text_bytes %lld\n", one(db, "SELECT sum(length(CAST(text AS BLOB))) FROM content_segs"));
	printf("segs_table_bytes %lld\n", one(db, "SELECT sum(pgsize) FROM dbstat WHERE name IN "
					     "('content_segs','content_segs_item')"));
	printf("fts_bytes %lld\n", one(db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'content_fts_%'"));
	printf("docs_fts_bytes %lld\n", one(db, "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name"
					   " LIKE 'content_docs_%'"));
	printf("seg_starts_bytes %lld\n", one(db, "SELECT coalesce(sum(length(seg_starts)), 0)"
					    " FROM content_items"));
	printf("frequent_bytes %lld\n", one(db, "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE"
					  " name LIKE 'content_frequent%'"));
	printf("words_fts_bytes %lld\n", one(db, "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE"
					   " name LIKE 'content_words_%'"));
	printf("names_fts_bytes %lld\n", one(db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE "
					    "'content_names_%'"));
	printf("file_bytes %lld\n", one(db, "SELECT page_count * page_size FROM pragma_page_count(), "
				       "pragma_page_size()"));
	localdb_close(ldb);
	return 0;
}

static int export_txt(const char *cache, const char *base, const char *dir)
{
	struct localdb *ldb = open_store(cache, base);
	sqlite3 *db = localdb_handle(ldb);
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "SELECT id FROM content_items WHERE version IS NOT NULL", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		struct content_doc d;
		struct steno_error err;
		if (content_db_load(db, id, &d, &err) != 1)
			continue;
		char path[1200];
		snprintf(path, sizeof path, "%s/%s.txt", dir, id);
		FILE *f = fopen(path, "w");
		for (size_t i = 0; f && i < d.n; i++) {
			char tc[32];
			content_timecode(d.paras[i].start, tc, sizeof tc);
			fprintf(f, "[%s] %s: %s\n\n", tc, d.paras[i].speaker ? d.paras[i].speaker : "",
				d.paras[i].text);
		}
		if (f)
			fclose(f);
		content_doc_free(&d);
	}
	sqlite3_finalize(st);
	localdb_close(ldb);
	return 0;
}

static int query(const char *cache, const char *base, int n, char **q)
{
	struct localdb *ldb = open_store(cache, base);
	sqlite3 *db = localdb_handle(ldb);
	for (int i = 0; i < n; i++) {
		double t[5];
		size_t hits = 0;
		for (int k = 0; k < 5; k++) {
			struct content_hit *h;
			struct steno_error err;
			struct content_query cq = { .text = q[i], .limit = 50, .mark_open = "[",
				.mark_close = "]" };
			double t0 = now_ms();
			if (content_db_search(db, &cq, &h, &hits, &err) < 0) {
				fprintf(stderr, "%s: %s\n", q[i], err.message);
				hits = 0;
			}
			t[k] = now_ms() - t0;
			content_hits_free(h, hits);
		}
		printf("%.3f\t%zu\t%s\n", pct(t, 5, 0.5), hits, q[i]);
	}
	localdb_close(ldb);
	return 0;
}

/* ---- the reader ---- */

static const char *const words[] = { "the", "budget", "meeting", "river", "garden", "we", "talk",
	"about", "next", "year", "and", "a", "new", "office", "report", "team", "customers",
	"planning", "launch", "quarter", "review", "notes", "morning", "to", "of" };

/* Two hours: a paragraph every 20 s of 50 words, alternating speakers. */
static void fill_two_hours(sqlite3 *db)
{
	size_t cap = 8 << 20, o = 0;
	char *json = malloc(cap);
	unsigned seed = 7;
	o += (size_t)snprintf(json + o, cap - o, "[");
	for (int p = 0; p < 360; p++) {
		o += (size_t)snprintf(json + o, cap - o, "%s{\"speaker\":\"Speaker %d\",\"words\":[",
				      p ? "," : "", p % 2 + 1);
		for (int w = 0; w < 50; w++) {
			seed = seed * 1103515245u + 12345u;
			double t = p * 20.0 + w * 0.4;
			o += (size_t)snprintf(json + o, cap - o, "%s{\"text\":\"%s\",\"type\":\"word\","
					      "\"data_start\":%.2f,\"data_end\":%.2f}%s",
					      w ? "," : "", words[(seed >> 16) % 25], t, t + 0.35,
					      w + 1 < 50 ? ",{\"text\":\" \",\"type\":\"spacing\"}" : "");
		}
		o += (size_t)snprintf(json + o, cap - o, "]}");
	}
	snprintf(json + o, cap - o, "]");
	struct steno_transcript tr;
	struct steno_error err;
	if (steno_transcript_parse(json, strlen(json), &tr, &err) < 0) {
		fprintf(stderr, "content_bench: %s\n", err.message);
		exit(1);
	}
	/* as the store writes what the list said (its transcriptions table, schema 5) */
	sqlite3_exec(db, "INSERT OR IGNORE INTO transcriptions(id, org_id, name, state, data,"
		     " updated_ms) VALUES ('two-hours', '1', 'Two hours', 'automatic_done', '{}', 1)",
		     NULL, NULL, NULL);
	content_db_put(db, "two-hours", "1", &tr, 1700000000, &err);
	steno_transcript_free(&tr);
	free(json);
}

/* One key as the loop handles it: the action, the draw, the terminal update. */
static double key_ms(struct ui_session *s, ui_key k)
{
	double t0 = now_ms();
	ui_session_on_result(s, frame_key(&s->frame, k));
	frame_draw(&s->frame);
	return now_ms() - t0;
}

static int reader(const char *dir)
{
	char cache[600];
	snprintf(cache, sizeof cache, "%s/cache", dir);
	struct localdb *ldb = open_store(cache, "http://bench.invalid/api/v1");
	sqlite3 *db = localdb_handle(ldb);
	fill_two_hours(db);
	setlocale(LC_ALL, "C.UTF-8");
	setenv("LINES", "50", 1);
	setenv("COLUMNS", "160", 1);
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	struct ui_session s;
	memset(&s, 0, sizeof s);
	struct ui_session_opts so = { .term = "xterm-256color", .out = out, .in = in };
	if (ui_session_open(&s, &so) != 0)
		return 1;
	char msg[200];
	struct reader_arg a = { .db = db, .id = "two-hours", .at = -1 };
	double t0 = now_ms();
	if (reader_open(&s.frame, &a, msg, sizeof msg) < 0) {
		fprintf(stderr, "%s\n", msg);
		return 1;
	}
	frame_draw(&s.frame);
	double first = now_ms() - t0;
	enum { N = 200 };
	double page[N], hl[N];
	for (int i = 0; i < N; i++)
		page[i] = key_ms(&s, i < N / 2 ? (KEYS_FN | KEY_NPAGE) : (KEYS_FN | KEY_PPAGE));
	key_ms(&s, 'g');
	key_ms(&s, '/');
	key_ms(&s, 't');
	key_ms(&s, 'h');
	key_ms(&s, 'e');
	key_ms(&s, '\n');
	for (int i = 0; i < N; i++)
		hl[i] = key_ms(&s, i < N / 2 ? (KEYS_FN | KEY_NPAGE) : (KEYS_FN | KEY_PPAGE));
	printf("first_screen_ms %.2f\n", first);
	printf("paging_median_ms %.3f\npaging_p99_ms %.3f\n", pct(page, N, 0.5), pct(page, N, 0.99));
	printf("highlight_median_ms %.3f\nhighlight_p99_ms %.3f\n", pct(hl, N, 0.5), pct(hl, N, 0.99));
	ui_session_close(&s);
	fclose(out);
	fclose(in);
	localdb_close(ldb);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "stats"))
		return stats(argv[2], argv[3]);
	if (argc >= 5 && !strcmp(argv[1], "export"))
		return export_txt(argv[2], argv[3], argv[4]);
	if (argc >= 5 && !strcmp(argv[1], "query"))
		return query(argv[2], argv[3], argc - 4, argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "reader"))
		return reader(argv[2]);
	fprintf(stderr, "usage: content_bench stats|export|query|reader ... (see the source)\n");
	return 2;
}
