#ifndef STENO_CORE_CONTENT_INTERNAL_H
#define STENO_CORE_CONTENT_INTERNAL_H

/* Shared by core/content_db.c, content_query.c, content_read.c, content_search.c,
 * content_snippet.c and content_sync.c only. */

#include <sqlite3.h>
#include <stdbool.h>

#include "api/error.h"

/* A segment's rowid is its item's n * CONTENT_SEGS_PER_ITEM + its rank. */
#define CONTENT_SEGS_PER_ITEM 16777216LL

/* The whole text of item N (its segments in order, a space between them: a segment may end
 * on a word and the next begin with one), NULL when it has none. */
#define DOC_TEXT_SQL(N) "(SELECT group_concat(text, ' ') FROM (SELECT text FROM content_segs" \
	" WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215 ORDER BY seg))"

/* content_docs is contentless (the text is in content_segs already): its entries are taken
 * out with the text they were made from, rebuilt by the same query, before the segments
 * go. */
#define DOC_DELETE_SQL(N) "INSERT INTO content_docs(content_docs, rowid, text)" \
	" SELECT 'delete', " N ", t FROM (SELECT " DOC_TEXT_SQL(N) " AS t) WHERE t IS NOT NULL"
/* The index entries of item N's segments, out and in, in one statement each. */
#define SEGS_UNINDEX_SQL(N) "INSERT INTO content_fts(content_fts, rowid, text)" \
	" SELECT 'delete', seg, text FROM content_segs" \
	" WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215"
#define SEGS_INDEX_SQL(N) "INSERT INTO content_fts(rowid, text) SELECT seg, text" \
	" FROM content_segs WHERE seg BETWEEN " N " * 16777216 AND " N " * 16777216 + 16777215"
#define DOC_INSERT_SQL(N) "INSERT INTO content_docs(rowid, text)" \
	" SELECT " N ", t FROM (SELECT " DOC_TEXT_SQL(N) " AS t) WHERE t IS NOT NULL"

/* Fills err with what SQLite says (STENO_ERR_IO) and returns -1. */
int content_sql_fail(sqlite3 *db, struct steno_error *err, const char *what);
int content_exec(sqlite3 *db, const char *sql, struct steno_error *err);
int content_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, struct steno_error *err);
int content_begin(sqlite3 *db, bool *nested, struct steno_error *err);
int content_end(sqlite3 *db, bool nested, int rc, struct steno_error *err);
/* The user's query as FTS5 syntax that does not fail on a word (content_search.c).
 * Caller frees; NULL on no memory. */
char *content_fts_query(const char *in);
/* content_fts_query's output without its NOT clauses: what the whole-text index is asked.
 * Caller frees; NULL on no memory. */
char *content_doc_query(const char *fts);
/* content_fts_query's output with its prefixes written as the store's words; NULL when that
 * cannot be (then the prefixes are read by a scan). Caller frees. */
char *content_expand_prefixes(sqlite3 *db, const char *fts);
/* Defines steno_bm25(content_docs) and steno_snippet(content_fts, ...) on db: 0, or -1 with
 * err. */
int content_define_bm25(sqlite3 *db, struct steno_error *err);
/* steno_snippet(content_fts, text, open, close, ellipsis, n), an FTS5 auxiliary function
 * (content_snippet.c). */
void content_snippet_fn(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
			int argc, sqlite3_value **argv);
/* A copy of a column's text (NULL when NULL; *nomem set when no memory). */
char *content_col_dup(sqlite3_stmt *st, int col, bool *nomem);

#endif
