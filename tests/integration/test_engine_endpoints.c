/* Endpoint calls (api/endpoints.h) end to end against engine_server.c's canned answers:
 * the right method, path, query and body go out, both answer forms come back parsed, and
 * error bodies, malformed bodies and cancellation behave. steno-sandbox runs in
 * test_engine_sandbox.c. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "engine_server.h"

#define KEY "sk_test_ENDPOINTS_42"
#define TR_ID "0123456789abcdef0123456789abcdef"

static struct engine_server srv;
static struct steno_http *http;

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(engine_server_start(&srv), 0);
	struct steno_http_config cfg = { .base_url = srv.base, .api_key = KEY };
	cfg.retry.max_tries = 2;
	cfg.retry.base_ms = 10;
	cfg.retry.max_delay_ms = 100;
	cr_assert_eq(steno_http_new(&cfg, &http, NULL), 0);
}

static void teardown(void)
{
	steno_http_free(http);
	engine_server_stop(&srv);
}

TestSuite(engine_endpoints, .init = setup, .fini = teardown, .timeout = 30);

static void can(unsigned gs, const char *g, unsigned ps, const char *p)
{
	pthread_mutex_lock(&srv.mu);
	srv.canned_get_status = gs;
	snprintf(srv.canned_get, sizeof(srv.canned_get), "%s", g ? g : "");
	srv.canned_post_status = ps;
	snprintf(srv.canned_post, sizeof(srv.canned_post), "%s", p ? p : "");
	pthread_mutex_unlock(&srv.mu);
}

struct got {
	int calls;
	int failed;
	struct steno_error err;
	char text[512];
	size_t n;
};

static void fail_or(struct got *g, const struct steno_error *err)
{
	g->calls++;
	g->failed = err != NULL;
	if (err)
		g->err = *err;
}

static void run(struct got *g)
{
	cr_assert_eq(steno_http_run(http, 10000), 0);
	cr_assert_eq(g->calls, 1);
}

static void on_page(void *ud, struct steno_transcription_page *p, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (p) {
		g->n = p->n;
		snprintf(g->text, sizeof(g->text), "%s|%s|%s", p->n ? p->items[0].id : "",
			 p->n ? p->items[0].name : "", p->next_url ? p->next_url : "");
	}
}

Test(engine_endpoints, transcriptions_list_query_and_parse)
{
	can(200, "{\"results\":[{\"id\":\"" TR_ID "\",\"name\":\"Interview\",\"state\":\"automatic_done\","
		 "\"language\":\"en-US\",\"tags\":[\"a\"],\"_links\":{\"self\":{\"editorUrl\":\"https://e/x\"}}}],"
		 "\"_links\":{\"next\":{\"url\":\"http://next/page1\"}}}", 0, NULL);
	const char *tags[] = { "a", "b c" };
	struct steno_api_list_query q = { .organization_id = "6411621", .folder_id = "7", .page = 3,
					  .tags = tags, .n_tags = 2 };
	struct got g = {0};
	cr_assert_eq(steno_api_transcriptions_list(http, &q, on_page, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(g.text, TR_ID "|Interview|http://next/page1");
	cr_assert_str_eq(srv.last_method, "GET");
	cr_assert_str_eq(srv.last_path, "/api/v1/transcriptions");
	cr_assert_str_eq(srv.last_query, "organization_id=6411621&folder_id=7&page=3&tags=a,b c");
	cr_assert_str_eq(srv.last_auth, "Bearer " KEY);
}

Test(engine_endpoints, list_legacy_form_and_next_url)
{
	can(200, "{\"results\":[{\"id\":\"" TR_ID "\",\"name\":\"Old\",\"state\":\"initial\","
		 "\"_links\":{\"self\":{\"url\":\"https://e/old\"}}}]}", 0, NULL);
	struct got g = {0};
	char url[256];
	snprintf(url, sizeof(url), "%s/transcriptions?page=1", srv.base);
	cr_assert_eq(steno_api_transcriptions_list_url(http, url, on_page, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_str_eq(g.text, TR_ID "|Old|");
	cr_assert_str_eq(srv.last_query, "page=1");
}

static void on_tr(void *ud, struct steno_transcription *t, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (t)
		snprintf(g->text, sizeof(g->text), "%s|%s", t->id, t->state ? t->state : "");
}

Test(engine_endpoints, transcription_create_retrieve)
{
	can(200, "{\"id\":\"" TR_ID "\",\"name\":\"n\",\"state\":\"automatic_done\"}", 200,
	    "{\"id\":\"" TR_ID "\",\"name\":\"n\",\"state\":\"ingesting\"}");
	struct steno_transcription_create_req req = {
		.name = "n", .language = "en-US", .tmp_url = "https://media.example/a.mp3",
		.organization_id = "6411621",
	};
	struct got g = {0};
	cr_assert_eq(steno_api_transcription_create(http, &req, on_tr, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_str_eq(g.text, TR_ID "|ingesting");
	cr_assert_str_eq(srv.last_method, "POST");
	cr_assert_str_eq(srv.last_path, "/api/v1/transcriptions");
	cr_assert_str_eq(srv.last_content_type, "application/json");
	cr_assert(strstr(srv.last_body, "\"transcription\""), "%s", srv.last_body);
	cr_assert(strstr(srv.last_body, "https:\\/\\/media.example") || strstr(srv.last_body, "https://media.example"));

	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_retrieve(http, TR_ID, on_tr, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, TR_ID "|automatic_done");
	cr_assert_str_eq(srv.last_path, "/api/v1/transcriptions/" TR_ID);
}

Test(engine_endpoints, invalid_request_sends_nothing)
{
	struct steno_transcription_create_req req = { .name = "n", .language = "xx-XX",
		.tmp_url = "https://m/a.mp3", .organization_id = "1" };
	struct got g = {0};
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_api_transcription_create(http, &req, on_tr, &g, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_INVALID);
	cr_assert_eq(steno_api_transcription_retrieve(http, "", on_tr, &g, &err), -1);
	cr_assert_eq(steno_http_pending(http), 0);
	cr_assert_eq(srv.requests, 0);
}

Test(engine_endpoints, error_bodies_and_malformed)
{
	can(404, "{\"error\":\"not_found\",\"message\":\"no such transcription\"}", 422,
	    "{\"error\":\"invalid\",\"message\":\"bad language\",\"errors\":{\"language\":[\"unsupported\"]}}");
	struct got g = {0};
	cr_assert_eq(steno_api_transcription_retrieve(http, TR_ID, on_tr, &g, NULL), 0);
	run(&g);
	cr_assert(g.failed);
	cr_assert_eq(g.err.kind, STENO_ERR_HTTP);
	cr_assert_eq(g.err.http_status, 404);
	cr_assert_str_eq(g.err.code, "not_found");
	cr_assert(strstr(g.err.message, "no such transcription"), "%s", g.err.message);

	struct steno_transcription_create_req req = { .name = "n", .language = "en-US",
		.tmp_url = "https://m/a.mp3", .organization_id = "1" };
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_create(http, &req, on_tr, &g, NULL), 0);
	run(&g);
	cr_assert_eq(g.err.http_status, 422);
	cr_assert_str_eq(g.err.field, "language");

	can(200, "{\"id\": [", 0, NULL);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_retrieve(http, TR_ID, on_tr, &g, NULL), 0);
	run(&g);
	cr_assert_eq(g.err.kind, STENO_ERR_PARSE, "%s", g.err.message);
	can(200, "<html>oops</html>", 0, NULL);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_retrieve(http, TR_ID, on_tr, &g, NULL), 0);
	run(&g);
	cr_assert_eq(g.err.kind, STENO_ERR_PARSE, "%s", g.err.message);
}

static void on_done(void *ud, const struct steno_error *err)
{
	fail_or(ud, err);
}

Test(engine_endpoints, delete_204_and_200)
{
	can(204, "", 0, NULL);
	struct got g = {0};
	cr_assert_eq(steno_api_transcription_delete(http, TR_ID, 1, on_done, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_str_eq(srv.last_method, "DELETE");
	cr_assert_str_eq(srv.last_query, "permanent=true");
	can(200, "{}", 0, NULL);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_delete(http, TR_ID, 0, on_done, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed);
	cr_assert_str_eq(srv.last_query, "");
	can(410, "{\"error\":\"gone\",\"message\":\"deleted\"}", 0, NULL);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_delete(http, TR_ID, 0, on_done, &g, NULL), 0);
	run(&g);
	cr_assert_eq(g.err.http_status, 410);
}

static void on_order(void *ud, struct steno_order *o, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (o)
		snprintf(g->text, sizeof(g->text), "%s|%s", o->id, o->state ? o->state : "");
}

#define ORDER_ID "9b2f4c1e-1111-4222-8333-444455556666"

Test(engine_endpoints, order_calls_and_confirm_reread)
{
	can(200, "{\"id\":\"" ORDER_ID "\",\"state\":\"submitted\"}", 200,
	    "{\"id\":\"" ORDER_ID "\",\"state\":\"incomplete\",\"canBeSubmitted\":true}");
	struct steno_order_create_req oc = { .url = "https://m/a.mp3", .language = "en-US",
					     .organization_id = "6411621" };
	struct got g = {0};
	cr_assert_eq(steno_api_order_create(http, &oc, on_order, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, ORDER_ID "|incomplete");
	cr_assert_str_eq(srv.last_path, "/api/v1/orders");
	cr_assert(strstr(srv.last_body, "\"order\""));

	const char *langs[] = { "fr" };
	struct steno_translation_order_req to = { .source_transcription_id = TR_ID,
		.target_languages = langs, .n_target_languages = 1 };
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_order_translation_create(http, &to, on_order, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(srv.last_path, "/api/v1/orders/translation");

	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_order_retrieve(http, ORDER_ID, on_order, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, ORDER_ID "|submitted");

	/* confirm answering the order itself */
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_order_confirm(http, ORDER_ID, on_order, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, ORDER_ID "|incomplete");
	cr_assert_str_eq(srv.last_path, "/api/v1/orders/" ORDER_ID "/confirm");
	cr_assert_str_eq(srv.last_body, "");

	/* an empty or {} answer: the order is read again */
	const char *empties[] = { "", "{}", " { } " };
	for (int i = 0; i < 3; i++) {
		can(200, "{\"id\":\"" ORDER_ID "\",\"state\":\"submitted\"}", 200, empties[i]);
		memset(&g, 0, sizeof(g));
		int before = engine_server_hits(&srv, "GET", "/api/v1/orders/" ORDER_ID);
		cr_assert_eq(steno_api_order_confirm(http, ORDER_ID, on_order, &g, NULL), 0);
		run(&g);
		cr_assert_not(g.failed, "%s", g.err.message);
		cr_assert_str_eq(g.text, ORDER_ID "|submitted");
		cr_assert_eq(engine_server_hits(&srv, "GET", "/api/v1/orders/" ORDER_ID), before + 1);
	}
}

