/* folders: lookup and on-demand creation. */
#include "config.h"

#include "folders.h"

#include "db.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t folder_org(int64_t id)
{
	return db_scalar_int("SELECT org_id FROM folders WHERE id=?", id, -1);
}

int64_t folder_workspace(int64_t org)
{
	return db_scalar_int("SELECT workspace_id FROM orgs WHERE id=?", org, -1);
}

char *folder_idpath(int64_t id)
{
	sqlite3_stmt *st = db_prep("SELECT idpath FROM folders WHERE id=?");
	char *p = NULL;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		p = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return p;
}

static int64_t folder_child(int64_t org, int64_t parent, const char *name, const char *path)
{
	sqlite3_stmt *st = db_prep("SELECT id FROM folders WHERE org_id=? AND path=?");
	int64_t id = -1;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, org);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id > 0)
		return id;
	char *pidpath = folder_idpath(parent);
	st = db_prep("INSERT INTO folders(org_id, parent_id, name, path, idpath) VALUES(?,?,?,?,'')");
	if (!st || !pidpath) {
		free(pidpath);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_bind_int64(st, 1, org);
	sqlite3_bind_int64(st, 2, parent);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, path, -1, SQLITE_STATIC);
	if (db_step_done(st) != 0) {
		free(pidpath);
		return -1;
	}
	id = sqlite3_last_insert_rowid(db_conn());
	char *idpath = util_printf("%s%lld/", pidpath, (long long)id);
	free(pidpath);
	st = db_prep("UPDATE folders SET idpath=? WHERE id=?");
	if (!st || !idpath) {
		free(idpath);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_bind_text(st, 1, idpath, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, id);
	free(idpath);
	return db_step_done(st) == 0 ? id : -1;
}

int64_t folder_by_path(int64_t org, const char *path)
{
	int64_t cur = folder_workspace(org);
	char *copy = strdup(path);
	char *built = calloc(1, strlen(path) + 1);
	if (!copy || !built || cur < 0) {
		free(copy);
		free(built);
		return -1;
	}
	/* Leading and trailing slashes are tolerated; an empty inner component is not. */
	char *p = copy;
	while (*p == '/')
		p++;
	size_t len = strlen(p);
	while (len > 0 && p[len - 1] == '/')
		p[--len] = '\0';
	/* BEGIN IMMEDIATE takes the write lock up front: a read that later writes could
	 * otherwise fail with SQLITE_BUSY without the busy timeout ever waiting. */
	int own = sqlite3_get_autocommit(db_conn());
	if (db_exec(own ? "BEGIN IMMEDIATE" : "SAVEPOINT folder") != 0) {
		free(copy);
		free(built);
		return -1;
	}
	char *save = NULL;
	for (char *name = *p ? p : NULL; name && cur > 0; name = save) {
		char *slash = strchr(name, '/');
		save = slash ? slash + 1 : NULL;
		if (slash)
			*slash = '\0';
		if (!*name || strlen(name) > 255) {
			cur = -1;
			break;
		}
		if (*built)
			strcat(built, "/");
		strcat(built, name);
		cur = folder_child(org, cur, name, built);
	}
	if (own) {
		db_exec(cur > 0 ? "COMMIT" : "ROLLBACK");
	} else {
		db_exec(cur > 0 ? "RELEASE folder" : "ROLLBACK TO folder");
		if (cur <= 0)
			db_exec("RELEASE folder");
	}
	free(copy);
	free(built);
	return cur;
}
