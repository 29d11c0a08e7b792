/* tui/core/localdb: the local store's file: place, modes, migrations, a bad file set aside,
 * several processes writing at once. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/localdb.h"
#include "core/conf.h"
#include "core/paths.h"
#include "core_helpers.h"

#define URL "https://api.example.com:8443/api/v1"

static char *dir;
static char cache[512];
static struct steno_error err;

static void setup(void)
{
	dir = core_tmpdir();
	snprintf(cache, sizeof cache, "%s/cache/steno", dir);
	steno_error_clear(&err);
}

static void teardown(void)
{
	core_rm_rf(dir);
}

TestSuite(localdb, .init = setup, .fini = teardown);

static struct localdb *open_ok(char **notice)
{
	struct localdb_options o = {.cache_dir = cache, .base_url = URL};
	struct localdb *db = NULL;
	int rc = localdb_open(&o, &db, notice, &err);
	cr_assert_eq(rc, 0, "open: %s", err.message);
	cr_assert_not_null(db);
	return db;
}

static const char *db_file(void)
{
	static char p[1024];
	cr_assert_eq(localdb_file_path(cache, URL, p, sizeof p), 0);
	return p;
}

Test(localdb, path_per_origin)
{
	char a[1024], b[1024], c[1024];
	cr_assert_eq(localdb_file_path("/c", "https://u:p@API.example.com:8443/x?y", a, sizeof a), 0);
	cr_assert_str_eq(a, "/c/store/https_api.example.com_8443.db");
	cr_assert_eq(localdb_file_path("/c", "https://api.example.com:8443/other", b, sizeof b), 0);
	cr_assert_str_eq(a, b, "one store per origin, whatever the path");
	cr_assert_eq(localdb_file_path("/c", "http://127.0.0.1:5000", c, sizeof c), 0);
	cr_assert_str_eq(c, "/c/store/http_127.0.0.1_5000.db");
	cr_assert_eq(localdb_file_path("/c", "no-scheme", c, sizeof c), -1);
	cr_assert_eq(localdb_file_path("/c", "https://../../x", c, sizeof c), 0);
	cr_assert_null(strchr(c + 9, '/'), "no directory from the origin: %s", c);
	cr_assert_eq(localdb_file_path(NULL, URL, c, sizeof c), -1);
}

Test(localdb, open_modes_wal_pragmas)
{
	mode_t old = umask(0); /* a permissive umask must not widen the file */
	struct localdb *db = open_ok(NULL);
	umask(old);
	struct stat st;
	cr_assert_eq(stat(db_file(), &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600, "file mode %o", st.st_mode & 0777);
	char d[1024];
	cr_assert_eq(localdb_dir_path(cache, d, sizeof d), 0);
	cr_assert_eq(stat(d, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700, "dir mode %o", st.st_mode & 0777);
	cr_assert_eq(stat(cache, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700);

	sqlite3 *h = localdb_handle(db);
	cr_assert_not_null(h);
	cr_assert_eq(localdb_exec(db, "INSERT INTO answers VALUES('k', 'v', 1)", &err), 0);
	char wal[1100];
	snprintf(wal, sizeof wal, "%s-wal", db_file());
	cr_assert_eq(stat(wal, &st), 0, "WAL file");
	cr_assert_eq(st.st_mode & 0777, 0600, "wal mode %o", st.st_mode & 0777);

	sqlite3_stmt *s;
	const char *checks[][2] = {
		{"PRAGMA journal_mode", "wal"},
		{"PRAGMA synchronous", "1"},
		{"PRAGMA foreign_keys", "1"},
	};
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(sqlite3_prepare_v2(h, checks[i][0], -1, &s, NULL), SQLITE_OK);
		cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
		cr_assert_str_eq((const char *)sqlite3_column_text(s, 0), checks[i][1], "%s",
				 checks[i][0]);
		sqlite3_finalize(s);
	}
	cr_assert_eq(localdb_version(db), localdb_schema_latest());
	cr_assert_str_eq(localdb_path(db), db_file());
	localdb_close(db);
}

Test(localdb, off_makes_no_file)
{
	struct localdb_options o = {.cache_dir = cache, .base_url = URL, .off = true};
	struct localdb *db = (struct localdb *)1;
	cr_assert_eq(localdb_open(&o, &db, NULL, &err), 1);
	cr_assert_null(db);
	cr_assert_not(paths_exists(cache), "cache = off: nothing on disk");
}

Test(localdb, migrations_ordered_and_run_once)
{
	size_t n;
	const struct localdb_migration *m = localdb_migrations(&n);
	cr_assert_gt(n, 0);
	for (size_t i = 1; i < n; i++)
		cr_assert_gt(m[i].version, m[i - 1].version, "step %zu out of order", i);
	cr_assert_eq(localdb_schema_latest(), m[n - 1].version);

	struct localdb *db = open_ok(NULL);
	cr_assert_eq(localdb_exec(db, "INSERT INTO answers VALUES('kept', 'x', 1)", &err), 0);
	localdb_close(db);
	/* a second open runs no step again: the row is still there, the log has each once */
	db = open_ok(NULL);
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(localdb_handle(db),
					"SELECT (SELECT count(*) FROM answers),"
					" (SELECT count(*) FROM localdb_migrations),"
					" (SELECT max(version) FROM localdb_migrations)",
					-1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	cr_assert_eq(sqlite3_column_int(s, 0), 1);
	cr_assert_eq(sqlite3_column_int(s, 1), (int)n);
	cr_assert_eq(sqlite3_column_int(s, 2), localdb_schema_latest());
	sqlite3_finalize(s);
	localdb_close(db);
}

/* A store of version 1 with a row: opening it with today's list keeps the row and brings it
 * to the latest version. */
Test(localdb, migrates_an_older_store)
{
	struct localdb *db = open_ok(NULL);
	/* the last step again (the earlier ones made tables that step 5 changed: a store of
	 * schema 4 and its content: test_core_content's a_store_of_schema_4_...) */
	cr_assert_eq(localdb_exec(db, "INSERT INTO answers VALUES('old', 'x', 1);"
				      "DELETE FROM localdb_migrations WHERE version >= 5;"
				      "PRAGMA user_version=4", &err), 0);
	localdb_close(db);
	db = open_ok(NULL);
	cr_assert_eq(localdb_version(db), localdb_schema_latest());
	cr_assert_eq(localdb_exec(db, "DELETE FROM answers WHERE key = 'old'", &err), 0);
	cr_assert_eq(sqlite3_changes(localdb_handle(db)), 1, "the row outlived the migration");
	localdb_close(db);
}

static size_t count_aside(void)
{
	char d[1024];
	cr_assert_eq(localdb_dir_path(cache, d, sizeof d), 0);
	DIR *dp = opendir(d);
	cr_assert_not_null(dp);
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dp)))
		if (strstr(e->d_name, ".db.corrupt-") && !strstr(e->d_name, "-wal") &&
		    !strstr(e->d_name, "-shm"))
			n++;
	closedir(dp);
	return n;
}