static void on_export(void *ud, struct steno_export *e, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (e)
		snprintf(g->text, sizeof(g->text), "%s|%s|%s", e->id, e->state ? e->state : "",
			 e->download_link ? e->download_link : "");
}

static void on_file(void *ud, const char *path, const struct steno_http_response *resp,
		    const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	snprintf(g->text, sizeof(g->text), "%s", path ? path : "");
}

Test(engine_endpoints, exports_create_retrieve_download)
{
	char ready[512];
	snprintf(ready, sizeof(ready), "{\"id\":\"e1\",\"state\":\"ready\",\"format\":\"txt\","
		 "\"download_link\":\"http://127.0.0.1:%d/dl/e1.txt?X-Amz-Signature=zz\"}", srv.port);
	can(200, ready, 200, "{\"id\":\"e1\",\"state\":\"pending\",\"format\":\"txt\"}");
	const char *ids[] = { TR_ID };
	struct steno_export_create_req req = { .format = "txt", .transcription_ids = ids,
					       .n_transcription_ids = 1, .show_speakers = true };
	struct got g = {0};
	cr_assert_eq(steno_api_export_create(http, &req, on_export, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, "e1|pending|");
	cr_assert(strstr(srv.last_body, "\"export\""));

	struct steno_export *kept = NULL;
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_export_retrieve(http, "e1", on_export, &g, NULL), 0);
	run(&g);
	cr_assert(strstr(g.text, "e1|ready|http://"));

	/* parse again to get a struct to download from */
	kept = calloc(1, sizeof(*kept));
	cr_assert_eq(steno_export_parse(ready, strlen(ready), kept, NULL), 0);
	char dir[] = "/tmp/steno-ep-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	memset(&g, 0, sizeof(g));
	int auth_before = engine_server_auth_seen(&srv);
	cr_assert_eq(steno_api_export_download(http, kept, dir, NULL, 0, NULL, on_file, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	char want[128];
	snprintf(want, sizeof(want), "%s/e1.txt", dir);
	cr_assert_str_eq(g.text, want);
	cr_assert_eq(engine_server_auth_seen(&srv), auth_before);
	unlink(want);
	rmdir(dir);
	steno_export_free(kept);
	free(kept);
	struct steno_export none = {0};
	cr_assert_eq(steno_api_export_download(http, &none, "/tmp", NULL, 0, NULL, on_file, &g, NULL), -1);
}

static void on_task(void *ud, struct steno_translation_task *t, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (t)
		snprintf(g->text, sizeof(g->text), "%s|%s", t->id, t->state ? t->state : "");
}

Test(engine_endpoints, translation_tasks)
{
	can(200, "{\"id\":\"t1\",\"state\":\"done\",\"progressPercent\":100.0,\"translatedTranscriptionId\":\"x\"}",
	    200, "{\"id\":\"t1\",\"state\":\"working\",\"progressPercent\":null}");
	struct steno_translation_task_req req = { .source_transcription_id = TR_ID, .target_language = "fr" };
	struct got g = {0};
	cr_assert_eq(steno_api_translation_task_create(http, &req, on_task, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, "t1|working");
	cr_assert_str_eq(srv.last_path, "/api/v1/task/transcription_translation");
	cr_assert(strstr(srv.last_body, "\"source_transcription_id\""));
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_translation_task_retrieve(http, "t1", on_task, &g, NULL), 0);
	run(&g);
	cr_assert_str_eq(g.text, "t1|done");
	cr_assert_str_eq(srv.last_path, "/api/v1/task/transcription_translation/t1");
}

static void on_gloss(void *ud, struct steno_glossary_list *l, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (l)
		g->n = l->n;
}

static void on_style(void *ud, struct steno_style_guide_list *l, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (l)
		g->n = l->n;
}

Test(engine_endpoints, glossaries_and_style_guides)
{
	can(200, "{\"glossaries\":[{\"id\":1,\"name\":\"G\"},{\"id\":2,\"name\":\"H\"}],"
		 "\"style_guides\":[{\"id\":3,\"name\":\"S\",\"operation\":\"subtitles\"}]}", 0, NULL);
	struct got g = {0};
	cr_assert_eq(steno_api_glossaries_list(http, "6411621", on_gloss, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_eq(g.n, 2);
	cr_assert_str_eq(srv.last_path, "/api/v1/glossaries");
	cr_assert_str_eq(srv.last_query, "organization_id=6411621");
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_style_guides_list(http, "6411621", on_style, &g, NULL), 0);
	run(&g);
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(srv.last_path, "/api/v1/style_guides");
	cr_assert_eq(steno_api_glossaries_list(http, NULL, on_gloss, &g, NULL), -1);
}

static void on_upload(void *ud, struct steno_upload *u, const struct steno_error *err)
{
	struct got *g = ud;
	fail_or(g, err);
	if (u)
		snprintf(g->text, sizeof(g->text), "%s", u->signed_url);
}

static void on_progress(void *ud, uint64_t now, uint64_t total)
{
	((struct got *)ud)->n = (size_t)now;
}

Test(engine_endpoints, upload_new_then_put)
{
	char body[256];
	snprintf(body, sizeof(body), "{\"signedUrl\":\"http://127.0.0.1:%d/up?X-Amz-Signature=s\"}", srv.port);
	can(200, body, 0, NULL);
	struct got g = {0};
	cr_assert_eq(steno_api_uploads_new(http, "my file.mp3", on_upload, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_str_eq(srv.last_path, "/api/v1/uploads/new");
	cr_assert_str_eq(srv.last_query, "filename=my file.mp3");
	int auth = engine_server_auth_seen(&srv);
	char file[] = "/tmp/steno-up-XXXXXX";
	int fd = mkstemp(file);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "0123456789", 10), 10);
	close(fd);
	char url[512];
	snprintf(url, sizeof(url), "%s", g.text);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_upload_put(http, url, file, on_progress, on_done, &g, NULL), 0);
	run(&g);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_eq(srv.last_put_bytes, 10);
	cr_assert_eq(g.n, 10);
	cr_assert_eq(engine_server_auth_seen(&srv), auth);
	unlink(file);
}

Test(engine_endpoints, cancel_by_owner_frees_everything)
{
	can(200, "{\"glossaries\":[]}", 0, NULL);
	struct got g = {0};
	for (int i = 0; i < 3; i++)
		cr_assert_eq(steno_api_glossaries_list(http, "1", on_gloss, &g, NULL), 0);
	cr_assert_eq(steno_api_upload_put(http, "http://127.0.0.1:1/up", "/dev/null", NULL, on_done, &g, NULL), -1);
	char file[] = "/tmp/steno-up-XXXXXX";
	int fd = mkstemp(file);
	close(fd);
	cr_assert_eq(steno_api_upload_put(http, "http://127.0.0.1:1/up", file, NULL, on_done, &g, NULL), 0);
	cr_assert_eq(steno_http_cancel_owner(http, &g), 4);
	cr_assert_eq(steno_http_run(http, 1000), 0);
	cr_assert_eq(g.calls, 0);
	/* a pending call dropped by steno_http_free is freed too (checked by ASan/valgrind) */
	cr_assert_eq(steno_api_glossaries_list(http, "1", on_gloss, &g, NULL), 0);
	unlink(file);
}

static void count_drop(void *ud)
{
	((struct got *)ud)->n++;
}

/* The caller's context rides as ud under its own owner tag: cancelling the owner, or freeing
 * the engine, runs the drop hook exactly once instead of the callback; a completed call runs
 * the callback and never the hook. */
Test(engine_endpoints, delete_call_drop_hook_frees_the_context)
{
	can(204, "", 0, NULL);
	struct got g = {0};
	int owner;
	struct steno_api_call call = { .ud = &g, .owner = &owner, .drop = count_drop };
	cr_assert_eq(steno_api_transcription_delete_call(http, TR_ID, 0, on_done, &call, NULL), 0);
	cr_assert_eq(steno_http_cancel_owner(http, &g), 0, "the owner tag is not ud");
	cr_assert_eq(steno_http_cancel_owner(http, &owner), 1);
	cr_assert_eq(g.n, 1);
	cr_assert_eq(g.calls, 0);
	cr_assert_eq(steno_api_transcription_delete_call(http, TR_ID, 0, on_done, &call, NULL), 0);
	run(&g);
	cr_assert_eq(g.n, 1, "a completed call does not drop");
	cr_assert_not(g.failed, "%s", g.err.message);
	struct steno_error err;
	cr_assert_eq(steno_api_transcription_delete_call(http, TR_ID, 0, on_done, NULL, &err), -1);
	/* dropped with the engine */
	cr_assert_eq(steno_api_transcription_delete_call(http, TR_ID, 0, on_done, &call, NULL), 0);
	steno_http_free(http);
	http = NULL;
	cr_assert_eq(g.n, 2);
	cr_assert_eq(g.calls, 1);
}
