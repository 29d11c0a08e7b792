/* Transcript content in the local store: the words said often in each transcription (schema
 * step 8), so that a query of one word is ranked without walking every match of it; and
 * every word each says (content_words), for the words a prefix stands for.
 *
 * The ranking (steno_bm25, content_query.c) orders the transcriptions of a one-word query by
 * how many times each says the word (its score grows with that count alone), then by n.
 * Walking every match of a frequent word is most of such a query's cost: "budget", said 17,544
 * times in 183 transcriptions of the benchmark, is that many matches to count. For each
 * transcription, content_frequent keeps every word it says CONTENT_FREQUENT_MIN times or
 * more, with the count and the number of its passages that say it: (term, tf, n, passages),
 * in the ranking's order. The transcriptions a one-word query shows come from there, best
 * first, as long as there are enough of them: any transcription not in it says the word
 * fewer times, so ranks after every one that is; their passages that match are counted
 * already (a word is in one passage), so only the first matches of each are walked. When the
 * table runs out before the hits are counted, the search ranks the usual way (a word said
 * rarely is cheap to rank). A term is the index's own: the text through the index's
 * tokenizer.
 *
 * content_db_put writes an item's rows with its content (content_frequent_put); a trigger
 * takes them out with the item. */
#include "config.h"
#include "core/content_db.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"
#include "core/localdb.h"

static const char schema_v8[] =
	"DROP TABLE IF EXISTS content_frequent;"
	"DROP TABLE IF EXISTS content_words;"
	"DROP TRIGGER IF EXISTS content_frequent_items_ad;"
	"DROP TRIGGER IF EXISTS content_words_items_bd;"
	"CREATE TABLE content_frequent(term TEXT NOT NULL, tf INTEGER NOT NULL,"
	" n INTEGER NOT NULL, passages INTEGER NOT NULL, PRIMARY KEY (term, tf DESC, n))"
	" WITHOUT ROWID;"
	"CREATE INDEX content_frequent_n ON content_frequent(n);"
	"CREATE TRIGGER content_frequent_items_ad AFTER DELETE ON content_items BEGIN"
	" DELETE FROM content_frequent WHERE n = old.n; END;"
	/* the words of each transcription, without where they are said: which words a prefix
	 * stands for (fts5vocab over it walks each word's transcriptions, not its matches) */
	"CREATE VIRTUAL TABLE content_words USING fts5(text, content='', detail='none',"
	" tokenize='" CONTENT_TOKENIZE "');"
	DOCS_FILL_SQL("content_words") ";"
	/* before: the segments its entries are taken out with go after (content_items_ad) */
	"CREATE TRIGGER content_words_items_bd BEFORE DELETE ON content_items BEGIN "
	WORDS_DELETE_SQL("old.n") "; END;";

/* ---- a transcription's words, counted ---- */

struct word {
	uint32_t hash, at, len, tf;   /* at: its bytes in the arena */
	uint32_t passages, last;      /* the passages that say it; the last one, from 1 */
};

struct counts {
	struct word *v;      /* open addressing, cap a power of two, hash 0: empty */
	size_t cap, used;
	char *arena;
	size_t alen, acap;
	uint32_t passage;    /* the passage being counted, from 1 */
};

static uint32_t fnv(const char *s, int k)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < k; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h ? h : 1;
}

static bool counts_grow(struct counts *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024;
	struct word *v = calloc(cap, sizeof *v);
	if (!v)
		return false;
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->v[i].hash)
			continue;
		size_t j = c->v[i].hash & (cap - 1);
		while (v[j].hash)
			j = (j + 1) & (cap - 1);
		v[j] = c->v[i];
	}
	free(c->v);
	c->v = v;
	c->cap = cap;
	return true;
}

