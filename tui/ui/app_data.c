/* The TUI's requests: list pages, details, polling of what the scheduler hands out,
 * and what the store's listeners do with the answers. */
#include "config.h"

#include "ui/app_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/spec_tables.h"
#include "api/url.h"

enum app_req_kind { REQ_PAGE, REQ_DETAILS, REQ_ORDER, REQ_EXPORT, REQ_TASK };

/* At most this many of our own refreshes run at once (jobs have their own). */
#define APP_MAX_FLIGHT 4

struct store_view *app_view(struct app *app, bool create)
{
	if (!app->org_id)
		return NULL;
	return store_view_get(app->store, app->org_id, app->folder_id,
			      app->list.tag[0] ? app->list.tag : NULL, create);
}

/* ---- requests in flight ---- */

static size_t app_reqs_count(const struct app *app)
{
	size_t n = 0;

	for (const struct app_req *r = app->reqs; r; r = r->next)
		n++;
	return n;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct app_req *req_new(struct app *app, int kind, const char *key, const char *id)
{
	struct app_req *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->app = app;
	r->kind = kind;
	r->key = strdup(key);
	r->id = dup_or_null(id);
	if (!r->key || (id && !r->id)) {
		free(r->key);
		free(r->id);
		free(r);
		return NULL;
	}
	if (!store_refresh_begin(app->store, key)) {
		free(r->key);
		free(r->id);
		free(r);
		return NULL;
	}
	r->started_ms = app_now_ms(app);
	r->next = app->reqs;
	if (app->reqs)
		app->reqs->prev = r;
	app->reqs = r;
	return r;
}

/* Unlinks and frees; ends the resource's refresh. */
static void req_done(struct app_req *r)
{
	struct app *app = r->app;

	if (r->prev)
		r->prev->next = r->next;
	else
		app->reqs = r->next;
	if (r->next)
		r->next->prev = r->prev;
	if (app->store)
		store_refresh_end(app->store, r->key);
	free(r->key);
	free(r->id);
	free(r->org);
	free(r->folder);
	free(r->tags);
	free(r);
}

void app_reqs_free(struct app *app)
{
	while (app->reqs)
		req_done(app->reqs);
}

static void req_log(struct app_req *r, const struct steno_error *err)
{
	long ms = (long)(app_now_ms(r->app) - r->started_ms);

	/* A success is already in the log as the engine's trace line (app_on_trace); an error
	 * also gets a line that says what the request was for. */
	if (!err)
		return;
	if (err->kind == STENO_ERR_HTTP)
		app_log(r->app, "%s -> %ld %s (%ldms)", r->what, err->http_status, err->message, ms);
	else
		app_log(r->app, "%s -> %s: %s (%ldms)", r->what, steno_error_kind_name(err->kind),
			err->message, ms);
}

/* ---- health ---- */

void app_note_ok(struct app *app)
{
	struct status_info *s = &app->ses.status;

	if (s->health != STATUS_ONLINE || s->rate_wait_s > 0) {
		if (s->health == STATUS_OFFLINE)
			s->error[0] = '\0';
		s->health = STATUS_ONLINE;
		s->rate_wait_s = 0;
		pane_dirty(app->ses.status_pane);
	}
}

void app_note_error(struct app *app, const struct steno_error *err, const char *what)
{
	struct status_info *s = &app->ses.status;

	if (err->kind == STENO_ERR_NETWORK || err->kind == STENO_ERR_TIMEOUT)
		s->health = STATUS_OFFLINE;
	else if (err->kind == STENO_ERR_HTTP && (err->http_status >= 500 || err->http_status == 429))
		s->health = STATUS_SLOW;
	else if (s->health == STATUS_UNKNOWN || s->health == STATUS_OFFLINE)
		s->health = STATUS_ONLINE;   /* the server answered */
	if (err->kind == STENO_ERR_HTTP && err->http_status == 429 && err->retry_after_s > 0) {
		s->rate_wait_s = err->retry_after_s;
		scheduler_rate_gate(app->sched,
				    app_now_ms(app) + (int64_t)(err->retry_after_s * 1000));
	}
	(void)what;
	app_error(app, err);
}

void app_on_trace(void *ud, const char *line)
{
	app_log(ud, "%s", line);
}

void app_on_retry(void *ud, const struct steno_http_response *resp, long delay_ms)
{
	struct app *app = ud;
	char url[512];

	if (steno_url_redact(resp->url ? resp->url : "", url, sizeof url) < 0)
		snprintf(url, sizeof url, "(url)");
	if (resp->status)
		app_log(app, "retry %s after HTTP %ld (in %ldms)", url, resp->status, delay_ms);
	else
		app_log(app, "retry %s: no answer (in %ldms)", url, delay_ms);
	if (resp->status == 429) {
		app->ses.status.rate_wait_s = (double)delay_ms / 1000.0;
		app->ses.status.health = STATUS_SLOW;
	} else if (resp->status == 0) {
		app->ses.status.health = STATUS_OFFLINE;
	}
	pane_dirty(app->ses.status_pane);
}

/* ---- list pages ---- */

/* Lost connections and overloaded servers heal: the list is tried again, backing off
 * from 2 s to a minute. A refused key or a bad request is not retried. */
static void app_schedule_list_retry(struct app *app, const struct steno_error *err, bool first)
{
	bool transient = err->kind == STENO_ERR_NETWORK || err->kind == STENO_ERR_TIMEOUT ||
		(err->kind == STENO_ERR_HTTP && (err->http_status >= 500 || err->http_status == 429));

	if (!transient)
		return;
	app->list_retry_ms = app->list_retry_ms ? app->list_retry_ms * 2 : 2000;
	if (app->list_retry_ms > 60000)
		app->list_retry_ms = 60000;
	if (err->retry_after_s > 0 && err->retry_after_s * 1000 > (double)app->list_retry_ms)
		app->list_retry_ms = (int64_t)(err->retry_after_s * 1000);
	app->list_retry_at = app_now_ms(app) + app->list_retry_ms;
	app->list_retry_first = first;
	app_log(app, "list: trying again in %llds", (long long)(app->list_retry_ms / 1000));
}

void app_retry_list(struct app *app)
{
	if (!app->list_retry_at || app_now_ms(app) < app->list_retry_at)
		return;
	app->list_retry_at = 0;
	app_load_view(app, app->list_retry_first);
}

static void page_done(void *ud, struct steno_transcription_page *res, const struct steno_error *err)
{
	struct app_req *r = ud;
	struct app *app = r->app;
	int64_t now = app_now_ms(app);
	struct store_view *v = store_view_get(app->store, r->org, r->folder, r->tags, true);
	struct steno_error e2;

	req_log(r, err);
	if (!v) {
		req_done(r);
		return;
	}
	if (err) {
		store_view_failed(app->store, v, err);
		app_note_error(app, err, r->what);
		app_schedule_list_retry(app, err, r->first);
		req_done(r);
		return;
	}
	app->list_retry_ms = 0;
	app_note_ok(app);
	for (size_t i = 0; i < res->n; i++)
		if (res->items[i].id)
			scheduler_track(app->sched, SCHED_TRANSCRIPTION, res->items[i].id,
					res->items[i].state, now);
	bool first = r->first;
	req_done(r);
	if (store_view_add_page(app->store, v, res, first, now, &e2) < 0)
		app_error(app, &e2);
	app->list.stale = true;
	pane_dirty(app->tlist);
	v = app_view(app, false);
	if (v && app->list.load_all && !v->end && v->next_url)
		app_load_next_page(app);
	else
		app_list_fill(app);
}

static struct app_req *page_req(struct app *app, struct store_view *v, bool first)
{
	struct app_req *r = req_new(app, REQ_PAGE, v->key, NULL);

	if (!r)
		return NULL;
	r->first = first;
	r->org = dup_or_null(v->org_id);
	r->folder = dup_or_null(v->folder_id);
	r->tags = dup_or_null(v->tags);
	if ((v->org_id && !r->org) || (v->folder_id && !r->folder) || (v->tags && !r->tags)) {
		req_done(r);
		return NULL;
	}
	snprintf(r->what, sizeof r->what, "GET transcriptions %s page %zu", v->key,
		 first ? (size_t)1 : v->pages + 1);
	return r;
}

int app_load_view(struct app *app, bool first)
{
	struct store_view *v = app_view(app, true);
	struct steno_error err;
	const char *tag = app->list.tag[0] ? app->list.tag : NULL;

	if (!v)
		return -1;
	if (!first && (v->end || !v->next_url))
		return 0;
	struct app_req *r = page_req(app, v, first);
	if (!r)
		return 0;   /* already loading */
	int rc;
	if (first) {
		struct steno_api_list_query q = { .organization_id = app->org_id,
			.folder_id = app->folder_id, .page = -1,
			.tags = tag ? &tag : NULL, .n_tags = tag ? 1 : 0 };
		rc = steno_api_transcriptions_list(app->http, &q, page_done, r, &err);
	} else {
		rc = steno_api_transcriptions_list_url(app->http, v->next_url, page_done, r, &err);
	}
	if (rc < 0) {
		req_done(r);
		app_error(app, &err);
		return -1;
	}
	pane_dirty(app->tlist);
	app_refresh_status(app);
	return 0;
}

int app_load_next_page(struct app *app)
{
	return app_load_view(app, false);
}

void app_list_fill(struct app *app)
{
	struct store_view *v = app_view(app, false);

	/* counts the rows loaded, not the rows a text filter lets through: a filter that
	 * matches little must not pull every page of a large account */
	if (!v || v->end || !v->next_url || v->has_error || app->list.lv.rows <= 0 ||
	    (long)v->n >= app->list.lv.rows)
		return;
	app_load_next_page(app);   /* a page already loading is not asked for twice */
}

/* ---- one transcription ---- */

static void details_done(void *ud, struct steno_transcription *res, const struct steno_error *err)
{
	struct app_req *r = ud;
	struct app *app = r->app;
	int64_t now = app_now_ms(app);
	struct steno_error e2;
	char *id = r->id;

	r->id = NULL;
	req_log(r, err);
	req_done(r);
	if (err) {
		if (err->kind == STENO_ERR_HTTP && (err->http_status == 404 || err->http_status == 410)) {
			scheduler_untrack(app->sched, SCHED_TRANSCRIPTION, id);
			store_transcription_remove(app->store, id);
			app->list.stale = true;
		} else {
			scheduler_report_error(app->sched, SCHED_TRANSCRIPTION, id,
					       (int64_t)(err->retry_after_s * 1000), now);
			store_transcription_failed(app->store, id, err);
			app_note_error(app, err, "details");
		}
		free(id);
		return;
	}
	app_note_ok(app);
	scheduler_report_ok(app->sched, SCHED_TRANSCRIPTION, id, res->state, now);
	if (store_transcription_put(app->store, res, true, now, &e2) < 0)
		app_error(app, &e2);
	free(id);
}

void app_fetch_details(struct app *app, const char *id, bool force)
{
	const struct store_transcription *t = store_transcription_get(app->store, id);
	struct steno_error err;

	if (!force && t && t->detailed)
		return;
	struct app_req *r = req_new(app, REQ_DETAILS, id, id);
	if (!r)
		return;
	snprintf(r->what, sizeof r->what, "GET transcriptions/%s", id);
	if (steno_api_transcription_retrieve(app->http, id, details_done, r, &err) < 0) {
		req_done(r);
		app_error(app, &err);
	}
}

/* ---- activity ---- */

static void act_failed(struct app_req *r, enum store_activity_kind kind,
		       const struct steno_error *err)
{
	struct app *app = r->app;
	char *id = r->id;

	r->id = NULL;
	req_log(r, err);
	req_done(r);
	scheduler_report_error(app->sched, store_activity_sched_kind(kind), id,
			       (int64_t)(err->retry_after_s * 1000), app_now_ms(app));
	store_activity_failed(app->store, kind, id, err);
	app_note_error(app, err, "activity");
	free(id);
}

static void act_ok(struct app_req *r, enum store_activity_kind kind, const char *state)
{
	struct app *app = r->app;

	req_log(r, NULL);
	app_note_ok(app);
	scheduler_report_ok(app->sched, store_activity_sched_kind(kind), r->id, state, app_now_ms(app));
	req_done(r);
}

static void order_done(void *ud, struct steno_order *res, const struct steno_error *err)
{
	struct app_req *r = ud;
	struct app *app = r->app;
	struct steno_error e2;

	if (err) {
		act_failed(r, STORE_ACT_ORDER, err);
		return;
	}
	act_ok(r, STORE_ACT_ORDER, res->state);
	if (store_order_put(app->store, res, false, app_now_ms(app), &e2) < 0)
		app_error(app, &e2);
}

static void export_done(void *ud, struct steno_export *res, const struct steno_error *err)
{
	struct app_req *r = ud;
	struct app *app = r->app;
	struct steno_error e2;

	if (err) {
		act_failed(r, STORE_ACT_EXPORT, err);
		return;
	}
	act_ok(r, STORE_ACT_EXPORT, res->state);
	if (store_export_put(app->store, res, false, app_now_ms(app), &e2) < 0)
		app_error(app, &e2);
}

static void task_done(void *ud, struct steno_translation_task *res, const struct steno_error *err)
{
	struct app_req *r = ud;
	struct app *app = r->app;
	struct steno_error e2;

	if (err) {
		act_failed(r, STORE_ACT_TRANSLATION_TASK, err);
		return;
	}
	act_ok(r, STORE_ACT_TRANSLATION_TASK, res->state);
	if (store_task_put(app->store, res, false, app_now_ms(app), &e2) < 0)
		app_error(app, &e2);
}

static void app_poll_one(struct app *app, const struct sched_ref *ref)
{
	static const char *const prefix[] = { "", "order:", "export:", "task:" };
	static const char *const path[] = { "transcriptions", "orders", "exports",
		"task/transcription_translation" };
	char key[SCHED_ID_MAX + 16];
	struct steno_error err;
	int rc;

	if (ref->kind == SCHED_TRANSCRIPTION) {
		app_fetch_details(app, ref->id, true);
		return;
	}
	snprintf(key, sizeof key, "%s%s", prefix[ref->kind], ref->id);
	struct app_req *r = req_new(app, (int)ref->kind + REQ_DETAILS, key, ref->id);
	if (!r)
		return;
	snprintf(r->what, sizeof r->what, "GET %s/%s", path[ref->kind], ref->id);
	if (ref->kind == SCHED_ORDER)
		rc = steno_api_order_retrieve(app->http, ref->id, order_done, r, &err);
	else if (ref->kind == SCHED_EXPORT)
		rc = steno_api_export_retrieve(app->http, ref->id, export_done, r, &err);
	else
		rc = steno_api_translation_task_retrieve(app->http, ref->id, task_done, r, &err);
	if (rc < 0) {
		req_done(r);
		scheduler_report_error(app->sched, ref->kind, ref->id, -1, app_now_ms(app));
		app_error(app, &err);
	}
}

bool app_poll_full(const struct app *app)
{
	return app_reqs_count(app) >= APP_MAX_FLIGHT;
}

void app_poll_due(struct app *app)
{
	struct sched_ref refs[APP_MAX_FLIGHT];
	size_t flying = app_reqs_count(app);

	if (flying >= APP_MAX_FLIGHT)
		return;
	size_t n = scheduler_take_due(app->sched, app_now_ms(app), APP_MAX_FLIGHT - flying, refs,
				      APP_MAX_FLIGHT);
	for (size_t i = 0; i < n; i++)
		app_poll_one(app, &refs[i]);
}

/* ---- store listeners ---- */

static const char *act_kind_name(enum store_activity_kind k)
{
	return k == STORE_ACT_ORDER ? "order" : k == STORE_ACT_EXPORT ? "export" : "translation";
}

static void app_notify(struct app *app, const struct store_event *ev)
{
	const struct store_activity *a = store_activity_find(app->store, ev->kind, ev->id);

	if (!a || !a->watched)
		return;
	app_status(app, "%s %s %s (%s)", act_kind_name(ev->kind), ev->id,
		   ev->failure ? "failed" : "finished", a->state ? a->state : "?");
	if (app->config->bell)
		beep();
}

void app_store_changed(void *ud, const struct store_event *ev)
{
	struct app *app = ud;

	if (app->quit)
		return;
	if (ev->what & (STORE_WHAT_LIST | STORE_WHAT_TRANSCRIPTION)) {
		app->list.stale = true;
		pane_dirty(app->tlist);
	}
	if ((ev->what & STORE_WHAT_TRANSCRIPTION) && ev->id && app->list.selected &&
	    !strcmp(ev->id, app->list.selected))
		pane_dirty(app->details);
	app_notify_dialogs(app);
	if (ev->what & STORE_WHAT_ACTIVITY) {
		const struct store_activity *a =
			ev->id ? store_activity_find(app->store, ev->kind, ev->id) : NULL;
		pane_dirty(app->activity);
		if (a && a->finished)
			app_remember_final(app, ev->kind, ev->id);
		if (ev->finished && ev->state_changed)
			app_notify(app, ev);
	}
}

void app_store_failed(void *ud, const struct store_event *ev)
{
	struct app *app = ud;

	if (app->quit)
		return;
	pane_dirty(app->tlist);
	pane_dirty(app->details);
	pane_dirty(app->activity);
}
