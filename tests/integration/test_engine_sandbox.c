/* Every endpoint call end to end against a real steno-sandbox (tests/integration/
 * sandbox_fixture.h), plus the faults the sandbox can inject: 500/503/429 on GETs are retried
 * to success, a POST hit by a 500 is reported and not repeated, latency beyond the timeout,
 * truncated and malformed bodies, an expired signed URL, and a trace that never holds the key. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "sandbox_fixture.h"

static struct sbx sb;
static struct steno_http *http;
static char tmpdir[64];
static char trace_path[128];

static void teardown(void);

static void setup_with(const char *const *extra, long timeout_ms, int tries)
{
	/* Criterion runs the suite's .init before a test's own: replace what it started. */
	if (http || sb.pid > 0)
		teardown();
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(sbx_start(&sb, extra), 0, "sandbox did not start");
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/steno-esb-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
	snprintf(trace_path, sizeof(trace_path), "%s/trace.log", tmpdir);
	struct steno_http_config cfg = {
		.base_url = sb.base_url, .api_key = sb.api_key, .timeout_ms = timeout_ms,
		.trace_path = trace_path,
	};
	cfg.retry.max_tries = tries;
	cfg.retry.base_ms = 50;
	cfg.retry.max_delay_ms = 2000;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_http_new(&cfg, &http, &err), 0, "%s", err.message);
}

static void setup(void)
{
	setup_with(NULL, 0, 4);
}

static void teardown(void)
{
	steno_http_free(http);
	http = NULL;
	if (sb.pid > 0)
		sbx_stop(&sb);
	memset(&sb, 0, sizeof(sb));
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (tmpdir[0] && system(cmd) != 0)
		cr_log_warn("could not remove %s", tmpdir);
	tmpdir[0] = '\0';
}

TestSuite(engine_sandbox, .init = setup, .fini = teardown, .timeout = 60);

/* What a callback saw; strings copied out of the result. */
struct got {
	int calls;
	int failed;
	struct steno_error err;
	char id[128];
	char state[64];
	char link[1024];
	size_t n;
};

static void got_err(struct got *g, const struct steno_error *err)
{
	g->calls++;
	g->failed = err != NULL;
	if (err)
		g->err = *err;
}

static void put_str(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

static void on_upload(void *ud, struct steno_upload *u, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (u)
		put_str(g->link, sizeof(g->link), u->signed_url);
}

static void on_done(void *ud, const struct steno_error *err)
{
	got_err(ud, err);
}

static void on_tr(void *ud, struct steno_transcription *t, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (t) {
		put_str(g->id, sizeof(g->id), t->id);
		put_str(g->state, sizeof(g->state), t->state);
	}
}

static void on_page(void *ud, struct steno_transcription_page *p, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (p) {
		g->n = p->n;
		if (p->n)
			put_str(g->id, sizeof(g->id), p->items[0].id);
	}
}

static void on_export(void *ud, struct steno_export *e, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (e) {
		put_str(g->id, sizeof(g->id), e->id);
		put_str(g->state, sizeof(g->state), e->state);
		put_str(g->link, sizeof(g->link), e->download_link);
	}
}

static void on_task(void *ud, struct steno_translation_task *t, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (t) {
		put_str(g->id, sizeof(g->id), t->id);
		put_str(g->state, sizeof(g->state), t->state);
	}
}

static void on_order(void *ud, struct steno_order *o, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (o) {
		put_str(g->id, sizeof(g->id), o->id);
		put_str(g->state, sizeof(g->state), o->state);
	}
}

static void on_gloss(void *ud, struct steno_glossary_list *l, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (l)
		g->n = l->n;
}

static void on_style(void *ud, struct steno_style_guide_list *l, const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	if (l)
		g->n = l->n;
}

static void on_file(void *ud, const char *path, const struct steno_http_response *resp,
		    const struct steno_error *err)
{
	struct got *g = ud;
	got_err(g, err);
	put_str(g->link, sizeof(g->link), path);
}

/* Waits for the one callback of `g`; fails the test if it does not come. */
static void wait_for(struct got *g)
{
	cr_assert_eq(steno_http_run(http, 30000), 0, "engine did not finish");
	cr_assert_eq(g->calls, 1);
}

static void ok(struct got *g, int rc)
{
	cr_assert_eq(rc, 0, "call refused");
	wait_for(g);
	cr_assert_not(g->failed, "%s: %s", steno_error_kind_name(g->err.kind), g->err.message);
}

/* uploads/new + PUT of a WAV; the signed URL ends up in *url. */
static void upload_media(char *url, size_t n)
{
	struct got g = {0};
	ok(&g, steno_api_uploads_new(http, "talk.wav", on_upload, &g, NULL));
	put_str(url, n, g.link);
	size_t len = 0;
	void *wav = sbx_make_wav(6.0, &len);
	char path[128];
	snprintf(path, sizeof(path), "%s/talk.wav", tmpdir);
	FILE *f = fopen(path, "wb");
	cr_assert_eq(fwrite(wav, 1, len, f), len);
	fclose(f);
	free(wav);
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_upload_put(http, url, path, NULL, on_done, &g, NULL));
}

