/* auth: keys and organizations. */
#include "config.h"

#include "auth.h"

#include "clock.h"
#include "db.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

int auth_lookup(const char *key, int64_t *org, int *is_admin)
{
	sqlite3_stmt *st = db_prep("SELECT org_id, is_admin FROM api_keys WHERE key=?");
	int rc = -1;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*org = sqlite3_column_int64(st, 0);
		*is_admin = sqlite3_column_int(st, 1);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int auth_key_create(int64_t org, int is_admin, char out[64])
{
	char hex[41];
	util_random_hex(hex, 20);
	snprintf(out, 64, "%s_%s", is_admin ? "sa" : "sk", hex);
	sqlite3_stmt *st = db_prep("INSERT INTO api_keys(key, org_id, is_admin) VALUES(?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, out, -1, SQLITE_STATIC);
	if (org > 0)
		sqlite3_bind_int64(st, 2, org);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int(st, 3, is_admin);
	return db_step_done(st);
}

int64_t auth_org_create(const char *name, int64_t credit_cents)
{
	/* Organization ids look like the real service's: 7-digit numbers. */
	int64_t id = db_scalar_int("SELECT COALESCE(MAX(id), 6411620) + 1 FROM orgs", -1, 6411621);
	sqlite3_stmt *st = db_prep("INSERT INTO orgs(id, name, credit_cents) VALUES(?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, credit_cents);
	if (db_step_done(st) != 0)
		return -1;
	st = db_prep("INSERT INTO folders(org_id, parent_id, name, path, idpath) VALUES(?, NULL, 'Workspace', '', '')");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (db_step_done(st) != 0)
		return -1;
	int64_t fid = sqlite3_last_insert_rowid(db_conn());
	char idpath[32];
	snprintf(idpath, sizeof idpath, "/%lld/", (long long)fid);
	st = db_prep("UPDATE folders SET idpath=? WHERE id=?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, idpath, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, fid);
	if (db_step_done(st) != 0)
		return -1;
	st = db_prep("UPDATE orgs SET workspace_id=? WHERE id=?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, fid);
	sqlite3_bind_int64(st, 2, id);
	return db_step_done(st) == 0 ? id : -1;
}

int auth_org_exists(int64_t org)
{
	return db_scalar_int("SELECT COUNT(*) FROM orgs WHERE id=?", org, 0) > 0;
}