static int count_word(void *ud, int flags, const char *t, int nt, int start, int end)
{
	(void)start;
	(void)end;
	struct counts *c = ud;
	if ((flags & FTS5_TOKEN_COLOCATED) || nt <= 0)
		return SQLITE_OK;
	if ((c->used + 1) * 2 > c->cap && !counts_grow(c))
		return SQLITE_NOMEM;
	uint32_t h = fnv(t, nt);
	size_t j = h & (c->cap - 1);
	for (; c->v[j].hash; j = (j + 1) & (c->cap - 1))
		if (c->v[j].hash == h && c->v[j].len == (uint32_t)nt &&
		    !memcmp(c->arena + c->v[j].at, t, (size_t)nt)) {
			c->v[j].tf++;
			if (c->v[j].last != c->passage) {
				c->v[j].passages++;
				c->v[j].last = c->passage;
			}
			return SQLITE_OK;
		}
	if (c->alen + (size_t)nt > c->acap) {
		size_t cap = (c->alen + (size_t)nt) * 2 + 4096;
		char *a = realloc(c->arena, cap);
		if (!a)
			return SQLITE_NOMEM;
		c->arena = a;
		c->acap = cap;
	}
	memcpy(c->arena + c->alen, t, (size_t)nt);
	c->v[j] = (struct word){ h, (uint32_t)c->alen, (uint32_t)nt, 1, 1, c->passage };
	c->alen += (size_t)nt;
	c->used++;
	return SQLITE_OK;
}

static void counts_free(struct counts *c)
{
	free(c->v);
	free(c->arena);
}

/* Counts the words of item n's passages into c (the whole text is the passages joined by a
 * space: the same tokens). SQLITE_OK or an error code. */
static int count_item(sqlite3 *db, struct content_tokenizer *tok, sqlite3_int64 n,
		      struct counts *c)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT text FROM content_segs WHERE seg BETWEEN ?1"
				    " AND ?2 AND text IS NOT NULL", -1, &st, NULL), step;
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, n * CONTENT_SEGS_PER_ITEM);
	sqlite3_bind_int64(st, 2, n * CONTENT_SEGS_PER_ITEM + CONTENT_SEGS_PER_ITEM - 1);
	while (rc == SQLITE_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		c->passage++;
		rc = content_tokenize(tok, (const char *)sqlite3_column_text(st, 0),
				      sqlite3_column_bytes(st, 0), c, count_word);
	}
	if (rc == SQLITE_OK && step != SQLITE_DONE)
		rc = sqlite3_errcode(db);
	sqlite3_finalize(st);
	return rc;
}

/* Item n's rows made again from its passages with tok. SQLITE_OK or an error code. */
static int frequent_put(sqlite3 *db, struct content_tokenizer *tok, sqlite3_int64 n)
{
	struct counts c = { 0 };
	sqlite3_stmt *del = NULL, *ins = NULL;
	int rc = sqlite3_prepare_v2(db, "DELETE FROM content_frequent WHERE n = ?1", -1, &del,
				    NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "INSERT INTO content_frequent(term, tf, n, passages)"
					" VALUES (?1, ?2, ?3, ?4)", -1, &ins, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(del, 1, n);
		rc = sqlite3_step(del) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
	}
	if (rc == SQLITE_OK)
		rc = count_item(db, tok, n, &c);
	sqlite3_bind_int64(ins, 3, n);
	for (size_t i = 0; rc == SQLITE_OK && i < c.cap; i++) {
		if (!c.v[i].hash || c.v[i].tf < CONTENT_FREQUENT_MIN)
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, c.arena + c.v[i].at, (int)c.v[i].len, SQLITE_STATIC);
		sqlite3_bind_int64(ins, 2, c.v[i].tf);
		sqlite3_bind_int64(ins, 4, c.v[i].passages);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = sqlite3_errcode(db);
	}
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	counts_free(&c);
	return rc;
}

int content_frequent_put(sqlite3 *db, sqlite3_int64 n, struct steno_error *err)
{
	struct content_tokenizer tok;
	if (content_tokenizer_open(db, &tok) < 0)
		return steno_error_set(err, STENO_ERR_IO, "local store: no FTS5 tokenizer");
	int rc = frequent_put(db, &tok, n);
	content_tokenizer_close(&tok);
	return rc == SQLITE_OK ? 0 : content_sql_fail(db, err, "count words");
}