static void create_transcription(const char *tmp_url, char *id, size_t n)
{
	struct steno_transcription_create_req req = {
		.name = "Talk", .language = "en-US", .tmp_url = tmp_url, .organization_id = sb.org_id,
	};
	struct got g = {0};
	ok(&g, steno_api_transcription_create(http, &req, on_tr, &g, NULL));
	cr_assert_str_eq(g.state, "ingesting");
	put_str(id, n, g.id);
}

Test(engine_sandbox, upload_transcribe_list_retrieve_delete)
{
	char url[1024], id[128];
	upload_media(url, sizeof(url));
	create_transcription(url, id, sizeof(id));
	struct got g = {0};
	struct steno_api_list_query q = { .organization_id = sb.org_id, .page = 0 };
	ok(&g, steno_api_transcriptions_list(http, &q, on_page, &g, NULL));
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(g.id, id);
	cr_assert_eq(sbx_advance(&sb, 120), 0);
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_transcription_retrieve(http, id, on_tr, &g, NULL));
	cr_assert_str_eq(g.state, "automatic_done");
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_transcription_delete(http, id, 1, on_done, &g, NULL));
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_retrieve(http, id, on_tr, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.http_status, 410, "%s", g.err.message);
}

Test(engine_sandbox, export_then_download)
{
	char url[1024], id[128];
	upload_media(url, sizeof(url));
	create_transcription(url, id, sizeof(id));
	cr_assert_eq(sbx_advance(&sb, 120), 0);
	const char *ids[] = { id };
	struct steno_export_create_req req = { .format = "txt", .transcription_ids = ids,
					       .n_transcription_ids = 1, .show_speakers = true };
	struct got g = {0};
	ok(&g, steno_api_export_create(http, &req, on_export, &g, NULL));
	cr_assert_str_eq(g.state, "pending");
	char eid[128];
	put_str(eid, sizeof(eid), g.id);
	cr_assert_eq(sbx_advance(&sb, 60), 0);
	struct steno_export *exp = calloc(1, sizeof(*exp));
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_export_retrieve(http, eid, on_export, &g, NULL));
	cr_assert_str_eq(g.state, "ready");
	cr_assert_neq(g.link[0], '\0');
	exp->download_link = strdup(g.link);
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_export_download(http, exp, tmpdir, "talk.txt", 0, NULL, on_file, &g, NULL));
	struct stat st;
	cr_assert_eq(stat(g.link, &st), 0);
	cr_assert_gt(st.st_size, 0);
	char part[1100];
	snprintf(part, sizeof(part), "%s.part", g.link);
	cr_assert_neq(stat(part, &st), 0);
	/* a second download does not overwrite */
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_api_export_download(http, exp, tmpdir, "talk.txt", 0, NULL, on_file, &g, &err), -1);
	cr_assert_str_eq(err.code, "exists");
	steno_export_free(exp);
	free(exp);
}

