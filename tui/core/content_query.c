/* Transcript content in the local store: the user's query as FTS5 syntax, its form for the
 * whole-text index (NOT clauses out), prefixes written as the store's words, and
 * steno_bm25, the ranking of transcriptions (content_search.c uses them). */
#include "config.h"
#include "core/content_db.h"

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

char *content_fts_quote(const char *s)
{
	size_t k = strlen(s);
	char *out = malloc(2 * k + 3), *o = out;
	if (out) {
		put_quoted(&o, s, k);
		*o = '\0';
	}
	return out;
}

/* The user's query in FTS5 syntax that never fails to parse on a word: every word and
 * "phrase" is quoted (so don't, e-mail or 12:30 are words, not syntax), a trailing * stays
 * a prefix, AND/OR/NOT and parentheses stay operators, and two operands side by side get
 * an explicit AND (FTS5 takes `"a" "b"` but not `"a" ( ... )`, which a prefix written as
 * its words becomes). Caller frees; NULL on no memory. */
char *content_fts_query(const char *in)
{
	/* at most 6 bytes out for one in: "(" becomes "AND ( ", "a b" "\"a\" AND \"b\" " */
	char *out = malloc(strlen(in) * 6 + 8), *o = out;
	const char *p = in;
	bool operand = false;   /* the last thing written ends an operand: AND before the next */

	if (!out)
		return NULL;
	while (*p) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			p++;
			continue;
		}
		if (*p == '(' || *p == ')') {
			if (*p == '(' && operand) {
				memcpy(o, "AND ", 4);
				o += 4;
			}
			operand = *p == ')';
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
				operand = false;
				continue;
			}
		}
		bool prefix = k && t[k - 1] == '*';
		if (prefix)
			k--;
		if (!k && !prefix)
			continue;
		if (operand) {
			memcpy(o, "AND ", 4);
			o += 4;
		}
		operand = true;
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
char *content_doc_query(const char *fts)
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

/* What fts is: phrases joined by OR only (in parentheses or not), by AND only (no
 * parentheses), or else; none a prefix. */
enum content_form content_query_form(const char *fts)
{
	int phrases = 0, ors = 0, ands = 0, parens = 0;
	for (const char *p = fts; *p;) {
		if (*p == ' ') {
			p++;
		} else if (*p == '(' || *p == ')') {
			parens++;
			p++;
		} else if (*p == '"') {
			const char *e = skip_quoted(p);
			if (e[-1] == '*')
				return CONTENT_FORM_OTHER;
			phrases++;
			p = e;
		} else if (!strncmp(p, "OR ", 3)) {
			ors++;
			p += 3;
		} else if (!strncmp(p, "AND ", 4)) {
			ands++;
			p += 4;
		} else {
			return CONTENT_FORM_OTHER;
		}
	}
	if (!phrases || (ors && ands))
		return CONTENT_FORM_OTHER;
	if (ands)
		return parens ? CONTENT_FORM_OTHER : CONTENT_FORM_ALL;
	return CONTENT_FORM_ANY;
}

/* ---- steno_bm25: BM25 without the length of each transcription ----
 * FTS5's bm25() reads every row's length from its docsize table (an SQL statement a row),
 * half of its cost; a transcription's length says little of how much it is about a word
 * (BM25's b = 0; k1 = 1.2 bounds what repetition adds). Lower is better, as bm25().
 * steno_bm25(content_docs, log): the same, and each match it walks noted in the log (a
 * struct content_log bound as a pointer of type "steno_log": content_passages.c). */

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ud)
{
	(*(long long *)ud)++;
	return SQLITE_OK;
}

