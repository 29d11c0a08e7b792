/* routes_orders: transcription/subtitle orders and translation orders, confirm, retrieve. */
#include "config.h"

#include "routes.h"

#include "api/spec_tables.h"
#include "clock.h"
#include "db.h"
#include "folders.h"
#include "model.h"
#include "model_order.h"
#include "routes_util.h"
#include "util.h"
#include "work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct order_req {
	const char *url, *language, *service, *folder, *name, *webhook_url;
	int64_t org, folder_id, style_guide_id;
	int confirm, boost, is_subtitle, has_org, has_folder_id, has_sg;
	json_object *tags, *glossary_ids, *addons; /* addons owned */
};

static int order_glossaries(struct sb_req *r, json_object *o, struct order_req *c)
{
	json_object *g;
	if (json_get_typed(o, "glossary_ids", json_type_array, &g) != 0) {
		reply_error(r, 400, "bad_request", "glossary_ids must be an array of integers");
		return -1;
	}
	c->glossary_ids = g;
	for (size_t i = 0; g && i < json_object_array_length(g); i++) {
		json_object *v = json_object_array_get_idx(g, i);
		if (!json_object_is_type(v, json_type_int)) {
			reply_error(r, 400, "bad_request", "glossary_ids must be an array of integers");
			return -1;
		}
		sqlite3_stmt *st = db_prep("SELECT org_id FROM glossaries WHERE id=?");
		int64_t org = -1;
		if (st) {
			sqlite3_bind_int64(st, 1, json_object_get_int64(v));
			if (sqlite3_step(st) == SQLITE_ROW)
				org = sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
		}
		if (org != c->org) {
			reply_invalid(r, "glossary_ids", "glossary %lld does not belong to the organization",
				      (long long)json_object_get_int64(v));
			return -1;
		}
	}
	return 0;
}

/* Style guide of the organization; pro orders take verbatim/sdh addons from it. */
static int order_style_guide(struct sb_req *r, struct order_req *c)
{
	if (!c->has_sg)
		return 0;
	sqlite3_stmt *st = db_prep("SELECT org_id, verbatim, sdh FROM style_guides WHERE id=?");
	int64_t org = -1;
	int verbatim = 0, sdh = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, c->style_guide_id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			org = sqlite3_column_int64(st, 0);
			verbatim = sqlite3_column_int(st, 1);
			sdh = sqlite3_column_int(st, 2);
		}
		sqlite3_finalize(st);
	}
	if (org != c->org) {
		reply_invalid(r, "style_guide_id", "the style guide does not belong to the organization");
		return -1;
	}
	if (strcmp(c->service, "pro") != 0)
		return 0;
	if (verbatim && !spec_language_verbatim_ok(c->language)) {
		reply_invalid(r, "style_guide_id", "verbatim is only available in English, Spanish, French and German");
		return -1;
	}
	if (sdh && !spec_language_sdh_ok(c->language)) {
		reply_invalid(r, "style_guide_id", "SDH is only available in English, Spanish and French");
		return -1;
	}
	if (verbatim)
		json_object_array_add(c->addons, json_object_new_string("verbatim"));
	if (sdh)
		json_object_array_add(c->addons, json_object_new_string("sdh"));
	return 0;
}

