#ifndef STENO_CORE_CONTENT_INTERNAL_H
#define STENO_CORE_CONTENT_INTERNAL_H

/* Shared by core/content_db.c, content_search.c and content_sync.c only. */

#include <sqlite3.h>
#include <stdbool.h>

#include "api/error.h"

/* A segment's rowid is its item's n * CONTENT_SEGS_PER_ITEM + its rank. */
#define CONTENT_SEGS_PER_ITEM 16777216LL

/* Fills err with what SQLite says (STENO_ERR_IO) and returns -1. */
int content_sql_fail(sqlite3 *db, struct steno_error *err, const char *what);
int content_exec(sqlite3 *db, const char *sql, struct steno_error *err);
int content_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, struct steno_error *err);
int content_begin(sqlite3 *db, bool *nested, struct steno_error *err);
int content_end(sqlite3 *db, bool nested, int rc, struct steno_error *err);
/* The user's query as FTS5 syntax that does not fail on a word (content_search.c).
 * Caller frees; NULL on no memory. */
char *content_fts_query(const char *in);

#endif
