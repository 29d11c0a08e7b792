/* The sandbox counts what it receives (issue 10): GET /_sandbox/counters answers, from the
 * sandbox's own database, the requests received per route that can change something, the
 * faults injected by kind and the keys received more than once; drop_post acts on a POST,
 * commits, and closes without an answer, and leaves other methods alone. */
#include "config.h"

#include <criterion/criterion.h>
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

#include "test_sandbox_util.h"

static struct sbx S;

static void stop_all(void)
{
	sbt_stop(&S, NULL);
}

static void set_faults(const char *spec)
{
	cr_assert_eq(sbx_set_faults(&S, spec), 0, "%s", spec);
}

/* A sandbox with a 3 s WAV uploaded; its signedUrl into url. */
static void start_with_upload(char *url, size_t n)
{
	sbt_start(&S, NULL);
	sbt_upload_wav(&S, "clip.wav", 3, url, n);
}

static json_object *counters(void)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", "/_sandbox/counters", S.admin_key, NULL, NULL, &r), 0);
	cr_assert_eq(r.status, 200, "%s", r.body);
	json_object *o = sbx_json(&r);
	sbx_resp_free(&r);
	cr_assert_not_null(o);
	return o;
}

/* The {"received","processed"} entry of method + route in the array at path, with key when given. */
static json_object *entry(json_object *o, const char *path, const char *method, const char *route, const char *key)
{
	json_object *arr = sbx_get(o, path);
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		if (strcmp(sbx_str(e, "method"), method) == 0 && strcmp(sbx_str(e, "route"), route) == 0 &&
		    (!key || strcmp(sbx_str(e, "key"), key) == 0))
			return e;
	}
	return NULL;
}

static long member(json_object *o, const char *path)
{
	json_object *v = sbx_get(o, path);
	return v ? (long)json_object_get_int64(v) : -1;
}

static void create(const char *url, const char *name, struct sbx_resp *r)
{
	char body[1400];
	snprintf(body, sizeof body,
		 "{\"transcription\":{\"name\":\"%s\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}",
		 name, url, S.org_id);
	sbx_request(&S, "POST", "transcriptions", S.api_key, body, NULL, r);
}

static int listed(const char *name)
{
	char path[160];
	long st = 0;
	int n = 0;
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", S.org_id);
	json_object *o = sbx_call(&S, "GET", path, NULL, &st);
	json_object *res = sbx_get(o, "results");
	for (size_t i = 0; res && i < json_object_array_length(res); i++)
		n += strcmp(sbx_str(json_object_array_get_idx(res, i), "name"), name) == 0;
	json_object_put(o);
	return n;
}

Test(sandbox_counters, drop_post_commits_then_drops_and_is_counted, .fini = stop_all)
{
	char url[1024];
	struct sbx_resp r;
	start_with_upload(url, sizeof url);
	set_faults("drop_post=1");
	create(url, "counted-1", &r);
	cr_assert_eq(r.curl_code, CURLE_GOT_NOTHING, "curl code %d, status %ld", r.curl_code, r.status);
	sbx_resp_free(&r);
	/* GETs are answered under drop_post; the POST was acted on. */
	cr_assert_eq(listed("counted-1"), 1);
	set_faults("none");

	json_object *o = counters();
	json_object *e = entry(o, "requests", "POST", "/api/v1/transcriptions", NULL);
	cr_assert_not_null(e, "%s", json_object_to_json_string(o));
	cr_assert_eq(member(e, "received"), 1);
	cr_assert_eq(member(e, "processed"), 1);
	cr_assert_eq(member(o, "faults.drop_post"), 1, "%s", json_object_to_json_string(o));
	e = entry(o, "requests", "PUT", "/storage/:token/:name", NULL);
	cr_assert(e && member(e, "received") == 1, "%s", json_object_to_json_string(o));
	cr_assert_null(entry(o, "requests", "GET", "/api/v1/transcriptions", NULL), "GETs are not recorded");
	cr_assert_eq(json_object_array_length(sbx_get(o, "repeated")), 0);
	json_object_put(o);

	/* The same action sent again shows as a repeated key, counted by the sandbox. */
	create(url, "counted-1", &r);
	cr_assert_eq(r.status, 201);
	sbx_resp_free(&r);
	o = counters();
	e = entry(o, "repeated", "POST", "/api/v1/transcriptions", "name:counted-1");
	cr_assert_not_null(e, "%s", json_object_to_json_string(o));
	cr_assert_eq(member(e, "received"), 2);
	cr_assert_eq(member(e, "processed"), 2);
	json_object_put(o);
}