Test(engine_sandbox, translations_orders_glossaries_style_guides)
{
	char url[1024], id[128];
	upload_media(url, sizeof(url));
	create_transcription(url, id, sizeof(id));
	cr_assert_eq(sbx_advance(&sb, 120), 0);
	struct got g = {0};
	struct steno_translation_task_req tt = { .source_transcription_id = id, .target_language = "fr" };
	ok(&g, steno_api_translation_task_create(http, &tt, on_task, &g, NULL));
	char tid[128];
	put_str(tid, sizeof(tid), g.id);
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_translation_task_retrieve(http, tid, on_task, &g, NULL));
	cr_assert_str_eq(g.id, tid);

	struct steno_order_create_req oc = { .url = url, .language = "en-US", .organization_id = sb.org_id };
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_order_create(http, &oc, on_order, &g, NULL));
	cr_assert_str_eq(g.state, "incomplete");
	char oid[128];
	put_str(oid, sizeof(oid), g.id);
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_order_confirm(http, oid, on_order, &g, NULL));
	cr_assert(strcmp(g.state, "submitted") == 0 || strcmp(g.state, "locked") == 0, "%s", g.state);
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_order_retrieve(http, oid, on_order, &g, NULL));
	cr_assert_str_eq(g.id, oid);
	/* confirming again breaks a rule: 422 with the server's message */
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_order_confirm(http, oid, on_order, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.http_status, 422, "%s", g.err.message);

	const char *langs[] = { "de", "es" };
	struct steno_translation_order_req to = { .source_transcription_id = id,
		.target_languages = langs, .n_target_languages = 2, .confirm = true };
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_order_translation_create(http, &to, on_order, &g, NULL));

	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_glossaries_list(http, sb.org_id, on_gloss, &g, NULL));
	memset(&g, 0, sizeof(g));
	ok(&g, steno_api_style_guides_list(http, sb.org_id, on_style, &g, NULL));
}

static void set_faults(const char *spec)
{
	char body[128];
	snprintf(body, sizeof(body), "{\"spec\":\"%s\"}", spec);
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "PUT", "/_sandbox/faults", sb.admin_key, body, NULL, &r), 0);
	cr_assert_eq(r.status, 200, "faults: %ld %s", r.status, r.body ? r.body : "");
	sbx_resp_free(&r);
}

struct retry_seen {
	int n;
	long status;
};

/* The first failed try turns the faults off: the retry then meets a healthy server. */
static void heal_on_retry(void *ud, const struct steno_http_response *resp, long delay_ms)
{
	struct retry_seen *rs = ud;
	rs->n++;
	rs->status = resp->status;
	set_faults("none");
}

static void check_get_heals(const char *spec, long status)
{
	struct retry_seen rs = {0};
	steno_http_set_retry_listener(http, heal_on_retry, &rs);
	set_faults(spec);
	struct got g = {0};
	struct steno_api_list_query q = { .organization_id = sb.org_id, .page = -1 };
	ok(&g, steno_api_transcriptions_list(http, &q, on_page, &g, NULL));
	cr_assert_eq(rs.n, 1, "%s", spec);
	cr_assert_eq(rs.status, status, "%s", spec);
}

Test(engine_sandbox, faulted_gets_are_retried)
{
	check_get_heals("500=1", 500);
	check_get_heals("503=1", 503);
	check_get_heals("429=1", 429);
}

