/* Transcript content in the local store: the passages of a batch of transcriptions read from
 * the passages' index (content_fts) in one statement: the first `per` of each in the order
 * said, and how many of each match (content_search.c asks it for a transcription's passages
 * when the ranking's log cannot tell them: content_passages.c).
 *
 * FTS5 merges the doclists of every word of a prefix (gard*: garden, gardening, ...) each
 * time a statement starts: a prefix not written as words is read for a batch of several
 * transcriptions at once; any other query for one (FTS5 seeks to its range of passages). The
 * statement's filter (content_take, in C) keeps the first `per` of each and counts them
 * all; snippets are made only for the rows it keeps. */
#include "config.h"
#include "core/content_db.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"

static struct scan_doc *scan_find(struct content_scan *sc, sqlite3_int64 n)
{
	size_t lo = 0, hi = sc->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (sc->sorted[mid] == n)
			return &sc->v[sc->at[mid]];
		if (sc->sorted[mid] < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void content_take(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct content_scan *sc = argc == 2 ? sqlite3_value_pointer(argv[1], "steno_scan") : NULL;
	struct scan_doc *d = sc ?
		scan_find(sc, sqlite3_value_int64(argv[0]) / CONTENT_SEGS_PER_ITEM) : NULL;
	int keep = d && d->taken < sc->per;
	if (d) {
		d->all++;
		d->taken += keep;
	}
	sqlite3_result_int(ctx, keep);
}

const char content_scan_sql[] =
	"SELECT content_fts.rowid / 16777216, s.speaker, s.start_ms / 1000.0,"
	" s.end_ms / 1000.0, s.para, steno_snippet(content_fts, s.text, ?3, ?4, '…', ?5)"
	" FROM content_fts JOIN content_segs s ON s.seg = content_fts.rowid"
	" WHERE content_fts MATCH ?1 AND content_fts.rowid BETWEEN ?6 AND ?7"
	" AND content_take(content_fts.rowid, ?8) ORDER BY content_fts.rowid";

static void scan_clear(struct content_scan *sc)
{
	for (size_t i = 0; i < sc->n; i++)
		content_hit_clear(&sc->v[i].doc);
	sc->n = 0;
}

void content_scan_free(struct content_scan *sc)
{
	scan_clear(sc);
	free(sc->v);
	free(sc->sorted);
	free(sc->at);
}

int content_scan_add(struct content_scan *sc, sqlite3_int64 n, struct content_hit *doc)
{
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 16;
		struct scan_doc *v = realloc(sc->v, cap * sizeof *v);
		if (v)
			sc->v = v;
		sqlite3_int64 *so = v ? realloc(sc->sorted, cap * sizeof *so) : NULL;
		if (so)
			sc->sorted = so;
		size_t *at = so ? realloc(sc->at, cap * sizeof *at) : NULL;
		if (!at) {
			content_hit_clear(doc);
			return -1;
		}
		sc->at = at;
		sc->cap = cap;
	}
	size_t k = sc->n;   /* insertion into the sorted index */
	while (k && sc->sorted[k - 1] > n) {
		sc->sorted[k] = sc->sorted[k - 1];
		sc->at[k] = sc->at[k - 1];
		k--;
	}
	sc->sorted[k] = n;
	sc->at[k] = sc->n;
	sc->v[sc->n++] = (struct scan_doc){ .n = n, .doc = *doc };
	return 0;
}

int content_scan_run(sqlite3 *db, sqlite3_stmt *st, struct content_scan *sc,
		     struct content_hit_list *l, struct steno_error *err)
{
	struct content_hit_list rows = { .limit = LONG_MAX };
	size_t *doc_of = NULL, cap = 0;
	int rc = 0, step;

	if (!sc->n)
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_pointer(st, 8, sc, "steno_scan", NULL);
	sqlite3_bind_int64(st, 6, sc->sorted[0] * CONTENT_SEGS_PER_ITEM);
	sqlite3_bind_int64(st, 7, sc->sorted[sc->n - 1] * CONTENT_SEGS_PER_ITEM +
			   CONTENT_SEGS_PER_ITEM - 1);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct content_hit h = { .start = -1, .end = -1 };
		bool nomem = false;
		h.speaker = content_col_dup(st, 1, &nomem);
		h.start = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 2);
		h.end = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 3);
		h.para = (long)sqlite3_column_int64(st, 4);
		h.snippet = content_col_dup(st, 5, &nomem);
		if (rows.n == cap) {
			size_t *d = realloc(doc_of, (cap = cap ? cap * 2 : 64) * sizeof *d);
			if (d)
				doc_of = d;
			else
				nomem = true;
		}
		if (nomem)
			content_hit_clear(&h);
		if (nomem || content_hit_push(&rows, &h) < 0) {
			rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
			break;
		}
		doc_of[rows.n - 1] = (size_t)(scan_find(sc, sqlite3_column_int64(st, 0)) - sc->v);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = content_sql_fail(db, err, "search");
	/* in rank order: the rows of each transcription are in the order said already */
	for (size_t d = 0; rc == 0 && d < sc->n && (long)l->n < l->limit; d++)
		for (size_t r = 0; rc == 0 && r < rows.n && (long)l->n < l->limit; r++) {
			if (doc_of[r] != d)
				continue;
			struct content_hit h;
			if (content_hit_of_doc(&sc->v[d].doc, &h) < 0) {
				rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
				break;
			}
			h.speaker = rows.v[r].speaker;
			h.snippet = rows.v[r].snippet;
			rows.v[r].speaker = rows.v[r].snippet = NULL;
			h.start = rows.v[r].start;
			h.end = rows.v[r].end;
			h.para = rows.v[r].para;
			h.item_hits = sc->v[d].all;
			if (content_hit_push(l, &h) < 0)
				rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		}
	sqlite3_reset(st);
	content_hits_free(rows.v, rows.n);
	free(doc_of);
	scan_clear(sc);
	return rc;
}

int content_define_take(sqlite3 *db)
{
	/* its state comes with each call (a pointer bound to ?8) */
	return sqlite3_create_function(db, "content_take", 2, SQLITE_UTF8, NULL, content_take,
				       NULL, NULL) == SQLITE_OK ? 0 : -1;
}
