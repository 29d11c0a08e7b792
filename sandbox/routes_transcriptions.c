/* routes_transcriptions: list (paged, tags and folder filters), create, retrieve, delete. */
#include "config.h"

#include "routes.h"

#include "api/spec_tables.h"
#include "clock.h"
#include "db.h"
#include "folders.h"
#include "model.h"
#include "routes_util.h"
#include "sandbox.h"
#include "util.h"
#include "work.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TAGS 16

struct list_query {
	int64_t org, folder, page;
	const char *tags_raw;
	char *tags[MAX_TAGS];
	int ntags;
};

static int list_parse(struct sb_req *r, struct list_query *q)
{
	memset(q, 0, sizeof *q);
	if (sb_cfg.legacy && !req_query(r, "organization_id")) {
		q->org = r->org_id;
		if (q->org <= 0) {
			reply_invalid(r, "organization_id", "is required with the admin key");
			return -1;
		}
	} else if (query_org(r, &q->org) != 0) {
		return -1;
	}
	const char *page = req_query(r, "page");
	if (page && (q->page = parse_digits(page)) < 0) {
		reply_error(r, 400, "bad_request", "page must be a non-negative integer");
		return -1;
	}
	const char *folder = sb_cfg.legacy ? NULL : req_query(r, "folder_id");
	if (folder) {
		q->folder = parse_digits(folder);
		if (q->folder <= 0) {
			reply_error(r, 400, "bad_request", "folder_id must be numeric");
			return -1;
		}
		if (folder_org(q->folder) != q->org) {
			reply_error(r, 404, "not_found", "no folder %s in this organization", folder);
			return -1;
		}
	}
	q->tags_raw = sb_cfg.legacy ? NULL : req_query(r, "tags");
	if (q->tags_raw && *q->tags_raw) {
		char *copy = strdup(q->tags_raw), *save = NULL;
		int too_many = 0;
		for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
			if (q->ntags == MAX_TAGS) {
				too_many = 1;
				break;
			}
			q->tags[q->ntags++] = strdup(t);
		}
		free(copy);
		if (too_many) {
			reply_invalid(r, "tags", "at most %d tags can be filtered on", MAX_TAGS);
			return -1;
		}
	}
	return 0;
}

static void list_free(struct list_query *q)
{
	for (int i = 0; i < q->ntags; i++)
		free(q->tags[i]);
}

static char *list_next_url(const struct list_query *q)
{
	char extra[1024] = "";
	if (q->folder > 0)
		snprintf(extra, sizeof extra, "&folder_id=%lld", (long long)q->folder);
	if (q->tags_raw && *q->tags_raw) {
		char *esc = curl_easy_escape(NULL, q->tags_raw, 0);
		size_t len = strlen(extra);
		snprintf(extra + len, sizeof extra - len, "&tags=%s", esc ? esc : "");
		curl_free(esc);
	}
	return util_printf("%s/api/v1/transcriptions?organization_id=%lld&page=%lld%s", sb_cfg.origin,
			   (long long)q->org, (long long)q->page + 1, extra);
}

static sqlite3_stmt *list_stmt(const struct list_query *q)
{
	char where[4096] = "";
	size_t len = 0;
	if (q->folder > 0)
		len += (size_t)snprintf(where + len, sizeof where - len,
					" AND folder_id IN (SELECT id FROM folders WHERE idpath LIKE"
					" (SELECT idpath FROM folders WHERE id=?2) || '%%')");
	for (int i = 0; i < q->ntags; i++)
		len += (size_t)snprintf(where + len, sizeof where - len,
					" AND EXISTS(SELECT 1 FROM json_each(tags) WHERE value=?%d)", 5 + i);
	char *sql = util_printf("SELECT %s FROM transcriptions WHERE org_id=?1 AND deleted=0%s"
				" ORDER BY created_at DESC, rid DESC LIMIT ?3 OFFSET ?4", tr_columns, where);
	sqlite3_stmt *st = sql ? db_prep(sql) : NULL;
	free(sql);
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, q->org);
	if (q->folder > 0)
		sqlite3_bind_int64(st, 2, q->folder);
	sqlite3_bind_int64(st, 3, sb_cfg.page_size + 1);
	sqlite3_bind_int64(st, 4, q->page * sb_cfg.page_size);
	for (int i = 0; i < q->ntags; i++)
		sqlite3_bind_text(st, 5 + i, q->tags[i], -1, SQLITE_STATIC);
	return st;
}

