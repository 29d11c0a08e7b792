#ifndef STENO_CORE_CONTENT_INTERNAL_H
#define STENO_CORE_CONTENT_INTERNAL_H

/* Shared by the core/content_*.c files only. */

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>

#include "api/error.h"
#include "core/content_db.h"

/* A segment's rowid is its item's n * CONTENT_SEGS_PER_ITEM + its rank. */
#define CONTENT_SEGS_PER_ITEM 16777216LL

/* The whole text of item N (its segments in order, a space between them: a segment may end
 * on a word and the next begin with one), NULL when it has none. */
#define DOC_TEXT_SQL(N) "(SELECT group_concat(text, ' ') FROM (SELECT text FROM content_segs" \
	" WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215 ORDER BY seg))"

/* content_docs is contentless (the text is in content_segs already): its entries are taken
 * out with the text they were made from, rebuilt by the same query, before the segments
 * go. */
#define DOC_DELETE_SQL(N) DOC_UNINDEX_SQL("content_docs", N)
#define DOC_UNINDEX_SQL(T, N) "INSERT INTO " T "(" T ", rowid, text)" \
	" SELECT 'delete', " N ", t FROM (SELECT " DOC_TEXT_SQL(N) " AS t) WHERE t IS NOT NULL"
/* The index entries of item N's segments, out and in, in one statement each. */
#define SEGS_UNINDEX_SQL(N) "INSERT INTO content_fts(content_fts, rowid, text)" \
	" SELECT 'delete', seg, text FROM content_segs" \
	" WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215"
#define SEGS_INDEX_SQL(N) "INSERT INTO content_fts(rowid, text) SELECT seg, text" \
	" FROM content_segs WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215"
#define DOC_INSERT_SQL(N) DOC_REINDEX_SQL("content_docs", N)
#define DOC_REINDEX_SQL(T, N) "INSERT INTO " T "(rowid, text)" \
	" SELECT " N ", t FROM (SELECT " DOC_TEXT_SQL(N) " AS t) WHERE t IS NOT NULL"
/* Table T filled with every item's whole text (a migration's: for what the store holds). */
#define DOCS_FILL_SQL(T) "INSERT INTO " T "(rowid, text) SELECT n, t FROM" \
	" (SELECT seg / 16777216 AS n, group_concat(text, ' ') AS t FROM" \
	"  (SELECT seg, text FROM content_segs ORDER BY seg) GROUP BY seg / 16777216)"
/* The same for content_words (content_frequent.c). */
#define WORDS_DELETE_SQL(N) DOC_UNINDEX_SQL("content_words", N)
#define WORDS_INSERT_SQL(N) DOC_REINDEX_SQL("content_words", N)

/* Where each of item N's passages starts in its whole text (content_passages.c), as
 * content_items.seg_starts keeps it. */
#define SEG_STARTS_SQL(N) "(SELECT steno_seg_starts(text) FROM (SELECT text FROM content_segs" \
	" WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215 ORDER BY seg))"

/* The tokenizer of every index of the content, as its tables name it and as its arguments. */
#define CONTENT_TOKENIZE "unicode61 remove_diacritics 2"
#define CONTENT_TOKENIZER_NAME "unicode61"
#define CONTENT_TOKENIZER_ARGS "remove_diacritics", "2"

/* ---- statements kept prepared (content_db.c) ----
 * Preparing a query's statements cost about 0.1 ms, as much as ranking the transcriptions:
 * they stay prepared on the connection between queries, found again by their SQL
 * (sqlite3_next_stmt); content_db_forget finalizes them (localdb_close calls it). */
/* A statement of sql, reset and without bindings: a kept one, or one prepared now (kept
 * after). One busy (a query running it: a keep callback that searches) is not taken: *fresh
 * is set and the caller finalizes the one prepared for it. NULL with err on failure. */
sqlite3_stmt *content_kept(sqlite3 *db, const char *sql, bool *fresh, struct steno_error *err);
/* Puts back what content_kept gave: reset and bindings cleared (they point into the query's
 * strings), or finalized when it was prepared for a busy one. */
