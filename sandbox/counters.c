/* counters: requests received and faults injected, counted in the sandbox's database. */
#include "config.h"

#include "counters.h"

#include "clock.h"
#include "db.h"
#include "http.h"
#include "routes.h"

#include <openssl/evp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* Reads (GET requests on a route) are counted in memory since the process started, per route
 * and split by answer: cheap enough for every poll, and a read changes nothing worth keeping. */
#define READ_ROUTES_MAX 64
static atomic_long reads_received[READ_ROUTES_MAX], reads_refused[READ_ROUTES_MAX];

void counters_fault(const char *kind)
{
	sqlite3_stmt *st = db_prep("INSERT INTO faults_injected(kind, n) VALUES(?, 1)"
				   " ON CONFLICT(kind) DO UPDATE SET n = n + 1");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	db_step_done(st);
}

/* What identifies the user action behind a request: the body's "name" (names are chosen per
 * action), else the path of a route with an id in it, else a digest of the body (the same
 * action sends the same body). */
static const char *body_name(json_object *root)
{
	json_object *v;
	if (!json_object_is_type(root, json_type_object))
		return NULL;
	if (json_object_object_get_ex(root, "name", &v))
		return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	json_object_object_foreach(root, member, inner)
	{
		(void)member;
		if (json_object_is_type(inner, json_type_object) && json_object_object_get_ex(inner, "name", &v) &&
		    json_object_is_type(v, json_type_string))
			return json_object_get_string(v);
	}
	return NULL;
}

static void request_key(const struct sb_req *r, char *out, size_t n)
{
	json_object *root = r->body && r->body_len ? json_tokener_parse(r->body) : NULL;
	const char *name = root ? body_name(root) : NULL;
	if (name) {
		snprintf(out, n, "name:%s", name);
	} else if (r->nparams > 0 || !r->body) {
		snprintf(out, n, "path:%s", r->path);
	} else {
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned int len = 0;
		size_t at = (size_t)snprintf(out, n, "body:");
		EVP_Digest(r->body, r->body_len, md, &len, EVP_sha256(), NULL);
		for (unsigned int i = 0; i < 8 && i < len && at + 3 <= n; i++, at += 2)
			snprintf(out + at, 3, "%02x", md[i]);
	}
	json_object_put(root);
}

static void count_read(const struct sb_req *r)
{
	size_t i = (size_t)(r->route - sb_routes);
	if (i >= READ_ROUTES_MAX)
		return;
	atomic_fetch_add(&reads_received[i], 1);
	if (r->status >= 400)
		atomic_fetch_add(&reads_refused[i], 1);
}

void counters_request(const struct sb_req *r, const char *fault, int processed)
{
	if (!r->route || (r->route->flags & R_ADMIN))
		return;
	if (strcmp(r->method, "GET") == 0) {
		count_read(r);
		return;
	}
	char key[320];
	request_key(r, key, sizeof key);
	sqlite3_stmt *st = db_prep("INSERT INTO received(method, route, key, processed, fault, status, at)"
				   " VALUES(?,?,?,?,?,?,?)");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, r->method, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->route->pattern, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, processed);
	sqlite3_bind_text(st, 5, fault, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, r->status);
	sqlite3_bind_double(st, 7, clock_now());
	db_step_done(st);
}

/* Rows of sql as objects whose members are the column names. NULL on error. */
static json_object *rows_json(const char *sql)
{
	sqlite3_stmt *st = db_prep(sql);
	if (!st)
		return NULL;
	json_object *arr = json_object_new_array();
	while (sqlite3_step(st) == SQLITE_ROW) {
		json_object *o = json_object_new_object();
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			json_object *v = sqlite3_column_type(st, i) == SQLITE_INTEGER
						 ? json_object_new_int64(sqlite3_column_int64(st, i))
						 : json_object_new_string((const char *)sqlite3_column_text(st, i));
			json_object_object_add(o, sqlite3_column_name(st, i), v);
		}
		json_object_array_add(arr, o);
	}
	sqlite3_finalize(st);
	return arr;
}

/* [{"method","route","received","refused"}] of the GET routes read at least once. */
static json_object *reads_json(void)
{
	json_object *arr = json_object_new_array();
	for (size_t i = 0; i < sb_nroutes && i < READ_ROUTES_MAX; i++) {
		long n = atomic_load(&reads_received[i]);
		if (n == 0)
			continue;
		json_object *o = json_object_new_object();
		json_object_object_add(o, "method", json_object_new_string(sb_routes[i].method));
		json_object_object_add(o, "route", json_object_new_string(sb_routes[i].pattern));
		json_object_object_add(o, "received", json_object_new_int64(n));
		json_object_object_add(o, "refused", json_object_new_int64(atomic_load(&reads_refused[i])));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *counters_json(void)
{
	json_object *requests = rows_json("SELECT method, route, COUNT(*) AS received, SUM(processed) AS processed,"
					  " SUM(status = 429) AS answered_429 FROM received GROUP BY method, route ORDER BY route, method");
	json_object *repeated = rows_json("SELECT method, route, key, COUNT(*) AS received,"
					  " SUM(processed) AS processed, SUM(status = 429) AS answered_429"
					  " FROM received GROUP BY method, route, key"
					  " HAVING COUNT(*) > 1 ORDER BY route, key");
	json_object *faults = json_object_new_object();
	sqlite3_stmt *st = db_prep("SELECT kind, n FROM faults_injected ORDER BY kind");
	if (!requests || !repeated || !st) {
		json_object_put(requests);
		json_object_put(repeated);
		json_object_put(faults);
		sqlite3_finalize(st);
		return NULL;
	}
	while (sqlite3_step(st) == SQLITE_ROW)
		json_object_object_add(faults, (const char *)sqlite3_column_text(st, 0),
				       json_object_new_int64(sqlite3_column_int64(st, 1)));
	sqlite3_finalize(st);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "requests", requests);
	json_object_object_add(o, "faults", faults);
	json_object_object_add(o, "repeated", repeated);
	json_object_object_add(o, "reads", reads_json());
	return o;
}
