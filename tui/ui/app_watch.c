/* What the app watches: orders, exports and translation tasks (polled by core/sync.c until
 * settled), jobs followed to their end, learned folders; details and activity share the
 * right side. */
#include "config.h"

#include "ui/app_watch.h"
#include "ui/app_access.h"
#include "ui/app_data.h"
#include "ui/app_places.h"

#include "core/jobs_extra.h"
#include "ui/dialog_popup.h"
#include "ui/text.h"

#include <stdlib.h>
#include <string.h>

int app_watch(struct app *app, enum store_activity_kind kind, const char *id)
{
	if (sync_watch(app->sync, kind, id) < 0)
		return -1;
	app_show_side(app, true);
	pane_dirty(app->activity);
	return 0;
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
	if (app->activity->stacked) {   /* wide: the activity goes under, the details stay */
		if (activity) {
			app->activity->hidden = 0;
			frame_resize(&app->ses.frame);
		}
		return;
	}
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

/* What the user creates is watched by itself: the transcription of a transcribe job, the
 * order, export or task of the others (listed in the activity pane, remembered per server),
 * from the moment its id is known. */
static void app_watch_creation(struct app *app, const struct steno_job *job)
{
	enum store_activity_kind kind = STORE_ACT_ORDER;

	if (!job->resource_id || job->step == JOB_STEP_FAILED)
		return;
	switch (job->kind) {
	case JOB_TRANSCRIBE:
		sync_watch_transcription(app->sync, job->resource_id);
		return;
	case JOB_ORDER: case JOB_CONFIRM: case JOB_TRANSLATION_ORDER:
		break;
	case JOB_EXPORT: case JOB_DOWNLOAD:
		kind = STORE_ACT_EXPORT;
		break;
	case JOB_TRANSLATION_TASK:
		kind = STORE_ACT_TRANSLATION_TASK;
		break;
	}
	/* once: every progress event of the job comes here */
	const struct store_activity *a = store_activity_find(app->store, kind, job->resource_id);
	if (!a || !a->watched)
		sync_watch(app->sync, kind, job->resource_id);
}

/* An export job's download still to make is kept on its watched export in the state file
 * until the job makes it or ends, so that a quit (or a hang-up) while the export is being
 * made leaves it to the next start (app_resume_downloads). */
static void app_remember_download(struct app *app, const struct steno_job *job)
{
	const char *dir = NULL, *name = NULL;
	bool overwrite = false;
	char origin[512];

	if (job->kind != JOB_EXPORT || !job->resource_id ||
	    !state_origin(app->opts.base_url, origin, sizeof origin))
		return;
	if (!jobs_download_target(job, &dir, &name, &overwrite))
		dir = NULL;
	state_watch_download(&app->state, origin, app->opts.org_id, STATE_WATCH_EXPORT,
			     job->resource_id, dir, name, overwrite);
}

void app_on_job(void *ud, const struct steno_job *job)
{
	struct app *app = ud;

	if (app->quit)
		return;
	pane_dirty(app->activity);
	app_notify_dialogs(app);
	jobs_extra_remember(&app->state, app->opts.base_url, app->opts.org_id, job, app_wall_ms(app));
	app_remember_download(app, job);
	if (job->step == JOB_STEP_DONE || job->step == JOB_STEP_FAILED ||
	    job->step == JOB_STEP_CANCELLED)
		app_save_state(app);   /* its end (and what it made) outlives a killed browser */
	if (!app_job_watched(app, job->id))
		return;
	app_watch_creation(app, job);
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
		char text[STORE_JOB_END_MAX];
		if (job->step != JOB_STEP_CANCELLED)
			return;
		app_status(app, "job %d: %s", job->id, jobs_end_text(job, text, sizeof text));
		/* what a cancelled job made still exists: followed on, so it never sits stale */
		if (jobs_resource_kind(job, &k))
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

/* What quitting does to a job in this step. */
static const char *job_loss(const struct steno_job *j)
{
	switch (j->step) {
	case JOB_STEP_UPLOAD_URL:
	case JOB_STEP_UPLOADING: return "the upload stops, nothing is created";
	case JOB_STEP_CREATING:
	case JOB_STEP_RESOLVING: return "the request may still take effect on the server";
	case JOB_STEP_WAITING:
		return jobs_download_target(j, NULL, NULL, NULL) ?
			"it stays watched; its file is downloaded when it is ready, at the next start" :
			"it stays watched in the activity pane";
	case JOB_STEP_DOWNLOADING: return "the partial file is removed";
	default: return "";
	}
}

unsigned app_before_quit(void *ud)
{
	static const char *const kinds[] = { "transcription", "order", "export",
		"translation order", "translation task", "confirmation", "download" };
	struct app *app = ud;
	char text[1200] = "";
	size_t n = 0, count = 0;

	for (size_t i = 0; i < app->n_watched_jobs; i++) {
		const struct steno_job *j = jobs_get(app->jobs, app->watched_jobs[i]);
		if (!j || j->step == JOB_STEP_DONE || j->step == JOB_STEP_FAILED ||
		    j->step == JOB_STEP_CANCELLED)
			continue;
		count++;
		n = text_appendf(text, sizeof text, n, " %s %s (%s): %s.",
				 (unsigned)j->kind < sizeof kinds / sizeof kinds[0] ? kinds[j->kind] : "job",
				 j->resource_id ? j->resource_id : "not made yet", jobs_step_name(j->step),
				 job_loss(j));
	}
	if (!count)
		return 0;
	char all[1400];
	text_format(all, sizeof all, "%zu job%s not done. If steno quits now:%s", count,
		    count == 1 ? " is" : "s are", text);
	struct dialog_popup_arg a = { "Quit steno?", all };
	struct pane *p = pane_new(&dialog_quit_ops, &app->ses.frame.ctx, &a);
	if (!p)
		return 0;
	frame_open_overlay_fit(&app->ses.frame, p, dialog_popup_fit);
	return PANE_HANDLED | PANE_REDRAW;
}

bool app_resume_downloads(struct app *app)
{
	char origin[512], id[SCHED_ID_MAX], dir[4096], name[1024] = "";
	size_t *idx = NULL;
	bool left = false, overwrite = false;
	const struct store_activity *ready = NULL;

	if (!state_origin(app->opts.base_url, origin, sizeof origin))
		return false;
	long n = state_watched_of(&app->state, origin, app->opts.org_id, &idx);
	for (long i = 0; i < n && !ready; i++) {
		const struct state_watch *w = &app->state.watched[idx[i]];
		if (w->kind != STATE_WATCH_EXPORT || !w->download_dir)
			continue;
		const struct store_activity *a = store_activity_find(app->store, STORE_ACT_EXPORT, w->id);
		if (a && a->finished && !a->export_.download_link) {
			/* failed or expired meanwhile: nothing to download any more */
			state_watch_download(&app->state, origin, app->opts.org_id, STATE_WATCH_EXPORT,
					     w->id, NULL, NULL, false);
			continue;
		}
		if (!a || !a->export_.download_link) {
			left = true;   /* not ready yet (or not read yet) */
			continue;
		}
		ready = a;
		text_copy(id, sizeof id, w->id);
		text_copy(dir, sizeof dir, w->download_dir);
		if (w->download_name)
			text_copy(name, sizeof name, w->download_name);
		overwrite = w->download_overwrite;
	}
	free(idx);
	if (!ready)
		return left;
	/* asked once: taken off the state before the job's events change it */
	state_watch_download(&app->state, origin, app->opts.org_id, STATE_WATCH_EXPORT, id, NULL,
			     NULL, false);
	struct steno_error err;
	steno_error_clear(&err);
	int job = jobs_download(app->jobs, &ready->export_, dir, name[0] ? name : NULL, overwrite,
				&err);
	if (job > 0 && app_watch_job(app, job) == 0)
		app_status(app, "export %s is ready: downloading it to %s, as asked before", id, dir);
	else if (job < 0)
		app_error(app, &err);
	app_save_state(app);
	return true;   /* another may wait: looked at on the next pass */
}
