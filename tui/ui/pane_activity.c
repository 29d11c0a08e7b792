/* Activity: the jobs started from this run (uploads, downloads, creations) and the
 * orders, exports and translation tasks steno watches: state, ingestions, produced
 * transcriptions, pricing, progress and time in state. */
#include "config.h"

#include "ui/pane_activity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"
#include "ui/app_access.h"
#include "ui/app_draw.h"
#include "ui/app_watch.h"
#include "ui/draw.h"
#include "ui/pane_describe.h"
#include "ui/style.h"
#include "ui/format.h"
#include "ui/table.h"
#include "ui/text.h"

enum { COL_KIND, COL_ID, COL_STATE, COL_TIME, COL_INFO, COL_COUNT };

static const struct layout_col act_cols[COL_COUNT] = {
	[COL_KIND]  = { "Kind",    6, 11, 2, 0, TEXT_LEFT },
	[COL_ID]    = { "ID",      6, 12, 3, 1, TEXT_LEFT },   /* flex: never dropped, two
							     * exports told apart at 80 */
	[COL_STATE] = { "State",   8, 14, 1, 0, TEXT_LEFT },
	[COL_TIME]  = { "Age",      7, 8, 4, 0, TEXT_RIGHT },
	[COL_INFO]  = { "Progress", 10, 60, 0, 1, TEXT_LEFT },
};

/* Ownership: the pane's data. */
struct activity_pane {
	struct app *app;
	struct listview lv;
	char time[64][16];
	char info[64][256];
};

static const char *const job_kinds[] = { "transcribe", "order", "export", "translate",
	"task", "confirm", "download" };

static void info_order(char *out, size_t size, const struct steno_order *o)
{
	size_t done = 0, len;

	for (size_t i = 0; i < o->n_ingestions; i++)
		done += o->ingestions[i].state && !strcmp(o->ingestions[i].state, "done");
	char count[48];
	fmt_count(count, sizeof count, (double)(o->n_transcriptions ? o->n_transcriptions :
						 o->outputs_ids.n), "transcription");
	len = text_appendf(out, size, 0, "ingested %zu/%zu, %s", done, o->n_ingestions, count);
	if (o->details.present && steno_known(o->details.total_cents.st)) {
		char money[32];
		fmt_money(money, sizeof money, o->details.total_cents.v, o->details.currency_symbol);
		text_appendf(out, size, len, ", total %s", money);
	}
}

static void info_task(char *out, size_t size, const struct steno_translation_task *t)
{
	char pct[16] = "?%";

	if (steno_known(t->progress_percent.st))
		fmt_percent(pct, sizeof pct, t->progress_percent.v / 100.0);
	text_format(out, size, "%s to %s%s%s", pct, t->target_language ? t->target_language : "?",
		 t->failure_reason ? ": " : "", t->failure_reason ? t->failure_reason : "");
}

static void info_export(char *out, size_t size, const struct steno_export *e)
{
	char count[48];

	fmt_count(count, sizeof count, (double)e->transcription_ids.n, "transcription");
	text_format(out, size, "%s, %s%s", e->format ? e->format : "?", count,
		    e->download_link ? ", ready" : "");
}

static void info_activity(char *out, size_t size, const struct store_activity *a)
{
	out[0] = '\0';
	if (a->has_error)
		text_format(out, size, "refresh failed: %s", a->error.message);
	else if (a->job_end)   /* how the last job on it ended: what the user did last */
		text_copy(out, size, a->job_end);
	else if (a->kind == STORE_ACT_ORDER)
		info_order(out, size, &a->order);
	else if (a->kind == STORE_ACT_EXPORT)
		info_export(out, size, &a->export_);
	else
		info_task(out, size, &a->task);
}

/* A job's row: its progress, or once over the words recorded on what it followed
 * (jobs_end_text: "download cancelled" on both rows). */
static void info_job(char *out, size_t size, const struct steno_job *j, int ascii)
{
	char end[STORE_JOB_END_MAX];

	if (jobs_end_text(j, end, sizeof end)[0]) {
		text_copy(out, size, end);
	} else if ((j->step == JOB_STEP_UPLOADING || j->step == JOB_STEP_DOWNLOADING) &&
		   j->bytes_total) {
		char bar[64], a[16], b[16];
		fmt_progress(bar, sizeof bar, (double)j->bytes_done / (double)j->bytes_total, 10, ascii);
		fmt_bytes(a, sizeof a, j->bytes_done);
		fmt_bytes(b, sizeof b, j->bytes_total);
		snprintf(out, size, "%s %s/%s", bar, a, b);
	} else if (j->n_result_ids) {
		fmt_count(out, size, (double)j->n_result_ids, "transcription");
	} else {
		text_copy(out, size, j->resource_id);
	}
}

