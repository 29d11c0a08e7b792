/* db: schema and per-thread connections. */
#include "config.h"

#include "db.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *db_path;
static pthread_key_t db_key;
static pthread_once_t db_key_once = PTHREAD_ONCE_INIT;

static const char *const db_schema =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE IF NOT EXISTS orgs(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
	" credit_cents INTEGER NOT NULL DEFAULT 0, workspace_id INTEGER);"
	"CREATE TABLE IF NOT EXISTS api_keys(key TEXT PRIMARY KEY,"
	" org_id INTEGER REFERENCES orgs(id), is_admin INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS folders(id INTEGER PRIMARY KEY, org_id INTEGER NOT NULL REFERENCES orgs(id),"
	" parent_id INTEGER REFERENCES folders(id), name TEXT NOT NULL, path TEXT NOT NULL, idpath TEXT NOT NULL,"
	" UNIQUE(org_id, path));"
	"CREATE TABLE IF NOT EXISTS uploads(token TEXT PRIMARY KEY, org_id INTEGER NOT NULL,"
	" filename TEXT NOT NULL, stored INTEGER NOT NULL DEFAULT 0, size INTEGER NOT NULL DEFAULT 0,"
	" created_at REAL NOT NULL);"
	/* Times are sandbox-clock seconds. State is computed from them on read (see model.c):
	 * fetch 0 pending / 1 done / 2 failed; ingest_end and work_end are NULL until known. */
	"CREATE TABLE IF NOT EXISTS transcriptions(rid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL,"
	" org_id INTEGER NOT NULL REFERENCES orgs(id), folder_id INTEGER NOT NULL REFERENCES folders(id),"
	" name TEXT NOT NULL, language TEXT NOT NULL, service TEXT NOT NULL, is_subtitle INTEGER NOT NULL,"
	" sharing INTEGER NOT NULL, tags TEXT NOT NULL DEFAULT '[]', tmp_url TEXT, document_url TEXT,"
	" media_path TEXT, document TEXT, created_at REAL NOT NULL, updated_at REAL NOT NULL,"
	" fetch INTEGER NOT NULL DEFAULT 0, ingest_end REAL, work_end REAL, final_state TEXT,"
	" fixed_state TEXT, failure_reason TEXT, failure_message TEXT, audio_seconds INTEGER NOT NULL DEFAULT 0,"
	" cost_cents INTEGER NOT NULL DEFAULT 0, refunded INTEGER NOT NULL DEFAULT 0, boost INTEGER NOT NULL DEFAULT 0,"
	" deleted INTEGER NOT NULL DEFAULT 0, order_id TEXT, source_rid INTEGER, seed INTEGER NOT NULL DEFAULT 0,"
	" charged INTEGER NOT NULL DEFAULT 0, started_at REAL);"
	"CREATE INDEX IF NOT EXISTS tr_list ON transcriptions(org_id, deleted, created_at DESC, rid DESC);"
	"CREATE INDEX IF NOT EXISTS tr_order ON transcriptions(order_id);"
	"CREATE TABLE IF NOT EXISTS orders(id TEXT PRIMARY KEY, org_id INTEGER NOT NULL REFERENCES orgs(id),"
	" folder_id INTEGER NOT NULL, kind TEXT NOT NULL, service TEXT NOT NULL, language TEXT, url TEXT,"
	" boost INTEGER NOT NULL DEFAULT 0, is_subtitle INTEGER NOT NULL DEFAULT 0, webhook_url TEXT,"
	" glossary_ids TEXT NOT NULL DEFAULT '[]', style_guide_id INTEGER, addons TEXT NOT NULL DEFAULT '[]',"
	" source_rid INTEGER, created_at REAL NOT NULL, submitted_at REAL, locked INTEGER NOT NULL DEFAULT 0,"
	" charged INTEGER NOT NULL DEFAULT 0, name TEXT, tags TEXT NOT NULL DEFAULT '[]', target_languages TEXT NOT NULL DEFAULT '[]',"
	" fixed_state TEXT, last_notified TEXT);"
	"CREATE TABLE IF NOT EXISTS exports(id TEXT PRIMARY KEY, org_id INTEGER NOT NULL, format TEXT NOT NULL,"
	" options TEXT NOT NULL, rids TEXT NOT NULL, created_at REAL NOT NULL, fixed_state TEXT,"
	" file_path TEXT, failed INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS tasks(id TEXT PRIMARY KEY, org_id INTEGER NOT NULL, source_rid INTEGER NOT NULL,"
	" target_language TEXT NOT NULL, created_at REAL NOT NULL, done_at REAL NOT NULL, out_rid INTEGER,"
	" failure_reason TEXT);"
	"CREATE TABLE IF NOT EXISTS glossaries(id INTEGER PRIMARY KEY, org_id INTEGER NOT NULL, name TEXT NOT NULL,"
	" source_language TEXT NOT NULL, target_languages TEXT NOT NULL, organization_default INTEGER NOT NULL,"
	" imported INTEGER NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL);"
	"CREATE TABLE IF NOT EXISTS style_guides(id INTEGER PRIMARY KEY, org_id INTEGER NOT NULL, name TEXT NOT NULL,"
	" operation TEXT NOT NULL, organization_default INTEGER NOT NULL, verbatim INTEGER NOT NULL,"
	" fix_grammar INTEGER NOT NULL, sdh INTEGER NOT NULL, speaker_id TEXT NOT NULL, notation_tags TEXT NOT NULL,"
	" created_at REAL NOT NULL, updated_at REAL NOT NULL);"
	"CREATE TABLE IF NOT EXISTS webhooks(id INTEGER PRIMARY KEY, order_id TEXT NOT NULL, url TEXT NOT NULL,"
	" state TEXT NOT NULL, payload TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at REAL,"
	" last_status INTEGER NOT NULL DEFAULT 0, last_error TEXT, delivered INTEGER NOT NULL DEFAULT 0,"
	" created_at REAL NOT NULL);"
	/* counters.c: requests that can change something, and faults injected by kind. */
	"CREATE TABLE IF NOT EXISTS received(id INTEGER PRIMARY KEY, method TEXT NOT NULL, route TEXT NOT NULL,"
	" key TEXT NOT NULL, processed INTEGER NOT NULL, fault TEXT NOT NULL, status INTEGER NOT NULL,"
	" at REAL NOT NULL);"
	"CREATE TABLE IF NOT EXISTS faults_injected(kind TEXT PRIMARY KEY, n INTEGER NOT NULL);"
	/* Speech recognition jobs (asr.c): state 0 queued, 1 decoding, 2 done, 3 failed; min_end is
	 * the sandbox-clock end of the work when decoding is faster; transcript in storage JSON. */
	"CREATE TABLE IF NOT EXISTS asr(rid INTEGER PRIMARY KEY, state INTEGER NOT NULL DEFAULT 0,"
	" min_end REAL NOT NULL, transcript TEXT);";

static _Thread_local int db_full;

/* SQLite's error log: a statement failing inside (not at its commit) passes here with its
 * code, on its thread; db_step_done and db_exec see the others. */
static void db_error_log(void *arg, int code, const char *msg)
{
	(void)arg;
	(void)msg;
	if ((code & 0xff) == SQLITE_FULL)
		db_full = 1;
}

int db_storage_full_take(void)
{
	int was = db_full;
	db_full = 0;
	return was;
}

static void db_conn_free(void *p)
{
	sqlite3_close_v2(p);
}

static void db_key_make(void)
{
	pthread_key_create(&db_key, db_conn_free);
}

static sqlite3 *db_open_one(void)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		fprintf(stderr, "steno-sandbox: cannot open %s: %s\n", db_path, db ? sqlite3_errmsg(db) : "?");
		sqlite3_close_v2(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 10000);
	sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;", NULL,
		     NULL, NULL);
	return db;
}

