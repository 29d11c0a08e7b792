/* Transcript content in the local store: a transcription's matching passages read from the
 * index of its whole text (content_docs), for a query of phrases joined by OR only or by AND
 * only.
 *
 * The ranking walks each transcription's matches in its whole text already (steno_bm25); with
 * a log (struct content_log) it notes them. Where each passage starts in the whole text (in
 * tokens) is kept with the item (content_items.seg_starts, schema step 6, made by the
 * aggregate steno_seg_starts with the index's own tokenizer): a match lies in the passage it
 * starts in when it ends there too (the whole text is the passages joined by a space, so a
 * phrase may run across two, which no passage holds). A passage matches phrases joined by OR
 * when it holds one of them, by AND when it holds every one: a transcription's passages and
 * their count are read from the log, without a statement of FTS5 on the passages' index for
 * each transcription shown, which walks every passage of it that matches to count them.
 * Queries with NOT, AND and OR together, or prefixes not written as words, are asked of the
 * passages' index (content_scan.c), as is any when the log gave up (CONTENT_LOG_MAX). */
#include "config.h"
#include "core/content_db.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"
#include "core/localdb.h"

/* ---- the index's tokenizer ---- */

static const char *tokenizer_args[] = { CONTENT_TOKENIZER_ARGS };

int content_tokenizer_open(sqlite3 *db, struct content_tokenizer *t)
{
	fts5_api *api = NULL;
	sqlite3_stmt *st;
	void *ud = NULL;

	memset(t, 0, sizeof *t);
	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (!api || api->xFindTokenizer(api, CONTENT_TOKENIZER_NAME, &ud, &t->api) != SQLITE_OK ||
	    t->api.xCreate(ud, tokenizer_args, sizeof tokenizer_args / sizeof *tokenizer_args,
			   &t->tok) != SQLITE_OK) {
		t->tok = NULL;
		return -1;
	}
	return 0;
}

void content_tokenizer_close(struct content_tokenizer *t)
{
	if (t->tok)
		t->api.xDelete(t->tok);
	t->tok = NULL;
}

int content_tokenize(void *ctx, const char *text, int len, void *ud,
		     int (*cb)(void *, int, const char *, int, int, int))
{
	struct content_tokenizer *t = ctx;
	return t->api.xTokenize(t->tok, ud, FTS5_TOKENIZE_DOCUMENT, text, len, cb);
}

/* ---- where each passage starts: steno_seg_starts(text), an aggregate ----
 * Over an item's passages in order: a blob of little-endian 32-bit token offsets, the start of
 * each passage in the whole text, then the whole text's count of tokens. */

struct starts {
	unsigned char *v;
	size_t n, cap;
	uint32_t at;     /* tokens so far */
	bool failed;
};

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool starts_put(struct starts *s, uint32_t v)
{
	if (s->n + 4 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		unsigned char *w = sqlite3_realloc64(s->v, cap);
		if (!w)
			return false;
		s->v = w;
		s->cap = cap;
	}
	put_u32(s->v + s->n, v);
	s->n += 4;
	return true;
}

static int count_token(void *ud, int flags, const char *t, int nt, int start, int end)
{
	(void)t;
	(void)nt;
	(void)start;
	(void)end;
	if (!(flags & FTS5_TOKEN_COLOCATED))
		(*(uint32_t *)ud)++;
	return SQLITE_OK;
}

static void starts_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct starts *s = sqlite3_aggregate_context(ctx, sizeof *s);
	struct content_tokenizer *t = sqlite3_user_data(ctx);
	const char *text = argc == 1 ? (const char *)sqlite3_value_text(argv[0]) : NULL;
	if (!s || s->failed)
		return;
	if (!text)   /* group_concat leaves it out of the whole text: so here */
		return;
	if (!starts_put(s, s->at) ||
	    content_tokenize(t, text, sqlite3_value_bytes(argv[0]), &s->at, count_token) !=
	    SQLITE_OK)
		s->failed = true;
}

static void starts_final(sqlite3_context *ctx)
{
	struct starts *s = sqlite3_aggregate_context(ctx, 0);
	if (!s || !s->n) {   /* no passage */
		sqlite3_result_null(ctx);
	} else if (s->failed || !starts_put(s, s->at)) {
		sqlite3_result_error_nomem(ctx);
	} else {
		sqlite3_result_blob(ctx, s->v, (int)s->n, sqlite3_free);
		s->v = NULL;
	}
	if (s)
		sqlite3_free(s->v);
}

/* ---- steno_passage_snippet(text, passage, open, close, ellipsis, n) ----
 * content_snippet_make of a passage's text and the matches the log has of it (a struct
 * content_passage bound as a pointer of type "steno_passage"). */