/* How old an order, export or task is, in seconds: from the server's time when it gives one
 * (an export's created_at), else from when it was first followed (the state file's wall
 * time, kept across restarts), else from when this run saw its state change. */
static long long activity_age_s(struct app *app, const struct store_activity *a, int64_t now)
{
	static const enum state_watch_kind wk[] = { [STORE_ACT_ORDER] = STATE_WATCH_ORDER,
		[STORE_ACT_EXPORT] = STATE_WATCH_EXPORT,
		[STORE_ACT_TRANSLATION_TASK] = STATE_WATCH_TASK };
	int64_t wall = app_wall_ms(app);
	char origin[512];

	if (a->kind == STORE_ACT_EXPORT && steno_known(a->export_.created_at.st) &&
	    a->export_.created_at.ms > 0 && a->export_.created_at.ms <= wall)
		return (long long)((wall - a->export_.created_at.ms) / 1000);
	const struct state_watch *w = state_origin(app->opts.base_url, origin, sizeof origin) ?
		state_watch_get(&app->state, origin, app->opts.org_id, wk[a->kind], a->id) : NULL;
	if (w && w->added_ms > 0 && w->added_ms <= wall)
		return (long long)((wall - w->added_ms) / 1000);
	return (long long)((now - a->state_changed_ms) / 1000);
}

/* One row per thing: a job whose order, export or task is a row of the store shows on that
 * row (its progress while it runs), not on a row of its own. */
static bool job_on_item_row(struct app *app, const struct steno_job *j)
{
	enum store_activity_kind k;

	return j && j->resource_id && jobs_resource_kind(j, &k) &&
	       store_activity_find(app->store, k, j->resource_id);
}

/* The jobs with a row of their own (the first rows), and the index-th of them in
 * app->watched_jobs (-1: none). */
static int own_job_rows(struct app *app)
{
	int n = 0;

	for (size_t i = 0; i < app->n_watched_jobs; i++)
		n += !job_on_item_row(app, jobs_get(app->jobs, app->watched_jobs[i]));
	return n;
}

static int own_job(struct app *app, int index)
{
	for (size_t i = 0; index >= 0 && i < app->n_watched_jobs; i++)
		if (!job_on_item_row(app, jobs_get(app->jobs, app->watched_jobs[i])) && index-- == 0)
			return (int)i;
	return -1;
}

/* The job running on an item's row (the latest watched one), NULL when none runs. */
static const struct steno_job *item_job(struct app *app, const struct store_activity *a)
{
	const struct steno_job *found = NULL;
	enum store_activity_kind k;

	for (size_t i = 0; i < app->n_watched_jobs; i++) {
		const struct steno_job *j = jobs_get(app->jobs, app->watched_jobs[i]);
		if (j && j->step < JOB_STEP_DONE && j->resource_id && jobs_resource_kind(j, &k) &&
		    k == a->kind && !strcmp(j->resource_id, a->id))
			found = j;
	}
	return found;
}

static int act_rows(struct app *app)
{
	return own_job_rows(app) + (int)store_activity_count(app->store);
}

static void act_row(void *ctx, int index, struct table_row *row)
{
	struct pane *p = ctx;
	struct activity_pane *ap = p->data;
	struct app *app = ap->app;
	int slot = (index - ap->lv.top) & 63;
	int64_t now = app_now_ms(app);
	char *t = ap->time[slot], *info = ap->info[slot];

	int own = own_job_rows(app);
	if (index < own) {
		int w = own_job(app, index);
		const struct steno_job *j = w >= 0 ? jobs_get(app->jobs, app->watched_jobs[w]) : NULL;
		if (!j)
			return;
		row->cells[COL_KIND] = job_kinds[j->kind];
		row->cells[COL_ID] = j->resource_id ? j->resource_id : "-";
		row->cells[COL_STATE] = jobs_step_name(j->step);
		row->elem[COL_STATE] = j->step == JOB_STEP_FAILED ? THEME_STATE_FAILED :
			j->step == JOB_STEP_DONE ? THEME_STATE_DONE : THEME_STATE_WORKING;
		fmt_span(t, 16, (long long)((now - j->step_ms) / 1000));
		info_job(info, 256, j, p->ctx->ascii);
		row->changing = j->step < JOB_STEP_DONE;
	} else {
		const struct store_activity *a = store_activity_at(app->store, (size_t)(index - own));
		if (!a)
			return;
		const struct steno_job *j = item_job(app, a);
		static const char *const kinds[] = { "order", "export", "task" };
		row->cells[COL_KIND] = kinds[a->kind];
		row->cells[COL_ID] = a->id;
		row->cells[COL_STATE] = a->state ? a->state : "?";
		row->elem[COL_STATE] = !a->finished ? THEME_STATE_WORKING :
			a->has_error ? THEME_STATE_FAILED : THEME_STATE_DONE;
		fmt_span(t, 16, activity_age_s(app, a, now));
		if (j) {   /* a job runs on it: its step and progress here */
			row->cells[COL_STATE] = jobs_step_name(j->step);
			row->elem[COL_STATE] = THEME_STATE_WORKING;
			info_job(info, 256, j, p->ctx->ascii);
		} else {
			info_activity(info, 256, a);
		}
		if (!j && (a->has_error || (a->job_end && a->job_end_failed)))
			row->elem[COL_INFO] = THEME_STATE_FAILED;
		row->changing = !a->finished || j;
	}
	row->cells[COL_TIME] = t;
	row->cells[COL_INFO] = info;
}

