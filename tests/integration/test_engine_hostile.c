/* Issue 24, the engine's side: what is not ours (a proxy of the environment), what no deadline
 * bounded (a silent server, a dripping download) and what a tiny item costs. Against
 * engine_server.c on loopback; a second engine_server stands in for the proxy and counts
 * what it received. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/http.h"
#include "api/jget.h"
#include "api/transcription.h"
#include "api/transfer.h"
#include "engine_result.h"
#include "engine_server.h"

#define KEY "sk_test_HOSTILE_0123456789"

static struct engine_server srv, proxy;

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(engine_server_start(&srv), 0);
	cr_assert_eq(engine_server_start(&proxy), 0);
}

static void teardown(void)
{
	unsetenv("http_proxy");
	unsetenv("ALL_PROXY");
	engine_server_stop(&srv);
	engine_server_stop(&proxy);
}

TestSuite(engine_hostile, .init = setup, .fini = teardown, .timeout = 30);

static struct steno_http *engine(const char *base)
{
	struct steno_http_config cfg = { .base_url = base, .api_key = KEY };
	cfg.retry.max_tries = 1;
	struct steno_http *h = NULL;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_http_new(&cfg, &h, &err), 0, "%s", err.message);
	return h;
}

static void get(struct steno_http *h, const char *url, struct engine_result *r)
{
	memset(r, 0, sizeof *r);
	struct steno_http_request req = { .method = "GET", .url = url, .done = engine_result_done, .ud = r };
	struct steno_error err;
	cr_assert_eq(steno_http_submit(h, &req, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert_eq(r->calls, 1);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct dl {
	int calls;
	struct steno_error err;
};

static void on_dl(void *ud, const char *path, const struct steno_http_response *resp,
		  const struct steno_error *err)
{
	struct dl *d = ud;
	(void)path;
	(void)resp;
	d->calls++;
	if (err)
		d->err = *err;
}

static void proxy_env(const char *var)
{
	char p[96];
	snprintf(p, sizeof p, "http://127.0.0.1:%d", proxy.port);
	cr_assert_eq(setenv(var, p, 1), 0);
}

/* Item 4: with http_proxy or ALL_PROXY set, a loopback base URL (the sandbox's) goes straight
 * to the server: the proxy sees neither the request nor the key. */
static void loopback_bypasses(const char *var)
{
	proxy_env(var);
	struct steno_http *h = engine(srv.base);
	struct engine_result r;
	char url[160];
	snprintf(url, sizeof url, "%s/ok", srv.base);
	get(h, url, &r);
	cr_expect_not(r.failed, "%s", r.err.message);
	cr_expect_eq(srv.requests, 1, "the server received %d requests", srv.requests);
	cr_expect_eq(proxy.requests, 0, "the proxy received %d requests", proxy.requests);
	cr_expect_eq(engine_server_auth_seen(&proxy), 0, "the key went to the proxy");
	steno_http_free(h);
}

Test(engine_hostile, a_loopback_url_never_goes_through_http_proxy)
{
	loopback_bypasses("http_proxy");
}

Test(engine_hostile, a_loopback_url_never_goes_through_all_proxy)
{
	loopback_bypasses("ALL_PROXY");
}

/* ... and a plain http:// base URL elsewhere with a proxy set is said (once, by the caller);
 * https:// (the proxy sees only a tunnel) and loopback are not. */
Test(engine_hostile, a_plain_http_base_through_a_proxy_is_warned_about)
{
	char msg[256] = "";
	cr_expect_eq(steno_http_proxy_warning("http://api.example.com/v1", msg, sizeof msg), 0);
	proxy_env("http_proxy");
	cr_expect_eq(steno_http_proxy_warning("http://api.example.com/v1", msg, sizeof msg), 1);
	cr_expect(strstr(msg, "http_proxy") && strstr(msg, "clear"), "%s", msg);
	cr_expect_eq(steno_http_proxy_warning("https://api.example.com/v1", msg, sizeof msg), 0);
	cr_expect_eq(steno_http_proxy_warning(srv.base, msg, sizeof msg), 0);
	cr_expect_eq(steno_http_proxy_warning("http://localhost:9/v1", msg, sizeof msg), 0);
}

/* `{"results":[` then n copies of item separated by commas, grouped `per` to an inner array
 * when per > 0, then `]}`. Caller frees. */
static char *page_of(const char *item, size_t n, size_t per, size_t *len)
{
	size_t il = strlen(item), cap = 64 + n * (il + 3);
	char *b = malloc(cap), *p = b;
	cr_assert(b);
	p += sprintf(p, "{\"results\":[%s", per ? "[" : "");
	for (size_t i = 0; i < n; i++) {
		if (i && per && i % per == 0)
			p += sprintf(p, "],[");
		else if (i)
			*p++ = ',';
		memcpy(p, item, il);
		p += il;
	}
	p += sprintf(p, "%s]}", per ? "]" : "");
	*len = (size_t)(p - b);
	return b;
}

