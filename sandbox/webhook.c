/* webhook: detection of order state changes and delivery with retries. */
#include "config.h"

#include "webhook.h"

#include "clock.h"
#include "db.h"
#include "fetch.h"
#include "model_order.h"
#include "stopping.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WEBHOOK_TRIES 5
#define WEBHOOK_TICK_MS 100

static pthread_t webhook_thread;
static int webhook_running;
static pthread_mutex_t webhook_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t webhook_cond = PTHREAD_COND_INITIALIZER;
static int webhook_stopping;

static void webhook_enqueue(const struct order_row *o, const char *state, double now)
{
	json_object *p = json_object_new_object();
	json_object_object_add(p, "event", json_object_new_string("order.state_changed"));
	json_object_object_add(p, "order", order_json(o, now));
	sqlite3_stmt *st = db_prep("INSERT INTO webhooks(order_id, url, state, payload, next_at, created_at)"
				   " VALUES(?,?,?,?,?,?)");
	if (st) {
		sqlite3_bind_text(st, 1, o->id, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, o->webhook_url, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, state, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
				  -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 5, now);
		sqlite3_bind_double(st, 6, now);
		db_step_done(st);
	}
	json_object_put(p);
	st = db_prep("UPDATE orders SET last_notified=? WHERE id=?");
	if (st) {
		sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, o->id, -1, SQLITE_STATIC);
		db_step_done(st);
	}
}

/* Orders in a final state notified already are not looked at again. */
static int64_t webhook_detect_batch(double now, int64_t after)
{
	sqlite3_stmt *st = db_prep("SELECT rowid, id FROM orders WHERE webhook_url IS NOT NULL AND rowid>? AND"
				   " COALESCE(last_notified,'') NOT IN ('fulfilled','failed','canceled','expired')"
				   " ORDER BY rowid LIMIT 128");
	char ids[128][40];
	int n = 0;
	int64_t last = -1;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, after);
	while (n < 128 && sqlite3_step(st) == SQLITE_ROW) {
		last = sqlite3_column_int64(st, 0);
		snprintf(ids[n++], sizeof ids[0], "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++) {
		struct order_row o;
		if (order_load(ids[i], &o) != 0)
			continue;
		const char *state = order_state(&o, now);
		if (!o.last_notified || strcmp(o.last_notified, state) != 0)
			webhook_enqueue(&o, state, now);
		order_row_free(&o);
	}
	return n == 128 ? last : -1;
}

static void webhook_detect(double now)
{
	for (int64_t after = 0; after >= 0;)
		after = webhook_detect_batch(now, after);
}

static void webhook_deliver_one(int64_t id, const char *url, const char *payload, int attempts, double now)
{
	char err[256] = "";
	int status = fetch_post_json(url, payload, err, sizeof err);
	if (status < 0 && stopping_now())
		return; /* cut by the stop: not an attempt, delivered after the next start */
	int ok = status >= 200 && status <= 299;
	static const double backoff[] = {1, 2, 4, 8};
	attempts++;
	sqlite3_stmt *st = db_prep("UPDATE webhooks SET attempts=?, last_status=?, last_error=?, delivered=?, next_at=?"
				   " WHERE id=?");
	if (!st)
		return;
	sqlite3_bind_int(st, 1, attempts);
	sqlite3_bind_int(st, 2, status < 0 ? 0 : status);
	if (ok)
		sqlite3_bind_null(st, 3);
	else
		sqlite3_bind_text(st, 3, status < 0 ? err : "non-2xx answer", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 4, ok);
	if (ok || attempts >= WEBHOOK_TRIES)
		sqlite3_bind_null(st, 5);
	else
		sqlite3_bind_double(st, 5, now + backoff[attempts - 1]);
	sqlite3_bind_int64(st, 6, id);
	db_step_done(st);
}

