/* Transcript content in the local store: full-text search (FTS5, bm25, snippets), the
 * reader's read of one transcript, time codes. */
#include "config.h"
#include "core/content_db.h"

#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"

/* ---- the query ---- */

static bool is_operator(const char *t, size_t k)
{
	return (k == 3 && !strncmp(t, "AND", 3)) || (k == 2 && !strncmp(t, "OR", 2)) ||
		(k == 3 && !strncmp(t, "NOT", 3));
}

/* Appends s[0..k) as one FTS5 string ("" doubled inside). */
static void put_quoted(char **o, const char *s, size_t k)
{
	*(*o)++ = '"';
	for (size_t i = 0; i < k; i++) {
		if (s[i] == '"')
			*(*o)++ = '"';
		*(*o)++ = s[i];
	}
	*(*o)++ = '"';
}

/* The user's query in FTS5 syntax that never fails to parse on a word: every word and
 * "phrase" is quoted (so don't, e-mail or 12:30 are words, not syntax), a trailing * stays
 * a prefix, AND/OR/NOT and parentheses stay operators. Caller frees; NULL on no memory. */
char *content_fts_query(const char *in)
{
	char *out = malloc(strlen(in) * 3 + 8), *o = out;
	const char *p = in;

	if (!out)
		return NULL;
	while (*p) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			p++;
			continue;
		}
		if (*p == '(' || *p == ')') {
			*o++ = *p++;
			*o++ = ' ';
			continue;
		}
		const char *t = p;
		size_t k;
		if (*p == '"') {   /* a phrase, up to its closing quote or the end */
			const char *e = strchr(p + 1, '"');
			t = p + 1;
			k = e ? (size_t)(e - t) : strlen(t);
			p = e ? e + 1 : t + k;
		} else {
			while (*p && !strchr(" \t\n()", *p))
				p++;
			k = (size_t)(p - t);
			if (is_operator(t, k)) {
				memcpy(o, t, k);
				o += k;
				*o++ = ' ';
				continue;
			}
		}
		bool prefix = k && t[k - 1] == '*';
		if (prefix)
			k--;
		if (!k && !prefix)
			continue;
		put_quoted(&o, t, k);
		if (prefix)
			*o++ = '*';
		*o++ = ' ';
	}
	*o = '\0';
	return out;
}

/* Skips one quoted FTS5 string (and a trailing *) of content_fts_query's output. */
static const char *skip_quoted(const char *p)
{
	for (p++; *p; p++)
		if (*p == '"') {
			if (p[1] != '"')
				break;
			p++;
		}
	if (*p == '"')
		p++;
	return *p == '*' ? p + 1 : p;
}

/* content_fts_query's output without its NOT clauses (NOT and its operand, a string or a
 * group): what it keeps matches every transcription that holds a passage matching the
 * whole, and more. Caller frees; NULL on no memory. */
static char *doc_query(const char *fts)
{
	char *out = malloc(strlen(fts) + 1), *o = out;
	const char *p = fts;
	if (!out)
		return NULL;
	while (*p) {
		if (!strncmp(p, "NOT ", 4)) {
			p += 4;
			if (*p == '(') {
				int depth = 0;
				do {
					if (*p == '"') {
						p = skip_quoted(p);
						continue;
					}
					depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
					p++;
				} while (*p && depth > 0);
			} else if (*p == '"') {
				p = skip_quoted(p);
			}
			while (*p == ' ')
				p++;
			continue;
		}
		const char *e = *p == '"' ? skip_quoted(p) : p + 1;
		while (*e && *e != ' ' && *p != '"')
			e++;
		while (*e == ' ')
			e++;
		memcpy(o, p, (size_t)(e - p));
		o += e - p;
		p = e;
	}
	*o = '\0';
	return out;
}

/* ---- hits ---- */

static char *col_dup(sqlite3_stmt *st, int col, bool *nomem)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*nomem = true;
	return d;
}

static void hit_free(struct content_hit *h)
{
	free(h->id);
	free(h->name);
	free(h->speaker);
	free(h->snippet);
	free(h->state);
	free(h->language);
	free(h->tags);
	memset(h, 0, sizeof *h);
}

