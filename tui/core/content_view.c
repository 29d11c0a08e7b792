/* Schema step 5 of the transcript index (core/content_db.h, content_db_migrate_v5): what the
 * lists say of a transcription is read from the store's transcriptions table, through
 * content_view; triggers keep the item rows and the names' index in step with the store. */
#include "config.h"
#include "core/content_db.h"

#include <stdio.h>

#include "core/content_internal.h"
#include "core/localdb.h"

/* Version 5: one owner of each fact. What a list says of a transcription (organization,
 * name, state, language, tags, cost, updatedAt) is read from the store's transcriptions
 * table (core/store_db.c), no longer copied into content_items, which keeps only the item's
 * number (its segments' range, its index rows) and its content's version, fetch time and
 * failure. content_view joins them; the names' index reads it (external content), and
 * triggers on transcriptions keep it and content_items in step with the store's writes: no
 * walk of the list to note its rows. transcriptions gains updated_ms (the updatedAt, as
 * content_version_of writes it), filled here from the records. */
#define TAGS_SQL(T) "replace(" T ", ',', char(9))"   /* as content_search reads them */
/* (the store's own column, the copies dropped: content_db_migrate_v5, when there) */
static const char v5_fill[] =
	"ALTER TABLE transcriptions ADD COLUMN updated_ms INTEGER;"
	"UPDATE transcriptions SET updated_ms = CAST(round((julianday(json_extract(data,"
	" '$.updatedAt')) - 2440587.5) * 86400000.0) AS INTEGER)"
	" WHERE json_valid(data) AND json_extract(data, '$.updatedAt') IS NOT NULL;";
static const char *const v5_copies[] = {
	"org", "name", "state", "language", "tags", "updated_at", "cost_cents",
};
/* An item row is made only where none is (an OR IGNORE in a trigger gives way to the
 * statement's own conflict policy: the store's upsert would fail) */
#define ITEM_MAKE_SQL(ID) "INSERT INTO content_items(id) SELECT " ID " WHERE NOT EXISTS" \
	" (SELECT 1 FROM content_items WHERE id = " ID ")"
static const char schema_v5[] =
	"DROP TRIGGER IF EXISTS content_items_ai;"
	"DROP TRIGGER IF EXISTS content_items_au;"
	"DROP TRIGGER IF EXISTS content_items_ad;"
	"DROP TRIGGER IF EXISTS content_transcriptions_ai;"
	"DROP TRIGGER IF EXISTS content_transcriptions_au;"
	"DROP TRIGGER IF EXISTS content_transcriptions_bd;"
	"DROP INDEX IF EXISTS content_items_org;"
	"DROP TABLE IF EXISTS content_names;"
	"DROP VIEW IF EXISTS content_view;"
	/* noted only, and no longer in the store: nothing of theirs is kept */
	"DELETE FROM content_items WHERE version IS NULL AND failed_version IS NULL"
	" AND id NOT IN (SELECT id FROM transcriptions);";
/* content_news counts the store's writes that may change what waits (a transcription new,
 * gone, or of another state or updatedAt): content_db_news */
