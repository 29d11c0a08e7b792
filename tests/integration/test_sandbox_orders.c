/* steno-sandbox over loopback: orders (transcription and translation), pricing, confirm,
 * locked orders, ingestions of URL sources, rule violations, webhooks with retries. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_sandbox_util.h"

static struct sbx S;
static struct sbx_receiver *R;

static void stop_all(void)
{
	sbt_stop(&S, &R);
}

static json_object *order_post(const char *path, const char *url, const char *extra, long *status)
{
	char body[2048];
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"%s\",\"language\":\"en-US\",\"organization_id\":%s%s}}", url,
		 S.org_id, extra);
	return sbx_call(&S, "POST", path, body, status);
}

static json_object *order_get(const char *id, long *status)
{
	char path[128];
	snprintf(path, sizeof path, "orders/%s", id);
	return sbx_call(&S, "GET", path, NULL, status);
}

static json_object *order_confirm(const char *id, long *status)
{
	char path[128];
	snprintf(path, sizeof path, "orders/%s/confirm", id);
	return sbx_call(&S, "POST", path, NULL, status);
}

Test(sandbox_orders, incomplete_confirm_fulfilled, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024], id[40];
	sbt_upload_wav(&S, "talk.wav", 400, url, sizeof url);
	long status;
	json_object *o = order_post("orders", url, ",\"boost\":true", &status);
	cr_assert_eq(status, 201, "%s", json_object_to_json_string(o));
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	cr_assert_eq(strlen(id), 36);
	cr_assert_eq(id[14], '4');
	cr_assert_str_eq(sbx_str(o, "state"), "incomplete");
	cr_assert(json_object_get_boolean(sbx_get(o, "canBeSubmitted")));
	cr_assert_null(sbx_get(o, "outputsIds"));
	static const char *const keys[] = {"id", "folder_id", "state", "operations", "details", "addons", "inputs",
					   "canBeSubmitted", "transcriptions", "ingestions", NULL};
	for (int i = 0; keys[i]; i++)
		cr_assert(sbx_get(o, keys[i]), "order lacks %s", keys[i]);
	/* 400 s = 7 minutes at 20 cents, rush +50 %. */
	json_object *d = sbx_get(o, "details");
	cr_assert_eq(json_object_get_int(sbx_get(d, "total_cents")), 210, "%s", json_object_to_json_string(d));
	cr_assert_eq(json_object_get_int(sbx_get(d, "addons_total_cents.rush")), 70);
	cr_assert_str_eq(sbx_str(d, "currency"), "EUR");
	cr_assert_str_eq(sbx_str(d, "currency_symbol"), "\xe2\x82\xac");
	cr_assert_eq(json_object_get_int(sbx_get(d, "minimum_charge")), 100);
	json_object *item = json_object_array_get_idx(sbx_get(d, "items"), 0);
	cr_assert_eq(json_object_get_int(sbx_get(item, "pricing_unit_count")), 7);
	cr_assert_eq(json_object_get_int(sbx_get(item, "cents_per_unit")), 20);
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "addons"), 0), "name"), "rush");
	json_object *tr = json_object_array_get_idx(sbx_get(o, "transcriptions"), 0);
	cr_assert(json_object_is_type(sbx_get(tr, "id"), json_type_int));
	cr_assert_str_eq(sbx_str(tr, "state"), "initial");
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "state"), "done");
	json_object_put(o);
	o = order_confirm(id, &status);
	cr_assert_eq(status, 200);
	cr_assert_str_eq(sbx_str(o, "state"), "submitted");
	json_object_put(o);
	json_object_put(order_confirm(id, &status));
	cr_assert_eq(status, 422);
	cr_assert_eq(sbx_advance(&S, 2 + 40 + 1), 0);
	o = order_get(id, &status);
	cr_assert_str_eq(sbx_str(o, "state"), "fulfilled", "%s", json_object_to_json_string(o));
	cr_assert_eq(json_object_array_length(sbx_get(o, "outputsIds")), 1);
	json_object_put(o);
	json_object_put(order_get("00000000-0000-4000-8000-000000000000", &status));
	cr_assert_eq(status, 404);
}

Test(sandbox_orders, confirm_true_and_locked, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024], id[40];
	sbt_upload_wav(&S, "talk.wav", 60, url, sizeof url);
	long status;
	json_object *o = order_post("orders", url, ",\"confirm\":true,\"service\":\"pro\"", &status);
	cr_assert_eq(status, 201);
	cr_assert_str_eq(sbx_str(o, "state"), "submitted");
	json_object_put(o);
	cr_assert_eq(sbx_set_credit(&S, S.org_id, 50), 0);
	o = order_post("orders", url, "", &status);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	json_object_put(o);
	o = order_confirm(id, &status);
	cr_assert_eq(status, 200);
	cr_assert_str_eq(sbx_str(o, "state"), "locked", "%s", json_object_to_json_string(o));
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "transcriptions"), 0), "state"), "locked");
	json_object_put(o);
	json_object_put(order_confirm(id, &status));
	cr_assert_eq(status, 422);
}