static void write_file(const char *text, size_t len)
{
	char d[1024];
	cr_assert_eq(localdb_dir_path(cache, d, sizeof d), 0);
	cr_assert_eq(paths_mkdir_private(d, &err), 0);
	int fd = open(db_file(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static void assert_set_aside(const char *why_part)
{
	char *notice = NULL;
	struct localdb *db = open_ok(&notice);
	cr_assert_not_null(notice, "a message for the user");
	cr_assert(strstr(notice, "set aside as"), "%s", notice);
	cr_assert(strstr(notice, why_part), "%s", notice);
	cr_assert_null(strchr(notice, '\n'), "one line: %s", notice);
	cr_assert_eq(count_aside(), 1);
	cr_assert_eq(localdb_version(db), localdb_schema_latest(), "a new store was started");
	free(notice);
	localdb_close(db);
	/* the next open is quiet */
	db = open_ok(&notice);
	cr_assert_null(notice);
	localdb_close(db);
}

Test(localdb, garbage_file_set_aside)
{
	char junk[8192];
	memset(junk, 'x', sizeof junk);
	write_file(junk, sizeof junk);
	assert_set_aside("not a database");
}

/* A store of 200 rows whose b-tree pages are then scribbled over. */
static void damage_store(void)
{
	struct localdb *db = open_ok(NULL);
	cr_assert_eq(localdb_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", &err), 0);
	for (int i = 0; i < 200; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "INSERT INTO answers VALUES('k%d', hex(randomblob(300)), 1)", i);
		cr_assert_eq(localdb_exec(db, sql, &err), 0);
	}
	cr_assert_eq(localdb_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", &err), 0);
	localdb_close(db);
	/* scribble over pages 3..: the header stays valid, the b-trees do not */
	int fd = open(db_file(), O_WRONLY);
	cr_assert_geq(fd, 0);
	char junk[4096 * 4];
	memset(junk, 0x5a, sizeof junk);
	cr_assert_eq(pwrite(fd, junk, sizeof junk, 4096 * 2), (ssize_t)sizeof junk);
	close(fd);
}

/* Commands check the pages at open. */
Test(localdb, damaged_pages_set_aside)
{
	damage_store();
	assert_set_aside("quick_check");
}

/* The browser opens without the check (its first rows do not wait for it) and runs it in a
 * thread once they are drawn: the damage is found there, marked, and the next start sets the
 * file aside with the message. */
Test(localdb, damaged_pages_found_later_set_aside_at_next_start)
{
	damage_store();
	struct localdb_options o = {.cache_dir = cache, .base_url = URL, .defer_check = true};
	struct localdb *db = NULL;
	char *notice = NULL;
	cr_assert_eq(localdb_open(&o, &db, &notice, &err), 0, "opens at once: %s", err.message);
	cr_assert_null(notice);
	cr_assert_eq(count_aside(), 0);
	cr_assert_eq(localdb_check_start(db), 0);
	const char *why = localdb_check_wait(db);
	cr_assert_not_null(why, "the check in the thread finds the damage");
	cr_assert(strstr(why, "quick_check"), "%s", why);
	cr_assert_str_eq(localdb_check_result(db), why);
	localdb_close(db);
	cr_assert_eq(count_aside(), 0, "not under the running process");
	assert_set_aside("found by an earlier run's check");
}

/* A sound store: the deferred check finds nothing, the next open is quiet. */
Test(localdb, deferred_check_of_a_sound_store)
{
	struct localdb_options o = {.cache_dir = cache, .base_url = URL, .defer_check = true};
	struct localdb *db = NULL;
	cr_assert_eq(localdb_open(&o, &db, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(localdb_exec(db, "INSERT INTO answers VALUES('k', 'v', 1)", &err), 0);
	cr_assert_eq(localdb_check_start(db), 0);
	cr_assert_null(localdb_check_wait(db));
	localdb_close(db);
	char *notice = NULL;
	db = open_ok(&notice);
	cr_assert_null(notice);
	localdb_close(db);
}

Test(localdb, foreign_database_set_aside)
{
	char d[1024];
	cr_assert_eq(localdb_dir_path(cache, d, sizeof d), 0);
	cr_assert_eq(paths_mkdir_private(d, &err), 0);
	sqlite3 *h;
	cr_assert_eq(sqlite3_open(db_file(), &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "CREATE TABLE mail(x); PRAGMA application_id=7", NULL, NULL,
				  NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_set_aside("not a steno store");
}

Test(localdb, newer_version_set_aside)
{
	struct localdb *db = open_ok(NULL);
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version=%d", localdb_schema_latest() + 1);
	cr_assert_eq(localdb_exec(db, sql, &err), 0);
	localdb_close(db);
	assert_set_aside("newer steno");
}

Test(localdb, unusable_directory_is_an_error_not_a_crash)
{
	char file[600];
	snprintf(file, sizeof file, "%s/cache", dir);
	core_write(file, "a file where the directory goes", 0600);
	struct localdb_options o = {.cache_dir = cache, .base_url = URL};
	struct localdb *db = NULL;
	cr_assert_eq(localdb_open(&o, &db, NULL, &err), -1);
	cr_assert_null(db);
	cr_assert_eq(err.kind, STENO_ERR_IO, "%s", err.message);
}

/* Several processes open the same (new) store at once and each writes 200 rows, one
 * transaction each: every row arrives, no busy error, one schema. */
#define RACERS 4
#define ROWS 200
static void racer(int who)
{
	struct localdb_options o = {.cache_dir = cache, .base_url = URL};
	struct localdb *db = NULL;
	struct steno_error e;
	if (localdb_open(&o, &db, NULL, &e) != 0)
		_exit(10);
	for (int i = 0; i < ROWS; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "INSERT INTO answers VALUES('p%d-%d', 'x', %d)", who, i, i);
		if (localdb_begin(db, &e) != 0 || localdb_exec(db, sql, &e) != 0 ||
		    localdb_commit(db, &e) != 0)
			_exit(11);
	}
	localdb_close(db);
	_exit(0);
}

Test(localdb, processes_write_at_once)
{
	core_race(RACERS, racer);
	struct localdb *db = open_ok(NULL);
	sqlite3_stmt *s;
	cr_assert_eq(sqlite3_prepare_v2(localdb_handle(db), "SELECT count(*) FROM answers", -1, &s,
					NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	cr_assert_eq(sqlite3_column_int(s, 0), RACERS * ROWS);
	sqlite3_finalize(s);
	cr_assert_eq(count_aside(), 0);
	localdb_close(db);
}

Test(localdb, config_keys_and_paths)
{
	struct steno_config cfg;
	cr_assert_eq(config_init_defaults(&cfg, &err), 0);
	cr_assert_not(cfg.cache_off);
	cr_assert_not(cfg.offline);
	const char text[] = "cache = off\noffline = yes\n";
	cr_assert_eq(config_load_string(&cfg, "t", text, sizeof text - 1, &err), 0, "%s", err.message);
	cr_assert(cfg.cache_off);
	cr_assert(cfg.offline);
	cr_assert_eq(cfg.n_diags, 0);

	struct steno_paths paths;
	cr_assert_eq(paths_resolve(&paths, &err), 0);
	setenv("STENO_BASE_URL", URL, 1);
	struct config_path_list l;
	cr_assert_eq(config_paths_list(&cfg, &paths, NULL, &l, &err), 0);
	char want[1024];
	cr_assert_eq(localdb_file_path(paths.cache_dir, URL, want, sizeof want), 0);
	bool found = false;
	for (size_t i = 0; i < l.n; i++)
		if (strstr(l.items[i].what, "local store") && !strcmp(l.items[i].path, want))
			found = true;
	cr_assert(found, "steno config paths shows %s", want);
	unsetenv("STENO_BASE_URL");
	config_paths_free(&l);
	paths_free(&paths);
	config_free(&cfg);
}
