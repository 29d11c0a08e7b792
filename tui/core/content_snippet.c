/* Transcript content in the local store: steno_snippet, the words around a passage's matches
 * with each match marked (content_search.c asks it for the passages it shows).
 *
 * steno_snippet(content_fts, text, open, close, ellipsis, n) works as FTS5's snippet() for one
 * column, on the passage's text handed to it by the query (which joins content_segs for it):
 * snippet() reads the text again through an SQL statement of its own (an external content
 * table) and scores every window it could show; the two were most of the cost of the passages
 * of a query. The window: the n tokens that hold the most distinct phrases (then the most
 * matches), with its matches centred; the whole text when it has n tokens or fewer. Text
 * before the window's first token, or after its last, is shown only at the text's start or end;
 * elsewhere the ellipsis stands for it. content_snippet_make is the same on matches found
 * elsewhere (a passage's, read from the whole-text index: content_passages.c). */
#include "config.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"

struct tok {
	int start, end;   /* bytes of the text */
	int open;         /* a match starts here: the token after its last (0: none) */
	bool sentence;    /* the first token of a sentence */
};

struct toks {
	struct tok *v;
	int n, cap;
	const char *text;
};

static int on_token(void *ud, int flags, const char *t, int nt, int start, int end)
{
	(void)t;
	(void)nt;
	struct toks *k = ud;
	if (flags & FTS5_TOKEN_COLOCATED)
		return SQLITE_OK;
	if (k->n == k->cap) {
		int cap = k->cap ? k->cap * 2 : 64;
		struct tok *v = sqlite3_realloc64(k->v, (sqlite3_uint64)cap * sizeof *v);
		if (!v)
			return SQLITE_NOMEM;
		k->v = v;
		k->cap = cap;
	}
	/* as FTS5's snippet(): a sentence starts at the first token, and at one after spaces
	 * that follow a '.' or a ':' */
	int i = start - 1;
	while (i >= 0 && (k->text[i] == ' ' || k->text[i] == '\t' || k->text[i] == '\n' ||
			  k->text[i] == '\r'))
		i--;
	bool sentence = k->n == 0 || (i != start - 1 && i >= 0 &&
				      (k->text[i] == '.' || k->text[i] == ':'));
	k->v[k->n++] = (struct tok){ .start = start, .end = end, .sentence = sentence };
	return SQLITE_OK;
}

/* The score of the window of n tokens from `from` (as FTS5's snippet(): 1000 for each phrase
 * with a match that starts in it, 1 for each further match); *adj, when not NULL, the window
 * of n tokens with those matches in its middle. */
static long window_score(const struct content_inst *inst, int ninst, int from, int n, int ntok,
			 int *adj)
{
	long score = 0;
	unsigned long long seen = 0;
	int first = -1, last = 0;
	for (int j = 0; j < ninst; j++) {
		int o = inst[j].off;
		if (o < from || o >= from + n)
			continue;
		unsigned long long bit = 1ULL << (inst[j].phrase & 63);
		score += (seen & bit) ? 1 : 1000;
		seen |= bit;
		if (first < 0)
			first = o;
		last = o + inst[j].size;
	}
	if (adj) {
		int a = first < 0 ? from : first - (n - (last - first)) / 2;
		if (a + n > ntok)
			a = ntok - n;
		*adj = a < 0 ? 0 : a;
	}
	return score;
}

/* The first token of the window of n tokens (of k->n > n) to show: the best of the windows
 * around each match and of those that start at the sentence of each (which score 100 more,
 * 120 at the text's start), the first of equals. */
static int best_window(const struct content_inst *inst, int ninst, int n, const struct toks *k)
{
	int best = 0;
	long best_score = -1;
	for (int i = 0; i < ninst; i++) {
		int o = inst[i].off, adj;
		if (o < 0 || o >= k->n)
			continue;
		long score = window_score(inst, ninst, o, n, k->n, &adj);
		if (score > best_score) {
			best_score = score;
			best = adj;
		}
		int s = o;
		while (s > 0 && !k->v[s].sentence)
			s--;
		if (s < o) {
			score = window_score(inst, ninst, s, n, k->n, NULL) + (s == 0 ? 120 : 100);
			if (score > best_score) {
				best_score = score;
				best = s;
			}
		}
	}
	return best;
}

/* The text's tokens through tok, its matches noted on them. SQLITE_OK or an error code. */
static int tokens_of(struct toks *k, const char *text, int len, const struct content_inst *inst,
		     int ninst, content_tokenize_fn tok, void *tok_ctx)
{
	int rc = tok(tok_ctx, text, len, k, on_token);
	for (int i = 0; rc == SQLITE_OK && i < ninst; i++) {
		int o = inst[i].off, end = o + inst[i].size;
		if (o >= 0 && o < k->n && end > k->v[o].open)
			k->v[o].open = end > k->n ? k->n : end;
	}
	return rc;
}

