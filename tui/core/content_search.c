/* Transcript content in the local store: full-text search (transcriptions ranked, then their
 * passages in the order said, with snippets). The query's forms are in content_query.c. */
#include "config.h"
#include "core/content_db.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"

/* ---- hits ---- */

char *content_col_dup(sqlite3_stmt *st, int col, bool *nomem)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*nomem = true;
	return d;
}

void content_hit_clear(struct content_hit *h)
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
		content_hit_clear(&hits[i]);
	free(hits);
}

/* Adds h to the list (taken whole; freed on no memory): 0, or -1 on no memory. */
int content_hit_push(struct content_hit_list *l, struct content_hit *h)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct content_hit *v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			content_hit_clear(h);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *h;
	return 0;
}

/* Keeps h (taken whole, freed when not kept): 1 kept, 0 not, -1 on no memory. */
static int hit_keep(struct content_hit_list *l, struct content_hit *h,
		    const struct content_query *q)
{
	if (q->keep && !q->keep(q->keep_ud, h)) {
		content_hit_clear(h);
		return 0;
	}
	return content_hit_push(l, h) < 0 ? -1 : 1;
}

/* The transcription's columns from `at` on: id, name, state, language, tags, cost. */
static void item_cols(struct content_hit *h, sqlite3_stmt *st, int at, bool *nomem)
{
	h->id = content_col_dup(st, at, nomem);
	h->name = content_col_dup(st, at + 1, nomem);
	h->state = content_col_dup(st, at + 2, nomem);
	h->language = content_col_dup(st, at + 3, nomem);
	h->tags = content_col_dup(st, at + 4, nomem);
	h->has_cost = sqlite3_column_type(st, at + 5) != SQLITE_NULL;
	h->cost_cents = sqlite3_column_int64(st, at + 5);
}

/* A name hit: the transcription's columns, then the marked name (or tags). */
static int name_take(struct content_hit_list *l, sqlite3_stmt *st, const struct content_query *q)
{
	struct content_hit h = { .start = -1, .end = -1, .para = -1 };
	bool nomem = false;
	item_cols(&h, st, 0, &nomem);
	h.rank = sqlite3_column_double(st, 6);
	h.snippet = content_col_dup(st, 7, &nomem);
	if (nomem || !h.id) {
		content_hit_clear(&h);
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
	" FROM content_names JOIN content_view i ON i.n = content_names.rowid"
	" WHERE content_names MATCH ?1 AND (?2 IS NULL OR i.org = ?2)"
	" ORDER BY content_names.rank";

/* Transcriptions that may hold a hit, best first: BM25 over each one's whole text (steno_bm25
 * below), so a word in most passages costs one row a transcription, not one a passage. */
static const char docs_sql[] =
	"SELECT rowid, steno_bm25(content_docs, ?2) AS r FROM content_docs"
	" WHERE content_docs MATCH ?1 ORDER BY r, rowid";

/* The columns of a ranked transcription, when it is of the organization asked: read for the
 * transcriptions shown only, not for every one the sort sees. */
static const char item_sql[] =
	"SELECT " ITEM_COLS ", c.seg_starts FROM content_view i JOIN content_items c ON c.n = i.n"
	" WHERE i.n = ?1 AND (?2 IS NULL OR i.org = ?2)";

/* The snippets' marks (?3, ?4) and length (?5). */
static void bind_marks(sqlite3_stmt *st, const struct content_query *q)
{
	sqlite3_bind_text(st, 3, q->mark_open ? q->mark_open : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, q->mark_close ? q->mark_close : "", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, q->snippet_words > 0 ? q->snippet_words : 12);
}

static void bind_query(sqlite3_stmt *st, const char *fts, const struct content_query *q)
{
	sqlite3_bind_text(st, 1, fts, -1, SQLITE_STATIC);
	if (q->org)
		sqlite3_bind_text(st, 2, q->org, -1, SQLITE_STATIC);
	bind_marks(st, q);
}

static int run_names(sqlite3 *db, const char *fts, const struct content_query *q,
		     struct content_hit_list *l, struct steno_error *err)
{
	bool fresh = false;
	sqlite3_stmt *st = content_kept(db, names_sql, &fresh, err);
	int rc = 0, step = SQLITE_DONE;

	if (!st)
		return -1;
	bind_query(st, fts, q);
	while ((long)l->n < l->limit && (step = sqlite3_step(st)) == SQLITE_ROW)
		if (name_take(l, st, q) < 0) {
			rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
			break;
		}
	if (rc == 0 && (long)l->n < l->limit && step != SQLITE_DONE)
		rc = content_sql_fail(db, err, "search");
	content_unkeep(st, fresh);
	return rc;
}

/* A copy of the transcription's fields of doc (the passage's own are filled after). */
int content_hit_of_doc(const struct content_hit *doc, struct content_hit *h)
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
		content_hit_clear(h);
		return -1;
	}
	return 0;
}