static int order_fields(struct sb_req *r, json_object *o, struct order_req *c)
{
	c->service = "auto";
	if (field_string(r, o, "url", 1, &c->url) || field_string(r, o, "language", 1, &c->language) ||
	    field_id(r, o, "organization_id", 1, &c->org, &c->has_org) || field_string(r, o, "service", 0, &c->service) ||
	    field_bool(r, o, "confirm", &c->confirm) || field_id(r, o, "folder_id", 0, &c->folder_id, &c->has_folder_id) ||
	    field_string(r, o, "folder", 0, &c->folder) || field_string(r, o, "name", 0, &c->name) ||
	    field_bool(r, o, "boost", &c->boost) || field_bool(r, o, "is_subtitle", &c->is_subtitle) ||
	    field_string_array(r, o, "tags", 0, &c->tags) || field_string(r, o, "webhook_url", 0, &c->webhook_url) ||
	    field_id(r, o, "style_guide_id", 0, &c->style_guide_id, &c->has_sg))
		return -1;
	if (!c->service)
		c->service = "auto";
	const struct spec_service *svc = spec_service_find(c->service);
	if (!svc || !svc->order) {
		reply_invalid(r, "service", "must be auto or pro");
		return -1;
	}
	if (!spec_language_is_valid(c->language) || (strcmp(c->service, "pro") == 0 && !spec_language_is_pro(c->language))) {
		reply_invalid(r, "language", "%s is not available for the %s service", c->language, c->service);
		return -1;
	}
	if (!is_http_url(c->url)) {
		reply_invalid(r, "url", "must be an http or https URL");
		return -1;
	}
	if (c->webhook_url && !is_http_url(c->webhook_url)) {
		reply_invalid(r, "webhook_url", "must be an http or https URL");
		return -1;
	}
	if (org_access(r, c->org) != 0 || order_glossaries(r, o, c) != 0 || order_style_guide(r, c) != 0)
		return -1;
	if (c->boost)
		json_object_array_add(c->addons, json_object_new_string("rush"));
	if (c->has_folder_id && folder_org(c->folder_id) != c->org) {
		reply_invalid(r, "folder_id", "no such folder in the organization");
		return -1;
	}
	if (!c->has_folder_id)
		c->folder_id = c->folder ? folder_by_path(c->org, c->folder) : folder_workspace(c->org);
	if (c->folder_id <= 0) {
		reply_invalid(r, "folder", "not a valid folder path");
		return -1;
	}
	return 0;
}

static const char *json_text(json_object *a)
{
	return a ? json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN) : "[]";
}

static int order_insert(const char *id, const char *kind, const struct order_req *c, int64_t source_rid,
			json_object *targets, const char *name, double now)
{
	sqlite3_stmt *st = db_prep("INSERT INTO orders(id, org_id, folder_id, kind, service, language, url, boost,"
				   " is_subtitle, webhook_url, glossary_ids, style_guide_id, addons, source_rid,"
				   " created_at, name, tags, target_languages, last_notified)"
				   " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'incomplete')");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, c->org);
	sqlite3_bind_int64(st, 3, c->folder_id);
	sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c->service, -1, SQLITE_STATIC);
	db_bind_text(st, 6, c->language);
	db_bind_text(st, 7, c->url);
	sqlite3_bind_int(st, 8, c->boost);
	sqlite3_bind_int(st, 9, c->is_subtitle);
	db_bind_text(st, 10, c->webhook_url);
	sqlite3_bind_text(st, 11, json_text(c->glossary_ids), -1, SQLITE_TRANSIENT);
	if (c->has_sg)
		sqlite3_bind_int64(st, 12, c->style_guide_id);
	sqlite3_bind_text(st, 13, json_text(c->addons), -1, SQLITE_TRANSIENT);
	if (source_rid > 0)
		sqlite3_bind_int64(st, 14, source_rid);
	sqlite3_bind_double(st, 15, now);
	db_bind_text(st, 16, name);
	sqlite3_bind_text(st, 17, json_text(c->tags), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 18, json_text(targets), -1, SQLITE_TRANSIENT);
	return db_step_done(st);
}

/* Name derived from the source file: the URL's last path segment. */
static void name_from_url(const char *url, char *out, size_t n)
{
	const char *end = url + strcspn(url, "?#");
	const char *start = end;
	while (start > url && start[-1] != '/')
		start--;
	snprintf(out, n, "%.*s", (int)(end - start), start);
	if (!*out)
		snprintf(out, n, "media");
}