/* Whether n is among v[0..k) (sorted). */
static bool chosen(const sqlite3_int64 *v, size_t k, sqlite3_int64 n)
{
	size_t lo = 0, hi = k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] == n)
			return true;
		if (v[mid] < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The matches of phrase i in the row: how many (at most max, when max > 0), each noted in
 * log when not NULL. */
static double phrase_matches(const Fts5ExtensionApi *api, Fts5Context *fts, int i,
			     struct content_log *log, int max)
{
	Fts5PhraseIter it;
	int col, off, size = log ? api->xPhraseSize(fts, i) : 0;
	double tf = 0;
	for (api->xPhraseFirst(fts, i, &it, &col, &off); col >= 0 && (max <= 0 || tf < max);
	     api->xPhraseNext(fts, &it, &col, &off)) {
		tf++;
		if (log)
			content_log_inst(log, i, off, size);
	}
	return tf;
}

/* Ends the log's list of the row's matches (from first on); the log is NULL from then on
 * when it gave up. */
static void log_row(const Fts5ExtensionApi *api, Fts5Context *fts, struct content_log **log,
		    size_t first)
{
	if (*log && (*log)->incomplete)
		*log = NULL;   /* incomplete: the search does without it */
	if (*log && content_log_doc(*log, api->xRowid(fts), first) < 0)
		*log = NULL;
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
			idf[i] = content_idf(rows, hits);
		}
		if (api->xSetAuxdata(fts, idf, sqlite3_free) != SQLITE_OK) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
	}
	double score = 0;
	struct content_log *log = argc == 1 ? sqlite3_value_pointer(argv[0], "steno_log") : NULL;
	size_t first = log ? log->ninst : 0;
	if (log)
		log->nphrase = np;
	for (int i = 0; i < np; i++)
		score += content_bm25_term(idf[i], phrase_matches(api, fts, i, log, 0));
	log_row(api, fts, &log, first);
	sqlite3_result_double(ctx, -score);
}

/* steno_note(content_docs, log): the matches of the rows among the log's `only` noted in it
 * (NULL for the others; of a query of one phrase, only the first note_max), their count
 * returned; the table's rows in log->rows, the rows walked counted in log->matched. */
static void steno_note(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
		       int argc, sqlite3_value **argv)
{
	struct content_log *log = argc == 1 ? sqlite3_value_pointer(argv[0], "steno_log") : NULL;
	if (!log) {
		sqlite3_result_error(ctx, "steno_note: a log", -1);
		return;
	}
	if (!log->rows && api->xRowCount(fts, &log->rows) != SQLITE_OK) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	log->matched++;
	if (log->only && !chosen(log->only, log->nonly, api->xRowid(fts))) {
		sqlite3_result_null(ctx);
		return;
	}
	int np = api->xPhraseCount(fts);
	int max = np == 1 ? log->note_max : 0;   /* the first: in the order said */
	size_t first = log->ninst;
	double tf = 0;
	log->nphrase = np;
	for (int i = 0; i < np; i++)
		tf += phrase_matches(api, fts, i, log, max);
	bool cut = max > 0 && tf >= max;
	log_row(api, fts, &log, first);
	if (log && cut)
		log->docs[log->ndocs - 1].cut = true;
	sqlite3_result_double(ctx, tf);
}

/* Defines steno_bm25, steno_note and steno_snippet (content_snippet.c) on db (once a
 * connection: FTS5 keeps every definition). */
int content_define_bm25(sqlite3 *db, struct steno_error *err)
{
	fts5_api *api = NULL;
	sqlite3_stmt *st;
	if (content_prepare(db, "SELECT fts5(?1)", &st, err) < 0)
		return -1;
	sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (!api || api->xCreateFunction(api, "steno_bm25", NULL, steno_bm25, NULL) != SQLITE_OK ||
	    api->xCreateFunction(api, "steno_note", NULL, steno_note, NULL) != SQLITE_OK ||
	    api->xCreateFunction(api, "steno_snippet", NULL, content_snippet_fn, NULL) != SQLITE_OK)
		return steno_error_set(err, STENO_ERR_IO, "local store: no FTS5 API");
	return 0;
}

/* ---- a prefix made its words ----
 * The words of the store that start with a prefix are few and cheap to list from the index
 * of each transcription's words without their places (fts5vocab over content_words, schema
 * step 8: a b-tree range of terms, each walking its transcriptions, not its matches as over
 * content_docs: 0.01 ms for "budg*" where content_docs took 0.12); a query whose
 * prefixes are written as their words, ("review" OR "revue"), is read as a query of words,
 * transcription by transcription, without the merge. */

#define PREFIX_WORDS_MAX 64

const char content_prefix_sql[] =
	"SELECT term FROM temp.content_words_vocab WHERE term >= ?1 AND term < ?2";

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
char *content_expand_prefixes(sqlite3 *db, const char *fts)
{
	struct sbuf b = { 0 };
	struct steno_error err;
	bool fresh = false;
	sqlite3_stmt *st = content_kept(db, content_prefix_sql, &fresh, &err);
	const char *p = fts;
	if (!st && content_words_vocab(db) == 0)
		st = content_kept(db, content_prefix_sql, &fresh, &err);
	bool ok = st != NULL;
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
	content_unkeep(st, fresh);
	if (!ok || b.nomem || !b.s) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