void content_unkeep(sqlite3_stmt *st, bool fresh);
/* content_kept of a statement that calls steno_bm25, steno_note, steno_snippet or
 * content_take: they are defined on the connection first when it has not got them. */
sqlite3_stmt *content_kept_fts(sqlite3 *db, const char *sql, bool *fresh,
			       struct steno_error *err);

/* Fills err with what SQLite says (STENO_ERR_IO) and returns -1. */
int content_sql_fail(sqlite3 *db, struct steno_error *err, const char *what);
int content_exec(sqlite3 *db, const char *sql, struct steno_error *err);
int content_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, struct steno_error *err);
int content_begin(sqlite3 *db, bool *nested, struct steno_error *err);
int content_end(sqlite3 *db, bool nested, int rc, struct steno_error *err);
/* The user's query as FTS5 syntax that does not fail on a word (content_search.c).
 * Caller frees; NULL on no memory. */
char *content_fts_query(const char *in);
/* s as one FTS5 string ("" doubled inside). Caller frees; NULL on no memory. */
char *content_fts_quote(const char *s);
/* content_fts_query's output without its NOT clauses: what the whole-text index is asked.
 * Caller frees; NULL on no memory. */
char *content_doc_query(const char *fts);
/* content_fts_query's output with its prefixes written as the store's words; NULL when that
 * cannot be (then the prefixes are read by a scan). Caller frees. */
char *content_expand_prefixes(sqlite3 *db, const char *fts);
/* The statement content_expand_prefixes keeps (content_db_forget finalizes it). */
extern const char content_prefix_sql[];
/* BM25's weight of a phrase that `hits` of `rows` transcriptions hold (as bm25(): a word in
 * most of them still counts a little), and a phrase's share of a transcription's score when
 * it is said tf times there (b = 0, k1 = 1.2: steno_bm25 in content_query.c). */
static inline double content_idf(sqlite3_int64 rows, long long hits)
{
	double idf = log(((double)rows - (double)hits + 0.5) / ((double)hits + 0.5));
	return idf <= 0 ? 1e-6 : idf;
}
static inline double content_bm25_term(double idf, double tf)
{
	return idf * tf * 2.2 / (tf + 1.2);
}
/* Defines steno_bm25(content_docs) and steno_snippet(content_fts, ...) on db: 0, or -1 with
 * err. */
int content_define_bm25(sqlite3 *db, struct steno_error *err);
/* A match in a text: its phrase (the query's number of it), first token and length in
 * tokens. */
struct content_inst {
	int phrase, off, size;
};
struct content_marks {
	const char *open, *close, *ellipsis;
};
/* Tokenizes text[0..len) as an FTS5 tokenizer does, calling cb(ud, ...) for each token. */
typedef int (*content_tokenize_fn)(void *ctx, const char *text, int len, void *ud,
				   int (*cb)(void *ud, int flags, const char *t, int nt,
					     int start, int end));
/* The words around text's matches (inst, in the order of their offsets, of their phrases at
 * one offset, as FTS5's xInst gives them) with each match marked: a window of n tokens, as
 * steno_snippet (content_snippet.c). sqlite3_free it; NULL with *rc on failure. */
char *content_snippet_make(const char *text, int len, const struct content_inst *inst,
			   int ninst, content_tokenize_fn tok, void *tok_ctx,
			   const struct content_marks *m, int n, int *rc);
/* steno_snippet(content_fts, text, open, close, ellipsis, n), an FTS5 auxiliary function
 * (content_snippet.c). */
void content_snippet_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
			int argc, sqlite3_value **argv);
/* Binds s (a copy), or NULL when s is. */
void content_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Whether table has column: 1 yes, 0 no, -1 on error. */
int content_has_column(sqlite3 *db, const char *table, const char *column);

/* ---- a transcription's passages from its whole text (content_passages.c) ---- */

/* What a query is (content_fts_query's output, prefixes written as words): phrases joined
 * by OR only, by AND only, or else (NOT, a prefix, AND and OR together). */
