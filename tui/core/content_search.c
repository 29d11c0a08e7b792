/* Transcript content in the local store: full-text search (FTS5, bm25, snippets), the
 * reader's read of one transcript, time codes. */
#include "config.h"
#include "core/content_db.h"

#include <math.h>
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

/* Columns 0..11: id, name, speaker, start, end, para, snippet, rank, state, language, tags,
 * cost. 1 kept, 0 not, -1 on no memory. */
static int hit_take(struct hit_list *l, sqlite3_stmt *st, const struct content_query *q)
{
	struct content_hit h = { 0 };
	bool nomem = false;

	h.id = col_dup(st, 0, &nomem);
	h.name = col_dup(st, 1, &nomem);
	h.speaker = col_dup(st, 2, &nomem);
	h.start = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 3);
	h.end = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 4);
	h.para = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 5);
	h.snippet = col_dup(st, 6, &nomem);
	h.rank = sqlite3_column_double(st, 7);
	h.state = col_dup(st, 8, &nomem);
	h.language = col_dup(st, 9, &nomem);
	h.tags = col_dup(st, 10, &nomem);
	h.has_cost = sqlite3_column_type(st, 11) != SQLITE_NULL;
	h.cost_cents = sqlite3_column_int64(st, 11);
	if (nomem || !h.id) {
		hit_free(&h);
		return nomem ? -1 : 0;
	}
	if (q->keep && !q->keep(q->keep_ud, &h)) {
		hit_free(&h);
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct content_hit *v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			hit_free(&h);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = h;
	return 1;
}

static const char names_sql[] =
	"SELECT i.id, i.name, NULL, NULL, NULL, NULL,"
	" CASE WHEN instr(highlight(content_names, 0, ?3, ?4), ?3) > 0"
	"  THEN highlight(content_names, 0, ?3, ?4)"
	"  ELSE coalesce(i.name, '') || ' [' || replace(highlight(content_names, 1, ?3, ?4),"
	"   char(9), ', ') || ']' END,"
	" content_names.rank, i.state, i.language, i.tags, i.cost_cents"
	" FROM content_names JOIN content_items i ON i.n = content_names.rowid"
	" WHERE content_names MATCH ?1 AND (?2 IS NULL OR i.org = ?2)"
	" ORDER BY content_names.rank";

static const char text_sql[] =
	"SELECT i.id, i.name, s.speaker, s.start_ms / 1000.0, s.end_ms / 1000.0, s.para,"
	" snippet(content_fts, 0, ?3, ?4, '…', ?5), content_fts.rank,"
	" i.state, i.language, i.tags, i.cost_cents"
	" FROM content_fts JOIN content_segs s ON s.seg = content_fts.rowid"
	" JOIN content_items i ON i.n = s.seg / 16777216"
	" WHERE content_fts MATCH ?1 AND (?2 IS NULL OR i.org = ?2)"
	/* FTS5 hands the rows out in rank (bm25) order itself: the snippets are made only
	 * for the rows read, not for every match before a sort */
	" ORDER BY content_fts.rank";

static int run_query(sqlite3 *db, const char *sql, const char *fts,
		     const struct content_query *q, struct hit_list *l, struct steno_error *err)
{
	sqlite3_stmt *st;
	int rc = 0, step;

	if (content_prepare(db, sql, &st, err) < 0)
		return -1;
	sqlite3_bind_text(st, 1, fts, -1, SQLITE_STATIC);
	if (q->org)
		sqlite3_bind_text(st, 2, q->org, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, q->mark_open ? q->mark_open : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, q->mark_close ? q->mark_close : "", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, q->snippet_words > 0 ? q->snippet_words : 12);
	while ((long)l->n < l->limit && (step = sqlite3_step(st)) == SQLITE_ROW)
		if (hit_take(l, st, q) < 0) {
			rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
			break;
		}
	if (rc == 0 && (long)l->n < l->limit && step != SQLITE_DONE)
		rc = content_sql_fail(db, err, "search");
	sqlite3_finalize(st);
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
	if (q->names)
		rc = run_query(db, names_sql, fts, q, &l, err);
	if (rc == 0)
		rc = run_query(db, text_sql, fts, q, &l, err);
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
