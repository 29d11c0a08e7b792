/* Dialog screen tests: harness + sandbox + engine/store/jobs. */
#include "config.h"

#include "test_dialog_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/endpoints.h"
#include "core/conf.h"
#include "ui/frame.h"
#include "ui/text.h"

static struct steno_config fixture_config;

static void hook_status(void *ud, const char *msg)
{
	struct dfx *x = ud;
	snprintf(x->status, sizeof x->status, "%s", msg);
}

static void hook_reload(void *ud)
{
	((struct dfx *)ud)->reloads++;
}

static void hook_unmark(void *ud)
{
	((struct dfx *)ud)->unmarks++;
}

void dfx_open(struct dfx *x, int rows, int cols, int seed)
{
	dfx_open_ex(x, rows, cols, seed, NULL, 0);
}

void dfx_open_ex(struct dfx *x, int rows, int cols, int seed, const char *const *more,
		 int read_only)
{
	char num[16];
	const char *extra[8] = { "--seed-demo", num, NULL };
	struct steno_error err;
	memset(x, 0, sizeof *x);
	snprintf(num, sizeof num, "%d", seed);
	for (size_t i = 0; more && more[i] && i < 5; i++)
		extra[2 + i] = more[i];
	snprintf(x->tmp, sizeof x->tmp, "/tmp/steno-dlg-XXXXXX");
	cr_assert_not_null(mkdtemp(x->tmp));
	cr_assert_eq(sbx_start(&x->sb, seed > 0 ? extra : NULL), 0, "sandbox did not start");
	struct steno_http_config hc = { .base_url = x->sb.base_url, .api_key = x->sb.api_key };
	steno_error_clear(&err);
	cr_assert_eq(steno_http_new(&hc, &x->http, &err), 0, "%s", err.message);
	x->store = store_new();
	cr_assert_not_null(x->store);
	struct jobs_config jc = { .http = x->http, .store = x->store, .organization_id = x->sb.org_id,
				  .poll_min_ms = 100, .poll_max_ms = 400, .requests_per_second = 50 };
	x->jobs = jobs_new(&jc, &err);
	cr_assert_not_null(x->jobs, "%s", err.message);
	cr_assert_eq(config_init_defaults(&fixture_config, &err), 0);
	fixture_config.clipboard = CLIPBOARD_OFF;
	x->env.http = x->http;
	x->env.jobs = x->jobs;
	x->env.store = x->store;
	x->env.config = &fixture_config;
	snprintf(x->env.org_id, sizeof x->env.org_id, "%s", x->sb.org_id);
	snprintf(x->env.cache_dir, sizeof x->env.cache_dir, "%s/cache", x->tmp);
	x->env.hooks = (struct dialog_hooks){ .status = hook_status, .reload = hook_reload,
					      .unmark = hook_unmark, .ud = x };
	struct scr_opts so = { .rows = rows, .cols = cols, .theme = "mono", .no_color = 1,
			       .read_only = read_only };
	scr_open(&x->scr, &so);
	scr_draw(&x->scr);
}

void dfx_retarget(struct dfx *x, const char *base_url)
{
	struct steno_error err;
	steno_error_clear(&err);
	jobs_free(x->jobs);
	steno_http_free(x->http);
	struct steno_http_config hc = { .base_url = base_url, .api_key = x->sb.api_key };
	cr_assert_eq(steno_http_new(&hc, &x->http, &err), 0, "%s", err.message);
	struct jobs_config jc = { .http = x->http, .store = x->store, .organization_id = x->sb.org_id,
				  .poll_min_ms = 100, .poll_max_ms = 400, .requests_per_second = 50 };
	x->jobs = jobs_new(&jc, &err);
	cr_assert_not_null(x->jobs, "%s", err.message);
	x->env.http = x->http;
	x->env.jobs = x->jobs;
}

void dfx_close(struct dfx *x)
{
	scr_close(&x->scr);
	dialog_env_free(&x->env);
	jobs_free(x->jobs);
	store_free(x->store);
	steno_http_free(x->http);
	config_free(&fixture_config);
	sbx_stop(&x->sb);
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", x->tmp);
	cr_assert_eq(system(cmd), 0);
}

struct pane *dfx_dialog(struct dfx *x, const struct pane_ops *ops)
{
	struct ui_frame *f = &x->scr.ui.frame;
	struct pane *p = pane_new(ops, &f->ctx, &x->env);
	cr_assert_not_null(p, "cannot open %s", ops->name);
	frame_open_overlay(f, p);
	f->all_dirty = 1;
	scr_draw(&x->scr);
	return p;
}

