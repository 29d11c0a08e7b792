/* The fixture of the core/content_db unit tests (content_fixture.h). */
#include "config.h"

#include "content_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"
#include "core_helpers.h"

char *fixture_dir;
struct localdb *ldb;
sqlite3 *db;

void reopen(void)
{
	char cache[400];
	struct steno_error err;
	localdb_close(ldb);
	snprintf(cache, sizeof cache, "%s/cache", fixture_dir);
	struct localdb_options o = { .cache_dir = cache, .base_url = "http://127.0.0.1:9/api/v1" };
	cr_assert_eq(localdb_open(&o, &ldb, NULL, &err), 0, "%s", err.message);
	db = localdb_handle(ldb);
}

void setup(void)
{
	fixture_dir = core_tmpdir();
	ldb = NULL;
	reopen();
}

void teardown(void)
{
	localdb_close(ldb);
	core_rm_rf(fixture_dir);
}

void make_transcript(struct steno_transcript *t, double start_s, const char *const *blocks,
		     size_t n)
{
	static char json[1 << 17];
	size_t o = 0;
	double at = start_s;
	o += (size_t)snprintf(json + o, sizeof json - o, "[");
	for (size_t b = 0; b < n; b++) {
		char copy[1024];
		snprintf(copy, sizeof copy, "%s", blocks[b]);
		char *text = strchr(copy, '|');
		*text++ = '\0';
		o += (size_t)snprintf(json + o, sizeof json - o,
				      "%s{\"speaker\":\"%s\",\"data_start\":%.1f,\"words\":[", b ? "," : "",
				      copy, at);
		bool first = true;
		for (char *w = strtok(text, " "); w; w = strtok(NULL, " ")) {
			if (!first)
				o += (size_t)snprintf(json + o, sizeof json - o,
						      ",{\"text\":\" \",\"type\":\"spacing\"},");
			o += (size_t)snprintf(json + o, sizeof json - o,
					      "{\"text\":\"%s\",\"type\":\"word\",\"data_start\":%.1f,"
					      "\"data_end\":%.1f}", w, at, at + 0.8);
			at += 1;
			first = false;
		}
		o += (size_t)snprintf(json + o, sizeof json - o, "]}");
	}
	cr_assert_lt(o + 1, sizeof json, "a transcript of more than %zu bytes", sizeof json);
	snprintf(json + o, sizeof json - o, "]");
	struct steno_error err;
	cr_assert_eq(steno_transcript_parse(json, strlen(json), t, &err), 0, "%s", err.message);
}

void listed(const char *id, const char *org, const char *name, const char *state,
	    const char *tags, long long updated_ms)
{
	struct steno_error err;
	sqlite3_stmt *st;
	cr_assert_eq(content_prepare(db, "INSERT INTO transcriptions(id, org_id, name, state, tags,"
				     " data, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, '{}', ?6)"
				     " ON CONFLICT(id) DO UPDATE SET org_id = coalesce(excluded.org_id,"
				     " org_id), name = excluded.name, state = excluded.state,"
				     " tags = excluded.tags, updated_ms = excluded.updated_ms", &st,
				     &err), 0, "%s", err.message);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, org, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, tags, -1, SQLITE_STATIC);
	if (updated_ms >= 0)
		sqlite3_bind_int64(st, 6, updated_ms);
	cr_assert_eq(sqlite3_step(st), SQLITE_DONE, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
}

void put(const char *id, const char *name, const char *version, double start,
	 const char *const *blocks, size_t n)
{
	struct steno_error err;
	listed(id, "o1", name, "automatic_done", NULL, atoll(version));
	struct steno_transcript t;
	make_transcript(&t, start, blocks, n);
	cr_assert_eq(content_db_put(db, id, version, &t, 1700000000, &err), 0, "%s", err.message);
	steno_transcript_free(&t);
}

size_t search(const char *q, bool names, struct content_hit **hits)
{
	size_t n;
	struct steno_error err;
	struct content_query cq = { .text = q, .names = names, .mark_open = "[",
		.mark_close = "]" };
	cr_assert_eq(content_db_search(db, &cq, hits, &n, &err), 0, "%s: %s", q, err.message);
	return n;
}

long statement_runs(const char *part)
{
	long runs = 0;
	for (sqlite3_stmt *st = sqlite3_next_stmt(db, NULL); st; st = sqlite3_next_stmt(db, st)) {
		const char *sql = sqlite3_sql(st);
		if (sql && strstr(sql, part))
			runs += sqlite3_stmt_status(st, SQLITE_STMTSTATUS_RUN, 0);
	}
	return runs;
}

void same_hits(const char *q, const struct content_hit *a, size_t na,
	       const struct content_hit *b, size_t nb)
{
	cr_assert_eq(na, nb, "%s: %zu hits against %zu", q, na, nb);
	for (size_t i = 0; i < na; i++) {
		cr_expect_str_eq(a[i].id, b[i].id, "%s #%zu", q, i);
		cr_expect_eq(a[i].para, b[i].para, "%s #%zu", q, i);
		cr_expect_eq(a[i].start, b[i].start, "%s #%zu", q, i);
		cr_expect_eq(a[i].end, b[i].end, "%s #%zu", q, i);
		cr_expect_str_eq(a[i].speaker ? a[i].speaker : "", b[i].speaker ? b[i].speaker : "");
		cr_expect_str_eq(a[i].snippet, b[i].snippet, "%s #%zu: %s against %s", q, i,
				 a[i].snippet, b[i].snippet);
		cr_expect_eq(a[i].item_hits, b[i].item_hits, "%s #%zu", q, i);
		cr_expect_eq(a[i].rank, b[i].rank, "%s #%zu", q, i);
	}
}