#define NEWS_SQL "UPDATE content_news SET n = n + 1;"
static const char schema_v5_after[] =
	"CREATE TABLE IF NOT EXISTS content_news(k INTEGER PRIMARY KEY CHECK (k = 0),"
	" n INTEGER NOT NULL);"
	"INSERT OR IGNORE INTO content_news VALUES (0, 0);"
	"INSERT OR IGNORE INTO content_items(id) SELECT DISTINCT id FROM view_items;"
	"CREATE VIEW content_view AS SELECT c.n AS n, c.id AS id, t.org_id AS org, t.name AS name,"
	" t.state AS state, t.language AS language, " TAGS_SQL("t.tags") " AS tags,"
	" CAST(t.updated_ms AS TEXT) AS updated_at, t.cost_cents AS cost_cents,"
	" c.version AS version, c.fetched_s AS fetched_s, c.failed_version AS failed_version,"
	" c.failed_why AS failed_why"
	" FROM content_items c LEFT JOIN transcriptions t ON t.id = c.id;"
	"CREATE VIRTUAL TABLE content_names USING fts5(name, tags,"
	" content='content_view', content_rowid='n',"
	" tokenize='" CONTENT_TOKENIZE "');"
	"INSERT INTO content_names(content_names) VALUES('rebuild');"
	/* an item's names are indexed with what the store holds when its row is made (none
	 * when its content came first: then when the transcription comes) */
	"CREATE TRIGGER content_items_ai AFTER INSERT ON content_items BEGIN"
	" INSERT INTO content_names(rowid, name, tags) SELECT new.n, t.name, " TAGS_SQL("t.tags")
	" FROM (SELECT 1) LEFT JOIN transcriptions t ON t.id = new.id; END;"
	"CREATE TRIGGER content_items_ad AFTER DELETE ON content_items BEGIN"
	" INSERT INTO content_names(content_names, rowid, name, tags) SELECT 'delete', old.n,"
	" t.name, " TAGS_SQL("t.tags") " FROM (SELECT 1) LEFT JOIN transcriptions t"
	" ON t.id = old.id;"
	" " DOC_DELETE_SQL("old.n") ";"
	" " SEGS_UNINDEX_SQL("old.n") ";"
	" DELETE FROM content_segs WHERE seg BETWEEN old.n * 16777216"
	" AND old.n * 16777216 + 16777215; END;"
	"CREATE TRIGGER content_transcriptions_ai AFTER INSERT ON transcriptions BEGIN"
	" INSERT INTO content_names(content_names, rowid, name, tags)"
	" SELECT 'delete', n, NULL, NULL FROM content_items WHERE id = new.id;"
	" INSERT INTO content_names(rowid, name, tags) SELECT n, new.name, " TAGS_SQL("new.tags")
	" FROM content_items WHERE id = new.id;"
	" " ITEM_MAKE_SQL("new.id") "; " NEWS_SQL " END;"
	/* a rename re-indexes; a new state or updatedAt is news (a trigger that runs on every
	 * write of the store costs some 7 us a row; with this WHEN, 2) */
	"CREATE TRIGGER content_transcriptions_au AFTER UPDATE OF name, tags, state, updated_ms"
	" ON transcriptions WHEN old.name IS NOT new.name OR old.tags IS NOT new.tags"
	" OR old.state IS NOT new.state OR old.updated_ms IS NOT new.updated_ms BEGIN"
	" INSERT INTO content_names(content_names, rowid, name, tags)"
	" SELECT 'delete', n, old.name, " TAGS_SQL("old.tags") " FROM content_items"
	" WHERE id = old.id AND (old.name IS NOT new.name OR old.tags IS NOT new.tags);"
	" INSERT INTO content_names(rowid, name, tags) SELECT n, new.name, " TAGS_SQL("new.tags")
	" FROM content_items WHERE id = new.id"
	" AND (old.name IS NOT new.name OR old.tags IS NOT new.tags); " NEWS_SQL " END;"
	/* before: content_items_ad reads the names it indexed from the row */
	"CREATE TRIGGER content_transcriptions_bd BEFORE DELETE ON transcriptions BEGIN"
	" DELETE FROM content_items WHERE id = old.id; " NEWS_SQL " END;";

/* Each part runs when what it makes is missing: a store brought back to an earlier version
 * (user_version) runs it again whole. */
int content_db_migrate_v5(sqlite3 *db, char **err)
{
	int has = content_has_column(db, "transcriptions", "updated_ms");
	if (has < 0 || (!has && sqlite3_exec(db, v5_fill, NULL, NULL, NULL) != SQLITE_OK) ||
	    sqlite3_exec(db, schema_v5, NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	for (size_t i = 0; i < sizeof v5_copies / sizeof v5_copies[0]; i++) {
		char sql[128];
		if ((has = content_has_column(db, "content_items", v5_copies[i])) < 0)
			goto fail;
		snprintf(sql, sizeof sql, "ALTER TABLE content_items DROP COLUMN %s", v5_copies[i]);
		if (has && sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			goto fail;
	}
	if (sqlite3_exec(db, schema_v5_after, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
fail:
	*err = localdb_errdup(db, "content v5");
	return -1;
}

long long content_db_news(sqlite3 *db)
{
	sqlite3_stmt *st;
	long long n = -1;
	if (sqlite3_prepare_v2(db, "SELECT n FROM content_news", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}