Test(engine_sandbox, faulted_post_is_reported_not_repeated)
{
	struct retry_seen rs = {0};
	steno_http_set_retry_listener(http, heal_on_retry, &rs);
	set_faults("500=1");
	struct steno_transcription_create_req req = { .name = "x", .language = "en-US",
		.tmp_url = "http://127.0.0.1:1/a.wav", .organization_id = sb.org_id };
	struct got g = {0};
	cr_assert_eq(steno_api_transcription_create(http, &req, on_tr, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.http_status, 500);
	cr_assert_str_eq(g.err.code, "internal_error");
	cr_assert_eq(rs.n, 0, "a POST was scheduled for another try");
	set_faults("none");
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "GET", "/_sandbox/state", sb.admin_key, NULL, NULL, &r), 0);
	json_object *st = sbx_json(&r);
	sbx_resp_free(&r);
	cr_assert_not_null(st);
	cr_assert_eq(json_object_get_int(sbx_get(st, "counts.transcriptions")), 0);
	json_object_put(st);
	/* the client's own record: exactly one POST, no retries */
	steno_http_free(http);
	http = NULL;
	FILE *f = fopen(trace_path, "r");
	cr_assert_not_null(f);
	char line[2048];
	int posts = 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " POST ")) {
			posts++;
			cr_assert(strstr(line, " 500 ") && strstr(line, "retries=0"), "%s", line);
		}
	fclose(f);
	cr_assert_eq(posts, 1);
}

Test(engine_sandbox, bad_bodies_give_clear_errors)
{
	struct steno_api_list_query q = { .organization_id = sb.org_id, .page = -1 };
	struct got g = {0};
	set_faults("malformed=1");
	cr_assert_eq(steno_api_transcriptions_list(http, &q, on_page, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.kind, STENO_ERR_PARSE, "%s: %s", steno_error_kind_name(g.err.kind), g.err.message);
	set_faults("truncate=1");
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcriptions_list(http, &q, on_page, &g, NULL), 0);
	wait_for(&g);
	cr_assert(g.err.kind == STENO_ERR_NETWORK || g.err.kind == STENO_ERR_PARSE,
		  "%s: %s", steno_error_kind_name(g.err.kind), g.err.message);
	set_faults("none");
}