int content_db_migrate_v8(sqlite3 *db, char **err)
{
	struct content_tokenizer tok;
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_exec(db, schema_v8, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = content_tokenizer_open(db, &tok) < 0 ? SQLITE_ERROR : SQLITE_OK;
	if (rc != SQLITE_OK) {
		*err = localdb_errdup(db, "content v8");
		return -1;
	}
	rc = sqlite3_prepare_v2(db, "SELECT n FROM content_items WHERE version IS NOT NULL", -1,
				&st, NULL);
	while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		rc = frequent_put(db, &tok, sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	content_tokenizer_close(&tok);
	if (rc != SQLITE_OK) {
		*err = localdb_errdup(db, "content v8");
		return -1;
	}
	return 0;
}

/* ---- a query of one word ---- */

int content_words_vocab(sqlite3 *db)
{
	return sqlite3_exec(db, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.content_words_vocab"
			    " USING fts5vocab(main, content_words, 'row')", NULL, NULL, NULL) ==
		SQLITE_OK ? 0 : -1;
}

/* A phrase's one word, as the index holds it (steno_word), and, when ?3, whether the store
 * holds the phrase ?2 (the FTS5 string of it; content_words: fts5vocab over it prepares a
 * statement of its own each time it is read). */
const char content_word_sql[] =
	"SELECT steno_word(?1), CASE WHEN ?3 THEN EXISTS (SELECT 1 FROM content_words"
	" WHERE content_words MATCH ?2) END";

/* The phrase at p (a quoted FTS5 string, not a prefix) unquoted, *end after it: malloc'd,
 * NULL when a prefix (or no memory). */
static char *phrase_at(const char *p, const char **end)
{
	char *phrase = malloc(strlen(p) + 1), *o = phrase;
	const char *e;
	if (!phrase)
		return NULL;
	for (e = p + 1; *e; e++) {   /* the phrase, its "" made " */
		if (*e == '"' && e[1] != '"')
			break;
		*o++ = *e;
		if (*e == '"')
			e++;
	}
	*o = '\0';
	*end = *e == '"' ? e + 1 : e;
	if (**end == '*') {
		free(phrase);
		return NULL;
	}
	return phrase;
}

/* The word of phrase (the FTS5 string q[0..k)) and, when ask, whether the store holds it,
 * through st (content_word_sql): the word malloc'd, NULL when the phrase is not one word (or
 * on error). */
static char *phrase_word(sqlite3_stmt *st, const char *phrase, const char *q, int k, bool ask,
			 bool *held)
{
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, phrase, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, q, k, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, ask);
	if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_type(st, 0) == SQLITE_NULL)
		return NULL;
	*held = !ask || sqlite3_column_int(st, 1);
	return strdup((const char *)sqlite3_column_text(st, 0));
}

#define TERM_WORDS_MAX 8

char *content_frequent_term(sqlite3 *db, const char *fts)
{
	char *term = NULL;
	int words = 0;
	bool ok = true, fresh = false, several = strstr(fts, " OR ") != NULL;
	struct steno_error err;
	sqlite3_stmt *st = content_kept(db, content_word_sql, &fresh, &err);
	if (!st && content_define_passages(db) == 0)
		st = content_kept(db, content_word_sql, &fresh, &err);
	for (const char *p = fts; st && ok && *p;) {
		if (*p == ' ' || *p == '(' || *p == ')') {
			p++;
		} else if (!strncmp(p, "OR ", 3)) {
			p += 3;
		} else {
			const char *q = p;
			char *phrase = *p == '"' && words < TERM_WORDS_MAX ? phrase_at(p, &p) : NULL;
			bool held = false;
			char *w = phrase ? phrase_word(st, phrase, q, (int)(p - q), several, &held) :
				NULL;
			words++;
			/* of words joined by OR, those said nowhere add nothing to a
			 * transcription's rank nor to which of its passages match */
			ok = w && (!held || !term);
			if (ok && held)
				term = w;
			else
				free(w);
			free(phrase);
		}
	}
	content_unkeep(st, fresh);
	if (!st || !ok) {
		free(term);
		return NULL;
	}
	return term;
}

/* ---- the hits of a query of one word: the transcriptions that say it most ---- */

const char content_frequent_sql[] =
	"SELECT n, tf, passages FROM content_frequent WHERE term = ?1 ORDER BY tf DESC, n";

/* The matches noted of each transcription of a one-word query: enough for the first
 * passages it shows, as a rule (the rest are counted in content_frequent). */
#define CONTENT_NOTE_FIRST 48

/* The matches of the transcriptions chosen (the log's `only`) noted, and counted; the
 * others counted (how many transcriptions say the word: the ranking's weight of it). */
const char content_chosen_sql[] =
	"SELECT rowid, steno_note(content_docs, ?2) FROM content_docs WHERE content_docs MATCH ?1";