/* The job of a row: its own, or the one running on the item's row; NULL when none. */
static const struct steno_job *row_job(struct app *app, int index)
{
	int own = own_job_rows(app), w = index < own ? own_job(app, index) : -1;

	if (index < 0)
		return NULL;
	if (index < own)
		return w >= 0 ? jobs_get(app->jobs, app->watched_jobs[w]) : NULL;
	const struct store_activity *a = store_activity_at(app->store, (size_t)(index - own));
	return a ? item_job(app, a) : NULL;
}

static int activity_cursor(struct app *app)
{
	const struct activity_pane *ap = app->activity ? app->activity->data : NULL;

	if (!ap || ap->lv.cursor >= act_rows(app))
		return -1;
	return ap->lv.cursor;
}

const char *app_selected_activity(struct app *app, enum store_activity_kind *kind)
{
	int i = activity_cursor(app);

	if (i < 0)
		return NULL;
	const struct steno_job *j = row_job(app, i);
	int own = own_job_rows(app);
	/* a transcribe job's transcription is in the list, not here */
	if (i < own)
		return jobs_resource_kind(j, kind) ? j->resource_id : NULL;
	const struct store_activity *a = store_activity_at(app->store, (size_t)(i - own));
	if (!a)
		return NULL;
	*kind = a->kind;
	return a->id;
}

void app_activity_select(struct app *app, enum store_activity_kind kind, const char *id)
{
	struct activity_pane *ap = app->activity ? app->activity->data : NULL;

	for (size_t i = 0; ap && i < store_activity_count(app->store); i++) {
		const struct store_activity *a = store_activity_at(app->store, i);
		if (a->kind == kind && !strcmp(a->id, id)) {
			ap->lv.cursor = own_job_rows(app) + (int)i;
			pane_dirty(app->activity);
			return;
		}
	}
}

const char *app_selected_file(struct app *app)
{
	const struct steno_job *j = row_job(app, activity_cursor(app));

	return j && j->step == JOB_STEP_DONE ? j->file : NULL;
}

static int activity_open(struct pane *p, void *arg)
{
	struct activity_pane *ap = calloc(1, sizeof *ap);

	if (!ap)
		return -1;
	ap->app = arg;
	p->data = ap;
	return 0;
}

static void activity_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

/* The history of state changes at the bottom (at most a third of the pane, the newest
 * last); returns the rows it took. */
static int activity_draw_history(struct pane *p, const struct app *app)
{
	int want = (int)app->history_count, max = (p->rows - 1) / 3 - 1;

	if (!want || max < 1)
		return 0;
	int n = want < max ? want : max, y = p->rows - n - 1;
	style_set(p->win, THEME_PANE_TITLE);
	draw_blank(p->win, y, 0, p->cols);
	draw_text(p->win, y, 1, p->cols - 2, "History", TEXT_LEFT, app_text_flags(p));
	style_set(p->win, THEME_MUTED);
	for (int i = 0; i < n; i++) {
		draw_blank(p->win, y + 1 + i, 0, p->cols);
		draw_text(p->win, y + 1 + i, 1, p->cols - 2,
			  app_history_at(app, app->history_count - (size_t)n + (size_t)i),
			  TEXT_LEFT, app_text_flags(p));
	}
	style_set(p->win, THEME_NORMAL);
	return n + 1;
}

static void activity_draw(struct pane *p)
{
	struct activity_pane *ap = p->data;
	struct table_view tv = { act_cols, COL_COUNT, 1, p->focused, app_text_flags(p) };
	char title[64];
	int n = act_rows(ap->app);

	snprintf(title, sizeof title, "Activity %d", n);
	app_draw_title(p, title);
	int history = activity_draw_history(p, ap->app);
	if (!n) {
		static const char *const msg[] = { "Nothing watched.", "Orders, exports and",
			"translations you start", "appear here." };
		app_draw_message(p, 2, msg, 4);
		return;
	}
	listview_resize(&ap->lv, n, p->rows - 2 - history);
	/* widths from what the rows hold, as the list's: Progress first, then the id, take the
	 * room left (both are cut to their minimum when room lacks) */
	struct table_fit fit = { .grow = { [COL_INFO] = 1, [COL_ID] = 2 }, .sort_col = -1 };
	table_draw_fit(p->win, 1, p->cols, &tv, &fit, &ap->lv, act_row, p);
}