void content_hits_free(struct content_hit *hits, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hit_free(&hits[i]);
	free(hits);
}

struct hit_list {
	struct content_hit *v;
	size_t n, cap;
	long limit;
};

/* Adds h to the list (taken whole; freed on no memory): 0, or -1 on no memory. */
static int hit_push(struct hit_list *l, struct content_hit *h)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct content_hit *v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			hit_free(h);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *h;
	return 0;
}

/* Keeps h (taken whole, freed when not kept): 1 kept, 0 not, -1 on no memory. */
static int hit_keep(struct hit_list *l, struct content_hit *h, const struct content_query *q)
{
	if (q->keep && !q->keep(q->keep_ud, h)) {
		hit_free(h);
		return 0;
	}
	return hit_push(l, h) < 0 ? -1 : 1;
}

/* The transcription's columns from `at` on: id, name, state, language, tags, cost, rank. */
static void item_cols(struct content_hit *h, sqlite3_stmt *st, int at, bool *nomem)
{
	h->id = col_dup(st, at, nomem);
	h->name = col_dup(st, at + 1, nomem);
	h->state = col_dup(st, at + 2, nomem);
	h->language = col_dup(st, at + 3, nomem);
	h->tags = col_dup(st, at + 4, nomem);
	h->has_cost = sqlite3_column_type(st, at + 5) != SQLITE_NULL;
	h->cost_cents = sqlite3_column_int64(st, at + 5);
	h->rank = sqlite3_column_double(st, at + 6);
}

/* A name hit: the transcription's columns, then the marked name (or tags). */
static int name_take(struct hit_list *l, sqlite3_stmt *st, const struct content_query *q)
{
	struct content_hit h = { .start = -1, .end = -1, .para = -1 };
	bool nomem = false;
	item_cols(&h, st, 0, &nomem);
	h.snippet = col_dup(st, 7, &nomem);
	if (nomem || !h.id) {
		hit_free(&h);
		return nomem ? -1 : 0;
	}
	return hit_keep(l, &h, q);
}

#define ITEM_COLS "i.id, i.name, i.state, i.language, i.tags, i.cost_cents"

static const char names_sql[] =
	"SELECT " ITEM_COLS ", content_names.rank,"
	" CASE WHEN instr(highlight(content_names, 0, ?3, ?4), ?3) > 0"
	"  THEN highlight(content_names, 0, ?3, ?4)"
	"  ELSE coalesce(i.name, '') || ' [' || replace(highlight(content_names, 1, ?3, ?4),"
	"   char(9), ', ') || ']' END"
	" FROM content_names JOIN content_items i ON i.n = content_names.rowid"
	" WHERE content_names MATCH ?1 AND (?2 IS NULL OR i.org = ?2)"
	" ORDER BY content_names.rank";

/* Transcriptions that may hold a hit, best first: BM25 over each one's whole text (steno_bm25
 * below), so a word in most passages costs one row a transcription, not one a passage. */
static const char docs_sql[] =
	"SELECT " ITEM_COLS ", steno_bm25(content_docs) AS r, i.n"
	" FROM content_docs JOIN content_items i ON i.n = content_docs.rowid"
	" WHERE content_docs MATCH ?1 AND (?2 IS NULL OR i.org = ?2)"
	" ORDER BY r";

/* ---- steno_bm25: BM25 without the length of each transcription ----
 * FTS5's bm25() reads every row's length from its docsize table (an SQL statement a row),
 * half of its cost; a transcription's length says little of how much it is about a word
 * (BM25's b = 0; k1 = 1.2 bounds what repetition adds). Lower is better, as bm25(). */

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud)
{
	(*(long long *)ud)++;
	return SQLITE_OK;
}