void transcriptions_list(struct sb_req *r)
{
	struct list_query q;
	if (list_parse(r, &q) != 0) {
		list_free(&q);
		return;
	}
	sqlite3_stmt *st = list_stmt(&q);
	if (!st) {
		list_free(&q);
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	double now = clock_now();
	json_object *results = json_object_new_array();
	int n = 0, more = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == sb_cfg.page_size) {
			more = 1;
			break;
		}
		struct tr_row t;
		tr_from_stmt(st, &t);
		json_object_array_add(results, tr_json(&t, TR_LIST, now));
		tr_row_free(&t);
		n++;
	}
	sqlite3_finalize(st);
	json_object *o = json_object_new_object(), *links = json_object_new_object();
	json_object_object_add(o, "results", results);
	if (more) {
		char *url = list_next_url(&q);
		json_object *next = json_object_new_object();
		json_object_object_add(next, "url", json_object_new_string(url ? url : ""));
		json_object_object_add(links, "next", next);
		free(url);
	}
	json_object_object_add(o, "_links", links);
	list_free(&q);
	reply_json(r, 200, o);
}

struct create_req {
	const char *name, *language, *tmp_url, *service, *folder, *document_url;
	int64_t org, folder_id;
	int is_subtitle, sharing, has_folder_id, has_org;
	json_object *tags;
};

static int create_fields(struct sb_req *r, json_object *t, struct create_req *c)
{
	int legacy = sb_cfg.legacy, use_vocab = 0;
	c->service = "auto";
	if (field_string(r, t, "name", 1, &c->name) || field_string(r, t, "language", 1, &c->language) ||
	    field_string(r, t, "tmp_url", 1, &c->tmp_url) || field_id(r, t, "organization_id", 1, &c->org, &c->has_org) ||
	    field_bool(r, t, "is_subtitle", &c->is_subtitle) || field_string(r, t, "service", 0, &c->service) ||
	    field_string(r, t, "document_url", 0, &c->document_url) ||
	    field_bool(r, t, "sharing_enabled", &c->sharing) ||
	    field_id(r, t, "folder_id", legacy, &c->folder_id, &c->has_folder_id))
		return -1;
	if (legacy && field_bool(r, t, "use_vocabulary", &use_vocab))
		return -1;
	if (!legacy && (field_string(r, t, "folder", 0, &c->folder) || field_string_array(r, t, "tags", 0, &c->tags)))
		return -1;
	if (!c->service)
		c->service = "auto";
	return 0;
}

static int create_rules(struct sb_req *r, struct create_req *c)
{
	const struct spec_service *svc = spec_service_find(c->service);
	if (!svc || !svc->transcription) {
		reply_invalid(r, "service", "must be auto, pro or alignment");
		return -1;
	}
	if (!spec_language_is_valid(c->language)) {
		reply_invalid(r, "language", "%s is not a supported language", c->language);
		return -1;
	}
	if (strcmp(c->service, "pro") == 0 && !spec_language_is_pro(c->language)) {
		reply_invalid(r, "language", "the pro service is not available for %s", c->language);
		return -1;
	}
	if (!is_http_url(c->tmp_url)) {
		reply_invalid(r, "tmp_url", "must be an http or https URL");
		return -1;
	}
	if (strcmp(c->service, "alignment") == 0 && !is_http_url(c->document_url)) {
		reply_invalid(r, "document_url", "an http or https document_url is required for alignment");
		return -1;
	}
	if (!*c->name || strlen(c->name) > 1024) {
		reply_invalid(r, "name", "must be 1 to 1024 bytes");
		return -1;
	}
	if (org_access(r, c->org) != 0)
		return -1;
	if (c->has_folder_id) {
		int64_t fo = folder_org(c->folder_id);
		if (fo < 0) {
			reply_invalid(r, "folder_id", "no such folder");
			return -1;
		}
		if (org_access(r, fo) != 0 || fo != c->org) {
			if (r->status == 0)
				reply_invalid(r, "folder_id", "the folder belongs to another organization");
			return -1;
		}
	} else {
		c->folder_id = c->folder ? folder_by_path(c->org, c->folder) : folder_workspace(c->org);
		if (c->folder_id <= 0) {
			reply_invalid(r, "folder", "not a valid folder path");
			return -1;
		}
	}
	return 0;
}

static int64_t create_insert(const struct create_req *c, char id[33], double now)
{
	sqlite3_stmt *st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, service,"
				   " is_subtitle, sharing, tags, tmp_url, document_url, created_at, updated_at, started_at)"
				   " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	util_random_hex(id, 16);
	const char *tags = c->tags ? json_object_to_json_string_ext(c->tags, JSON_C_TO_STRING_PLAIN) : "[]";
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, c->org);
	sqlite3_bind_int64(st, 3, c->folder_id);
	sqlite3_bind_text(st, 4, c->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c->language, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, c->service, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, c->is_subtitle);
	sqlite3_bind_int(st, 8, c->sharing);
	sqlite3_bind_text(st, 9, tags, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, c->tmp_url, -1, SQLITE_STATIC);
	db_bind_text(st, 11, strcmp(c->service, "alignment") == 0 ? c->document_url : NULL);
	sqlite3_bind_double(st, 12, now);
	sqlite3_bind_double(st, 13, now);
	sqlite3_bind_double(st, 14, now);
	if (db_step_done(st) != 0)
		return -1;
	return sqlite3_last_insert_rowid(db_conn());
}