enum content_form { CONTENT_FORM_OTHER, CONTENT_FORM_ANY, CONTENT_FORM_ALL };
enum content_form content_query_form(const char *fts);

/* The index's tokenizer, outside an FTS5 statement. */
struct content_tokenizer {
	fts5_tokenizer api;
	Fts5Tokenizer *tok;
};
int content_tokenizer_open(sqlite3 *db, struct content_tokenizer *t);
void content_tokenizer_close(struct content_tokenizer *t);
/* A content_tokenize_fn of a content_tokenizer (ctx). */
int content_tokenize(void *ctx, const char *text, int len, void *ud,
		     int (*cb)(void *, int, const char *, int, int, int));
/* Defines steno_seg_starts, steno_passage_snippet and steno_word on db (when it has not got
 * them): 0, or -1. */
int content_define_passages(sqlite3 *db);

/* The matches of each transcription that the ranking (steno_bm25 with a log) walked. */
struct content_log_doc {
	sqlite3_int64 n;
	size_t first, count;   /* its matches: inst[first .. first + count) */
	bool cut;              /* only its first note_max matches (steno_note) */
};
struct content_log {
	struct content_log_doc *docs;
	struct content_inst *inst, *scratch;
	size_t ndocs, cap_docs, ninst, cap_inst, cap_scratch;
	int nphrase;     /* the query's phrases */
	bool unsorted;   /* docs not in the order of n */
	/* gave up (no memory, or more than CONTENT_LOG_MAX matches): the search reads the
	 * passages' index instead */
	bool incomplete;
	/* steno_note: the transcriptions to note (sorted; NULL: all), the table's rows, and
	 * how many of them matched (noted or not) */
	const sqlite3_int64 *only;
	size_t nonly;
	sqlite3_int64 rows;
	long long matched;
	/* steno_note: at most this many matches noted of a row of a one-phrase query (0: all) */
	int note_max;
};
/* The most matches a log keeps (12 bytes each, 3 MB): a frequent word in a large store (500
 * a transcription of an hour, in 10,000 of them) is read from the passages' index instead of
 * growing the log to 60 MB. The benchmark's queries keep under 70,000. */
#define CONTENT_LOG_MAX (1 << 18)
void content_log_free(struct content_log *log);
int content_log_grow(struct content_log *log);
/* Notes a match of the transcription being ranked; then content_log_doc(its n, the count of
 * matches before its first) ends its list. 0, or -1 when the log gives up (log->incomplete
 * set). */
static inline int content_log_inst(struct content_log *log, int phrase, int off, int size)
{
	if (log->ninst == log->cap_inst && content_log_grow(log) < 0)
		return -1;
	log->inst[log->ninst++] = (struct content_inst){ phrase, off, size };
	return 0;
}
int content_log_doc(struct content_log *log, sqlite3_int64 n, size_t first);

/* How many matches of item n the log holds, -1 when none; *cut: only the first of them. */
long content_log_matches(const struct content_log *log, sqlite3_int64 n, bool *cut);
/* Empties the log for another walk (what it holds stays allocated). */
void content_log_reset(struct content_log *log);

/* ---- the words said often in each transcription (content_frequent.c) ---- */

/* A transcription's words said this many times or more are kept with their count. */
#define CONTENT_FREQUENT_MIN 8
/* Item n's rows made again from its passages. 0, or -1 with err. */
int content_frequent_put(sqlite3 *db, sqlite3_int64 n, struct steno_error *err);
/* The term of fts (content_fts_query's output, of the form ANY) when it is one word (no
 * prefix), or words joined by OR of which the store holds one, as the index holds it; NULL
 * when not (or no memory). Caller frees. */
char *content_frequent_term(sqlite3 *db, const char *fts);
/* The statement content_frequent_term keeps (content_db_forget finalizes it). */
extern const char content_word_sql[];
/* A one-word query's walk of content_frequent: the hits so far (l), how many a
 * transcription shows (per), the log its matches are noted in; take: adds the hits of
 * transcription n ranked rank (passages: how many of its passages match), 0 or -1 with
 * err. */