static void steno_bm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
		       int argc, sqlite3_value **argv)
{
	int np = api->xPhraseCount(fts);
	double *idf = api->xGetAuxdata(fts, 0);
	if (!idf && np > 0) {   /* once a query: how many rows hold each phrase */
		sqlite3_int64 rows = 0;
		if (!(idf = sqlite3_malloc64((sqlite3_uint64)np * sizeof *idf)) ||
		    api->xRowCount(fts, &rows) != SQLITE_OK) {
			sqlite3_free(idf);
			sqlite3_result_error_nomem(ctx);
			return;
		}
		for (int i = 0; i < np; i++) {
			long long hits = 0;
			api->xQueryPhrase(fts, i, &hits, count_row);
			idf[i] = log(((double)rows - (double)hits + 0.5) / ((double)hits + 0.5));
			if (idf[i] <= 0)
				idf[i] = 1e-6;   /* as bm25(): a word in most rows still counts */
		}
		if (api->xSetAuxdata(fts, idf, sqlite3_free) != SQLITE_OK) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
	}
	double score = 0;
	for (int i = 0; i < np; i++) {
		Fts5PhraseIter it;
		int col, off;
		double tf = 0;
		for (api->xPhraseFirst(fts, i, &it, &col, &off); col >= 0;
		     api->xPhraseNext(fts, &it, &col, &off))
			tf++;
		score += idf[i] * tf * 2.2 / (tf + 1.2);
	}
	sqlite3_result_double(ctx, -score);
}

/* Defines steno_bm25 on db (once a connection: FTS5 keeps every definition). */
static int define_bm25(sqlite3 *db, struct steno_error *err)
{
	fts5_api *api = NULL;
	sqlite3_stmt *st;
	if (content_prepare(db, "SELECT fts5(?1)", &st, err) < 0)
		return -1;
	sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (!api || api->xCreateFunction(api, "steno_bm25", NULL, steno_bm25, NULL) != SQLITE_OK)
		return steno_error_set(err, STENO_ERR_IO, "local store: no FTS5 API");
	return 0;
}