static char *put(char *o, const char *s, size_t k)
{
	memcpy(o, s, k);
	return o + k;
}

char *content_snippet_make(const char *text, int len, const struct content_inst *inst,
			   int ninst, content_tokenize_fn tok, void *tok_ctx,
			   const struct content_marks *m, int n, int *rc)
{
	struct toks k = { .text = text };
	const char *open = m->open ? m->open : "", *close = m->close ? m->close : "";
	const char *ell = m->ellipsis ? m->ellipsis : "";

	if (n < 1)
		n = 1;
	if ((*rc = tokens_of(&k, text, len, inst, ninst, tok, tok_ctx)) != SQLITE_OK) {
		sqlite3_free(k.v);
		return NULL;
	}
	int from = 0, to = k.n;   /* tokens shown */
	if (k.n > n) {
		from = best_window(inst, ninst, n, &k);
		if (from + n < k.n)   /* a window at a sentence may run past the end */
			to = from + n;
	}
	/* at most: the text, a pair of marks a token shown, an ellipsis at each end */
	size_t kopen = strlen(open), kclose = strlen(close), kell = strlen(ell);
	char *out = sqlite3_malloc64((sqlite3_uint64)len + 1 + 2 * kell +
				     (sqlite3_uint64)(to - from + 1) * (kopen + kclose));
	if (!out) {
		sqlite3_free(k.v);
		*rc = SQLITE_NOMEM;
		return NULL;
	}
	char *o = out;
	int at = 0;           /* bytes of text written up to */
	if (from > 0) {
		o = put(o, ell, kell);
		at = k.v[from].start;
	}
	int upto = 0;   /* an open match runs to the token before this one */
	for (int t = from; t < to; t++) {
		o = put(o, text + at, (size_t)(k.v[t].start - at));
		/* matches that overlap are one; one the window's start cuts is opened at it */
		if (!upto && (k.v[t].open || t == from)) {
			for (int b = t == from ? 0 : t; b <= t; b++)
				if (k.v[b].open > t && k.v[b].open > upto)
					upto = k.v[b].open;
			if (upto)
				o = put(o, open, kopen);
		} else if (upto && k.v[t].open > upto) {
			upto = k.v[t].open;
		}
		o = put(o, text + k.v[t].start, (size_t)(k.v[t].end - k.v[t].start));
		at = k.v[t].end;
		if (upto && (t + 1 == upto || t + 1 == to)) {
			o = put(o, close, kclose);
			upto = 0;
		}
	}
	if (to == k.n)
		o = put(o, text + at, (size_t)(len - at));
	else
		o = put(o, ell, kell);
	*o = '\0';
	sqlite3_free(k.v);
	*rc = SQLITE_OK;
	return out;
}

/* ---- steno_snippet(), the auxiliary function ---- */

struct aux_tok {
	const Fts5ExtensionApi *api;
	Fts5Context *fts;
};

static int aux_tokenize(void *ctx, const char *text, int len, void *ud,
			int (*cb)(void *, int, const char *, int, int, int))
{
	struct aux_tok *a = ctx;
	return a->api->xTokenize(a->fts, text, len, ud, cb);
}

void content_snippet_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
			int argc, sqlite3_value **argv)
{
	if (argc != 5) {
		sqlite3_result_error(ctx, "steno_snippet: 5 arguments", -1);
		return;
	}
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	int len = sqlite3_value_bytes(argv[0]);
	struct content_marks m = {
		.open = (const char *)sqlite3_value_text(argv[1]),
		.close = (const char *)sqlite3_value_text(argv[2]),
		.ellipsis = (const char *)sqlite3_value_text(argv[3]),
	};
	struct aux_tok a = { api, fts };
	struct content_inst *inst = NULL;
	int ninst = 0;

	if (!text) {
		sqlite3_result_null(ctx);
		return;
	}
	/* FTS5 gives the matches in the order of their offsets, of their phrases at one */
	int rc = api->xInstCount(fts, &ninst);
	if (rc == SQLITE_OK && ninst > 0 &&
	    !(inst = sqlite3_malloc64((sqlite3_uint64)ninst * sizeof *inst)))
		rc = SQLITE_NOMEM;
	for (int i = 0; rc == SQLITE_OK && i < ninst; i++) {
		int c;
		rc = api->xInst(fts, i, &inst[i].phrase, &c, &inst[i].off);
		if (rc == SQLITE_OK)
			inst[i].size = api->xPhraseSize(fts, inst[i].phrase);
	}
	char *out = NULL;
	if (rc == SQLITE_OK)
		out = content_snippet_make(text, len, inst, ninst, aux_tokenize, &a, &m,
					   sqlite3_value_int(argv[4]), &rc);
	sqlite3_free(inst);
	if (!out)
		sqlite3_result_error_code(ctx, rc);
	else
		sqlite3_result_text(ctx, out, -1, sqlite3_free);
}
