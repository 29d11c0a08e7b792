/* The app's accessors and its messages: status bar notices, errors, the log. */
#include "config.h"

#include "ui/app_access.h"

#include "ui/format.h"
#include "ui/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/http.h"

/* ---- accessors ---- */

struct steno_http *app_http(struct app *app) { return app->http; }
struct steno_store *app_store(struct app *app) { return app->store; }
struct scheduler *app_scheduler(struct app *app) { return sync_scheduler(app->sync); }
struct steno_jobs *app_jobs(struct app *app) { return app->jobs; }
const struct steno_config *app_config(struct app *app) { return app->config; }
struct steno_state *app_state(struct app *app) { return &app->state; }
struct ui_frame *app_frame(struct app *app) { return &app->ses.frame; }
const struct ui_options *app_options(struct app *app) { return &app->opts; }
int app_read_only(struct app *app) { return app->opts.read_only; }
const char *app_org_id(struct app *app) { return app->org_id; }
const char *app_folder_id(struct app *app) { return app->folder_id; }
const char *app_selected_id(struct app *app) { return app->list.selected; }

int64_t app_now_ms(struct app *app)
{
	return sync_now_ms(app->sync);   /* the engine's clock: one time base for all */
}

int64_t app_wall_ms(struct app *app)
{
	struct timespec ts;

	if (app->opts.clock_ms)
		return app->opts.clock_ms(app->opts.clock_ud);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const struct store_transcription *app_selected(struct app *app)
{
	return app->list.selected ? store_transcription_get(app->store, app->list.selected) : NULL;
}

const char *const *app_marked(struct app *app, size_t *n)
{
	*n = app->list.n_marks;
	return (const char *const *)app->list.marks;
}

/* ---- hooks (listeners back up to app.c) ---- */

unsigned app_pass_action(struct app *app, enum action_id act)
{
	return app->hooks.action ? app->hooks.action(app, act) : PANE_IGNORED;
}

void app_notify_dialogs(struct app *app)
{
	if (app->hooks.changed)
		app->hooks.changed(app);
}

/* ---- the state file ---- */

void app_save_state(struct app *app)
{
	struct steno_error err;

	if (app->state.dirty && app->state_path && state_save(&app->state, app->state_path, &err) != 0)
		app_status(app, "state not saved: %s", err.message);
}

/* ---- messages ---- */

void app_status(struct app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vformat(app->ses.status.notice, sizeof app->ses.status.notice, fmt, ap);
	va_end(ap);
	/* the newer message wins: an error that a later action moved past would read as its
	 * outcome (a retried export shown as failed) */
	app->ses.status.error[0] = '\0';
	pane_dirty(app->ses.status_pane);
}

void app_error_forget(struct app *app, const char *about)
{
	if (about && *about && strstr(app->ses.status.error, about)) {
		app->ses.status.error[0] = '\0';
		pane_dirty(app->ses.status_pane);
	}
}

void app_error(struct app *app, const struct steno_error *err)
{
	fmt_error_text(app->ses.status.error, sizeof app->ses.status.error, err);
	pane_dirty(app->ses.status_pane);
}

/* Appends a malloc'd line to a ring of cap slots (the oldest freed when full). */
static void ring_push(char **ring, size_t cap, size_t *head, size_t *count, char *line)
{
	size_t slot = (*head + *count) % cap;

	if (*count == cap) {
		free(ring[*head]);
		*head = (*head + 1) % cap;
	} else {
		(*count)++;
	}
	ring[slot] = line;
}

void app_log(struct app *app, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	time_t t = (time_t)(app_wall_ms(app) / 1000);
	struct tm tm;
	size_t n;

	gmtime_r(&t, &tm);
	n = strftime(buf, sizeof buf, "%H:%M:%S ", &tm);
	va_start(ap, fmt);
	text_vformat(buf + n, sizeof buf - n, fmt, ap);
	va_end(ap);
	char *line = strdup(buf);
	if (!line)
		return;
	ring_push(app->log, APP_LOG_LINES, &app->log_head, &app->log_count, line);
	pane_dirty(app->logp);
}

void app_history_add(struct app *app, const char *text)
{
	char buf[400];
	time_t t = (time_t)(app_wall_ms(app) / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	size_t n = strftime(buf, sizeof buf, "%H:%M ", &tm);
	snprintf(buf + n, sizeof buf - n, "%s", text);
	char *line = strdup(buf);
	if (line)
		ring_push(app->history, APP_HISTORY_LINES, &app->history_head,
			  &app->history_count, line);
}

const char *app_history_at(const struct app *app, size_t i)
{
	return i < app->history_count ?
		app->history[(app->history_head + i) % APP_HISTORY_LINES] : NULL;
}

void app_refresh_status(struct app *app)
{
	struct status_info *s = &app->ses.status;
	int flight = (int)steno_http_pending(app->http);

	if (s->in_flight != flight) {
		s->in_flight = flight;
		pane_dirty(app->ses.status_pane);
	}
	/* the real remaining wait of the engine's rate gate, counted down each second */
	double asked;
	long wait = sync_rate_wait_ms(app->sync, &asked);
	double secs = wait > 0 ? ceil((double)wait / 1000.0) : 0;
	if (secs != ceil(s->rate_wait_s) || (wait > 0 && asked != s->rate_asked_s)) {
		s->rate_wait_s = secs;
		s->rate_asked_s = asked;
		pane_dirty(app->ses.status_pane);
	}
}