/* docs_sql prepared, steno_bm25 defined first when the connection has not got it. */
static int prepare_docs(sqlite3 *db, sqlite3_stmt **st, struct steno_error *err)
{
	if (sqlite3_prepare_v2(db, docs_sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	*st = NULL;
	if (define_bm25(db, err) < 0)
		return -1;
	return content_prepare(db, docs_sql, st, err);
}

/* The passages of one transcription (its range of rowids) that match, in the order said:
 * FTS5 seeks to the range; snippets are made only for the rows read. */
static const char passages_sql[] =
	"SELECT s.speaker, s.start_ms / 1000.0, s.end_ms / 1000.0, s.para,"
	" snippet(content_fts, 0, ?3, ?4, '…', ?5)"
	" FROM content_fts JOIN content_segs s ON s.seg = content_fts.rowid"
	" WHERE content_fts MATCH ?1 AND content_fts.rowid BETWEEN ?6 AND ?7"
	" ORDER BY content_fts.rowid";

static const char count_sql[] =
	"SELECT count(*) FROM content_fts WHERE content_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3";

static void bind_query(sqlite3_stmt *st, const char *fts, const struct content_query *q)
{
	sqlite3_bind_text(st, 1, fts, -1, SQLITE_STATIC);
	if (q->org)
		sqlite3_bind_text(st, 2, q->org, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, q->mark_open ? q->mark_open : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, q->mark_close ? q->mark_close : "", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, q->snippet_words > 0 ? q->snippet_words : 12);
}

static int run_names(sqlite3 *db, const char *fts, const struct content_query *q,
		     struct hit_list *l, struct steno_error *err)
{
	sqlite3_stmt *st;
	int rc = 0, step = SQLITE_DONE;

	if (content_prepare(db, names_sql, &st, err) < 0)
		return -1;
	bind_query(st, fts, q);
	while ((long)l->n < l->limit && (step = sqlite3_step(st)) == SQLITE_ROW)
		if (name_take(l, st, q) < 0) {
			rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
			break;
		}
	if (rc == 0 && (long)l->n < l->limit && step != SQLITE_DONE)
		rc = content_sql_fail(db, err, "search");
	sqlite3_finalize(st);
	return rc;
}

/* A copy of the transcription's fields of doc (the passage's own are filled after). */
static int hit_of_doc(const struct content_hit *doc, struct content_hit *h)
{
	memset(h, 0, sizeof *h);
	h->id = strdup(doc->id);
	h->name = doc->name ? strdup(doc->name) : NULL;
	h->state = doc->state ? strdup(doc->state) : NULL;
	h->language = doc->language ? strdup(doc->language) : NULL;
	h->tags = doc->tags ? strdup(doc->tags) : NULL;
	h->has_cost = doc->has_cost;
	h->cost_cents = doc->cost_cents;
	h->rank = doc->rank;
	if (!h->id || (doc->name && !h->name) || (doc->state && !h->state) ||
	    (doc->language && !h->language) || (doc->tags && !h->tags)) {
		hit_free(h);
		return -1;
	}
	return 0;
}

/* The hits of one transcription (item n, fields in doc): at most `per` in the order said,
 * each told how many of its passages match. 0, or -1 with err filled. */
static int doc_hits(sqlite3 *db, sqlite3_stmt *ps, sqlite3_stmt *cs, sqlite3_int64 n,
		    const struct content_hit *doc, long per, struct hit_list *l,
		    struct steno_error *err)
{
	sqlite3_int64 lo = n * CONTENT_SEGS_PER_ITEM, hi = lo + CONTENT_SEGS_PER_ITEM - 1;
	size_t first = l->n;
	long taken = 0;
	int step = SQLITE_DONE;

	sqlite3_reset(ps);
	sqlite3_bind_int64(ps, 6, lo);
	sqlite3_bind_int64(ps, 7, hi);
	while (taken < per && (long)l->n < l->limit && (step = sqlite3_step(ps)) == SQLITE_ROW) {
		struct content_hit h;
		bool nomem = false;
		if (hit_of_doc(doc, &h) < 0)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		h.speaker = col_dup(ps, 0, &nomem);
		h.start = sqlite3_column_type(ps, 1) == SQLITE_NULL ? -1 : sqlite3_column_double(ps, 1);
		h.end = sqlite3_column_type(ps, 2) == SQLITE_NULL ? -1 : sqlite3_column_double(ps, 2);
		h.para = (long)sqlite3_column_int64(ps, 3);
		h.snippet = col_dup(ps, 4, &nomem);
		if (nomem)
			hit_free(&h);
		/* no filter: it saw the transcription already */
		if (nomem || hit_push(l, &h) < 0)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		taken++;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return content_sql_fail(db, err, "search");
	long all = taken;
	if (step == SQLITE_ROW) {   /* more than were taken: count them */
		sqlite3_reset(cs);
		sqlite3_bind_int64(cs, 2, lo);
		sqlite3_bind_int64(cs, 3, hi);
		if (sqlite3_step(cs) != SQLITE_ROW)
			return content_sql_fail(db, err, "search");
		all = (long)sqlite3_column_int64(cs, 0);
	}
	for (size_t i = first; i < l->n; i++)
		l->v[i].item_hits = all;
	return 0;
}

/* ---- a query with a prefix ----
 * FTS5 merges the doclists of every word of a prefix (gard*: garden, gardening, ...) each
 * time a statement starts: one statement a transcription would merge them again for each.
 * So the passages of a batch of transcriptions are read in one scan, whose filter
 * (content_take, in C) keeps the first `per` of each and counts them all; snippets are made
 * only for the rows it keeps. */

struct scan_doc {
	sqlite3_int64 n;
	struct content_hit doc;       /* the transcription's fields */
	long taken, all;
};

struct scan {
	struct scan_doc *v;           /* in rank order */
	sqlite3_int64 *sorted;        /* the v[i].n sorted, for the filter's lookups */
	size_t *at;                   /* sorted[k] is v[at[k]].n */
	size_t n, cap;
	long per;
};

static struct scan_doc *scan_find(struct scan *sc, sqlite3_int64 n)
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
	struct scan *sc = argc == 2 ? sqlite3_value_pointer(argv[1], "steno_scan") : NULL;
	struct scan_doc *d = sc ?
		scan_find(sc, sqlite3_value_int64(argv[0]) / CONTENT_SEGS_PER_ITEM) : NULL;
	int keep = d && d->taken < sc->per;
	if (d) {
		d->all++;
		d->taken += keep;
	}
	sqlite3_result_int(ctx, keep);
}

static const char scan_sql[] =
	"SELECT content_fts.rowid / 16777216, s.speaker, s.start_ms / 1000.0,"
	" s.end_ms / 1000.0, s.para, snippet(content_fts, 0, ?3, ?4, '…', ?5)"
	" FROM content_fts JOIN content_segs s ON s.seg = content_fts.rowid"
	" WHERE content_fts MATCH ?1 AND content_fts.rowid BETWEEN ?6 AND ?7"
	" AND content_take(content_fts.rowid, ?8) ORDER BY content_fts.rowid";

static void scan_clear(struct scan *sc)
{
	for (size_t i = 0; i < sc->n; i++)
		hit_free(&sc->v[i].doc);
	sc->n = 0;
}

static void scan_free(struct scan *sc)
{
	scan_clear(sc);
	free(sc->v);
	free(sc->sorted);
	free(sc->at);
}

/* Adds a transcription (taken whole): 0, or -1 on no memory. */
static int scan_add(struct scan *sc, sqlite3_int64 n, struct content_hit *doc)
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
			hit_free(doc);
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

/* Reads the passages of the batch and adds them to l: transcriptions in rank order, each
 * one's hits in the order said. The batch is emptied. */
static int scan_run(sqlite3 *db, struct scan *sc, const char *fts, const struct content_query *q,
		    struct hit_list *l, struct steno_error *err)
{
	struct hit_list rows = { .limit = LONG_MAX };
	size_t *doc_of = NULL, cap = 0;
	sqlite3_stmt *st = NULL;
	int rc = 0, step;

	if (!sc->n)
		return 0;
	/* its state comes with each call (a pointer bound to ?8): defined once a connection;
	 * defining it again while statements run is refused (SQLITE_BUSY), and needless */
	int def = sqlite3_create_function(db, "content_take", 2, SQLITE_UTF8, NULL, content_take,
					  NULL, NULL);
	if (def != SQLITE_OK && def != SQLITE_BUSY)
		return content_sql_fail(db, err, "search");
	if (content_prepare(db, scan_sql, &st, err) < 0) {
		rc = -1;
		goto out;
	}
	bind_query(st, fts, q);
	sqlite3_bind_pointer(st, 8, sc, "steno_scan", NULL);
	sqlite3_bind_int64(st, 6, sc->sorted[0] * CONTENT_SEGS_PER_ITEM);
	sqlite3_bind_int64(st, 7, sc->sorted[sc->n - 1] * CONTENT_SEGS_PER_ITEM +
			   CONTENT_SEGS_PER_ITEM - 1);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct content_hit h = { .start = -1, .end = -1 };
		bool nomem = false;
		h.speaker = col_dup(st, 1, &nomem);
		h.start = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 2);
		h.end = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 3);
		h.para = (long)sqlite3_column_int64(st, 4);
		h.snippet = col_dup(st, 5, &nomem);
		if (rows.n == cap) {
			size_t *d = realloc(doc_of, (cap = cap ? cap * 2 : 64) * sizeof *d);
			if (d)
				doc_of = d;
			else
				nomem = true;
		}
		if (nomem)
			hit_free(&h);
		if (nomem || hit_push(&rows, &h) < 0) {
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
			if (hit_of_doc(&sc->v[d].doc, &h) < 0) {
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
			if (hit_push(l, &h) < 0)
				rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		}
out:
	sqlite3_finalize(st);
	content_hits_free(rows.v, rows.n);
	free(doc_of);
	scan_clear(sc);
	return rc;
}

/* ---- a prefix made its words ----
 * The words of the store that start with a prefix are few and cheap to list from the small
 * whole-text index (fts5vocab over content_docs: a b-tree range of terms); a query whose
 * prefixes are written as their words, ("review" OR "revue"), is read as a query of words,
 * transcription by transcription, without the merge. */

#define PREFIX_WORDS_MAX 64

struct sbuf {
	char *s;
	size_t n, cap;
	bool nomem;
};

static void sb_put(struct sbuf *b, const char *s, size_t k)
{
	if (b->nomem)
		return;
	if (b->n + k + 1 > b->cap) {
		size_t cap = (b->n + k + 1) * 2;
		char *t = realloc(b->s, cap);
		if (!t) {
			b->nomem = true;
			return;
		}
		b->s = t;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, k);
	b->n += k;
	b->s[b->n] = '\0';
}

/* Appends the words of the store that start with pre (lower case ASCII) as ("a" OR "b"):
 * 1, or 0 when there are none or too many (the caller keeps the scan), -1 on error. */
static int put_words(sqlite3 *db, sqlite3_stmt *st, const char *pre, struct sbuf *b)
{
	char hi[200];
	size_t k = strlen(pre);
	snprintf(hi, sizeof hi, "%s", pre);
	hi[k - 1]++;   /* ASCII below 0x7f: the next prefix */
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, pre, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hi, -1, SQLITE_STATIC);
	int n = 0, step;
	size_t mark = b->n;
	sb_put(b, "(", 1);
	while ((step = sqlite3_step(st)) == SQLITE_ROW && n <= PREFIX_WORDS_MAX) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		if (!t)
			continue;
		if (n++)
			sb_put(b, " OR ", 4);
		sb_put(b, "\"", 1);
		for (const char *c = t; *c; c++)
			sb_put(b, *c == '"' ? "\"\"" : c, *c == '"' ? 2 : 1);
		sb_put(b, "\"", 1);
	}
	sb_put(b, ") ", 2);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return -1;
	if (n == 0 || n > PREFIX_WORDS_MAX) {
		b->n = mark;
		return 0;
	}
	return 1;
}

