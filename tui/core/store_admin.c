/* `steno cache info` and `steno cache clear`: what the local store holds, per organization,
 * and forgetting it (core/store.h). */
#include "config.h"
#include "core/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/localdb.h"

void store_cache_info_free(struct store_cache_info *info)
{
	if (!info)
		return;
	for (size_t i = 0; i < info->n; i++)
		free(info->orgs[i].org_id);
	free(info->orgs);
	memset(info, 0, sizeof *info);
}

static long long file_size(const char *path, const char *suffix)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof p, "%s%s", path, suffix);
	return stat(p, &st) == 0 ? (long long)st.st_size : 0;
}

int store_cache_info(struct localdb *db, struct store_cache_info *out, struct steno_error *err)
{
	memset(out, 0, sizeof *out);
	const char *path = localdb_path(db);
	out->bytes = file_size(path, "") + file_size(path, "-wal") + file_size(path, "-shm");
	sqlite3_stmt *s = NULL;
	/* per organization: the transcriptions listed in it, and the last read of its views */
	if (sqlite3_prepare_v2(localdb_handle(db),
			       "SELECT o.org, (SELECT count(*) FROM transcriptions t"
			       "  WHERE t.org_id = o.org),"
			       " (SELECT max(read_ms) FROM views v WHERE v.org_id = o.org)"
			       " FROM (SELECT org_id AS org FROM transcriptions WHERE org_id IS NOT NULL"
			       "  UNION SELECT org_id FROM views WHERE org_id IS NOT NULL) o"
			       " ORDER BY o.org", -1, &s, NULL) != SQLITE_OK)
		return localdb_fail(db, err, "read");
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_cache_org *o = realloc(out->orgs, (out->n + 1) * sizeof *o);
		if (!o)
			break;
		out->orgs = o;
		o = &o[out->n];
		o->org_id = strdup((const char *)sqlite3_column_text(s, 0));
		o->items = sqlite3_column_int64(s, 1);
		o->last_read_ms = sqlite3_column_int64(s, 2);
		if (!o->org_id)
			break;
		out->n++;
		out->items += o->items;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_cache_info_free(out);
		return rc == SQLITE_ROW ? steno_error_set(err, STENO_ERR_NOMEM, "out of memory")
					: localdb_fail(db, err, "read");
	}
	return 0;
}

int store_cache_clear(struct localdb *db, const char *org_id, long *removed,
		      struct steno_error *err)
{
	sqlite3 *h = localdb_handle(db);
	*removed = 0;
	if (localdb_begin(db, err) != 0)
		return -1;
	static const char *const all[] = {
		"DELETE FROM view_items", "DELETE FROM views", "DELETE FROM transcriptions",
		"DELETE FROM activity", "DELETE FROM answers",
	};
	/* an organization's views and the transcriptions listed in it (their view rows go with
	 * them: ON DELETE CASCADE) */
	static const char *const one[] = {
		"DELETE FROM views WHERE org_id = ?1", "DELETE FROM transcriptions WHERE org_id = ?1",
	};
	size_t n = org_id ? 2 : 5;
	for (size_t i = 0; i < n; i++) {
		sqlite3_stmt *s = NULL;
		if (sqlite3_prepare_v2(h, org_id ? one[i] : all[i], -1, &s, NULL) != SQLITE_OK) {
			localdb_rollback(db);
			return localdb_fail(db, err, "clear");
		}
		if (org_id)
			sqlite3_bind_text(s, 1, org_id, -1, SQLITE_STATIC);
		int rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE) {
			localdb_rollback(db);
			return localdb_fail(db, err, "clear");
		}
		if (strstr(org_id ? one[i] : all[i], "transcriptions"))
			*removed = sqlite3_changes(h);
	}
	if (localdb_commit(db, err) != 0)
		return -1;
	/* give the space back; another process's reader can make this busy: then later */
	sqlite3_exec(h, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	if (!org_id)
		sqlite3_exec(h, "VACUUM", NULL, NULL, NULL);
	return 0;
}
