/* routes_lists: organizations, glossaries, style guides, the teapot and the editor page. */
#include "config.h"

#include "routes.h"

#include "clock.h"
#include "db.h"
#include "model.h"
#include "routes_util.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void add_time_col(json_object *o, const char *key, sqlite3_stmt *st, int col)
{
	char buf[32];
	util_iso8601(sqlite3_column_double(st, col), buf);
	json_object_object_add(o, key, json_object_new_string(buf));
}

static json_object *text_col(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return json_object_new_string(s ? (const char *)s : "");
}

/* GET of an organization's list (?organization_id=): sql with the organization bound to the
 * first parameter, one object per row made by row(), answered as {"<key>": [...]}. */
static void org_list(struct sb_req *r, const char *sql, const char *key, json_object *(*row)(sqlite3_stmt *st))
{
	int64_t org;
	if (query_org(r, &org) != 0)
		return;
	sqlite3_stmt *st = db_prep(sql);
	if (!st) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	sqlite3_bind_int64(st, 1, org);
	json_object *arr = json_object_new_array();
	while (sqlite3_step(st) == SQLITE_ROW)
		json_object_array_add(arr, row(st));
	sqlite3_finalize(st);
	json_object *o = json_object_new_object();
	json_object_object_add(o, key, arr);
	reply_json(r, 200, o);
}

static json_object *glossary_row(sqlite3_stmt *st)
{
	json_object *g = json_object_new_object();
	json_object_object_add(g, "id", json_object_new_int64(sqlite3_column_int64(st, 0)));
	json_object_object_add(g, "name", text_col(st, 1));
	json_object_object_add(g, "source_language", text_col(st, 2));
	json_object *t = json_tokener_parse((const char *)sqlite3_column_text(st, 3));
	json_object_object_add(g, "target_languages", t ? t : json_object_new_array());
	json_object_object_add(g, "organization_default", json_object_new_boolean(sqlite3_column_int(st, 4)));
	json_object_object_add(g, "imported", json_object_new_boolean(sqlite3_column_int(st, 5)));
	add_time_col(g, "created_at", st, 6);
	add_time_col(g, "updated_at", st, 7);
	return g;
}

void glossaries_list(struct sb_req *r)
{
	org_list(r, "SELECT id, name, source_language, target_languages, organization_default, imported,"
		 " created_at, updated_at FROM glossaries WHERE org_id=? ORDER BY id", "glossaries", glossary_row);
}

static json_object *style_guide_row(sqlite3_stmt *st)
{
	json_object *g = json_object_new_object();
	json_object_object_add(g, "id", json_object_new_int64(sqlite3_column_int64(st, 0)));
	json_object_object_add(g, "name", text_col(st, 1));
	json_object_object_add(g, "operation", text_col(st, 2));
	json_object_object_add(g, "organization_default", json_object_new_boolean(sqlite3_column_int(st, 3)));
	json_object_object_add(g, "verbatim", json_object_new_boolean(sqlite3_column_int(st, 4)));
	json_object_object_add(g, "fix_grammar", json_object_new_boolean(sqlite3_column_int(st, 5)));
	json_object_object_add(g, "sdh", json_object_new_boolean(sqlite3_column_int(st, 6)));
	json_object_object_add(g, "speaker_id", text_col(st, 7));
	json_object_object_add(g, "notation_tags", text_col(st, 8));
	add_time_col(g, "created_at", st, 9);
	add_time_col(g, "updated_at", st, 10);
	return g;
}

void style_guides_list(struct sb_req *r)
{
	org_list(r, "SELECT id, name, operation, organization_default, verbatim, fix_grammar, sdh,"
		 " speaker_id, notation_tags, created_at, updated_at FROM style_guides WHERE org_id=?"
		 " ORDER BY id", "style_guides", style_guide_row);
}

/* GET /organizations (open-points: an extension seen in the real service's clients): every
 * organization the key can access, that is its own one (every one for the admin key). */
void organizations_list(struct sb_req *r)
{
	sqlite3_stmt *st = db_prep("SELECT id, name FROM orgs WHERE ?1 OR id=?2 ORDER BY id");
	if (!st) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	sqlite3_bind_int(st, 1, r->is_admin != 0);
	sqlite3_bind_int64(st, 2, r->org_id);
	json_object *arr = json_object_new_array();
	while (sqlite3_step(st) == SQLITE_ROW) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_int64(sqlite3_column_int64(st, 0)));
		json_object_object_add(o, "name", text_col(st, 1));
		json_object_object_add(o, "role", json_object_new_string("admin"));
		json_object_array_add(arr, o);
	}
	sqlite3_finalize(st);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "organizations", arr);
	reply_json(r, 200, o);
}

void teapot(struct sb_req *r)
{
	reply_error(r, 418, "teapot", "I'm a teapot");
}

/* The editor URL of a transcription leads somewhere real: a minimal page naming it. */
void editor_page(struct sb_req *r)
{
	struct tr_row t;
	memset(&t, 0, sizeof t);
	if (tr_load_id(r->params[0], &t) != 0 || t.deleted) {
		tr_row_free(&t);
		char *page = strdup("<!doctype html><title>Not found</title>");
		reply_bytes(r, 404, "text/html; charset=utf-8", page, page ? strlen(page) : 0);
		return;
	}
	/* The name is not echoed: no escaping to get wrong. */
	char *html = util_printf("<!doctype html><meta charset=utf-8><title>steno-sandbox editor</title>"
				 "<p>Transcription %s (%s), state %s.</p>", t.id, t.language, tr_state(&t, clock_now()));
	tr_row_free(&t);
	if (html)
		reply_bytes(r, 200, "text/html; charset=utf-8", html, strlen(html));
	else
		reply_error(r, 500, "internal_error", "out of memory");
}