/* fts (content_fts_query's output) with each prefix written as its words; NULL when that
 * cannot be (no memory, a prefix of a phrase, of other than ASCII letters and digits, of
 * no word or of too many): the scan reads it then. */
static char *expand_prefixes(sqlite3 *db, const char *fts)
{
	struct sbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	const char *p = fts;
	bool ok = sqlite3_exec(db, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.content_docs_words"
			       " USING fts5vocab(main, content_docs, 'row')", NULL, NULL,
			       NULL) == SQLITE_OK &&
		sqlite3_prepare_v2(db, "SELECT term FROM temp.content_docs_words"
				   " WHERE term >= ?1 AND term < ?2", -1, &st, NULL) == SQLITE_OK;
	while (ok && *p) {
		const char *e = *p == '"' ? skip_quoted(p) : p + 1;
		while (*e && *e != ' ' && *p != '"')
			e++;
		if (*p == '"' && e[-1] == '*') {
			char pre[200];
			size_t k = 0;
			for (const char *c = p + 1; c < e - 2 && ok; c++) {
				ok = k + 2 < sizeof pre && (((*c >= 'a' && *c <= 'z') ||
					(*c >= '0' && *c <= '9')) || (*c >= 'A' && *c <= 'Z'));
				pre[k++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
			}
			pre[k] = '\0';
			ok = ok && k && put_words(db, st, pre, &b) == 1;
		} else {
			sb_put(&b, p, (size_t)(e - p));
			sb_put(&b, " ", 1);
		}
		p = e;
		while (*p == ' ')
			p++;
	}
	sqlite3_finalize(st);
	if (!ok || b.nomem || !b.s) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

static int run_text(sqlite3 *db, const char *fts, const char *docq,
		    const struct content_query *q, struct hit_list *l, struct steno_error *err)
{
	sqlite3_stmt *ds = NULL, *ps = NULL, *cs = NULL;
	int rc = 0, step = SQLITE_DONE;
	long per = q->per_item > 0 ? q->per_item : 5;
	bool prefix = strstr(fts, "\"*") != NULL;   /* not written as words: the scan */
	struct scan sc = { .per = per };

	if (prepare_docs(db, &ds, err) < 0 ||
	    content_prepare(db, passages_sql, &ps, err) < 0 ||
	    content_prepare(db, count_sql, &cs, err) < 0) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_text(ds, 1, docq, -1, SQLITE_STATIC);
	if (q->org)
		sqlite3_bind_text(ds, 2, q->org, -1, SQLITE_STATIC);
	bind_query(ps, fts, q);
	sqlite3_bind_text(cs, 1, fts, -1, SQLITE_STATIC);
	while (rc == 0 && (long)l->n < l->limit && (step = sqlite3_step(ds)) == SQLITE_ROW) {
		struct content_hit doc = { .start = -1, .end = -1, .para = -1 };
		bool nomem = false;
		item_cols(&doc, ds, 0, &nomem);
		sqlite3_int64 n = sqlite3_column_int64(ds, 7);
		if (nomem || !doc.id || (q->keep && !q->keep(q->keep_ud, &doc))) {
			if (nomem)
				rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		} else if (!prefix) {
			rc = doc_hits(db, ps, cs, n, &doc, per, l, err);
		} else {
			if (scan_add(&sc, n, &doc) < 0)   /* doc is taken (or freed) */
				rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
			else if ((long)sc.n >= (l->limit - (long)l->n) / per + 8)
				rc = scan_run(db, &sc, fts, q, l, err);
			continue;
		}
		hit_free(&doc);
	}
	if (rc == 0 && (long)l->n < l->limit && step != SQLITE_DONE)
		rc = content_sql_fail(db, err, "search");
	if (rc == 0)
		rc = scan_run(db, &sc, fts, q, l, err);
out:
	scan_free(&sc);
	sqlite3_finalize(ds);
	sqlite3_finalize(ps);
	sqlite3_finalize(cs);
	return rc;
}

int content_db_search(sqlite3 *db, const struct content_query *q, struct content_hit **hits,
		      size_t *n, struct steno_error *err)
{
	struct hit_list l = { .limit = q->limit > 0 ? q->limit : 50 };
	char *fts = content_fts_query(q->text ? q->text : "");
	int rc = 0;

	*hits = NULL;
	*n = 0;
	if (!fts)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	if (!*fts) {
		free(fts);
		return steno_error_invalid(err, "query", "nothing to search for");
	}
	if (q->names)   /* names: the prefixes as they are (a small index) */
		rc = run_names(db, fts, q, &l, err);
	char *words = rc == 0 && strstr(fts, "\"*") ? expand_prefixes(db, fts) : NULL;
	const char *text = words ? words : fts;
	char *docq = rc == 0 ? doc_query(text) : NULL;
	if (rc == 0 && !docq)
		rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	if (rc == 0 && docq)   /* a query of NOTs only keeps its own (FTS5 refuses it) */
		rc = run_text(db, text, *docq ? docq : text, q, &l, err);
	free(docq);
	free(words);
	free(fts);
	if (rc < 0) {
		content_hits_free(l.v, l.n);
		return -1;
	}
	*hits = l.v;
	*n = l.n;
	return 0;
}

/* ---- the reader ---- */

void content_doc_free(struct content_doc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->paras[i].speaker);
		free(d->paras[i].text);
	}
	free(d->paras);
	free(d->id);
	free(d->name);
	free(d->version);
	memset(d, 0, sizeof *d);
}

