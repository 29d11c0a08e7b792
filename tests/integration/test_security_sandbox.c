/* Security promises of steno-sandbox (issue 7), checked over HTTP and through steno:
 * it refuses to fetch media from non-loopback addresses by default (by policy, before any
 * socket exists: TEST-NET 192.0.2.1 fails at once, no packet sent); its signed URLs cannot
 * be forged (signature, expiry, path) or used after they expire; one organization's key
 * cannot read, change or list another's resources. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_cli_util.h"

static struct sbx sb;

static void setup(void)
{
	static const char *const args[] = {"--seed-demo", "3", NULL};
	cr_assert_eq(sbx_start(&sb, args), 0);
}

static void teardown(void)
{
	sbx_stop(&sb);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long req(const char *method, const char *target, const char *key, const char *body)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, method, target, key, body, NULL, &r), 0, "%s %s", method, target);
	long st = r.status;
	sbx_resp_free(&r);
	return st;
}

/* Creates a transcription from url; returns its id (static buffer). */
static const char *create(const char *key, const char *org, const char *url, long *status)
{
	static char id[64];
	char body[1024];
	struct sbx_resp r;

	snprintf(body, sizeof body,
		 "{\"transcription\":{\"name\":\"sec\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}", url, org);
	cr_assert_eq(sbx_request(&sb, "POST", "transcriptions", key, body, NULL, &r), 0);
	*status = r.status;
	json_object *o = sbx_json(&r);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id") ? sbx_str(o, "id") : "");
	json_object_put(o);
	sbx_resp_free(&r);
	return id;
}

/* Polls a transcription until it leaves ingesting (at most `seconds` of real time). */
static json_object *wait_settled(const char *id, double seconds)
{
	char path[128];
	double end = now_s() + seconds;

	snprintf(path, sizeof path, "transcriptions/%s", id);
	for (;;) {
		long st = 0;
		json_object *o = sbx_call(&sb, "GET", path, NULL, &st);
		const char *state = sbx_str(o, "state");
		if (st == 200 && state && strcmp(state, "ingesting") != 0)
			return o;
		json_object_put(o);
		if (now_s() > end)
			return NULL;
		struct timespec ts = {0, 50 * 1000000};
		nanosleep(&ts, NULL);
	}
}

Test(security_sandbox, non_loopback_fetch_refused_by_policy, .init = setup, .fini = teardown)
{
	static const char *const urls[] = {
		"http://192.0.2.1/media.wav",            /* TEST-NET-1: never routed */
		"http://[::ffff:192.0.2.1]/media.wav",  /* the same, IPv4-mapped */
		"http://192.0.2.1:8080/redirect",
	};
	long st = 0;

	for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
		double t0 = now_s();
		char id[64];
		snprintf(id, sizeof id, "%s", create(sb.api_key, sb.org_id, urls[i], &st));
		cr_assert_eq(st, 201, "%s", urls[i]);
		cr_assert_eq(sbx_advance(&sb, 10), 0);
		json_object *o = wait_settled(id, 10);
		double took = now_s() - t0;
		cr_assert_not_null(o, "%s: still ingesting", urls[i]);
		cr_expect_str_eq(sbx_str(o, "state"), "failed", "%s", urls[i]);
		cr_expect_str_eq(sbx_str(o, "failureReason"), "download_failed", "%s", urls[i]);
		const char *msg = sbx_str(o, "failureMessage");
		cr_expect(msg && strstr(msg, "only loopback"), "%s: %s", urls[i], msg ? msg : "(none)");
		/* The fetch timeout is 30 s: failing this fast means no connection was tried. */
		cr_expect_lt(took, 5.0, "%s took %.1f s", urls[i], took);
		json_object_put(o);
	}
	/* The same path on loopback is fetched: the refusal above is the address policy. */
	struct sbx_receiver *rx = sbx_receiver_start(2.0, NULL, NULL, 0);
	cr_assert_not_null(rx);
	char url[256], id[64];
	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(rx));
	snprintf(id, sizeof id, "%s", create(sb.api_key, sb.org_id, url, &st));
	cr_assert_eq(st, 201);
	cr_assert_eq(sbx_advance(&sb, 10), 0);
	json_object *o = wait_settled(id, 10);
	cr_expect(o && strcmp(sbx_str(o, "state"), "failed") != 0, "loopback media is fetched: %s",
		  o ? json_object_to_json_string(o) : "still ingesting");
	json_object_put(o);
	sbx_receiver_stop(rx);
}

/* A copy of url with the hex digit at the end of "signature=..." changed. */
static void flip_signature(const char *url, char *out, size_t n)
{
	snprintf(out, n, "%s", url);
	size_t len = strlen(out);
	cr_assert_gt(len, 0);
	out[len - 1] = out[len - 1] == '0' ? '1' : '0';
}

/* The same URL with expires moved forward by a day, the signature kept. */
static void extend_expiry(const char *url, char *out, size_t n)
{
	const char *e = strstr(url, "expires=");
	cr_assert_not_null(e, "%s", url);
	long long t = atoll(e + 8);
	const char *rest = strchr(e, '&');
	snprintf(out, n, "%.*sexpires=%lld%s", (int)(e - url), url, t + 86400, rest ? rest : "");
}

static void expect_status(const char *url, long want, const char *what)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "GET", url, NULL, NULL, NULL, &r), 0);
	cr_expect_eq(r.status, want, "%s: %s -> %ld %s", what, url, r.status, r.body ? r.body : "");
	sbx_resp_free(&r);
}

