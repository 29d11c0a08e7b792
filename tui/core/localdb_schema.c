/* The local store's schema: the ordered list of migrations (core/localdb.h). A step is never
 * edited once released: a change is a new step with the next version. Each module of core
 * that keeps tables in the store adds its steps to the list below, in version order. */
#include "config.h"
#include "core/localdb.h"
#include "core/content_db.h"
#include "core/natsort.h"

#include <stdlib.h>
#include <string.h>

#include <stddef.h>

/* ---- core: what the sync engine read (core/store_db.c) ---- */

/* Runs a step's SQL; 0, or -1 with *err. */
static int run_step(sqlite3 *db, const char *sql, const char *what, char **err)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	*err = localdb_errdup(db, what);
	return -1;
}

/* Version 1. Times are milliseconds since 1970 (wall clock) of when steno read them.
 * - transcriptions: one row per transcription known; `data` holds every field (the codec of
 *   core/store_db.c), the columns beside it what sorts and filters read.
 * - views: a list of one organization / folder / tag filter; `full_ms` is the last read of
 *   every page to the end (what proves that an item not listed is gone).
 * - view_items: the order of a view's items as the server listed them.
 * - activity: orders, exports and translation tasks seen (kind: enum store_activity_kind).
 * - answers: other reads kept whole (organizations, ...), by a key naming the request. */
static int core_v1(sqlite3 *db, char **err)
{
	static const char sql[] =
		"CREATE TABLE transcriptions("
		" id TEXT PRIMARY KEY NOT NULL,"
		" org_id TEXT,"
		" name TEXT, state TEXT, language TEXT, created_ms INTEGER,"
		" audio_s INTEGER, cost_cents INTEGER, tags TEXT,"
		" data TEXT NOT NULL,"
		" detailed INTEGER NOT NULL DEFAULT 0,"
		" state_changed_ms INTEGER,"
		" listed_ms INTEGER,"
		" detail_ms INTEGER);"
		"CREATE INDEX transcriptions_org ON transcriptions(org_id);"
		"CREATE TABLE views("
		" key TEXT PRIMARY KEY NOT NULL,"
		" org_id TEXT, folder_id TEXT, tags TEXT,"
		" read_ms INTEGER,"
		" full_ms INTEGER,"
		" pages INTEGER NOT NULL DEFAULT 0,"
		" next_url TEXT,"
		" complete INTEGER NOT NULL DEFAULT 0);"
		"CREATE TABLE view_items("
		" view TEXT NOT NULL REFERENCES views(key) ON DELETE CASCADE,"
		" pos INTEGER NOT NULL,"
		" id TEXT NOT NULL REFERENCES transcriptions(id) ON DELETE CASCADE,"
		" PRIMARY KEY(view, pos)) WITHOUT ROWID;"
		"CREATE INDEX view_items_id ON view_items(id);"
		"CREATE TABLE activity("
		" kind INTEGER NOT NULL, id TEXT NOT NULL,"
		" org_id TEXT, state TEXT,"
		" data TEXT NOT NULL,"
		" watched INTEGER NOT NULL DEFAULT 0,"
		" state_changed_ms INTEGER,"
		" read_ms INTEGER,"
		" PRIMARY KEY(kind, id)) WITHOUT ROWID;"
		"CREATE TABLE answers("
		" key TEXT PRIMARY KEY NOT NULL,"
		" body TEXT NOT NULL,"
		" read_ms INTEGER NOT NULL);";
	return run_step(db, sql, "core v1", err);
}

/* ---- the SQL functions the schema's indexes use (every connection registers them, before
 * it reads the schema: localdb_open) ---- */

static void fn_key(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	size_t n;
	unsigned char *k = s ? natsort_key(s, &n) : NULL;
	if (!s)
		sqlite3_result_null(cx);
	else if (!k)
		sqlite3_result_error_nomem(cx);
	else
		sqlite3_result_blob(cx, k, (int)n, free);
}

/* the tags column: "a,b,c" (core/store_db.c) */
static void fn_tags_key(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	if (!s || !s[0]) {
		sqlite3_result_null(cx);
		return;
	}
	char *copy = strdup(s);
	size_t n = 1, len = 0;
	for (const char *p = s; *p; p++)
		n += *p == ',';
	const char **v = copy ? malloc(n * sizeof *v) : NULL;
	unsigned char *k = NULL;
	if (v) {
		n = 0;
		for (char *p = copy, *c; p; p = c ? c + 1 : NULL) {
			if ((c = strchr(p, ',')))
				*c = '\0';
			v[n++] = p;
		}
		k = natsort_key_list(v, n, &len);
	}
	if (k)
		sqlite3_result_blob(cx, k, (int)len, free);
	else
		sqlite3_result_error_nomem(cx);
	free(v);
	free(copy);
}

int localdb_register_functions(sqlite3 *db)
{
	int fl = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
	return sqlite3_create_function(db, "natsort_key", 1, fl, NULL, fn_key, NULL, NULL) ||
	       sqlite3_create_function(db, "tags_key", 1, fl, NULL, fn_tags_key, NULL, NULL)
	       ? -1 : 0;
}

/* Version 4: the sort keys a long list is most often read in (core/store_list.c reads an
 * index in order): names in natural order as BLOB keys (natsort_key: memcmp order), and the
 * creation time. The other keys are sorted when asked (their natsort_key or tags_key BLOBs
 * compare as bytes). */
static int core_v4(sqlite3 *db, char **err)
{
	static const char sql[] =
		"CREATE INDEX IF NOT EXISTS transcriptions_name ON transcriptions(org_id,"
		" natsort_key(name));"
		"CREATE INDEX IF NOT EXISTS transcriptions_created ON transcriptions(org_id,"
		" created_ms);";
	return run_step(db, sql, "core v4", err);
}

static const struct localdb_migration steps[] = {
	{1, "core: transcriptions, views, activity, answers", core_v1},
	{2, "content: transcript text and FTS5 index", content_db_migrate_v2},
	{3, "content: an index of each transcription's whole text", content_db_migrate_v3},
	{4, "core: indexes of the lists' name and created sorts", core_v4},
	{5, "content: names, tags and states read from transcriptions", content_db_migrate_v5},
	{6, "content: where each passage starts in its transcription's text", content_db_migrate_v6},
	{7, "content: what waits and what is held, kept by triggers", content_db_migrate_v7},
	{8, "content: the words each transcription says often", content_db_migrate_v8},
};

const struct localdb_migration *localdb_migrations(size_t *n)
{
	*n = sizeof steps / sizeof steps[0];
	return steps;
}

int localdb_schema_latest(void)
{
	return steps[sizeof steps / sizeof steps[0] - 1].version;
}
