/* A POST reaches the wire once, whatever the connection pool holds: counted by a stand-in
 * server that keeps a connection alive across a GET, then reads the POST and closes the
 * connection without a reply (libcurl resends such a request by itself on a reused
 * connection unless the engine prevents it). */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "api/http.h"
#include "engine_result.h"
#include "keepalive_server.h"

static struct keepalive_server srv;

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(keepalive_server_start(&srv), 0);
}

static void teardown(void)
{
	keepalive_server_stop(&srv);
}

TestSuite(engine_post_once, .init = setup, .fini = teardown, .timeout = 30);

static struct steno_http *engine(void)
{
	struct steno_http_config cfg = {.base_url = srv.base, .api_key = "sk_test"};
	cfg.retry.max_tries = 5;
	cfg.retry.base_ms = 10;
	cfg.retry.max_delay_ms = 100;
	struct steno_http *h = NULL;
	struct steno_error err;
	cr_assert_eq(steno_http_new(&cfg, &h, &err), 0, "%s", err.message);
	return h;
}

static void call(struct steno_http *h, const char *method, const char *path, struct engine_result *r)
{
	char url[256];
	snprintf(url, sizeof(url), "%s%s", srv.base, path);
	memset(r, 0, sizeof(*r));
	const char *body = strcmp(method, "POST") == 0 ? "{\"transcription\":{\"name\":\"a\"}}" : NULL;
	struct steno_http_request req = {
		.method = method, .url = url, .body = body, .body_len = body ? strlen(body) : 0,
		.done = engine_result_done, .ud = r,
	};
	struct steno_error err;
	cr_assert_eq(steno_http_submit(h, &req, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert_eq(r->calls, 1);
}

Test(engine_post_once, lost_reply_on_a_pooled_connection_is_not_resent)
{
	struct steno_http *h = engine();
	struct engine_result r;
	call(h, "GET", "/uploads/new", &r); /* leaves a connection in the pool */
	cr_assert_not(r.failed, "%s", r.err.message);
	srv.drop_posts = 100;
	call(h, "POST", "/transcriptions", &r);
	cr_assert(r.failed);
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 1,
		     "the server read the POST %d times",
		     keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"));
	cr_assert_str_eq(r.err.code, "outcome_unknown");
	/* One sentence, said once. */
	const char *m = r.err.message;
	cr_assert(strstr(m, "may have") != NULL, "%s", m);
	cr_assert_null(strstr(strstr(m, "may have") + 1, "may have"), "%s", m);
	steno_http_free(h);
}

Test(engine_post_once, gets_still_share_a_connection)
{
	struct steno_http *h = engine();
	struct engine_result r;
	for (int i = 0; i < 3; i++) {
		call(h, "GET", "/ok", &r);
		cr_assert_not(r.failed, "%s", r.err.message);
	}
	cr_assert_eq(srv.connections, 1, "%d connections for 3 GETs", srv.connections);
	steno_http_free(h);
}

Test(engine_post_once, a_post_after_a_post_does_not_reuse_its_connection)
{
	struct steno_http *h = engine();
	struct engine_result r;
	call(h, "POST", "/exports", &r);
	cr_assert_not(r.failed, "%s", r.err.message);
	srv.drop_posts = 1;
	call(h, "POST", "/exports", &r);
	cr_assert(r.failed);
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/exports"), 2);
	steno_http_free(h);
}