static void passage_snippet(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct content_passage *p = sqlite3_value_pointer(argv[1], "steno_passage");
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	if (argc != 6 || !p) {
		sqlite3_result_error(ctx, "steno_passage_snippet: a text and its passage", -1);
		return;
	}
	if (!text) {
		sqlite3_result_null(ctx);
		return;
	}
	const struct content_marks m = {
		(const char *)sqlite3_value_text(argv[2]), (const char *)sqlite3_value_text(argv[3]),
		(const char *)sqlite3_value_text(argv[4]),
	};
	int rc;
	char *out = content_snippet_make(text, sqlite3_value_bytes(argv[0]), p->inst, p->count,
					 content_tokenize, sqlite3_user_data(ctx), &m,
					 sqlite3_value_int(argv[5]), &rc);
	if (!out)
		sqlite3_result_error_code(ctx, rc);
	else
		sqlite3_result_text(ctx, out, -1, sqlite3_free);
}

/* ---- steno_word(phrase): its one token, as the index holds it; NULL when it has none or
 * several ---- */

struct one_token {
	sqlite3_context *ctx;
	int n;
};

static int one_token(void *ud, int flags, const char *t, int nt, int start, int end)
{
	(void)start;
	(void)end;
	struct one_token *o = ud;
	if (flags & FTS5_TOKEN_COLOCATED)
		return SQLITE_OK;
	if (o->n++) {   /* a second one */
		sqlite3_result_null(o->ctx);
		return SQLITE_DONE;
	}
	sqlite3_result_text(o->ctx, t, nt, SQLITE_TRANSIENT);
	return SQLITE_OK;
}

static void word_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = argc == 1 ? (const char *)sqlite3_value_text(argv[0]) : NULL;
	struct one_token o = { ctx, 0 };
	sqlite3_result_null(ctx);
	if (text &&
	    content_tokenize(sqlite3_user_data(ctx), text, sqlite3_value_bytes(argv[0]), &o,
			     one_token) == SQLITE_NOMEM)
		sqlite3_result_error_nomem(ctx);
}

static void tokenizer_free(void *p)
{
	content_tokenizer_close(p);
	free(p);
}

int content_define_passages(sqlite3 *db)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT steno_seg_starts(NULL)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);   /* defined on this connection already */
		return 0;
	}
	struct content_tokenizer *t = malloc(sizeof *t);
	if (!t || content_tokenizer_open(db, t) < 0) {
		free(t);
		return -1;
	}
	/* the tokenizer is the functions', freed with the last of them (steno_seg_starts, the
	 * one defined last: when the connection closes) */
	if (sqlite3_create_function_v2(db, "steno_passage_snippet", 6, SQLITE_UTF8, t,
				       passage_snippet, NULL, NULL, NULL) != SQLITE_OK) {
		tokenizer_free(t);
		return -1;
	}
	if (sqlite3_create_function_v2(db, "steno_word", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, t,
				       word_fn, NULL, NULL, NULL) != SQLITE_OK) {
		tokenizer_free(t);
		return -1;
	}
	return sqlite3_create_function_v2(db, "steno_seg_starts", 1, SQLITE_UTF8, t, NULL,
					  starts_step, starts_final, tokenizer_free) == SQLITE_OK ?
		0 : -1;
}

int content_db_migrate_v6(sqlite3 *db, char **err)
{
	int has = content_has_column(db, "content_items", "seg_starts");
	if (has < 0 || content_define_passages(db) < 0 ||
	    (!has && sqlite3_exec(db, "ALTER TABLE content_items ADD COLUMN seg_starts BLOB",
				  NULL, NULL, NULL) != SQLITE_OK) ||
	    sqlite3_exec(db, "UPDATE content_items SET seg_starts = " SEG_STARTS_SQL("n")
			 " WHERE version IS NOT NULL", NULL, NULL, NULL) != SQLITE_OK) {
		*err = localdb_errdup(db, "content v6");
		return -1;
	}
	return 0;
}

/* ---- the ranking's log of matches ---- */

void content_log_free(struct content_log *log)
{
	free(log->docs);
	free(log->inst);
	free(log->scratch);
	memset(log, 0, sizeof *log);
}

/* v (of *cap elements of size each) grown to twice as many (to first when empty), *cap
 * set; NULL with the log marked incomplete on no memory (v stays). */
static void *log_grow(struct content_log *log, void *v, size_t *cap, size_t size, size_t first)
{
	size_t n = *cap ? *cap * 2 : first;
	void *w = realloc(v, n * size);
	if (!w)
		log->incomplete = true;
	else
		*cap = n;
	return w;
}

int content_log_grow(struct content_log *log)
{
	if (log->cap_inst >= CONTENT_LOG_MAX) {
		log->incomplete = true;
		return -1;
	}
	struct content_inst *v = log_grow(log, log->inst, &log->cap_inst, sizeof *v, 16384);
	if (!v)
		return -1;
	log->inst = v;
	return 0;
}

int content_log_doc(struct content_log *log, sqlite3_int64 n, size_t first)
{
	if (log->ndocs == log->cap_docs) {
		struct content_log_doc *v = log_grow(log, log->docs, &log->cap_docs, sizeof *v, 256);
		if (!v)
			return -1;
		log->docs = v;
	}
	if (log->ndocs && log->docs[log->ndocs - 1].n >= n)
		log->unsorted = true;
	log->docs[log->ndocs++] = (struct content_log_doc){ n, first, log->ninst - first, false };
	return 0;
}

