#ifndef STENO_CORE_STORE_LIST_H
#define STENO_CORE_STORE_LIST_H

/* The list a screen shows: a view (core/store.h) filtered and sorted by a store_query, read
 * row by row. The list knows its count and hands out the record of row i.
 *
 * Three ways, chosen at each store_list_update, with the same order and the same rows:
 * - the view as it is (server order, no filter): row i is the view's item i (or n-1-i
 *   descending); nothing is copied;
 * - a view of at least store_list_sql_min() rows whose items are all written in the local
 *   store (core/store_db.c): the filter and the sort run in SQLite (a WHERE calling the
 *   query language as the SQL function steno_match, an ORDER BY over the columns with the
 *   natural-order collations `natsort` and `steno_tags`), their result kept in a TEMP table
 *   of the connection (rank -> id); the count comes from it and rows are read a window at a
 *   time (STORE_LIST_WINDOW ids) around the row asked for;
 * - otherwise (small lists, `cache = off`, a view whose rows are still coming from the db):
 *   the in-memory selection, store_view_select (which reads every record of the view).
 * Records not held by the store (core/store.h, STORE_RECS_MAX) are read back from the db
 * when a row is asked for; store_list_find compares ids and reads no record.
 *
 * Ownership: the caller's, freed by store_list_free (which needs the store still open). */

#include <stdbool.h>

#include "core/store.h"

struct store_list;

#define STORE_LIST_WINDOW 256
/* Lists shorter than this are selected in memory (default 2000). Tests set 0 to run every
 * list with a db through SQL. */
long store_list_sql_min(void);
void store_list_set_sql_min(long rows);

struct store_list *store_list_new(void);
void store_list_free(struct steno_store *st, struct store_list *l);
/* Selects v's rows for q (q NULL: every row, server order). v NULL: an empty list.
 * Returns the count, or -1 on error (no memory, SQL: the list is empty). */
long store_list_update(struct steno_store *st, struct store_list *l, const struct store_view *v,
		       const struct store_query *q);
long store_list_count(const struct store_list *l);
/* Row i's record; NULL out of range (or a row whose record is gone). May read a window. */
const struct store_transcription *store_list_item(struct steno_store *st, struct store_list *l,
						  long i);
/* Row i's id, without reading its record; NULL out of range. Valid until the next call on
 * the list or a change of the view. */
const char *store_list_id(struct steno_store *st, struct store_list *l, long i);
/* The row of id, or -1 when not listed. */
long store_list_find(struct steno_store *st, struct store_list *l, const char *id);
/* The rows are selected in SQL (not in memory) since the last update. */
bool store_list_in_sql(const struct store_list *l);

/* core/store_db.c calls it on the connection it attaches: the function steno_match the
 * SQL above uses. 0, or -1. */
struct sqlite3;
int store_list_register_sql(struct sqlite3 *db);

#endif
