/* routes_admin: the /_sandbox/ routes for tests and demos (admin key only). */
#include "config.h"

#include "routes.h"

#include "auth.h"
#include "clock.h"
#include "counters.h"
#include "db.h"
#include "faults.h"
#include "routes_util.h"
#include "seed.h"
#include "util.h"
#include "webhook.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *clock_json(void)
{
	char buf[32];
	double now = clock_now();
	json_object *o = json_object_new_object();
	util_iso8601(now, buf);
	json_object_object_add(o, "now", json_object_new_string(buf));
	json_object_object_add(o, "now_unix", json_object_new_double(now));
	json_object_object_add(o, "offset_seconds", json_object_new_double(clock_offset_now()));
	return o;
}

void admin_clock(struct sb_req *r)
{
	if (strcmp(r->method, "POST") == 0) {
		json_object *root = req_json_object(r), *v;
		if (!root)
			return;
		if (!json_object_object_get_ex(root, "seconds", &v) ||
		    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) ||
		    json_object_get_double(v) < 0 || !isfinite(json_object_get_double(v))) {
			json_object_put(root);
			reply_invalid(r, "seconds", "must be a number >= 0");
			return;
		}
		clock_advance(json_object_get_double(v));
		json_object_put(root);
		clock_save();
	}
	reply_json(r, 200, clock_json());
}

void admin_faults(struct sb_req *r)
{
	if (strcmp(r->method, "PUT") == 0) {
		json_object *root = req_json_object(r);
		const char *spec;
		char err[256];
		if (!root)
			return;
		if (field_string(r, root, "spec", 1, &spec) != 0) {
			json_object_put(root);
			return;
		}
		if (faults_set(spec, err, sizeof err) != 0) {
			json_object_put(root);
			reply_invalid(r, "spec", "%s", err);
			return;
		}
		json_object_put(root);
	}
	char *d = faults_describe();
	json_object *o = json_object_new_object();
	json_object_object_add(o, "spec", json_object_new_string(d ? d : ""));
	free(d);
	reply_json(r, 200, o);
}

static int64_t path_org(struct sb_req *r)
{
	int64_t org = parse_digits(r->params[0]);
	if (org <= 0 || !auth_org_exists(org)) {
		reply_error(r, 404, "not_found", "no organization %s", r->params[0]);
		return -1;
	}
	return org;
}

/* The integer member `key` of the JSON body, from min to max, into *out: 0, or -1 after
 * replying (the parse error, or 422 with `rule`). */
static int body_int(struct sb_req *r, const char *key, int64_t min, int64_t max, const char *rule, int64_t *out)
{
	json_object *root = req_json_object(r), *v;
	if (!root)
		return -1;
	bool ok = json_object_object_get_ex(root, key, &v) && json_object_is_type(v, json_type_int) &&
		  json_object_get_int64(v) >= min && json_object_get_int64(v) <= max;
	if (ok)
		*out = json_object_get_int64(v);
	json_object_put(root);
	if (!ok)
		reply_invalid(r, key, "%s", rule);
	return ok ? 0 : -1;
}

/* Answers {"<key>": v} with status. */
static void reply_member(struct sb_req *r, int status, const char *key, json_object *v)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, key, v);
	reply_json(r, status, o);
}

/* An organization's id as the API writes it: a string. */
static json_object *org_id_json(int64_t org)
{
	char id[24];
	snprintf(id, sizeof id, "%lld", (long long)org);
	return json_object_new_string(id);
}

void admin_credit(struct sb_req *r)
{
	int64_t org = path_org(r), credit;
	if (org < 0 || body_int(r, "credit_cents", 0, INT64_MAX, "must be an integer >= 0", &credit) != 0)
		return;
	sqlite3_stmt *st = db_prep("UPDATE orgs SET credit_cents=? WHERE id=?");
	if (st) {
		sqlite3_bind_int64(st, 1, credit);
		sqlite3_bind_int64(st, 2, org);
		db_step_done(st);
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", org_id_json(org));
	json_object_object_add(o, "credit_cents", json_object_new_int64(credit));
	reply_json(r, 200, o);
}

void admin_webhooks(struct sb_req *r)
{
	reply_member(r, 200, "deliveries", webhook_log(req_query(r, "order_id")));
}

void admin_org_create(struct sb_req *r)
{
	json_object *root = r->body_len ? req_json_object(r) : json_object_new_object(), *v;
	if (!root)
		return;
	const char *name = "Organization";
	int64_t credit = 1000000;
	if (json_object_object_get_ex(root, "name", &v) && json_object_is_type(v, json_type_string))
		name = json_object_get_string(v);
	if (json_object_object_get_ex(root, "credit_cents", &v) && json_object_is_type(v, json_type_int))
		credit = json_object_get_int64(v);
	char key[64];
	int64_t org = auth_org_create(name, credit);
	json_object_put(root);
	if (org <= 0 || auth_key_create(org, 0, key) != 0) {
		reply_error(r, 500, "internal_error", "cannot create the organization");
		return;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", org_id_json(org));
	json_object_object_add(o, "api_key", json_object_new_string(key));
	json_object_object_add(o, "credit_cents", json_object_new_int64(credit));
	reply_json(r, 201, o);
}

void admin_key_create(struct sb_req *r)
{
	int64_t org = path_org(r);
	char key[64];
	if (org < 0)
		return;
	if (r->body_len > 0) {   /* the route takes no fields: a body says nothing it could do */
		json_object *o = req_json_object(r);
		if (!o)
			return;
		char field[128] = "";
		json_object_object_foreach(o, name, value) {
			(void)value;
			snprintf(field, sizeof field, "%s", name);
			break;
		}
		json_object_put(o);
		if (field[0]) {
			reply_invalid(r, field, "is not a field of this route: it takes none");
			return;
		}
	}
	if (auth_key_create(org, 0, key) != 0) {
		reply_error(r, 500, "internal_error", "cannot create the key");
		return;
	}
	reply_member(r, 201, "api_key", json_object_new_string(key));
}

void admin_seed(struct sb_req *r)
{
	int64_t org = path_org(r), count;
	if (org < 0 || body_int(r, "transcriptions", 1, 1000000, "must be an integer from 1 to 1000000", &count) != 0)
		return;
	long n = (long)count;
	if (seed_transcriptions(org, n) != 0) {
		reply_error(r, 500, "internal_error", "seeding failed");
		return;
	}
	reply_member(r, 201, "created", json_object_new_int64(n));
}

void admin_state(struct sb_req *r)
{
	json_object *o = clock_json();
	static const char *const tables[] = {"orgs", "transcriptions", "orders", "exports", "tasks", "webhooks"};
	json_object *counts = json_object_new_object();
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		char sql[64];
		snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s", tables[i]);
		json_object_object_add(counts, tables[i], json_object_new_int64(db_scalar_int(sql, -1, 0)));
	}
	json_object_object_add(o, "counts", counts);
	reply_json(r, 200, o);
}

void admin_counters(struct sb_req *r)
{
	json_object *o = counters_json();
	if (!o) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	reply_json(r, 200, o);
}