void dfx_type(struct dfx *x, const char *utf8)
{
	wchar_t *w = text_sanitize(utf8, 0);
	cr_assert_not_null(w);
	for (size_t i = 0; w[i]; i++)
		frame_key(&x->scr.ui.frame, (ui_key)w[i]);
	free(w);
	scr_draw(&x->scr);
}

void dfx_keys(struct dfx *x, const char *script)
{
	scr_keys(&x->scr, script);
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

bool dfx_pump(struct dfx *x, bool (*cond)(struct dfx *x, const void *arg), const void *arg, long max_ms)
{
	long end = now_ms() + max_ms;
	for (;;) {
		struct ui_frame *f = &x->scr.ui.frame;
		if (f->overlay)
			pane_dirty(f->overlay);
		scr_draw(&x->scr);
		if (cond(x, arg))
			return true;
		if (now_ms() > end)
			return false;
		steno_http_poll(x->http, NULL, 0, 50);
		steno_http_perform(x->http);
		jobs_tick(x->jobs);
	}
}

char *dfx_text(void)
{
	return scr_text();
}

void dfx_golden(const char *name)
{
	char *t = dfx_text();
	scr_golden(name, t);
	free(t);
}

bool dfx_cond_shows(struct dfx *x, const void *text)
{
	return dfx_shows(x, text);
}

bool dfx_shows(struct dfx *x, const char *text)
{
	(void)x;
	char *t = scr_text();
	bool hit = t && strstr(t, text) != NULL;
	free(t);
	return hit;
}

long dfx_count(struct dfx *x, const char *table)
{
	struct sbx_resp r;
	char path[64];
	cr_assert_eq(sbx_request(&x->sb, "GET", "/_sandbox/state", x->sb.admin_key, NULL, NULL, &r), 0);
	json_object *st = sbx_json(&r);
	sbx_resp_free(&r);
	cr_assert_not_null(st);
	snprintf(path, sizeof path, "counts.%s", table);
	long n = (long)json_object_get_int64(sbx_get(st, path));
	json_object_put(st);
	return n;
}

const char *dfx_find(struct dfx *x, const char *state)
{
	static char id[64];
	char target[128];
	long status = 0;
	snprintf(target, sizeof target, "transcriptions?organization_id=%s", x->sb.org_id);
	json_object *o = sbx_call(&x->sb, "GET", target, NULL, &status);
	cr_assert_not_null(o);
	json_object *res = sbx_get(o, "results");
	id[0] = '\0';
	for (size_t i = 0; res && i < json_object_array_length(res) && !id[0]; i++) {
		json_object *t = json_object_array_get_idx(res, i);
		const char *s = sbx_str(t, "state");
		if (!state || (s && strcmp(s, state) == 0))
			snprintf(id, sizeof id, "%s", sbx_str(t, "id"));
	}
	json_object_put(o);
	cr_assert(id[0], "no transcription in state %s", state ? state : "any");
	return id;
}

void dfx_faults(struct dfx *x, const char *spec)
{
	char body[256];
	struct sbx_resp r;
	snprintf(body, sizeof body, "{\"spec\":\"%s\"}", spec[0] ? spec : "none");
	cr_assert_eq(sbx_request(&x->sb, "PUT", "/_sandbox/faults", x->sb.admin_key, body, NULL, &r), 0);
	cr_assert_eq(r.status, 200, "faults %s: %s", spec, r.body);
	sbx_resp_free(&r);
}

static void on_page(void *ud, struct steno_transcription_page *res, const struct steno_error *err)
{
	struct dfx *x = ud;
	cr_assert_null(err, "list: %s", err ? err->message : "");
	struct store_view *v = store_view_get(x->store, x->sb.org_id, NULL, NULL, true);
	cr_assert_not_null(v);
	cr_assert_geq(store_view_add_page(x->store, v, res, true, 0, NULL), 0);
	x->reloads = -1000;
}

static bool page_loaded(struct dfx *x, const void *arg)
{
	(void)arg;
	return x->reloads == -1000;
}

void dfx_load(struct dfx *x)
{
	struct steno_api_list_query q = { .organization_id = x->sb.org_id, .page = -1 };
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_api_transcriptions_list(x->http, &q, on_page, x, &err), 0, "%s", err.message);
	cr_assert(dfx_pump(x, page_loaded, NULL, 5000), "the list did not load");
	x->reloads = 0;
}
