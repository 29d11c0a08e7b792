/* The local store's file: where it lives, opening it safely, setting a bad one aside, and
 * running the migrations (core/localdb.h). */
#include "config.h"
#include "core/localdb.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/content_db.h"
#include "core/localdb_check.h"
#include "core/paths.h"
#include "api/utf8.h"

sqlite3 *localdb_handle(struct localdb *db)
{
	return db ? db->h : NULL;
}

const char *localdb_path(const struct localdb *db)
{
	return db ? db->path : NULL;
}

int localdb_dir_path(const char *cache_dir, char *out, size_t size)
{
	if (!cache_dir || !cache_dir[0])
		return -1;
	int n = snprintf(out, size, "%s/store", cache_dir);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

/* "https://User@Host.example:8443/api/v1" -> "https_host.example_8443": the scheme and the
 * authority without user info, lowercased, every other character than [a-z0-9.-] made '_'. */
static int origin_name(const char *url, char *out, size_t size)
{
	const char *sep = url ? strstr(url, "://") : NULL;
	if (!sep || sep == url)
		return -1;
	const char *auth = sep + 3;
	size_t alen = strcspn(auth, "/?#");
	const char *at = memchr(auth, '@', alen);
	if (at) {
		alen -= (size_t)(at + 1 - auth);
		auth = at + 1;
	}
	size_t slen = (size_t)(sep - url);
	if (alen == 0 || slen + 1 + alen + 1 > size || slen + alen > 200)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < slen + 1 + alen; i++) {
		char c = i < slen ? url[i] : i == slen ? '_' : auth[i - slen - 1];
		c = (char)tolower((unsigned char)c);
		out[k++] = (isalnum((unsigned char)c) || c == '.' || c == '-') ? c : '_';
	}
	out[k] = '\0';
	return 0;
}