Test(sandbox_counters, faults_counted_by_kind_and_not_processed, .fini = stop_all)
{
	char url[1024];
	struct sbx_resp r;
	start_with_upload(url, sizeof url);
	set_faults("500=1");
	create(url, "refused-1", &r);
	cr_assert_eq(r.status, 500);
	sbx_resp_free(&r);
	set_faults("latency=1:1ms,503=1");
	create(url, "refused-2", &r);
	cr_assert_eq(r.status, 503);
	sbx_resp_free(&r);
	set_faults("none");
	json_object *o = counters();
	json_object *e = entry(o, "requests", "POST", "/api/v1/transcriptions", NULL);
	cr_assert(e && member(e, "received") == 2 && member(e, "processed") == 0, "%s",
		  json_object_to_json_string(o));
	cr_assert_eq(member(o, "faults.500"), 1);
	cr_assert_eq(member(o, "faults.503"), 1);
	cr_assert_eq(member(o, "faults.latency"), 1);
	cr_assert_eq(listed("refused-1") + listed("refused-2"), 0);
	json_object_put(o);
	/* An admin route: a user key is refused. */
	struct sbx_resp u;
	sbx_request(&S, "GET", "/_sandbox/counters", S.api_key, NULL, NULL, &u);
	cr_expect_eq(u.status, 403);
	sbx_resp_free(&u);
}

/* The signed-URL routes take the latency fault (a transfer slow enough to cancel) and no
 * other kind: a GET of the stored upload is delayed, counted, and still answered 200. */
Test(sandbox_counters, signed_urls_take_latency_only, .fini = stop_all)
{
	char url[1024];
	struct sbx_resp r;
	start_with_upload(url, sizeof url);
	set_faults("latency=1:1ms,500=1");
	cr_assert_eq(sbx_request(&S, "GET", url, NULL, NULL, NULL, &r), 0);
	cr_assert_eq(r.status, 200, "%s", r.body);
	sbx_resp_free(&r);
	set_faults("none");
	json_object *o = counters();
	cr_assert_eq(member(o, "faults.latency"), 1, "%s", json_object_to_json_string(o));
	cr_assert_eq(member(o, "faults.500"), -1, "%s", json_object_to_json_string(o));
	json_object_put(o);
}

/* Reads are counted apart, per route, with those refused: a test can tell how often a client
 * read a resource or fetched a file (a download retried once after a refused link). */
Test(sandbox_counters, reads_counted_per_route_with_refusals, .fini = stop_all)
{
	char url[1024];
	long st = 0;
	start_with_upload(url, sizeof url);
	json_object *o = counters();
	cr_assert_null(entry(o, "reads", "GET", "/api/v1/exports/:id", NULL), "%s",
		       json_object_to_json_string(o));
	json_object_put(o);
	json_object_put(sbx_call(&S, "GET", "exports/nope", NULL, &st));
	cr_assert_eq(st, 404);
	listed("none");
	listed("none");
	o = counters();
	json_object *e = entry(o, "reads", "GET", "/api/v1/exports/:id", NULL);
	cr_assert(e && member(e, "received") == 1 && member(e, "refused") == 1, "%s",
		  json_object_to_json_string(o));
	e = entry(o, "reads", "GET", "/api/v1/transcriptions", NULL);
	cr_assert(e && member(e, "received") == 2 && member(e, "refused") == 0, "%s",
		  json_object_to_json_string(o));
	cr_assert_null(entry(o, "requests", "GET", "/api/v1/transcriptions", NULL), "reads are apart");
	json_object_put(o);
}