struct content_frequent_walk {
	sqlite3 *db;
	struct content_log *log;
	struct steno_error *err;
	long per;
	const struct content_hit_list *l;
	int (*take)(void *ud, sqlite3_int64 n, double rank, long passages);
	void *ud;
};
/* The hits of a query of the one word term (docq: the FTS5 query of it alone), the
 * transcriptions taken from content_frequent in the ranking's order, a batch at a time
 * (enough for the hits still to come), each batch ranked and logged by one walk of the word
 * in the whole-text index: 1 when the hits are in, 0 when content_frequent ran out first or
 * disagrees (then the usual ranking gives them), -1 with err. */
int content_frequent_hits(struct content_frequent_walk *w, const char *term, const char *docq);
/* The statements content_frequent_hits keeps. */
extern const char content_frequent_sql[], content_chosen_sql[];
/* Makes temp.content_words_vocab (fts5vocab 'row' over content_words): 0, or -1. */
int content_words_vocab(sqlite3 *db);

/* A passage that holds a match: its rank in the item, its matches (offsets its own). */
struct content_passage {
	long rank;
	const struct content_inst *inst;
	int count;
};
/* The passages of item n that match a query of phrases joined by OR (form ANY: a passage
 * that holds one of its phrases) or by AND (ALL: one that holds every one), found among the
 * logged matches, in the order said: the first max in out; returns how many there are, or
 * -1 when the log or starts (content_items.seg_starts) cannot tell (then the passages'
 * index is asked). known: how many there are when the caller knows (content_frequent), or
 * -1: a log of only the first matches of n tells the first max when a further passage
 * matches among them, and known the rest; a whole log must count known. The log's matches
 * of n are reordered and made the passages' own. */
long content_log_passages(struct content_log *log, sqlite3_int64 n, enum content_form form,
			  const void *starts, int starts_bytes, struct content_passage *out,
			  long max, long known);

/* A copy of a column's text (NULL when NULL; *nomem set when no memory). */
char *content_col_dup(sqlite3_stmt *st, int col, bool *nomem);

/* ---- hits (content_search.c) ---- */

struct content_hit_list {
	struct content_hit *v;
	size_t n, cap;
	long limit;
};
/* Frees h's strings and zeroes it. */
void content_hit_clear(struct content_hit *h);
/* Adds h to the list (taken whole; cleared on no memory): 0, or -1 on no memory. */
int content_hit_push(struct content_hit_list *l, struct content_hit *h);
/* A copy of the transcription's fields of doc (the passage's own are filled after): 0, or
 * -1 on no memory. */
int content_hit_of_doc(const struct content_hit *doc, struct content_hit *h);

/* ---- the passages of a batch of transcriptions (content_scan.c) ---- */

struct scan_doc {
	sqlite3_int64 n;
	struct content_hit doc;       /* the transcription's fields */
	long taken, all;
};

struct content_scan {
	struct scan_doc *v;           /* in rank order */
	sqlite3_int64 *sorted;        /* the v[i].n sorted, for the filter's lookups */
	size_t *at;                   /* sorted[k] is v[at[k]].n */
	size_t n, cap;
	long per;
};

/* Adds a transcription to the batch (doc taken whole): 0, or -1 on no memory. */
int content_scan_add(struct content_scan *sc, sqlite3_int64 n, struct content_hit *doc);
/* Reads the batch's passages with st (content_scan_sql, prepared, the query and the marks
 * bound: ?1, ?3 to ?5) and adds them to l: transcriptions in the batch's order, each one's
 * hits in the order said. The batch is emptied. 0, or -1 with err. */
int content_scan_run(sqlite3 *db, sqlite3_stmt *st, struct content_scan *sc,
		     struct content_hit_list *l, struct steno_error *err);
void content_scan_free(struct content_scan *sc);
extern const char content_scan_sql[];
/* Defines content_take, the filter of content_scan_sql, on db: 0, or -1. */
int content_define_take(sqlite3 *db);

#endif