static const struct content_log_doc *log_find(const struct content_log *log, sqlite3_int64 n)
{
	if (log->unsorted) {
		for (size_t i = 0; i < log->ndocs; i++)
			if (log->docs[i].n == n)
				return &log->docs[i];
		return NULL;
	}
	size_t lo = 0, hi = log->ndocs;   /* FTS5 reads its rows in the order of their rowids */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (log->docs[mid].n == n)
			return &log->docs[mid];
		if (log->docs[mid].n < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

long content_log_matches(const struct content_log *log, sqlite3_int64 n, bool *cut)
{
	const struct content_log_doc *d = log_find(log, n);
	*cut = d && d->cut;
	return d ? (long)d->count : -1;
}

void content_log_reset(struct content_log *log)
{
	log->ndocs = log->ninst = 0;
	log->matched = 0;
	log->unsorted = log->incomplete = false;
}

static int inst_cmp(const void *a, const void *b)
{
	const struct content_inst *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return (x->phrase > y->phrase) - (x->phrase < y->phrase);
}

/* Puts v[0..n) in the order of xInst: the ranking noted each phrase's matches in the order of
 * their offsets, one phrase after the other, so v is runs in order, merged two by two (into
 * the log's scratch and back). 0, or -1 on no memory. */
static int inst_merge(struct content_log *log, struct content_inst *v, size_t n)
{
	size_t runs = 1;
	for (size_t i = 1; i < n; i++)
		runs += inst_cmp(&v[i - 1], &v[i]) > 0;
	if (runs < 2)
		return 0;
	if (n > log->cap_scratch) {
		struct content_inst *t = realloc(log->scratch, n * sizeof *t);
		if (!t)
			return -1;
		log->scratch = t;
		log->cap_scratch = n;
	}
	struct content_inst *from = v, *to = log->scratch;
	while (runs > 1) {
		size_t i = 0, o = 0;
		runs = 0;
		while (i < n) {   /* the next two runs, merged */
			size_t a = i, b = i + 1;
			while (b < n && inst_cmp(&from[b - 1], &from[b]) <= 0)
				b++;
			size_t e = b < n ? b + 1 : b;
			while (e < n && inst_cmp(&from[e - 1], &from[e]) <= 0)
				e++;
			size_t x = a, y = b;
			while (x < b || y < e)
				to[o++] = y >= e || (x < b && inst_cmp(&from[x], &from[y]) <= 0) ?
					from[x++] : from[y++];
			i = e;
			runs++;
		}
		struct content_inst *t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof *v);
	return 0;
}

long content_log_passages(struct content_log *log, sqlite3_int64 n, enum content_form form,
			  const void *starts_blob, int starts_bytes, struct content_passage *out,
			  long max, long known)
{
	const struct content_log_doc *d = log_find(log, n);
	const unsigned char *starts = starts_blob;
	long npass = starts_bytes / 4 - 1, found = 0;

	if (!d || !starts || starts_bytes % 4 || npass < 1 || form == CONTENT_FORM_OTHER ||
	    (form == CONTENT_FORM_ALL && (log->nphrase < 1 || log->nphrase > 63)))
		return -1;
	uint64_t every = form == CONTENT_FORM_ALL ? (1ULL << log->nphrase) - 1 : 0;
	struct content_inst *inst = log->inst + d->first;
	if (inst_merge(log, inst, d->count) < 0)
		return -1;
	uint32_t total = get_u32(starts + 4 * npass);
	long k = 0;
	size_t w = 0, i = 0;   /* the matches kept, each passage's together, its offsets its own */
	while (i < d->count) {
		if (inst[i].off < 0 || (uint32_t)inst[i].off >= total)
			return -1;   /* not of these passages: the slow way */
		while (get_u32(starts + 4 * (k + 1)) <= (uint32_t)inst[i].off)
			k++;   /* the passage that holds it */
		uint32_t from = get_u32(starts + 4 * k), to = get_u32(starts + 4 * (k + 1));
		size_t g = w;
		int held = 0;
		uint64_t phrases = 0;
		for (; i < d->count && (uint32_t)inst[i].off < to; i++) {
			if ((uint32_t)inst[i].off + (uint32_t)inst[i].size > to)
				continue;   /* runs into the next passage: no passage holds it */
			held++;
			phrases |= 1ULL << (inst[i].phrase & 63);
			if (found < max) {
				inst[w] = inst[i];
				inst[w++].off -= (int)from;
			}
		}
		if (!held || (form == CONTENT_FORM_ALL && phrases != every)) {
			w = g;
			continue;
		}
		if (found < max)
			out[found] = (struct content_passage){ .rank = k, .inst = inst + g,
				.count = (int)(w - g) };
		found++;
	}
	if (d->cut)   /* the first max are whole when a further one began among the matches */
		return known >= 0 && found > max ? known : -1;
	return known < 0 || found == known ? found : -1;
}