static int64_t order_file_insert(const char *order_id, const struct order_req *c, const char *name, double now)
{
	sqlite3_stmt *st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, service,"
				   " is_subtitle, sharing, tags, tmp_url, created_at, updated_at, started_at, boost,"
				   " order_id, fixed_state) VALUES(?,?,?,?,?,?,?,0,?,?,?,?,?,?,?,'initial')");
	char id[33];
	if (!st)
		return -1;
	util_random_hex(id, 16);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, c->org);
	sqlite3_bind_int64(st, 3, c->folder_id);
	sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c->language, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, c->service, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, c->is_subtitle);
	sqlite3_bind_text(st, 8, json_text(c->tags), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, c->url, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 10, now);
	sqlite3_bind_double(st, 11, now);
	sqlite3_bind_double(st, 12, now);
	sqlite3_bind_int(st, 13, c->boost);
	sqlite3_bind_text(st, 14, order_id, -1, SQLITE_STATIC);
	return db_step_done(st) == 0 ? sqlite3_last_insert_rowid(db_conn()) : -1;
}

/* Submits an order: charge or lock now when the price is known (translations, fetched
 * media); otherwise the ingestion worker charges when the media arrives. */
static int order_submit(const char *id, double now)
{
	struct order_row o;
	if (order_load(id, &o) != 0)
		return -1;
	int translation = strcmp(o.kind, "translation") == 0;
	double dur = strcmp(o.service, "pro") == 0 ? 3 * 86400.0 : 5.0;
	if (db_exec("BEGIN IMMEDIATE") != 0) {
		order_row_free(&o);
		return -1;
	}
	sqlite3_stmt *st = db_prep("UPDATE orders SET submitted_at=? WHERE id=?");
	if (st) {
		sqlite3_bind_double(st, 1, now);
		sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
		db_step_done(st);
	}
	int locked = translation ? order_charge(id, now) == 1 : 0;
	st = db_prep("SELECT rid FROM transcriptions WHERE order_id=?");
	int64_t rids[80];
	size_t n = 0;
	if (st) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		while (n < 80 && sqlite3_step(st) == SQLITE_ROW)
			rids[n++] = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	for (size_t i = 0; i < n; i++) {
		if (locked)
			work_lock(rids[i], now);
		else if (translation)
			work_schedule_translation(rids[i], now, dur);
	}
	st = db_prep("UPDATE transcriptions SET fixed_state=NULL, started_at=? WHERE order_id=? AND fixed_state='initial'");
	if (st) {
		sqlite3_bind_double(st, 1, now);
		sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
		db_step_done(st);
	}
	db_exec("COMMIT");
	for (size_t i = 0; !translation && i < n; i++)
		work_try_schedule(rids[i]);
	order_row_free(&o);
	return 0;
}

static void reply_order(struct sb_req *r, int status, const char *id)
{
	struct order_row o;
	if (order_load(id, &o) != 0) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	reply_json(r, status, order_json(&o, clock_now()));
	order_row_free(&o);
}

void orders_create(struct sb_req *r)
{
	json_object *root, *o;
	struct order_req c;
	memset(&c, 0, sizeof c);
	if (body_wrapper(r, "order", &root, &o) != 0)
		return;
	c.addons = json_object_new_array();
	if (order_fields(r, o, &c) == 0) {
		char id[37], name[256];
		double now = clock_now();
		util_uuid4(id);
		if (c.name)
			snprintf(name, sizeof name, "%s", c.name);
		else
			name_from_url(c.url, name, sizeof name);
		int64_t rid = -1;
		if (order_insert(id, "transcription", &c, 0, NULL, name, now) == 0)
			rid = order_file_insert(id, &c, name, now);
		if (rid <= 0) {
			reply_error(r, 500, "internal_error", "database error");
		} else {
			if (work_url_is_local(c.url))
				work_ingest(rid);
			else
				work_enqueue(rid);
			if (c.confirm)
				order_submit(id, now);
			reply_order(r, 201, id);
		}
	}
	json_object_put(c.addons);
	json_object_put(root);
}