Test(sandbox_orders, url_ingestion_states, .fini = stop_all)
{
	sbt_start(&S, NULL);
	R = sbx_receiver_start(30, NULL, NULL, 0);
	char url[256], id[40];
	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(R));
	long status;
	json_object *o = order_post("orders", url, ",\"name\":\"Ünïcode 名前\"", &status);
	cr_assert_eq(status, 201);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	json_object_put(o);
	const char *st = NULL;
	for (int i = 0; i < 200; i++) {
		o = order_get(id, &status);
		st = sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "state");
		int done = st && strcmp(st, "done") == 0;
		if (done) {
			cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "name"), url);
			cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "transcriptions"), 0), "name"),
					 "Ünïcode 名前");
		}
		json_object_put(o);
		if (done)
			break;
		usleep(50000);
	}
	snprintf(url, sizeof url, "%s/gone.wav", sbx_receiver_origin(R));
	o = order_post("orders", url, ",\"confirm\":true", &status);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	json_object_put(o);
	for (int i = 0; i < 200; i++) {
		o = order_get(id, &status);
		int failed = strcmp(sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "state"), "failed") == 0;
		json_object_put(o);
		if (failed)
			break;
		usleep(50000);
	}
	cr_assert_eq(sbx_advance(&S, 3), 0);
	o = order_get(id, &status);
	cr_assert_str_eq(sbx_str(o, "state"), "failed", "%s", json_object_to_json_string(o));
	json_object_put(o);
}

Test(sandbox_orders, rule_violations, .fini = stop_all)
{
	const char *args[] = {"--seed-demo", "2", NULL};
	sbt_start(&S, args);
	long status;
	json_object_put(order_post("orders", "http://127.0.0.1:1/a.wav", ",\"glossary_ids\":[999]", &status));
	cr_assert_eq(status, 422);
	json_object_put(order_post("orders", "http://127.0.0.1:1/a.wav", ",\"glossary_ids\":[\"x\"]", &status));
	cr_assert_eq(status, 400);
	json_object_put(order_post("orders", "http://127.0.0.1:1/a.wav", ",\"glossary_ids\":[1],\"style_guide_id\":1",
				   &status));
	cr_assert_eq(status, 201);
	json_object_put(order_post("orders", "http://127.0.0.1:1/a.wav", ",\"style_guide_id\":99", &status));
	cr_assert_eq(status, 422);
	json_object_put(order_post("orders", "ftp://x/a.wav", "", &status));
	cr_assert_eq(status, 422);
	json_object_put(order_post("orders", "http://127.0.0.1:1/a.wav", ",\"service\":\"alignment\"", &status));
	cr_assert_eq(status, 422);
	json_object_put(sbx_call(&S, "POST", "orders", "{\"url\":\"x\"}", &status));
	cr_assert_eq(status, 400);
	/* Verbatim (style guide 2) only in en/es/fr/de for pro: ja-JP is not even a pro language,
	 * so use a style guide with SDH (3) and German: SDH is not offered in German. */
	char body[512];
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"http://127.0.0.1:1/a.wav\",\"language\":\"de-DE\","
		 "\"organization_id\":%s,\"service\":\"pro\",\"style_guide_id\":3}}", S.org_id);
	json_object *o = sbx_call(&S, "POST", "orders", body, &status);
	cr_assert_eq(status, 422, "%s", json_object_to_json_string(o));
	json_object_put(o);
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"http://127.0.0.1:1/a.wav\",\"language\":\"de-DE\","
		 "\"organization_id\":%s,\"service\":\"pro\",\"style_guide_id\":2}}", S.org_id);
	o = sbx_call(&S, "POST", "orders", body, &status);
	cr_assert_eq(status, 201);
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "addons"), 0), "name"), "verbatim");
	json_object_put(o);
}

