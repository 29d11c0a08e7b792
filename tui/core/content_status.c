/* Transcript content in the local store: what waits to be read and what is held (schema step
 * 7, content_db_migrate_v7), kept by triggers in content_status, so that the engine's "what
 * next" and the count behind "indexing N of M" read a small table, not every finished
 * transcription of the store joined to its item.
 *
 * A finished transcription (state automatic_done, its updatedAt known) whose item row exists
 * has a row in content_status: held when the content stored is of its updatedAt, waiting
 * when not and no read of that updatedAt failed (one that failed has no row: it waits for a
 * new updatedAt). Any other has none. The row of an item is made again (STATUS_OF) whenever
 * something it depends on is written: the transcription's state, updatedAt or organization
 * (the store's writes), the item's content version or failure (content_db_put,
 * content_db_put_failed), the item made or deleted. The triggers do not rely on the order in
 * which SQLite fires them: an item row made by another trigger makes its own row. */
#include "config.h"
#include "core/content_db.h"

#include <stdio.h>

#include "core/content_internal.h"
#include "core/localdb.h"

/* The row of the item whose `n` is N, made again from what the tables say. */
#define STATUS_OF(N) \
	"DELETE FROM content_status WHERE n = " N ";" \
	" INSERT INTO content_status(n, org, updated_ms, held)" \
	" SELECT c.n, t.org_id, t.updated_ms, c.version IS CAST(t.updated_ms AS TEXT)" \
	" FROM content_items c JOIN transcriptions t ON t.id = c.id" \
	" WHERE c.n = " N " AND t.state = 'automatic_done' AND t.updated_ms IS NOT NULL" \
	" AND (c.version IS CAST(t.updated_ms AS TEXT)" \
	" OR c.failed_version IS NOT CAST(t.updated_ms AS TEXT));"
/* The same for the item of transcription ID (none when it has no item row yet) */
#define STATUS_OF_ID(ID) STATUS_OF("(SELECT n FROM content_items WHERE id = " ID ")")

static const char schema_v7[] =
	"DROP TABLE IF EXISTS content_status;"
	"DROP TRIGGER IF EXISTS content_status_items_ai;"
	"DROP TRIGGER IF EXISTS content_status_items_au;"
	"DROP TRIGGER IF EXISTS content_status_items_ad;"
	"DROP TRIGGER IF EXISTS content_status_transcriptions_ai;"
	"DROP TRIGGER IF EXISTS content_status_transcriptions_au;"
	"CREATE TABLE content_status(n INTEGER PRIMARY KEY, org TEXT, updated_ms INTEGER NOT NULL,"
	" held INTEGER NOT NULL);"
	/* what waits, the most recent first */
	"CREATE INDEX content_status_next ON content_status(held, updated_ms);"
	"INSERT INTO content_status(n, org, updated_ms, held)"
	" SELECT c.n, t.org_id, t.updated_ms, c.version IS CAST(t.updated_ms AS TEXT)"
	" FROM content_items c JOIN transcriptions t ON t.id = c.id"
	" WHERE t.state = 'automatic_done' AND t.updated_ms IS NOT NULL"
	" AND (c.version IS CAST(t.updated_ms AS TEXT)"
	" OR c.failed_version IS NOT CAST(t.updated_ms AS TEXT));"
	"CREATE TRIGGER content_status_items_ai AFTER INSERT ON content_items BEGIN "
	STATUS_OF("new.n") " END;"
	"CREATE TRIGGER content_status_items_au AFTER UPDATE OF version, failed_version"
	" ON content_items WHEN old.version IS NOT new.version"
	" OR old.failed_version IS NOT new.failed_version BEGIN " STATUS_OF("new.n") " END;"
	"CREATE TRIGGER content_status_items_ad AFTER DELETE ON content_items BEGIN"
	" DELETE FROM content_status WHERE n = old.n; END;"
	"CREATE TRIGGER content_status_transcriptions_ai AFTER INSERT ON transcriptions BEGIN "
	STATUS_OF_ID("new.id") " END;"
	"CREATE TRIGGER content_status_transcriptions_au AFTER UPDATE OF state, updated_ms, org_id"
	" ON transcriptions WHEN old.state IS NOT new.state OR old.updated_ms IS NOT new.updated_ms"
	" OR old.org_id IS NOT new.org_id BEGIN " STATUS_OF_ID("new.id") " END;";

int content_db_migrate_v7(sqlite3 *db, char **err)
{
	if (sqlite3_exec(db, schema_v7, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	*err = localdb_errdup(db, "content v7");
	return -1;
}

static void copy_col(sqlite3_stmt *st, int col, char *out, size_t n)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	snprintf(out, n, "%s", s ? s : "");
}

int content_db_next_waiting(sqlite3 *db, const char *org, const char *skip, char *id,
			    size_t idn, char *version, size_t vn, struct steno_error *err)
{
	return content_db_next_waiting_except(db, org, &skip, skip ? 1 : 0, id, idn, version, vn,
					      err);
}

int content_db_next_waiting_except(sqlite3 *db, const char *org, const char *const *skip,
				   size_t n, char *id, size_t idn, char *version, size_t vn,
				   struct steno_error *err)
{
	sqlite3_stmt *st;
	if (n > 8)
		return steno_error_invalid(err, "skip", "more than 8 ids to skip");
	/* down the index from the most recent: the first that is of the organization and not
	 * skipped */
	if (content_prepare(db, "SELECT c.id, CAST(s.updated_ms AS TEXT) FROM content_status s"
			    " JOIN content_items c ON c.n = s.n WHERE s.held = 0"
			    " AND (?1 IS NULL OR s.org = ?1)"
			    " AND c.id NOT IN (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
			    " ORDER BY s.updated_ms DESC LIMIT 1", &st, err) < 0)
		return -1;
	content_bind_text(st, 1, org);
	for (int i = 0; i < 8; i++)   /* '' is no id: an unused place */
		content_bind_text(st, 2 + i, (size_t)i < n && skip[i] ? skip[i] : "");
	int step = sqlite3_step(st), rc = 0;
	if (step == SQLITE_ROW) {
		copy_col(st, 0, id, idn);
		copy_col(st, 1, version, vn);
		rc = 1;
	} else if (step != SQLITE_DONE) {
		rc = content_sql_fail(db, err, "what waits");
	}
	sqlite3_finalize(st);
	return rc;
}

int content_db_counts(sqlite3 *db, const char *org, long *held, long *waiting,
		      struct steno_error *err)
{
	sqlite3_stmt *st;
	if (content_prepare(db, "SELECT coalesce(sum(held), 0), coalesce(sum(held = 0), 0)"
			    " FROM content_status WHERE ?1 IS NULL OR org = ?1", &st, err) < 0)
		return -1;
	content_bind_text(st, 1, org);
	int rc = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*held = (long)sqlite3_column_int64(st, 0);
		*waiting = (long)sqlite3_column_int64(st, 1);
	} else {
		rc = content_sql_fail(db, err, "counts");
	}
	sqlite3_finalize(st);
	return rc;
}