static int translation_fields(struct sb_req *r, json_object *o, struct order_req *c, const char **source,
			      json_object **targets)
{
	c->service = "auto";
	if (field_string(r, o, "source_transcription_id", 1, source) ||
	    field_string_array(r, o, "target_languages", 1, targets) || field_string(r, o, "service", 0, &c->service) ||
	    field_bool(r, o, "confirm", &c->confirm) || field_bool(r, o, "boost", &c->boost) ||
	    field_string(r, o, "webhook_url", 0, &c->webhook_url) || field_string_array(r, o, "tags", 0, &c->tags))
		return -1;
	if (!c->service)
		c->service = "auto";
	if (strcmp(c->service, "auto") != 0 && strcmp(c->service, "pro") != 0) {
		reply_invalid(r, "service", "must be auto or pro");
		return -1;
	}
	size_t n = json_object_array_length(*targets);
	if (n == 0 || n > 40) {
		reply_invalid(r, "target_languages", "must hold 1 to 40 languages");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *t = json_object_get_string(json_object_array_get_idx(*targets, i));
		if (!spec_target_language_is_valid(t)) {
			reply_invalid(r, "target_languages", "%s is not a translation target language", t);
			return -1;
		}
	}
	if (c->webhook_url && !is_http_url(c->webhook_url)) {
		reply_invalid(r, "webhook_url", "must be an http or https URL");
		return -1;
	}
	if (c->boost)
		json_object_array_add(c->addons, json_object_new_string("rush"));
	return 0;
}

static void translation_order(struct sb_req *r, struct order_req *c, const struct tr_row *src, json_object *targets)
{
	char id[37];
	double now = clock_now();
	util_uuid4(id);
	c->org = src->org_id;
	c->folder_id = src->folder_id;
	c->language = src->language;
	if (order_insert(id, "translation", c, src->rid, targets, src->name, now) != 0) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	for (size_t i = 0; i < json_object_array_length(targets); i++) {
		char out[33];
		const char *t = json_object_get_string(json_object_array_get_idx(targets, i));
		if (work_translation_create(src, t, id, 1, now, 0, out) <= 0) {
			reply_error(r, 500, "internal_error", "database error");
			return;
		}
	}
	if (c->confirm)
		order_submit(id, now);
	reply_order(r, 201, id);
}

void orders_create_translation(struct sb_req *r)
{
	json_object *root, *o, *targets = NULL;
	const char *source = NULL;
	struct order_req c;
	struct tr_row src;
	memset(&c, 0, sizeof c);
	if (body_wrapper(r, "order", &root, &o) != 0)
		return;
	c.addons = json_object_new_array();
	if (translation_fields(r, o, &c, &source, &targets) == 0 && task_source(r, source, &src) == 0) {
		translation_order(r, &c, &src, targets);
		tr_row_free(&src);
	}
	json_object_put(c.addons);
	json_object_put(root);
}

static int order_for_key(struct sb_req *r, struct order_row *o)
{
	if (order_load(r->params[0], o) != 0) {
		reply_error(r, 404, "not_found", "no order %s", r->params[0]);
		return -1;
	}
	if (!req_org_ok(r, o->org_id)) {
		order_row_free(o);
		reply_error(r, 401, "unauthorized", "the API key has no access to this order");
		return -1;
	}
	return 0;
}

void orders_get(struct sb_req *r)
{
	struct order_row o;
	if (order_for_key(r, &o) != 0)
		return;
	reply_json(r, 200, order_json(&o, clock_now()));
	order_row_free(&o);
}

void orders_confirm(struct sb_req *r)
{
	struct order_row o;
	if (order_for_key(r, &o) != 0)
		return;
	double now = clock_now();
	const char *state = order_state(&o, now);
	if (strcmp(state, "incomplete") != 0) {
		reply_invalid(r, "state", "only an incomplete order can be confirmed (this one is %s)", state);
		order_row_free(&o);
		return;
	}
	order_row_free(&o);
	order_submit(r->params[0], now);
	reply_order(r, 200, r->params[0]);
}