Test(security_sandbox, signed_urls_cannot_be_forged_or_reused, .init = setup, .fini = teardown)
{
	char url[1024], bad[1200];
	size_t len = 0;
	void *wav = sbx_make_wav(2.0, &len);

	cr_assert_eq(sbx_upload(&sb, "a.wav", wav, len, url, sizeof url), 0);
	free(wav);
	expect_status(url, 200, "genuine");
	flip_signature(url, bad, sizeof bad);
	expect_status(bad, 401, "flipped signature");
	extend_expiry(url, bad, sizeof bad);
	expect_status(bad, 401, "extended expiry");
	char *q = strchr(url, '?');
	cr_assert_not_null(q);
	snprintf(bad, sizeof bad, "%.*s", (int)(q - url), url);
	expect_status(bad, 401, "no signature");
	/* The signature of a.wav on another object's path. */
	char *slash = strrchr(bad, '/');
	cr_assert_not_null(slash);
	snprintf(bad + (slash - bad), sizeof bad - (size_t)(slash - bad), "/b.wav%s", q);
	expect_status(bad, 401, "another path");
	/* The API key does not replace a signature. */
	struct sbx_resp r;
	snprintf(bad, sizeof bad, "%.*s", (int)(q - url), url);
	cr_assert_eq(sbx_request(&sb, "GET", bad, sb.api_key, NULL, NULL, &r), 0);
	cr_expect_eq(r.status, 401, "key instead of signature: %ld", r.status);
	sbx_resp_free(&r);
	/* One hour of sandbox time later the genuine URL is refused. */
	cr_assert_eq(sbx_advance(&sb, 3601), 0);
	expect_status(url, 403, "expired");
	cr_assert_eq(sbx_request(&sb, "GET", url, NULL, NULL, NULL, &r), 0);
	cr_expect(r.body && strstr(r.body, "url_expired"), "%s", r.body ? r.body : "");
	sbx_resp_free(&r);
}

/* A second organization with its own key, made through the admin routes. */
static void second_org(char *org, size_t on, char *key, size_t kn)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "POST", "/_sandbox/organizations", sb.admin_key,
				 "{\"name\":\"Rival\",\"credit_cents\":100000}", NULL, &r), 0);
	cr_assert_eq(r.status, 201, "%s", r.body);
	json_object *o = sbx_json(&r);
	json_object *id = sbx_get(o, "id");
	cr_assert(id && sbx_str(o, "api_key"));
	snprintf(org, on, "%s", json_object_get_string(id));
	snprintf(key, kn, "%s", sbx_str(o, "api_key"));
	json_object_put(o);
	sbx_resp_free(&r);
}

Test(security_sandbox, one_org_cannot_touch_another, .init = setup, .fini = teardown)
{
	char org2[64], key2[128], path[256], url[1024], mine[64], theirs[64], body[1600];
	long st = 0;
	size_t len = 0;
	void *wav = sbx_make_wav(2.0, &len);

	second_org(org2, sizeof org2, key2, sizeof key2);
	cr_assert_eq(sbx_upload(&sb, "a.wav", wav, len, url, sizeof url), 0);
	free(wav);
	snprintf(mine, sizeof mine, "%s", create(sb.api_key, sb.org_id, url, &st));
	cr_assert_eq(st, 201);
	snprintf(theirs, sizeof theirs, "%s", create(key2, org2, url, &st));
	cr_assert_eq(st, 201, "the rival creates in its own org");

	snprintf(path, sizeof path, "transcriptions/%s", mine);
	cr_expect_eq(req("GET", path, key2, NULL), 401, "read another org's transcription");
	cr_expect_eq(req("DELETE", path, key2, NULL), 401, "delete another org's transcription");
	cr_expect_eq(req("GET", path, sb.api_key, NULL), 200, "still there for its owner");
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", sb.org_id);
	cr_expect_eq(req("GET", path, key2, NULL), 401, "list another org");
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", org2);
	cr_expect_eq(req("GET", path, key2, NULL), 200, "list its own org");
	snprintf(path, sizeof path, "transcriptions/%s", theirs);
	cr_expect_eq(req("GET", path, sb.api_key, NULL), 401, "the other way round");
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"x\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}", url, sb.org_id);
	cr_expect_eq(req("POST", "transcriptions", key2, body), 401, "create in another org");
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}", mine);
	st = req("POST", "exports", key2, body);
	cr_expect(st == 401 || st == 404, "export another org's transcription: %ld", st);
	snprintf(path, sizeof path, "glossaries?organization_id=%s", sb.org_id);
	cr_expect_eq(req("GET", path, key2, NULL), 401, "another org's glossaries");

	/* Through steno: the rival's key with the demo org gets nothing. */
	struct cli_home h;
	struct cli_result r;
	char ekey[200], ebase[300], eorg[64];
	cr_assert_eq(cli_home_init(&h), 0);
	snprintf(ekey, sizeof ekey, "STENO_API_KEY=%s", key2);
	snprintf(ebase, sizeof ebase, "STENO_BASE_URL=%s", sb.base_url);
	snprintf(eorg, sizeof eorg, "STENO_ORG_ID=%s", sb.org_id);
	const char *const env[] = {ekey, ebase, eorg, NULL};
	cr_assert_eq(cli_exec(&r, &h, NULL, env, (const char *const[]){"show", "--json", mine, NULL}), 0);
	cr_expect_eq(r.code, 1, "%s", r.out);
	cr_expect(!strstr(r.out, mine), "%s", r.out);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &h, NULL, env, (const char *const[]){"ls", "--json", NULL}), 0);
	cr_expect_eq(r.code, 1, "%s", r.out);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &h, NULL, env, (const char *const[]){"rm", mine, NULL}), 0);
	cr_expect_eq(r.code, 1);
	cli_result_free(&r);
	cli_home_free(&h);
	snprintf(path, sizeof path, "transcriptions/%s", mine);
	cr_expect_eq(req("GET", path, sb.api_key, NULL), 200, "rm with the rival key changed nothing");
}