Test(sandbox_orders, translation_order, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024], body[2048], src[40], id[40];
	sbt_upload_wav(&S, "talk.wav", 40, url, sizeof url);
	long status;
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"src\",\"language\":\"en-GB\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}", url, S.org_id);
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	snprintf(src, sizeof src, "%s", sbx_str(o, "id"));
	json_object_put(o);
	snprintf(body, sizeof body, "{\"order\":{\"source_transcription_id\":\"%s\",\"target_languages\":[\"fr\",\"de\"]}}", src);
	json_object_put(sbx_call(&S, "POST", "orders/translation", body, &status));
	cr_assert_eq(status, 422); /* source not done yet */
	cr_assert_eq(sbx_advance(&S, 10), 0);
	o = sbx_call(&S, "POST", "orders/translation", body, &status);
	cr_assert_eq(status, 201, "%s", json_object_to_json_string(o));
	cr_assert_str_eq(sbx_str(o, "state"), "incomplete");
	cr_assert_eq(json_object_array_length(sbx_get(o, "outputsIds")), 2);
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "operations"), 0), "name"),
			 "transcription_translation");
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "operations"), 1), "target_language"), "de");
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "inputs"), 0), "transcription_id"), src);
	/* 2 targets x 1 minute x 10 cents = 20, minimum charge 100. */
	cr_assert_eq(json_object_get_int(sbx_get(o, "details.total_cents")), 100);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	json_object_put(o);
	o = order_confirm(id, &status);
	cr_assert_str_eq(sbx_str(o, "state"), "submitted");
	json_object_put(o);
	cr_assert_eq(sbx_advance(&S, 6), 0);
	o = order_get(id, &status);
	cr_assert_str_eq(sbx_str(o, "state"), "fulfilled");
	char path[128];
	snprintf(path, sizeof path, "transcriptions/%s", json_object_get_string(json_object_array_get_idx(sbx_get(o, "outputsIds"), 1)));
	json_object *t = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_str_eq(sbx_str(t, "language"), "de");
	cr_assert_str_eq(sbx_str(t, "state"), "automatic_done");
	json_object_put(t);
	json_object_put(o);
	snprintf(body, sizeof body, "{\"order\":{\"source_transcription_id\":\"%s\",\"target_languages\":[\"zz\"]}}", src);
	json_object_put(sbx_call(&S, "POST", "orders/translation", body, &status));
	cr_assert_eq(status, 422);
}

/* Waits (real time) until the receiver got n POSTs. */
static void wait_posts(size_t n)
{
	for (int i = 0; i < 300 && sbx_receiver_posts(R) < n; i++)
		usleep(20000);
	cr_assert_geq(sbx_receiver_posts(R), n, "got %zu webhook POSTs, want %zu", sbx_receiver_posts(R), n);
}

/* Starts the sandbox and a receiver answering `statuses`, then orders a 20 s upload whose
 * webhook goes to the receiver (extra: more order members first, or ""). Its id into id. */
static void order_with_webhook(const int *statuses, size_t n, const char *extra, char id[40])
{
	char url[1024], members[512];
	long status;
	sbt_start(&S, NULL);
	R = sbx_receiver_start(10, NULL, statuses, n);
	sbt_upload_wav(&S, "talk.wav", 20, url, sizeof url);
	snprintf(members, sizeof members, "%s,\"webhook_url\":\"%s/hook\"", extra, sbx_receiver_origin(R));
	json_object *o = order_post("orders", url, members, &status);
	snprintf(id, 40, "%s", sbx_str(o, "id"));
	json_object_put(o);
}

Test(sandbox_orders, webhooks_with_retries, .fini = stop_all, .timeout = 60)
{
	static const int statuses[] = {500, 503, 200};
	char id[40];
	long status;
	order_with_webhook(statuses, 3, "", id);
	json_object_put(order_confirm(id, &status));
	wait_posts(1);
	usleep(300000);
	cr_assert_eq(sbx_receiver_posts(R), 1, "a retry came before its backoff");
	cr_assert_eq(sbx_advance(&S, 1), 0);
	wait_posts(2);
	cr_assert_eq(sbx_advance(&S, 2), 0);
	wait_posts(3);
	char *b = sbx_receiver_post_body(R, 2);
	json_object *p = json_tokener_parse(b);
	free(b);
	cr_assert_str_eq(sbx_str(p, "event"), "order.state_changed");
	cr_assert_str_eq(sbx_str(p, "order.id"), id);
	cr_assert_str_eq(sbx_str(p, "order.state"), "submitted");
	json_object_put(p);
	/* The delivery log. */
	struct sbx_resp r;
	char path[128];
	snprintf(path, sizeof path, "/_sandbox/webhooks?order_id=%s", id);
	sbx_request(&S, "GET", path, S.admin_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 200);
	json_object *log = sbx_json(&r);
	json_object *first = json_object_array_get_idx(sbx_get(log, "deliveries"), 0);
	cr_assert_eq(json_object_get_int(sbx_get(first, "attempts")), 3, "%s", r.body);
	cr_assert_str_eq(sbx_str(first, "status"), "delivered");
	json_object_put(log);
	sbx_resp_free(&r);
	/* Fulfilment is the next state change. */
	cr_assert_eq(sbx_advance(&S, 10), 0);
	wait_posts(4);
	b = sbx_receiver_post_body(R, 3);
	p = json_tokener_parse(b);
	free(b);
	cr_assert_str_eq(sbx_str(p, "order.state"), "fulfilled");
	json_object_put(p);
}

