/* The local store's schema: the ordered list of migrations (core/localdb.h). A step is never
 * edited once released: a change is a new step with the next version. Each module of core
 * that keeps tables in the store adds its steps to the list below, in version order. */
#include "config.h"
#include "core/localdb.h"
#include "core/content_db.h"

#include <stddef.h>

/* ---- core: what the sync engine read (core/store_db.c) ---- */

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
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		*err = localdb_errdup(db, "core v1");
		return -1;
	}
	return 0;
}

static const struct localdb_migration steps[] = {
	{1, "core: transcriptions, views, activity, answers", core_v1},
	{2, "content: transcript text and FTS5 index", content_db_migrate_v2},
	{3, "content: an index of each transcription's whole text", content_db_migrate_v3},

	/* ---- transcript content (issue 21, core/content_db.c): its steps go here, ----
	 * ---- declared in core/content_db.h, e.g.                                 ----
	 * {2, "content: transcript text and FTS5 index", content_db_migrate_v2},          */
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