/* Appends a segment's text to the paragraph. */
static int para_append(struct content_para *p, const char *text)
{
	size_t a = p->text ? strlen(p->text) : 0, b = strlen(text);
	char *t = realloc(p->text, a + b + 1);
	if (!t)
		return -1;
	memcpy(t + a, text, b + 1);
	p->text = t;
	return 0;
}

static int load_segments(sqlite3 *db, sqlite3_int64 n, struct content_doc *d,
			 struct steno_error *err)
{
	sqlite3_stmt *st;
	long last = -1;
	size_t cap = 0;
	int step;
	bool nomem = false;

	if (content_prepare(db, "SELECT para, speaker, start_ms / 1000.0, end_ms / 1000.0, text"
			    " FROM content_segs WHERE seg BETWEEN ?1 AND ?2 ORDER BY seg", &st, err) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, n * CONTENT_SEGS_PER_ITEM);
	sqlite3_bind_int64(st, 2, n * CONTENT_SEGS_PER_ITEM + CONTENT_SEGS_PER_ITEM - 1);
	while (!nomem && (step = sqlite3_step(st)) == SQLITE_ROW) {
		long para = (long)sqlite3_column_int64(st, 0);
		if (para != last || !d->n) {
			if (d->n == cap) {
				cap = cap ? cap * 2 : 64;
				struct content_para *v = realloc(d->paras, cap * sizeof *v);
				if (!v) {
					nomem = true;
					break;
				}
				d->paras = v;
			}
			struct content_para *p = &d->paras[d->n++];
			memset(p, 0, sizeof *p);
			p->speaker = col_dup(st, 1, &nomem);
			p->start = p->end = -1;
			last = para;
		}
		struct content_para *p = &d->paras[d->n - 1];
		if (p->start < 0 && sqlite3_column_type(st, 2) != SQLITE_NULL)
			p->start = sqlite3_column_double(st, 2);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			p->end = sqlite3_column_double(st, 3);
		const char *text = (const char *)sqlite3_column_text(st, 4);
		if (para_append(p, text ? text : "") < 0)
			nomem = true;
	}
	int rc = nomem ? steno_error_set(err, STENO_ERR_NOMEM, "out of memory")
		: step != SQLITE_DONE ? content_sql_fail(db, err, "read a transcript") : 0;
	sqlite3_finalize(st);
	return rc;
}

