#ifndef STENO_CORE_LOCALDB_H
#define STENO_CORE_LOCALDB_H

/* The local store on disk: one SQLite database per server origin, in the cache directory
 * (CACHE_DIR/store/ORIGIN.db, the directory 0700, the file 0600 from its creation), shared by
 * every steno process of the user (a browser and commands at once): WAL, synchronous=NORMAL,
 * a busy timeout, foreign keys, and every write in a transaction (localdb_begin: BEGIN
 * IMMEDIATE, the one writer at a time).
 *
 * It is a cache of what was read from the server: a file that cannot be opened, is not a
 * database, fails `PRAGMA quick_check` (at open, or later with defer_check: see
 * localdb_check_start), is another program's (no steno application_id) or was
 * written by a newer steno (a user_version above the last migration known here) is renamed
 * aside to NAME.corrupt-YYYYMMDDTHHMMSS (with its -wal and -shm) and a new one is started;
 * the caller gets a message to show. Never a crash, never an exit.
 *
 * The schema grows by migrations (core/localdb_schema.c): an ordered list of named steps, each
 * run once, in order, all of those still missing in one BEGIN IMMEDIATE transaction, which
 * then sets `PRAGMA user_version` to the last step's version. Other modules of core add their
 * tables there (the transcript content and its FTS5 index: core/content_db.c).
 *
 * No curses, no curl. */

#include <stdbool.h>
#include <stddef.h>
#include <sqlite3.h>

#include "api/error.h"

/* PRAGMA application_id of steno's stores ("STNO"). */
#define LOCALDB_APPLICATION_ID 0x53544e4f

/* One step of the schema. `apply` runs inside the migration's transaction and must not
 * begin or commit one itself; it returns 0, or -1 with *err a sqlite3_malloc'd or malloc'd
 * message (free()d by the caller: use localdb_errdup). */
struct localdb_migration {
	int version;          /* > the previous step's: the user_version once it ran */
	const char *name;     /* "core: views, items, activity" (logged in localdb_migrations) */
	int (*apply)(sqlite3 *db, char **err);
};

/* The ordered list (core/localdb_schema.c). *n is set to its length. */
const struct localdb_migration *localdb_migrations(size_t *n);
/* The last step's version: what a current store's user_version is. */
int localdb_schema_latest(void);
/* The SQL functions the schema's indexes call (natsort_key, tags_key: core/natsort.h), on
 * a connection to a store: localdb_open does it before it reads the file. 0 or -1. */
int localdb_register_functions(sqlite3 *db);

struct localdb_options {
	const char *cache_dir;   /* the store lives in cache_dir/store/; required unless off */
	const char *base_url;    /* the server: its origin names the file */
	bool off;                /* `cache = off`: no file at all */
	int busy_timeout_ms;     /* how long a statement waits for another process's writer;
				  * 0: LOCALDB_BUSY_DEFAULT_MS */
	bool skip_check;         /* no quick_check at all (benchmarks of a large store) */
	bool defer_check;        /* no quick_check at open: localdb_check_start runs it later */
};
#define LOCALDB_BUSY_DEFAULT_MS 5000

struct localdb;

/* Opens (creating it when missing) the store of o->base_url. Returns 0 with *out set;
 * 1 when o->off (no file made, *out NULL: keep everything in memory); -1 with err when no
 * store can be had (no cache directory, disk full, ... *out NULL: memory only as well).
 * *notice (may be NULL) gets a malloc'd message for people when a file was set aside
 * ("the local store ... was damaged (...): set aside as ..., a new one was started"),
 * else NULL; the caller frees it. */
int localdb_open(const struct localdb_options *o, struct localdb **out, char **notice,
		 struct steno_error *err);
/* Finalizes what it holds (the statements content_db_search keeps prepared between
 * searches too) and closes. NULL is fine. */
void localdb_close(struct localdb *db);

/* The check of the pages moved out of the way (defer_check; the browser starts it once its
 * first rows are drawn: on a 100,000-item store it reads some 100 MB, 200 ms). It runs
 * PRAGMA quick_check(1) in a thread on its own read-only connection. A file found damaged is
 * marked (PATH.damaged: its device, inode and the reason) and the next localdb_open, in any
 * process, sets it aside with the usual notice; this process goes on with the file as it is
 * (SQLite answers SQLITE_CORRUPT on the bad pages, never a crash). localdb_close interrupts a
 * check still running (a short command leaves no mark). Start: 0, or -1 (no thread; nothing
 * checked). Only once per open; a no-op with skip_check. */
int localdb_check_start(struct localdb *db);
/* The check's verdict once it has ended: NULL while it runs, when it was not started, was
 * interrupted or found the file sound; else the reason ("quick_check: ..."), owned by db. */
const char *localdb_check_result(struct localdb *db);
/* Waits for a started check to end; its verdict as localdb_check_result. */
const char *localdb_check_wait(struct localdb *db);

/* For the modules of core that prepare their own statements (finalize them before
 * localdb_close). */
sqlite3 *localdb_handle(struct localdb *db);
const char *localdb_path(const struct localdb *db);

/* CACHE_DIR/store/ORIGIN.db for base_url into out. Returns 0, or -1 (no cache dir, no
 * origin in base_url, too long). */
int localdb_file_path(const char *cache_dir, const char *base_url, char *out, size_t size);
/* CACHE_DIR/store into out; 0 or -1. */
int localdb_dir_path(const char *cache_dir, char *out, size_t size);

/* BEGIN IMMEDIATE (waits up to the busy timeout for another writer), COMMIT, ROLLBACK.
 * 0, or -1 with err (STENO_ERR_IO). A failed commit rolls back. */
int localdb_begin(struct localdb *db, struct steno_error *err);
int localdb_commit(struct localdb *db, struct steno_error *err);
void localdb_rollback(struct localdb *db);

/* Runs SQL without results (several statements allowed). 0, or -1 with err. */
int localdb_exec(struct localdb *db, const char *sql, struct steno_error *err);
/* Fills err from the handle's last error, "what: message". Returns -1. */
int localdb_fail(struct localdb *db, struct steno_error *err, const char *what);

/* A step's error message: a malloc'd copy of sqlite3_errmsg(db) prefixed by what. */
char *localdb_errdup(sqlite3 *db, const char *what);

/* The store's user_version (-1 on error). */
int localdb_version(struct localdb *db);

#endif