/* sbt_wait condition: the oldest webhook delivery of order `arg` ended failed after 5 tries. */
static bool first_delivery_failed(const void *arg)
{
	struct sbx_resp r;
	char path[128];
	snprintf(path, sizeof path, "/_sandbox/webhooks?order_id=%s", (const char *)arg);
	sbx_request(&S, "GET", path, S.admin_key, NULL, NULL, &r);
	json_object *log = sbx_json(&r);
	size_t n = json_object_array_length(sbx_get(log, "deliveries"));
	json_object *oldest = json_object_array_get_idx(sbx_get(log, "deliveries"), n - 1);
	bool ok = n >= 1 && json_object_get_int(sbx_get(oldest, "attempts")) == 5 &&
		  strcmp(sbx_str(oldest, "status"), "failed") == 0;
	json_object_put(log);
	sbx_resp_free(&r);
	return ok;
}

/* sbt_wait condition: order `arg` can be submitted (its ingestions are over). */
static bool can_be_submitted(const void *arg)
{
	long status;
	json_object *o = order_get(arg, &status);
	bool done = json_object_get_boolean(sbx_get(o, "canBeSubmitted"));
	json_object_put(o);
	return done;
}

Test(sandbox_orders, webhook_gives_up_after_five_tries, .fini = stop_all, .timeout = 60)
{
	static const int statuses[] = {500, 500, 500, 500, 500, 500};
	char id[40];
	order_with_webhook(statuses, 6, ",\"confirm\":true", id);
	/* Creation with confirm:true moves incomplete -> submitted: one notification. */
	wait_posts(1);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(sbx_advance(&S, 1 << i), 0);
		wait_posts((size_t)i + 2);
	}
	usleep(300000);
	cr_assert_eq(sbx_advance(&S, 100 - 17), 0); /* also fulfils the order: a new notification */
	cr_assert(sbt_wait(first_delivery_failed, id, 100, 30000),
		  "the first delivery did not end failed after 5 attempts");
}

Test(sandbox_orders, transferring_ingestion_and_moving_estimate, .fini = stop_all)
{
	sbt_start(&S, NULL);
	R = sbx_receiver_start(30, NULL, NULL, 0);
	char url[256], id[40], tid[40], path[128];
	snprintf(url, sizeof url, "%s/slow.wav", sbx_receiver_origin(R));
	long status;
	json_object *o = order_post("orders", url, "", &status);
	cr_assert_eq(status, 201);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	snprintf(tid, sizeof tid, "%s", sbx_str(json_object_array_get_idx(sbx_get(o, "transcriptions"), 0), "uuid"));
	/* The fetch runs on a worker: this answer came at once, with the ingestion in progress. */
	cr_assert_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "state"), "transferring");
	cr_assert_not(json_object_get_boolean(sbx_get(o, "canBeSubmitted")));
	json_object_put(o);
	snprintf(path, sizeof path, "transcriptions/%s", tid);
	o = sbx_call(&S, "GET", path, NULL, &status);
	char eta1[40];
	snprintf(eta1, sizeof eta1, "%s", sbx_str(o, "deliveryEstimatedAt"));
	json_object_put(o);
	cr_assert_eq(sbx_advance(&S, 600), 0);
	o = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_gt(strcmp(sbx_str(o, "deliveryEstimatedAt"), eta1), 0, "the estimate did not move: %s",
		     json_object_to_json_string(o));
	json_object_put(o);
	cr_assert(sbt_wait(can_be_submitted, id, 200, 30000), "the ingestion never finished");
}

Test(sandbox_orders, other_organization_gets_401, .fini = stop_all)
{
	sbt_start(&S, NULL);
	long status;
	json_object *o = order_post("orders", "http://127.0.0.1:1/a.wav", "", &status);
	char path[128];
	snprintf(path, sizeof path, "orders/%s", sbx_str(o, "id"));
	json_object_put(o);
	struct sbx_resp r;
	sbx_request(&S, "POST", "/_sandbox/organizations", S.admin_key, "{}", NULL, &r);
	o = sbx_json(&r);
	char other[128];
	snprintf(other, sizeof other, "%s", sbx_str(o, "api_key"));
	json_object_put(o);
	sbx_resp_free(&r);
	sbx_request(&S, "GET", path, other, NULL, NULL, &r);
	cr_assert_eq(r.status, 401);
	sbx_resp_free(&r);
	strcat(path, "/confirm");
	sbx_request(&S, "POST", path, other, NULL, NULL, &r);
	cr_assert_eq(r.status, 401);
	sbx_resp_free(&r);
}