static void expect_bounded(const char *item, size_t n, size_t per, const char *what)
{
	size_t len;
	char *body = page_of(item, n, per, &len);
	struct steno_transcription_page page;
	struct steno_error err;
	steno_error_clear(&err);
	cr_expect_eq(steno_transcription_page_parse(body, len, &page, &err), -1, "%zu %s taken",
		     n, item);
	cr_expect_str_eq(err.code, JGET_CODE_BOUNDS, "%s", err.message);
	cr_expect(strstr(err.message, what), "%s", err.message);
	free(body);
}

/* Item 2: a page of tiny items (a 60 MB body of 20 million `{}` took 20 GB) is refused from a
 * scan of its bytes, before json-c builds anything; a page within the bounds is not. */
Test(engine_hostile, a_page_of_countless_tiny_items_is_refused)
{
	expect_bounded("{}", 10001, 0, "10000 items in one list");
	expect_bounded("[]", 100001, 5000, "100000 objects and arrays");
	expect_bounded("1", 1000001, 9000, "1000000 values");

	size_t len;
	char *body = page_of("{\"id\":\"a\",\"name\":\"[,,,,{{{{,,,,\"}", 10000, 0, &len);
	struct steno_transcription_page page;
	struct steno_error err;
	steno_error_clear(&err);
	cr_expect_eq(steno_transcription_page_parse(body, len, &page, &err), 0, "%s", err.message);
	cr_expect_eq(page.n, 10000);
	steno_transcription_page_free(&page);
	free(body);
}

/* Item 7: a download dripping about 4 KB/s (250 bytes every 50 ms; well above the low-speed
 * limit of 1 KiB/s, so curl never stops it, even when the machine is slow) of 400 KB
 * announced: with download_min_rate 40,000 B/s and a 2 s stall time it fails soon after the
 * stall time, saying why, instead of running for about 100 s (the old bound: stall time +
 * size at the low-speed limit, 393 s here; 24 days for 4 GiB at 2 KiB/s). */
Test(engine_hostile, a_download_dripping_above_the_low_speed_limit_has_a_deadline)
{
	struct steno_http_config cfg = {
		.base_url = srv.base, .api_key = KEY, .low_speed_time_s = 2,
		.download_min_rate = 40000,
	};
	struct steno_http *h = NULL;
	cr_assert_eq(steno_http_new(&cfg, &h, NULL), 0);
	char dir[] = "/tmp/steno-drip-XXXXXX", url[160];
	cr_assert(mkdtemp(dir));
	snprintf(url, sizeof url, "%s/drip/50/400000/250", srv.base);
	struct dl d = {0};
	struct steno_download_request req = { .url = url, .dir = dir, .name = "drip.bin",
					      .done = on_dl, .ud = &d };
	double t0 = now_s();
	cr_assert_eq(steno_http_download(h, &req, NULL, NULL), 0);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	double took = now_s() - t0;
	cr_assert_eq(d.calls, 1);
	cr_expect(strstr(d.err.message, "download_min_rate"), "%s", d.err.message);
	cr_log_info("%s", d.err.message);
	cr_expect(strstr(d.err.message, "partial file was removed"), "%s", d.err.message);
	cr_expect_lt(took, 6.0, "stopped after %.1f s", took);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rmdir %s", dir);   /* empty: no partial file left */
	cr_expect_eq(system(cmd), 0);
	steno_http_free(h);
}

/* Smaller: a GET to a silent server took 5 tries of the whole timeout (154 s with the
 * defaults). One deadline bounds the request, its retries included: with a 1 s timeout and
 * a 2.5 s request_deadline, a server that answers after 10 s fails after about 2.5 s, saying
 * so. */
Test(engine_hostile, a_silent_server_meets_one_deadline_per_request)
{
	struct steno_http_config cfg = {
		.base_url = srv.base, .api_key = KEY, .timeout_ms = 1000, .request_deadline_ms = 2500,
	};
	cfg.retry.max_tries = 5;
	cfg.retry.base_ms = 50;
	cfg.retry.max_delay_ms = 200;
	struct steno_http *h = NULL;
	cr_assert_eq(steno_http_new(&cfg, &h, NULL), 0);
	struct engine_result r;
	char url[160];
	snprintf(url, sizeof url, "%s/slow/10000", srv.base);
	double t0 = now_s();
	get(h, url, &r);
	double took = now_s() - t0;
	cr_expect(r.failed);
	cr_expect_lt(took, 3.5, "failed after %.1f s", took);
	cr_expect_geq(took, 2.3, "failed after %.1f s", took);
	cr_expect(strstr(r.err.message, "request_deadline"), "%s", r.err.message);
	cr_log_info("%s", r.err.message);
	steno_http_free(h);
}

/* Smaller: an API answer over the 64 MiB cap said curl's "Failure writing output to
 * destination", not why. */
Test(engine_hostile, an_answer_over_the_cap_says_so)
{
	struct steno_http *h = engine(srv.base);
	struct engine_result r;
	char url[160];
	snprintf(url, sizeof url, "%s/big/70000000", srv.base);
	get(h, url, &r);
	cr_expect(r.failed);
	cr_expect(strstr(r.err.message, "64 MiB"), "%s", r.err.message);
	cr_expect_null(strstr(r.err.message, "Failure writing"), "%s", r.err.message);
	steno_http_free(h);
}
