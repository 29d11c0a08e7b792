/* What the app watches: orders, exports and translation tasks polled until final, jobs
 * followed to their end, learned folders; details and activity share the right side. */
#include "config.h"

#include "ui/app_internal.h"

#include "core/jobs_extra.h"

#include <stdlib.h>
#include <string.h>

/* ---- watching ---- */

static enum state_watch_kind watch_kind(enum store_activity_kind kind)
{
	switch (kind) {
	case STORE_ACT_EXPORT: return STATE_WATCH_EXPORT;
	case STORE_ACT_TRANSLATION_TASK: return STATE_WATCH_TASK;
	case STORE_ACT_ORDER: break;
	}
	return STATE_WATCH_ORDER;
}

static enum store_activity_kind store_kind(enum state_watch_kind kind)
{
	switch (kind) {
	case STATE_WATCH_EXPORT: return STORE_ACT_EXPORT;
	case STATE_WATCH_TASK: return STORE_ACT_TRANSLATION_TASK;
	case STATE_WATCH_ORDER: break;
	}
	return STORE_ACT_ORDER;
}

/* Watched items are kept in the state file per origin and the organization steno started
 * with (the CLI's commands use the same key), so a restart shows them again. */
static const char *app_origin(struct app *app, char *buf, size_t size)
{
	return state_origin(app->opts.base_url, buf, size);
}

/* Puts the item in the store (watched) and has the scheduler refresh it now, then until final. */
static int app_track(struct app *app, enum store_activity_kind kind, const char *id)
{
	enum sched_kind sk = store_activity_sched_kind(kind);
	int64_t now = app_now_ms(app);

	if (!id || !*id)
		return -1;
	if (!store_activity_find(app->store, kind, id)) {
		struct steno_error err;
		int rc = -1;
		if (kind == STORE_ACT_ORDER) {
			struct steno_order o = { 0 };
			o.id = strdup(id);
			rc = o.id ? store_order_put(app->store, &o, true, now, &err) : -1;
			steno_order_free(&o);
		} else if (kind == STORE_ACT_EXPORT) {
			struct steno_export e = { 0 };
			e.id = strdup(id);
			rc = e.id ? store_export_put(app->store, &e, true, now, &err) : -1;
			steno_export_free(&e);
		} else {
			struct steno_translation_task t = { 0 };
			t.id = strdup(id);
			rc = t.id ? store_task_put(app->store, &t, true, now, &err) : -1;
			steno_translation_task_free(&t);
		}
		if (rc < 0)
			return -1;
	}
	store_activity_watch(app->store, kind, id, true);
	if (scheduler_track(app->sched, sk, id, NULL, now) < 0 ||
	    scheduler_force(app->sched, sk, id, now) < 0)
		return -1;
	scheduler_set_watched(app->sched, sk, id, true);
	return 0;
}

int app_watch(struct app *app, enum store_activity_kind kind, const char *id)
{
	char origin[512];
	struct steno_error err;

	if (app_track(app, kind, id) < 0)
		return -1;
	if (app_origin(app, origin, sizeof origin))
		state_watch_add(&app->state, origin, app->opts.org_id, watch_kind(kind), id,
				app_wall_ms(app), &err);
	app_show_side(app, true);
	pane_dirty(app->activity);
	return 0;
}

void app_restore_watched(struct app *app)
{
	char origin[512];
	size_t *idx;

	if (!app_origin(app, origin, sizeof origin))
		return;
	state_watch_prune(&app->state, app_wall_ms(app));
	long n = state_watched_of(&app->state, origin, app->opts.org_id, &idx);
	for (long i = 0; i < n; i++) {
		const struct state_watch *w = &app->state.watched[idx[i]];
		app_track(app, store_kind(w->kind), w->id);
	}
	free(idx);
	pane_dirty(app->activity);
}

void app_remember_final(struct app *app, enum store_activity_kind kind, const char *id)
{
	char origin[512];

	if (app_origin(app, origin, sizeof origin))
		state_watch_final(&app->state, origin, app->opts.org_id, watch_kind(kind), id,
				  app_wall_ms(app));
}

int app_watch_job(struct app *app, int job_id)
{
	int *n = realloc(app->watched_jobs, (app->n_watched_jobs + 1) * sizeof *n);

	if (!n)
		return -1;
	app->watched_jobs = n;
	n[app->n_watched_jobs++] = job_id;
	/* says where it went, and replaces the error of an earlier attempt */
	app_status(app, "job %d started: see the activity pane", job_id);
	app_show_side(app, true);
	pane_dirty(app->activity);
	return 0;
}

void app_show_side(struct app *app, bool activity)
{
	if (!app->activity || !app->details || app->activity->hidden == !activity)
		return;
	/* details and activity share the right side: one at a time */
	app->activity->hidden = !activity;
	app->details->hidden = activity;
	if (activity && app->ses.frame.panes[app->ses.frame.focus] == app->details)
		frame_run(&app->ses.frame, ACT_VIEW_ACTIVITY, KEYS_NONE);
	else if (!activity && app->ses.frame.panes[app->ses.frame.focus] == app->activity)
		frame_run(&app->ses.frame, ACT_VIEW_DETAILS, KEYS_NONE);
	frame_resize(&app->ses.frame);
}

static bool app_job_watched(const struct app *app, int id)
{
	for (size_t i = 0; i < app->n_watched_jobs; i++)
		if (app->watched_jobs[i] == id)
			return true;
	return false;
}

void app_on_job(void *ud, const struct steno_job *job)
{
	struct app *app = ud;

	if (app->quit)
		return;
	pane_dirty(app->activity);
	app_notify_dialogs(app);
	jobs_extra_remember(&app->state, app->opts.base_url, app->opts.org_id, job, app_wall_ms(app));
	if (!app_job_watched(app, job->id))
		return;
	if (job->step == JOB_STEP_DONE) {
		/* a creation may have taught the state a folder */
		app_places_build(app);
		pane_dirty(app->orgs);
		app_status(app, "job %d finished%s%s", job->id, job->file ? ": " : "",
			   job->file ? job->file : "");
		app_request_refresh(app);
	} else if (job->step == JOB_STEP_FAILED) {
		app_error(app, &job->error);
	} else {
		enum store_activity_kind k;
		/* what a cancelled job made still exists: followed on, so it never sits stale */
		if (job->step == JOB_STEP_CANCELLED && jobs_resource_kind(job, &k))
			app_watch(app, k, job->resource_id);
		return;
	}
	if (app->config->bell)
		beep();
}

int app_learn_folder(struct app *app, const char *folder_id, const char *path)
{
	struct steno_error err;

	if (!app->org_id)
		return -1;
	int rc = state_folder_learn(&app->state, app->org_id, folder_id, path,
				    app_wall_ms(app), &err);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		app_places_build(app);
		pane_dirty(app->orgs);
	}
	return 0;
}

void app_open_overlay(struct app *app, struct pane *p)
{
	frame_open_overlay(&app->ses.frame, p);
}

void app_request_refresh(struct app *app)
{
	if (app->org_id)
		app_load_view(app, true);
}