Test(engine_sandbox, expired_signed_url)
{
	struct got g = {0};
	ok(&g, steno_api_uploads_new(http, "late.wav", on_upload, &g, NULL));
	char url[1024];
	put_str(url, sizeof(url), g.link);
	cr_assert_eq(sbx_advance(&sb, 7200), 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/late.wav", tmpdir);
	FILE *f = fopen(path, "wb");
	fputs("RIFF....", f);
	fclose(f);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_upload_put(http, url, path, NULL, on_done, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.kind, STENO_ERR_HTTP);
	cr_assert_eq(g.err.http_status, 403);
}

struct trace_lines {
	int n;
	int with_key;
	char all[8192];
};

static void collect_trace(void *ud, const char *line)
{
	struct trace_lines *t = ud;
	t->n++;
	if (strstr(line, sb.api_key))
		t->with_key++;
	size_t len = strlen(t->all);
	snprintf(t->all + len, sizeof t->all - len, "%s\n", line);
}

Test(engine_sandbox, trace_never_holds_the_key)
{
	char url[1024], id[128];
	static struct trace_lines lines;
	steno_http_set_trace_listener(http, collect_trace, &lines);
	upload_media(url, sizeof(url));
	create_transcription(url, id, sizeof(id));
	struct got g = {0};
	ok(&g, steno_api_transcription_retrieve(http, id, on_tr, &g, NULL));
	steno_http_free(http);
	http = NULL;
	FILE *f = fopen(trace_path, "r");
	cr_assert_not_null(f);
	char buf[16384];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_assert_null(strstr(buf, sb.api_key));
	cr_assert(strstr(buf, "signature=REDACTED"), "%s", buf);
	cr_assert(strstr(buf, "PUT "), "%s", buf);
	cr_assert(strstr(buf, "GET "), "%s", buf);
	/* The listener saw every completed request (uploads/new, PUT, create, retrieve, maybe a
	 * wait), in the trace file's words, and never the key. */
	cr_assert_geq(lines.n, 4, "%d lines:\n%s", lines.n, lines.all);
	cr_assert_eq(lines.with_key, 0);
	cr_assert(strstr(lines.all, "PUT ") && strstr(lines.all, "POST ") &&
		  strstr(lines.all, "signature=REDACTED"), "%s", lines.all);
}

static void setup_timeout(void)
{
	setup_with(NULL, 300, 1);
}

Test(engine_sandbox, latency_beyond_timeout, .init = setup_timeout)
{
	set_faults("latency=1:1500ms");
	struct got g = {0};
	struct steno_api_list_query q = { .organization_id = sb.org_id, .page = -1 };
	cr_assert_eq(steno_api_transcriptions_list(http, &q, on_page, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.kind, STENO_ERR_TIMEOUT, "%s", g.err.message);
	const char *ids[] = { "0123456789abcdef0123456789abcdef" };
	struct steno_export_create_req req = { .format = "txt", .transcription_ids = ids,
					       .n_transcription_ids = 1 };
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_export_create(http, &req, on_export, &g, NULL), 0);
	wait_for(&g);
	cr_assert_eq(g.err.kind, STENO_ERR_TIMEOUT);
	cr_assert(steno_error_outcome_unknown(&g.err), "%s", g.err.message);
	cr_assert(strstr(g.err.message, "may have acted on it"), "%s", g.err.message);
	set_faults("none");
}

static void setup_rate(void)
{
	static const char *const extra[] = { "--rate-limit", "5/5", NULL };
	setup_with(extra, 0, 6);
}

Test(engine_sandbox, rate_limit_learned_nothing_dropped, .init = setup_rate)
{
	struct got g[20];
	memset(g, 0, sizeof(g));
	struct steno_api_list_query q = { .organization_id = sb.org_id, .page = -1 };
	for (int i = 0; i < 20; i++)
		cr_assert_eq(steno_api_transcriptions_list(http, &q, on_page, &g[i], NULL), 0);
	cr_assert_eq(steno_http_run(http, 45000), 0);
	for (int i = 0; i < 20; i++) {
		cr_assert_eq(g[i].calls, 1);
		cr_assert_not(g[i].failed, "%d: %s", i, g[i].err.message);
	}
}

static void setup_legacy(void)
{
	static const char *const extra[] = { "--api-form", "legacy", "--seed-demo", "3", NULL };
	setup_with(extra, 0, 3);
}

struct legacy_seen {
	int calls;
	int failed;
	struct steno_error err;
	size_t n;
	enum steno_api_form form;
	char id[128];
	int has_editor_url;
};

static void on_legacy_page(void *ud, struct steno_transcription_page *p, const struct steno_error *err)
{
	struct legacy_seen *g = ud;
	g->calls++;
	g->failed = err != NULL;
	if (err)
		g->err = *err;
	if (p) {
		g->n = p->n;
		g->form = p->form;
		if (p->n)
			put_str(g->id, sizeof(g->id), p->items[0].id);
	}
}

static void on_legacy_tr(void *ud, struct steno_transcription *t, const struct steno_error *err)
{
	struct legacy_seen *g = ud;
	g->calls++;
	g->failed = err != NULL;
	if (err)
		g->err = *err;
	if (t) {
		g->form = t->form;
		put_str(g->id, sizeof(g->id), t->id);
	}
}

Test(engine_sandbox, legacy_form_lists_and_retrieves, .init = setup_legacy)
{
	struct legacy_seen g = {0};
	struct steno_api_list_query q = { .page = 0 };
	cr_assert_eq(steno_api_transcriptions_list(http, &q, on_legacy_page, &g, NULL), 0);
	cr_assert_eq(steno_http_run(http, 30000), 0);
	cr_assert_eq(g.calls, 1);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_geq(g.n, 1);
	cr_assert_eq(g.form, STENO_FORM_LEGACY);
	char id[128];
	put_str(id, sizeof(id), g.id);
	memset(&g, 0, sizeof(g));
	cr_assert_eq(steno_api_transcription_retrieve(http, id, on_legacy_tr, &g, NULL), 0);
	cr_assert_eq(steno_http_run(http, 30000), 0);
	cr_assert_not(g.failed, "%s", g.err.message);
	cr_assert_str_eq(g.id, id);
	cr_assert_eq(g.form, STENO_FORM_LEGACY);
}