int localdb_file_path(const char *cache_dir, const char *base_url, char *out, size_t size)
{
	char dir[4096], name[256];
	if (localdb_dir_path(cache_dir, dir, sizeof dir) != 0 ||
	    origin_name(base_url, name, sizeof name) != 0)
		return -1;
	int n = snprintf(out, size, "%s/%s.db", dir, name);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

char *localdb_errdup(sqlite3 *db, const char *what)
{
	const char *m = db ? sqlite3_errmsg(db) : "no database";
	size_t n = strlen(what) + strlen(m) + 3;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s: %s", what, m);
	return s;
}

int localdb_fail(struct localdb *db, struct steno_error *err, const char *what)
{
	return steno_error_set(err, STENO_ERR_IO, "local store: %s: %s", what,
			       db && db->h ? sqlite3_errmsg(db->h) : "not open");
}

int localdb_exec(struct localdb *db, const char *sql, struct steno_error *err)
{
	if (!db || sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return localdb_fail(db, err, "write");
	return 0;
}

int localdb_begin(struct localdb *db, struct steno_error *err)
{
	if (!db || sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return localdb_fail(db, err, "begin");
	return 0;
}

int localdb_commit(struct localdb *db, struct steno_error *err)
{
	if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		localdb_fail(db, err, "commit");
		localdb_rollback(db);
		return -1;
	}
	return 0;
}

void localdb_rollback(struct localdb *db)
{
	if (db && db->h && !sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

/* One integer from a one-row statement; -1 on error, with *rc the sqlite code. */
static long long query_int(sqlite3 *h, const char *sql, int *rc)
{
	sqlite3_stmt *s = NULL;
	long long v = -1;
	*rc = sqlite3_prepare_v2(h, sql, -1, &s, NULL);
	if (*rc == SQLITE_OK) {
		*rc = sqlite3_step(s);
		if (*rc == SQLITE_ROW) {
			v = sqlite3_column_int64(s, 0);
			*rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(s);
	return v;
}

int localdb_version(struct localdb *db)
{
	int rc;
	return db ? (int)query_int(db->h, "PRAGMA user_version", &rc) : -1;
}

bool localdb_corrupt_code(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT || rc == SQLITE_FORMAT;
}

void localdb_quick_check(sqlite3 *h, struct verdict *v)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(h, "PRAGMA quick_check(1)", -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *r = sqlite3_column_text(s, 0);
		if (!r || strcmp((const char *)r, "ok") != 0)
			snprintf(v->why, sizeof v->why, "quick_check: %.*s",
				 STENO_UTF8_CUT(r ? (const char *)r : "?", 200));
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_OK && !v->why[0]) {
		snprintf(v->why, sizeof v->why, "%s", sqlite3_errmsg(h));
		v->io = !localdb_corrupt_code(rc);
	}
	sqlite3_finalize(s);
}

/* Reads the header fields and (unless skipped) checks the pages, in one read transaction so
 * that another process's first migration is seen whole or not at all. */
static void check_file(sqlite3 *h, bool skip_check, struct verdict *v)
{
	int rc = SQLITE_OK;
	memset(v, 0, sizeof *v);
	if (sqlite3_exec(h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		goto sqlfail;
	long long app = query_int(h, "PRAGMA application_id", &rc);
	if (rc != SQLITE_OK)
		goto sqlfail;
	long long ver = query_int(h, "PRAGMA user_version", &rc);
	if (rc != SQLITE_OK)
		goto sqlfail;
	long long tables = query_int(h, "SELECT count(*) FROM sqlite_master", &rc);
	if (rc != SQLITE_OK)
		goto sqlfail;
	if (app != LOCALDB_APPLICATION_ID && (app != 0 || ver != 0 || tables != 0))
		snprintf(v->why, sizeof v->why, "not a steno store (application_id %lld)", app);
	else if (ver > localdb_schema_latest())
		snprintf(v->why, sizeof v->why,
			 "written by a newer steno (schema %lld, this one knows %d)", ver,
			 localdb_schema_latest());
	else if (!skip_check)
		localdb_quick_check(h, v);
	sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
	return;
sqlfail:
	if (rc == SQLITE_OK)
		rc = sqlite3_errcode(h);
	snprintf(v->why, sizeof v->why, "%s", sqlite3_errmsg(h));
	v->io = !localdb_corrupt_code(rc);
	if (!sqlite3_get_autocommit(h))
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

/* Renames path (and its -wal, -shm) to path.corrupt-STAMP[-N]. The aside name into out. */
static int set_aside(const char *path, char *out, size_t size)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
	for (int n = 0; n < 100; n++) {
		int k = n ? snprintf(out, size, "%s.corrupt-%s-%d", path, stamp, n)
			  : snprintf(out, size, "%s.corrupt-%s", path, stamp);
		if (k < 0 || (size_t)k >= size)
			return -1;
		if (paths_exists(out))
			continue;
		if (rename(path, out) != 0)
			return -1;
		static const char *const side[] = {"-wal", "-shm"};
		for (size_t i = 0; i < 2; i++) {
			char a[4500], b[4500];
			snprintf(a, sizeof a, "%s%s", path, side[i]);
			snprintf(b, sizeof b, "%s%s", out, side[i]);
			if (rename(a, b) != 0 && errno != ENOENT)
				unlink(a);
		}
		return 0;
	}
	return -1;
}

/* Creates the file 0600 when missing (before SQLite does, which would use 0644 & ~umask; the
 * -wal and -shm files take the database file's mode). A path that is not a regular file is
 * refused. */
static int create_file(const char *path, struct steno_error *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	struct stat st;
	if (errno == EEXIST && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	return steno_error_set(err, STENO_ERR_IO, "local store: cannot create %s: %s", path,
			       errno == EEXIST ? "not a regular file" : strerror(errno));
}

static int set_wal(sqlite3 *h)
{
	/* Changing the journal mode needs the file to itself: another process's reader makes
	 * it busy for a moment, which the busy handler does not cover. */
	for (int tries = 0; tries < 200; tries++) {
		sqlite3_stmt *s = NULL;
		int rc = sqlite3_prepare_v2(h, "PRAGMA journal_mode=WAL", -1, &s, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(s);
		bool wal = rc == SQLITE_ROW &&
			   strcmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
		sqlite3_finalize(s);
		if (wal)
			return SQLITE_OK;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			return rc == SQLITE_ROW ? SQLITE_ERROR : rc;
		sqlite3_sleep(10);
	}
	return SQLITE_BUSY;
}

/* Runs every step newer than the file's version, in one BEGIN IMMEDIATE transaction. */
static int migrate(sqlite3 *h, struct steno_error *err)
{
	if (sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return steno_error_set(err, STENO_ERR_IO, "local store: migration: %s",
				       sqlite3_errmsg(h));
	int rc;
	char *msg = NULL;
	long long ver = query_int(h, "PRAGMA user_version", &rc);
	size_t n;
	const struct localdb_migration *m = localdb_migrations(&n);
	if (rc != SQLITE_OK || ver > localdb_schema_latest())
		goto fail;
	char head[256];
	snprintf(head, sizeof head,
		 "PRAGMA application_id=%d;"
		 "CREATE TABLE IF NOT EXISTS localdb_migrations(version INTEGER PRIMARY KEY, "
		 "name TEXT NOT NULL, applied_ms INTEGER NOT NULL)",
		 LOCALDB_APPLICATION_ID);
	if (ver < localdb_schema_latest() && sqlite3_exec(h, head, NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		if (m[i].version <= ver)
			continue;
		if (m[i].apply(h, &msg) != 0)
			goto fail;
		char sql[512];
		sqlite3_snprintf(sizeof sql, sql,
				 "INSERT OR REPLACE INTO localdb_migrations VALUES(%d, %Q, %lld);"
				 "PRAGMA user_version=%d",
				 m[i].version, m[i].name, (long long)time(NULL) * 1000, m[i].version);
		if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
			goto fail;
	}
	if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
fail:
	steno_error_set(err, STENO_ERR_IO, "local store: migration: %s",
			msg ? msg : sqlite3_errmsg(h));
	free(msg);
	sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int configure(sqlite3 *h, int busy_ms)
{
	sqlite3_busy_timeout(h, busy_ms > 0 ? busy_ms : LOCALDB_BUSY_DEFAULT_MS);
	sqlite3_extended_result_codes(h, 1);
	int rc = set_wal(h);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON", NULL,
				  NULL, NULL);
	return rc;
}

/* One attempt: 0 open (*out), 1 the file is bad (v->why; set it aside and try again), -1. */
static int open_once(const struct localdb_options *o, const char *path, sqlite3 **out,
		     struct verdict *v, struct steno_error *err)
{
	*out = NULL;
	memset(v, 0, sizeof *v);
	if (create_file(path, err) != 0)
		return -1;
	sqlite3 *h = NULL;
	int rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
				 SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(h, o->busy_timeout_ms > 0 ? o->busy_timeout_ms
							       : LOCALDB_BUSY_DEFAULT_MS);
		if (localdb_register_functions(h) != 0) {
			snprintf(v->why, sizeof v->why, "%s", sqlite3_errmsg(h));
			v->io = true;   /* not the file's fault: not set aside */
		} else if (!localdb_marked_damaged(path, v)) {
			check_file(h, o->skip_check || o->defer_check, v);
		}
		if (!v->why[0] && (rc = configure(h, o->busy_timeout_ms)) != SQLITE_OK) {
			snprintf(v->why, sizeof v->why, "%s", sqlite3_errmsg(h));
			v->io = !localdb_corrupt_code(rc);
		}
	} else {
		snprintf(v->why, sizeof v->why, "%s", h ? sqlite3_errmsg(h) : "cannot open");
		v->io = !localdb_corrupt_code(rc);
	}
	if (v->why[0]) {
		sqlite3_close(h);
		if (v->io)
			return steno_error_set(err, STENO_ERR_IO, "local store %s: %s", path, v->why);
		return 1;
	}
	if (migrate(h, err) != 0) {
		sqlite3_close(h);
		return -1;
	}
	*out = h;
	return 0;
}

static char *notice_new(const char *path, const char *why, const char *aside)
{
	size_t n = strlen(path) + strlen(why) + strlen(aside) + 128;
	char *s = malloc(n);
	if (!s)
		return NULL;
	snprintf(s, n,
			 "the local store %s was unusable (%s): set aside as %s, a new one was "
			 "started", path, why, aside);
	for (char *c = s; *c; c++) /* quick_check's report has several lines: one line here */
		if ((unsigned char)*c < 0x20)
			*c = ' ';
	return s;
}

int localdb_open(const struct localdb_options *o, struct localdb **out, char **notice,
		 struct steno_error *err)
{
	*out = NULL;
	if (notice)
		*notice = NULL;
	if (o->off)
		return 1;
	/* SQLite counts the memory it holds under a mutex of its own at every allocation: the
	 * store never asks (taken before SQLite starts, so once: refused after) */
	static bool memstatus_off;
	if (!memstatus_off) {
		memstatus_off = true;
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	}
	char dir[4096], path[4200], lock[4300];
	if (localdb_dir_path(o->cache_dir, dir, sizeof dir) != 0 ||
	    localdb_file_path(o->cache_dir, o->base_url, path, sizeof path) != 0)
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "local store: no cache directory or no server origin");
	if (paths_mkdir_private(dir, err) != 0)
		return -1;
	/* One process at a time checks, sets aside, creates and migrates the file. */
	snprintf(lock, sizeof lock, "%s.lock", path);
	int lfd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lfd < 0)
		return steno_error_set(err, STENO_ERR_IO, "local store: cannot open %s: %s", lock,
				       strerror(errno));
	while (flock(lfd, LOCK_EX) != 0 && errno == EINTR)
		;
	sqlite3 *h = NULL;
	int rc = -1;
	for (int attempt = 0; attempt < 3; attempt++) {
		struct verdict v;
		rc = open_once(o, path, &h, &v, err);
		if (rc != 1)
			break;
		char aside[4400];
		if (set_aside(path, aside, sizeof aside) != 0) {
			rc = steno_error_set(err, STENO_ERR_IO,
					     "local store %s is unusable (%s) and cannot be set "
					     "aside: %s", path, v.why, strerror(errno));
			break;
		}
		if (notice && !*notice)
			*notice = notice_new(path, v.why, aside);
		rc = steno_error_set(err, STENO_ERR_IO, "local store %s: still unusable: %s", path,
				     v.why);
	}
	close(lfd);
	if (rc != 0)
		return -1;
	struct localdb *db = calloc(1, sizeof *db);
	if (db)
		db->path = strdup(path);
	if (!db || !db->path) {
		free(db);
		sqlite3_close(h);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	db->h = h;
	db->skip_check = o->skip_check;
	*out = db;
	return 0;
}

void localdb_close(struct localdb *db)
{
	if (!db)
		return;
	localdb_check_stop(db);
	localdb_rollback(db);
	content_db_forget(db->h);   /* the statements its searches keep prepared */
	sqlite3_close(db->h);
	free(db->path);
	free(db);
}