struct pick {
	sqlite3_int64 n, tf, passages;
	double r;
};

static int pick_cmp(const void *a, const void *b)
{
	sqlite3_int64 x = *(const sqlite3_int64 *)a, y = *(const sqlite3_int64 *)b;
	return (x > y) - (x < y);
}

/* Logs the matches of the k transcriptions of v (a walk of docq) and ranks them as
 * steno_bm25 does: 1, 0 when one of them does not say the word as many times as
 * content_frequent says (then the usual ranking is the truth), -1 with err. */
static int pick_walk(struct content_frequent_walk *u, sqlite3_stmt *ws, struct pick *v,
		     size_t k, sqlite3_int64 *sorted)
{
	for (size_t i = 0; i < k; i++)
		sorted[i] = v[i].n;
	qsort(sorted, k, sizeof *sorted, pick_cmp);
	content_log_reset(u->log);
	u->log->only = sorted;
	u->log->nonly = k;
	u->log->note_max = CONTENT_NOTE_FIRST;
	sqlite3_reset(ws);
	int step;
	size_t got = 0;
	while ((step = sqlite3_step(ws)) == SQLITE_ROW)
		got += sqlite3_column_type(ws, 1) != SQLITE_NULL;
	u->log->only = NULL;
	u->log->note_max = 0;
	if (step != SQLITE_DONE)
		return content_sql_fail(u->db, u->err, "search");
	if (got != k || u->log->incomplete)
		return 0;
	/* the transcriptions that match words joined by OR, of which one is said: those that
	 * say it (steno_bm25 counts them with xQueryPhrase) */
	double idf = content_idf(u->log->rows, u->log->matched);
	for (size_t i = 0; i < k; i++) {
		bool cut;
		long m = content_log_matches(u->log, v[i].n, &cut);
		if (cut ? m != CONTENT_NOTE_FIRST || v[i].tf < m : m != (long)v[i].tf)
			return 0;   /* not what content_frequent says */
		v[i].r = -(0.0 + content_bm25_term(idf, (double)v[i].tf));
	}
	return 1;
}

int content_frequent_hits(struct content_frequent_walk *u, const char *term, const char *docq)
{
	bool ffresh = false, wfresh = false;
	sqlite3_stmt *fs = content_kept(u->db, content_frequent_sql, &ffresh, u->err);
	sqlite3_stmt *ws = fs ? content_kept_fts(u->db, content_chosen_sql, &wfresh, u->err) : NULL;
	size_t cap = (size_t)(u->l->limit / u->per) + 4;
	struct pick *v = malloc(cap * sizeof *v);
	sqlite3_int64 *sorted = malloc(cap * sizeof *sorted);
	int rc = fs && ws ? 1 : -1, step = SQLITE_ROW;

	if (rc > 0 && (!v || !sorted))
		rc = steno_error_set(u->err, STENO_ERR_NOMEM, "out of memory");
	if (rc > 0) {
		sqlite3_bind_text(fs, 1, term, -1, SQLITE_STATIC);
		sqlite3_bind_text(ws, 1, docq, -1, SQLITE_STATIC);
		sqlite3_bind_pointer(ws, 2, u->log, "steno_log", NULL);
	}
	while (rc > 0 && (long)u->l->n < u->l->limit) {
		size_t want = (size_t)((u->l->limit - (long)u->l->n + u->per - 1) / u->per) + 2, k = 0;
		if (want > cap)
			want = cap;
		while (k < want && (step = sqlite3_step(fs)) == SQLITE_ROW)
			v[k++] = (struct pick){ sqlite3_column_int64(fs, 0),
				sqlite3_column_int64(fs, 1), sqlite3_column_int64(fs, 2), 0 };
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			rc = content_sql_fail(u->db, u->err, "search");
		else if (!k)
			rc = 0;   /* ran out */
		else
			rc = pick_walk(u, ws, v, k, sorted);
		for (size_t i = 0; rc > 0 && i < k && (long)u->l->n < u->l->limit; i++)
			if (u->take(u->ud, v[i].n, v[i].r, v[i].passages) < 0)
				rc = -1;
		if (rc > 0 && step == SQLITE_DONE && (long)u->l->n < u->l->limit)
			rc = 0;
	}
	free(v);
	free(sorted);
	content_unkeep(fs, ffresh);
	content_unkeep(ws, wfresh);
	return rc;
}