/* ---- a query of phrases joined by OR or by AND: its passages from the ranking's log ---- */

static const char seg_sql[] =
	"SELECT speaker, start_ms / 1000.0, end_ms / 1000.0, para,"
	" steno_passage_snippet(text, ?2, ?3, ?4, '…', ?5) FROM content_segs WHERE seg = ?1";

struct any {
	enum content_form form;
	struct content_log log;
	sqlite3_stmt *seg;
	bool seg_fresh;
	struct content_passage *pass;
	long npass;
};

/* A hit of passage p of item n (fields in doc): its row read, its snippet made of the
 * matches the log has of it. 0, or -1 with err. */
static int any_hit(sqlite3 *db, struct any *a, sqlite3_int64 n, struct content_passage *p,
		   const struct content_hit *doc, struct content_hit *h, struct steno_error *err)
{
	sqlite3_reset(a->seg);
	sqlite3_bind_int64(a->seg, 1, n * CONTENT_SEGS_PER_ITEM + p->rank);
	sqlite3_bind_pointer(a->seg, 2, p, "steno_passage", NULL);
	if (sqlite3_step(a->seg) != SQLITE_ROW)
		return content_sql_fail(db, err, "search");
	if (content_hit_of_doc(doc, h) < 0)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	bool nomem = false;
	h->speaker = content_col_dup(a->seg, 0, &nomem);
	h->start = sqlite3_column_type(a->seg, 1) == SQLITE_NULL ? -1 :
		sqlite3_column_double(a->seg, 1);
	h->end = sqlite3_column_type(a->seg, 2) == SQLITE_NULL ? -1 :
		sqlite3_column_double(a->seg, 2);
	h->para = (long)sqlite3_column_int64(a->seg, 3);
	h->snippet = content_col_dup(a->seg, 4, &nomem);
	if (nomem) {
		content_hit_clear(h);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	return 0;
}

/* The hits of item n that the passages' index would give (scan_run), read from the log: 1
 * done, 0 when the log or the item's seg_starts (column 6 of is) cannot tell (then the
 * passages' index is asked), -1 with err. */
static int any_hits(sqlite3 *db, struct any *a, sqlite3_stmt *is, sqlite3_int64 n,
		    long known, const struct content_hit *doc, long per, struct content_hit_list *l,
		    struct steno_error *err)
{
	long room = l->limit - (long)l->n < per ? l->limit - (long)l->n : per;
	if (room > a->npass) {
		struct content_passage *v = realloc(a->pass, (size_t)room * sizeof *v);
		if (!v)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		a->pass = v;
		a->npass = room;
	}
	long all = content_log_passages(&a->log, n, a->form, sqlite3_column_blob(is, 6),
					sqlite3_column_bytes(is, 6), a->pass, room, known);
	if (all < 0)
		return 0;
	size_t first = l->n;
	for (long i = 0; i < all && i < room; i++) {
		struct content_hit h;
		if (any_hit(db, a, n, &a->pass[i], doc, &h, err) < 0)
			return -1;
		if (content_hit_push(l, &h) < 0)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	for (size_t i = first; i < l->n; i++)
		l->v[i].item_hits = all;
	return 1;
}

/* Readies a: 0, or -1 (err filled). */
static int any_open(sqlite3 *db, struct any *a, const struct content_query *q,
		    struct steno_error *err)
{
	if (!(a->seg = content_kept(db, seg_sql, &a->seg_fresh, err))) {
		if (content_define_passages(db) < 0)
			return content_sql_fail(db, err, "define steno_passage_snippet");
		if (!(a->seg = content_kept(db, seg_sql, &a->seg_fresh, err)))
			return -1;
	}
	bind_marks(a->seg, q);
	return 0;
}

static void any_close(struct any *a)
{
	content_unkeep(a->seg, a->seg_fresh);
	content_log_free(&a->log);
	free(a->pass);
}

/* A query's walk over the transcriptions it ranks. */
struct run {
	sqlite3 *db;
	const struct content_query *q;
	struct content_hit_list *l;
	struct steno_error *err;
	sqlite3_stmt *is, *ss;
	struct content_scan sc;
	struct any a;
	long per;
	bool prefix, any;
};

/* The hits of the transcription n ranked r (of another organization, or one the query's
 * keep turns down: none). 0, or -1 with err. */
static int take_doc(struct run *u, sqlite3_int64 n, double r, long known)
{
	struct content_hit doc = { .start = -1, .end = -1, .para = -1 };
	bool nomem = false;
	sqlite3_reset(u->is);
	sqlite3_bind_int64(u->is, 1, n);
	int istep = sqlite3_step(u->is);
	if (istep != SQLITE_ROW)   /* of another organization (or gone) */
		return istep == SQLITE_DONE ? 0 : content_sql_fail(u->db, u->err, "search");
	item_cols(&doc, u->is, 0, &nomem);
	doc.rank = r;
	if (nomem || !doc.id || (u->q->keep && !u->q->keep(u->q->keep_ud, &doc))) {
		content_hit_clear(&doc);
		return nomem ? steno_error_set(u->err, STENO_ERR_NOMEM, "out of memory") : 0;
	}
	if (u->any && !u->a.log.incomplete) {
		/* the ranking is over when its first row comes: the log is whole */
		int got = any_hits(u->db, &u->a, u->is, n, known, &doc, u->per, u->l, u->err);
		if (got) {
			content_hit_clear(&doc);
			return got < 0 ? -1 : 0;
		}
	}
	/* a batch of one (FTS5 seeks to its range of passages), or of several for a prefix
	 * (merged once a statement: once a batch) */
	if (content_scan_add(&u->sc, n, &doc) < 0)   /* doc is taken (or freed) */
		return steno_error_set(u->err, STENO_ERR_NOMEM, "out of memory");
	if (!u->prefix || (long)u->sc.n >= (u->l->limit - (long)u->l->n) / u->per + 8)
		return content_scan_run(u->db, u->ss, &u->sc, u->l, u->err);
	return 0;
}

/* A one-word query's transcription (content_frequent_hits): take_doc's. */
static int take_picked(void *ud, sqlite3_int64 n, double r, long passages)
{
	return take_doc(ud, n, r, passages);
}

/* Drops the hits of l from the first on. */
static void hits_drop(struct content_hit_list *l, size_t first)
{
	while (l->n > first)
		content_hit_clear(&l->v[--l->n]);
}

static int run_text(sqlite3 *db, const char *fts, const char *docq,
		    const struct content_query *q, struct content_hit_list *l, struct steno_error *err)
{
	sqlite3_stmt *ds = NULL;
	bool dfresh = false, ifresh = false, sfresh = false;
	int rc = 0, step = SQLITE_DONE;
	long per = q->per_item > 0 ? q->per_item : 5;
	bool prefix = strstr(fts, "\"*") != NULL;   /* not written as words: batches */
	enum content_form form = prefix ? CONTENT_FORM_OTHER : content_query_form(fts);
	struct run u = { .db = db, .q = q, .l = l, .err = err, .per = per, .prefix = prefix,
		.any = form != CONTENT_FORM_OTHER, .a = { .form = form }, .sc = { .per = per } };
	char *term = NULL;
	size_t first = l->n;

	if ((u.any && any_open(db, &u.a, q, err) < 0) ||
	    !(u.is = content_kept(db, item_sql, &ifresh, err)) ||
	    !(u.ss = content_kept_fts(db, content_scan_sql, &sfresh, err))) {
		rc = -1;
		goto out;
	}
	if (q->org)
		sqlite3_bind_text(u.is, 2, q->org, -1, SQLITE_STATIC);
	bind_query(u.ss, fts, q);
	if (form == CONTENT_FORM_ANY && (term = content_frequent_term(db, fts))) {
		/* the word alone (others joined by OR are said nowhere): one phrase, whose
		 * first matches are its first passages' */
		char *one = content_fts_quote(term);
		struct content_frequent_walk w = { .db = db, .log = &u.a.log, .err = err,
			.per = per, .l = l, .take = take_picked, .ud = &u };
		rc = one ? content_frequent_hits(&w, term, one) :
			steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		free(one);
		if (rc != 0)
			goto out;
		hits_drop(l, first);   /* the usual ranking gives them */
		content_log_reset(&u.a.log);
	}
	if (!(ds = content_kept_fts(db, docs_sql, &dfresh, err))) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_text(ds, 1, docq, -1, SQLITE_STATIC);
	if (u.any)
		sqlite3_bind_pointer(ds, 2, &u.a.log, "steno_log", NULL);
	while (rc == 0 && (long)l->n < l->limit && (step = sqlite3_step(ds)) == SQLITE_ROW)
		rc = take_doc(&u, sqlite3_column_int64(ds, 0), sqlite3_column_double(ds, 1), -1);
	if (rc == 0 && (long)l->n < l->limit && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = content_sql_fail(db, err, "search");
	if (rc == 0)
		rc = content_scan_run(db, u.ss, &u.sc, l, err);
out:
	if (rc > 0)
		rc = 0;
	if (u.any)
		any_close(&u.a);
	free(term);
	content_scan_free(&u.sc);
	content_unkeep(ds, dfresh);
	content_unkeep(u.is, ifresh);
	content_unkeep(u.ss, sfresh);
	return rc;
}

void content_db_forget(sqlite3 *db)
{
	const char *const ours[] = { names_sql, docs_sql, item_sql, content_scan_sql, seg_sql,
		content_frequent_sql, content_chosen_sql, content_word_sql, content_prefix_sql };
	sqlite3_stmt *st = sqlite3_next_stmt(db, NULL);
	while (st) {
		sqlite3_stmt *next = sqlite3_next_stmt(db, st);
		const char *t = sqlite3_sql(st);
		for (size_t i = 0; t && i < sizeof ours / sizeof *ours; i++)
			if (!strcmp(t, ours[i])) {
				/* finalizing may finalize FTS5's own statements too: start over */
				sqlite3_finalize(st);
				next = sqlite3_next_stmt(db, NULL);
				break;
			}
		st = next;
	}
}

int content_db_search(sqlite3 *db, const struct content_query *q, struct content_hit **hits,
		      size_t *n, struct steno_error *err)
{
	struct content_hit_list l = { .limit = q->limit > 0 ? q->limit : 50 };
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
	char *words = rc == 0 && strstr(fts, "\"*") ? content_expand_prefixes(db, fts) : NULL;
	const char *text = words ? words : fts;
	char *docq = rc == 0 ? content_doc_query(text) : NULL;
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