static void webhook_deliver(double now)
{
	sqlite3_stmt *st = db_prep("SELECT id, url, payload, attempts FROM webhooks WHERE delivered=0 AND attempts<?"
				   " AND next_at<=? ORDER BY id LIMIT 32");
	struct {
		int64_t id;
		char *url, *payload;
		int attempts;
	} due[32];
	int n = 0;
	if (!st)
		return;
	sqlite3_bind_int(st, 1, WEBHOOK_TRIES);
	sqlite3_bind_double(st, 2, now);
	while (n < 32 && sqlite3_step(st) == SQLITE_ROW) {
		due[n].id = sqlite3_column_int64(st, 0);
		due[n].url = strdup((const char *)sqlite3_column_text(st, 1));
		due[n].payload = strdup((const char *)sqlite3_column_text(st, 2));
		due[n].attempts = sqlite3_column_int(st, 3);
		n++;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++) {
		if (due[i].url && due[i].payload && !stopping_now())
			webhook_deliver_one(due[i].id, due[i].url, due[i].payload, due[i].attempts, now);
		free(due[i].url);
		free(due[i].payload);
	}
}

static void *webhook_main(void *arg)
{
	(void)arg;
	unsigned ticks = 0;
	pthread_mutex_lock(&webhook_mx);
	while (!webhook_stopping) {
		pthread_mutex_unlock(&webhook_mx);
		double now = clock_now();
		webhook_detect(now);
		webhook_deliver(now);
		/* A kill -9 then loses at most a second of an accelerated clock. */
		if (++ticks % 10 == 0)
			clock_save();
		pthread_mutex_lock(&webhook_mx);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += WEBHOOK_TICK_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (!webhook_stopping)
			pthread_cond_timedwait(&webhook_cond, &webhook_mx, &ts);
	}
	pthread_mutex_unlock(&webhook_mx);
	return NULL;
}

int webhook_start(void)
{
	webhook_stopping = 0;
	if (pthread_create(&webhook_thread, NULL, webhook_main, NULL) != 0)
		return -1;
	webhook_running = 1;
	return 0;
}

void webhook_stop(void)
{
	if (!webhook_running)
		return;
	pthread_mutex_lock(&webhook_mx);
	webhook_stopping = 1;
	pthread_cond_broadcast(&webhook_cond);
	pthread_mutex_unlock(&webhook_mx);
	pthread_join(webhook_thread, NULL);
	webhook_running = 0;
}

json_object *webhook_log(const char *order_id)
{
	sqlite3_stmt *st = db_prep("SELECT id, order_id, url, state, payload, attempts, last_status, last_error,"
				   " delivered, next_at, created_at FROM webhooks WHERE ?1 IS NULL OR order_id=?1"
				   " ORDER BY id DESC LIMIT 1000");
	json_object *arr = json_object_new_array();
	if (!st)
		return arr;
	db_bind_text(st, 1, order_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		json_object *d = json_object_new_object();
		int delivered = sqlite3_column_int(st, 8), attempts = sqlite3_column_int(st, 5);
		char buf[32];
		json_object_object_add(d, "id", json_object_new_int64(sqlite3_column_int64(st, 0)));
		json_object_object_add(d, "order_id", json_object_new_string((const char *)sqlite3_column_text(st, 1)));
		json_object_object_add(d, "url", json_object_new_string((const char *)sqlite3_column_text(st, 2)));
		json_object_object_add(d, "order_state", json_object_new_string((const char *)sqlite3_column_text(st, 3)));
		json_object_object_add(d, "payload", json_tokener_parse((const char *)sqlite3_column_text(st, 4)));
		json_object_object_add(d, "attempts", json_object_new_int(attempts));
		json_object_object_add(d, "last_status", json_object_new_int(sqlite3_column_int(st, 6)));
		const unsigned char *e = sqlite3_column_text(st, 7);
		json_object_object_add(d, "last_error", e ? json_object_new_string((const char *)e) : NULL);
		json_object_object_add(d, "status", json_object_new_string(delivered ? "delivered" :
					attempts >= WEBHOOK_TRIES ? "failed" : "pending"));
		if (sqlite3_column_type(st, 9) != SQLITE_NULL) {
			util_iso8601(sqlite3_column_double(st, 9), buf);
			json_object_object_add(d, "next_attempt_at", json_object_new_string(buf));
		}
		util_iso8601(sqlite3_column_double(st, 10), buf);
		json_object_object_add(d, "created_at", json_object_new_string(buf));
		json_object_array_add(arr, d);
	}
	sqlite3_finalize(st);
	return arr;
}
