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

struct result {
	int calls, failed;
	long status;
	struct steno_error err;
};

static void on_done(void *ud, const struct steno_http_response *resp, const struct steno_error *err)
{
	struct result *r = ud;
	r->calls++;
	r->status = resp->status;
	r->failed = err != NULL;
	if (err)
		r->err = *err;
}

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

static void get(struct steno_http *h, const char *url, struct result *r)
{
	memset(r, 0, sizeof *r);
	struct steno_http_request req = { .method = "GET", .url = url, .done = on_done, .ud = r };
	struct steno_error err;
	cr_assert_eq(steno_http_submit(h, &req, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert_eq(r->calls, 1);
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
	struct result r;
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
