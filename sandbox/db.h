/* db: SQLite storage. WAL, synchronous=NORMAL (a process kill loses no committed write),
 * foreign keys, busy timeout; one connection per thread, opened on first use. */
#ifndef SB_DB_H
#define SB_DB_H

#include <sqlite3.h>
#include <stdint.h>

/* Whether a statement of the calling thread failed with SQLITE_FULL (disk full) since the last
 * call; clears it. Fed by db_step_done, db_exec and SQLite's error log (installed by db_init). */
int db_storage_full_take(void);
/* Opens DIR/sandbox.db and creates the schema. 0 or -1 (message on stderr). */
int db_init(const char *dir);
/* The calling thread's connection (NULL if it cannot be opened). Closed at thread exit. */
sqlite3 *db_conn(void);
/* Closes the calling thread's connection and forgets the path: last call of the process. */
void db_shutdown(void);
/* Prepares SQL on this thread's connection; NULL on error (logged). Caller finalizes. */
sqlite3_stmt *db_prep(const char *sql);
/* Executes SQL without results. 0 or -1. */
int db_exec(const char *sql);
/* meta key/value. get: malloc'ed copy or NULL. */
char *db_meta_get(const char *key);
int db_meta_set(const char *key, const char *value);
/* Convenience: bind text or NULL. */
void db_bind_text(sqlite3_stmt *st, int idx, const char *s);
/* Runs a prepared statement to completion. 0 or -1. Finalizes it. */
int db_step_done(sqlite3_stmt *st);
/* Single integer result of SQL with one int64 parameter (or none when param < 0 is unused). */
int64_t db_scalar_int(const char *sql, int64_t param, int64_t fallback);

#endif