sqlite3 *db_conn(void)
{
	pthread_once(&db_key_once, db_key_make);
	sqlite3 *db = pthread_getspecific(db_key);
	if (!db && db_path) {
		db = db_open_one();
		if (db)
			pthread_setspecific(db_key, db);
	}
	return db;
}

void db_shutdown(void)
{
	pthread_once(&db_key_once, db_key_make);
	sqlite3 *db = pthread_getspecific(db_key);
	if (db) {
		sqlite3_close_v2(db);
		pthread_setspecific(db_key, NULL);
	}
	free(db_path);
	db_path = NULL;
}

int db_init(const char *dir)
{
	/* Before SQLite initializes (the first open below); refused (harmless) if it already has. */
	sqlite3_config(SQLITE_CONFIG_LOG, db_error_log, NULL);
	db_path = util_printf("%s/sandbox.db", dir);
	if (!db_path)
		return -1;
	/* the keys are in it: private whatever the directory and the umask (SQLite gives its
	 * journal and WAL files the database's mode) */
	int fd = open(db_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || ((st.st_mode & 077) && fchmod(fd, 0600) != 0)) {
		fprintf(stderr, "steno-sandbox: cannot create %s privately: %s\n", db_path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	sqlite3 *db = db_conn();
	if (!db)
		return -1;
	char *err = NULL;
	if (sqlite3_exec(db, db_schema, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "steno-sandbox: schema: %s\n", err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

sqlite3_stmt *db_prep(const char *sql)
{
	sqlite3 *db = db_conn();
	sqlite3_stmt *st = NULL;
	if (!db)
		return NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "steno-sandbox: sql: %s: %s\n", sqlite3_errmsg(db), sql);
		return NULL;
	}
	return st;
}

int db_exec(const char *sql)
{
	sqlite3 *db = db_conn();
	if (!db)
		return -1;
	char *err = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
	if (rc != SQLITE_OK) {
		db_full |= (rc & 0xff) == SQLITE_FULL;
		fprintf(stderr, "steno-sandbox: sql: %s\n", err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

char *db_meta_get(const char *key)
{
	sqlite3_stmt *st = db_prep("SELECT value FROM meta WHERE key=?");
	char *v = NULL;
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

int db_meta_set(const char *key, const char *value)
{
	sqlite3_stmt *st = db_prep("INSERT INTO meta(key,value) VALUES(?,?) "
				   "ON CONFLICT(key) DO UPDATE SET value=excluded.value");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	return db_step_done(st);
}

void db_bind_text(sqlite3_stmt *st, int idx, const char *s)
{
	if (s)
		sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, idx);
}

int db_step_done(sqlite3_stmt *st)
{
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	db_full |= (rc & 0xff) == SQLITE_FULL;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		fprintf(stderr, "steno-sandbox: sql step: %s: %.120s\n", sqlite3_errmsg(sqlite3_db_handle(st)),
			sqlite3_sql(st));
	sqlite3_finalize(st);
	return (rc == SQLITE_DONE || rc == SQLITE_ROW) ? 0 : -1;
}

int64_t db_scalar_int(const char *sql, int64_t param, int64_t fallback)
{
	sqlite3_stmt *st = db_prep(sql);
	int64_t v = fallback;
	if (!st)
		return fallback;
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, param);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}