void transcriptions_create(struct sb_req *r)
{
	json_object *root, *t;
	struct create_req c;
	memset(&c, 0, sizeof c);
	if (body_wrapper(r, "transcription", &root, &t) != 0)
		return;
	if (create_fields(r, t, &c) != 0 || create_rules(r, &c) != 0) {
		json_object_put(root);
		return;
	}
	double now = clock_now();
	char id[33];
	int64_t rid = create_insert(&c, id, now);
	json_object_put(root);
	if (rid <= 0) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	struct tr_row row;
	if (tr_load_rid(rid, &row) != 0) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	/* Uploads are already here: ingest now. Anything else downloads on a worker thread. */
	if (work_url_is_local(row.tmp_url) && (!row.document_url || work_url_is_local(row.document_url)))
		work_ingest(rid);
	else
		work_enqueue(rid);
	reply_json(r, 201, tr_json(&row, TR_CREATE, now));
	tr_row_free(&row);
}

/* Loads :id for the key; replies 404/401/410 on failure. */
static int load_for_key(struct sb_req *r, struct tr_row *t)
{
	if (tr_load_id(r->params[0], t) != 0) {
		reply_error(r, 404, "not_found", "no transcription %s", r->params[0]);
		return -1;
	}
	if (!req_org_ok(r, t->org_id)) {
		tr_row_free(t);
		reply_error(r, 401, "unauthorized", "the API key has no access to this transcription");
		return -1;
	}
	if (t->deleted) {
		int deleted = t->deleted;
		tr_row_free(t);
		reply_error(r, 410, "gone", "the transcription was deleted%s", deleted == 2 ? " permanently" : "");
		return -1;
	}
	return 0;
}

void transcriptions_get(struct sb_req *r)
{
	struct tr_row t;
	if (load_for_key(r, &t) != 0)
		return;
	reply_json(r, 200, tr_json(&t, TR_RETRIEVE, clock_now()));
	tr_row_free(&t);
}

static void remove_files_of(const struct tr_row *t)
{
	char *own = util_printf("%s/media/%s", sb_cfg.data_dir, t->id);
	if (own && t->media_path && strcmp(own, t->media_path) == 0)
		unlink(t->media_path);
	free(own);
	sqlite3_stmt *st = db_prep("SELECT id, file_path FROM exports WHERE EXISTS(SELECT 1 FROM json_each(rids)"
				   " WHERE value=?)");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, t->rid);
	while (sqlite3_step(st) == SQLITE_ROW)
		if (sqlite3_column_text(st, 1))
			unlink((const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	st = db_prep("DELETE FROM exports WHERE EXISTS(SELECT 1 FROM json_each(rids) WHERE value=?)");
	if (st) {
		sqlite3_bind_int64(st, 1, t->rid);
		db_step_done(st);
	}
}

void transcriptions_delete(struct sb_req *r)
{
	const char *perm = req_query(r, "permanent");
	int permanent = perm && strcmp(perm, "true") == 0;
	if (perm && !permanent && strcmp(perm, "false") != 0) {
		reply_error(r, 400, "bad_request", "permanent must be true or false");
		return;
	}
	struct tr_row t;
	if (tr_load_id(r->params[0], &t) != 0) {
		reply_error(r, 404, "not_found", "no transcription %s", r->params[0]);
		return;
	}
	if (!req_org_ok(r, t.org_id)) {
		tr_row_free(&t);
		reply_error(r, 401, "unauthorized", "the API key has no access to this transcription");
		return;
	}
	/* A trashed transcription can still be deleted permanently; anything else deleted is gone. */
	if (t.deleted == 2 || (t.deleted == 1 && !permanent)) {
		tr_row_free(&t);
		reply_error(r, 410, "gone", "the transcription was already deleted");
		return;
	}
	sqlite3_stmt *st = db_prep("UPDATE transcriptions SET deleted=?, updated_at=? WHERE rid=?");
	if (st) {
		sqlite3_bind_int(st, 1, permanent ? 2 : 1);
		sqlite3_bind_double(st, 2, clock_now());
		sqlite3_bind_int64(st, 3, t.rid);
		db_step_done(st);
	}
	if (permanent)
		remove_files_of(&t);
	tr_row_free(&t);
	reply_status(r, 204);
}