/* X on a row: an ended job's row goes; an order, export or task is no longer watched, polled
 * or remembered (sync_unwatch), and an error about it stops showing. A running job is
 * cancelled first (x). */
static unsigned activity_dismiss(struct activity_pane *ap)
{
	struct app *app = ap->app;
	int i = activity_cursor(app);
	enum store_activity_kind kind;
	char id[128];

	if (i < 0) {
		app_status(app, "nothing to dismiss here");
		return PANE_HANDLED;
	}
	if (i < own_job_rows(app)) {
		const struct steno_job *j = row_job(app, i);
		int w = own_job(app, i), job = app->watched_jobs[w];
		if (j && j->step != JOB_STEP_DONE && j->step != JOB_STEP_FAILED &&
		    j->step != JOB_STEP_CANCELLED) {
			app_status(app, "job %d still runs: x cancels it first", job);
			return PANE_HANDLED;
		}
		memmove(&app->watched_jobs[w], &app->watched_jobs[w + 1],
			(app->n_watched_jobs - (size_t)w - 1) * sizeof *app->watched_jobs);
		app->n_watched_jobs--;
		app_status(app, "job %d dismissed", job);
		return PANE_HANDLED | PANE_REDRAW;
	}
	const char *sel = app_selected_activity(app, &kind);
	if (!sel)
		return PANE_HANDLED;
	const struct steno_job *running = row_job(app, i);
	if (running) {
		app_status(app, "job %d still runs on it: x cancels it first", running->id);
		return PANE_HANDLED;
	}
	text_copy(id, sizeof id, sel);   /* the store's copy goes with the row */
	sync_unwatch(app->sync, kind, id);
	app_status(app, "%s dismissed: no longer watched", id);
	app_error_forget(app, id);
	if (ap->lv.cursor > 0 && (size_t)ap->lv.cursor >= (size_t)act_rows(app))
		ap->lv.cursor--;
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned activity_key(struct pane *p, enum action_id act, ui_key key)
{
	struct activity_pane *ap = p->data;
	struct app *app = ap->app;

	(void)key;
	if (act == ACT_ENTER) {   /* the order, export or task full-screen */
		enum store_activity_kind kind = STORE_ACT_ORDER;
		const char *id = app_selected_activity(app, &kind);
		static const enum describe_kind dk[] = { [STORE_ACT_ORDER] = DESCRIBE_ORDER,
			[STORE_ACT_EXPORT] = DESCRIBE_EXPORT,
			[STORE_ACT_TRANSLATION_TASK] = DESCRIBE_TASK };
		const struct steno_job *j = row_job(app, ap->lv.cursor);
		if (id)
			app_describe(app, dk[kind], id);
		else if (j && j->kind == JOB_TRANSCRIBE && j->resource_id)
			app_describe(app, DESCRIBE_TRANSCRIPTION, j->resource_id);
		else
			app_status(app, "nothing to open here yet");
		return PANE_HANDLED | PANE_REDRAW;
	}
	if (act == ACT_DISMISS)
		return activity_dismiss(ap);
	if (act == ACT_CANCEL_JOB) {
		/* a cancelled job says so itself in the status line (app_on_job) */
		const struct steno_job *j = row_job(app, ap->lv.cursor);
		if (!j || jobs_cancel(app->jobs, j->id) != 0)
			app_status(app, "nothing to cancel here");
		return PANE_HANDLED | PANE_REDRAW;
	}
	enum store_activity_kind kind;
	const char *sel = act == ACT_REFRESH ? app_selected_activity(app, &kind) : NULL;
	if (sel) {
		/* `r` on an order, export or task reads it now (and follows it until final) */
		char id[128];
		snprintf(id, sizeof id, "%s", sel);
		app_watch(app, kind, id);
		app_status(app, "refreshing %s", id);
		return PANE_HANDLED | PANE_REDRAW;
	}
	int r = listview_action(&ap->lv, act);
	if (r >= 0)
		return r ? PANE_HANDLED | PANE_REDRAW : PANE_HANDLED;
	return app_pass_action(app, act);
}

const struct pane_ops activity_pane_ops = {
	.name = "activity", .scope = SCOPE_ACTIVITY, .place = PANE_PLACE_MAIN,
	.open = activity_open, .draw = activity_draw, .key = activity_key,
	.close = activity_close,
};