int content_db_load(sqlite3 *db, const char *id, struct content_doc *out,
		    struct steno_error *err)
{
	sqlite3_stmt *st;
	bool nomem = false;
	sqlite3_int64 n = 0;

	memset(out, 0, sizeof *out);
	if (content_prepare(db, "SELECT id, name, version, fetched_s, n FROM content_items"
			    " WHERE id = ?1 AND version IS NOT NULL", &st, err) < 0)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		out->id = col_dup(st, 0, &nomem);
		out->name = col_dup(st, 1, &nomem);
		out->version = col_dup(st, 2, &nomem);
		out->fetched_s = sqlite3_column_int64(st, 3);
		n = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return content_sql_fail(db, err, "read a transcript");
	if (step == SQLITE_DONE)
		return 0;
	if (nomem || load_segments(db, n, out, err) < 0) {
		if (nomem)
			steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		content_doc_free(out);
		return -1;
	}
	return 1;
}

/* ---- time codes ---- */

void content_timecode(double seconds, char *buf, size_t n)
{
	if (seconds < 0 || !isfinite(seconds)) {
		snprintf(buf, n, "--:--");
		return;
	}
	long s = (long)seconds;
	if (s >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

int content_parse_timecode(const char *s, double *seconds)
{
	long part[3];
	int k = 0;
	const char *p = s;
	char *end;

	while (p && *p == ' ')
		p++;
	if (!p || !*p)
		return -1;
	if (strpbrk(p, "hms")) {   /* 1h2m3s, 12m30s, 90s */
		double total = 0;
		while (*p) {
			long v = strtol(p, &end, 10);
			if (end == p || v < 0)
				return -1;
			total += (double)v * (*end == 'h' ? 3600 : *end == 'm' ? 60 : 1);
			if (*end != 'h' && *end != 'm' && *end != 's')
				return *end ? -1 : (*seconds = total, 0);
			p = end + 1;
		}
		*seconds = total;
		return 0;
	}
	for (;;) {
		if (k == 3)
			return -1;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || (k && v >= 60))
			return -1;
		part[k++] = v;
		if (*end == '\0')
			break;
		if (*end != ':')
			return -1;
		p = end + 1;
	}
	double total = 0;
	for (int i = 0; i < k; i++)
		total = total * 60 + (double)part[i];
	*seconds = total;
	return 0;
}
