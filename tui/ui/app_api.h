#ifndef STENO_UI_APP_API_H
#define STENO_UI_APP_API_H

/* The app as panes and dialogs see it: struct app is opaque here, and every accessor takes a
 * non-NULL app. Defined in the floors below the panes and dialogs (app_access.c, app_list.c,
 * app_watch.c, pane_activity.c), never in app.c: a dialog including this calls nothing above
 * it. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "core/store.h"

struct steno_http;
struct steno_config;
struct steno_jobs;
struct steno_state;
struct scheduler;
struct ui_frame;
struct ui_options;
struct pane;
struct app;

struct steno_http *app_http(struct app *app);
struct steno_store *app_store(struct app *app);
struct scheduler *app_scheduler(struct app *app);
struct steno_jobs *app_jobs(struct app *app);
const struct steno_config *app_config(struct app *app);   /* never NULL (defaults) */
struct steno_state *app_state(struct app *app);           /* learned folders */
/* Saves the state file now when it changed (read-merge-write under its lock), so that what
 * the user just did survives a steno that is killed; errors go to the status line. */
void app_save_state(struct app *app);
struct ui_frame *app_frame(struct app *app);
const struct ui_options *app_options(struct app *app);
int app_read_only(struct app *app);

/* Monotonic ms (for store/scheduler `now`) and wall clock ms since the epoch. */
int64_t app_now_ms(struct app *app);
int64_t app_wall_ms(struct app *app);

/* The current organization and folder (NULL when none selected / the root). */
const char *app_org_id(struct app *app);
const char *app_folder_id(struct app *app);

/* The transcription under the cursor: its id (NULL when the list is empty) and its record
 * in the store (NULL when unknown). Valid until the store changes. */
const char *app_selected_id(struct app *app);
const struct store_transcription *app_selected(struct app *app);

/* The row under the activity pane's cursor: a watched order, export or translation task, or a
 * job's order / export / task once its id is known. Returns its id (*kind set), or NULL when
 * the row is none of these (an upload, a transcription job, an empty pane). Valid until the
 * store or the jobs change. */
const char *app_selected_activity(struct app *app, enum store_activity_kind *kind);
/* The file a finished download job under the activity cursor wrote, else NULL. */
const char *app_selected_file(struct app *app);

/* The marked transcription ids; *n gets the count. The array and strings are the app's,
 * valid until the marks change. When nothing is marked, callers act on the selection. */
const char *const *app_marked(struct app *app, size_t *n);
void app_unmark_all(struct app *app);

/* A message in the status bar (sanitized when drawn). app_error formats a steno_error
 * ("the API key was refused" for 401 ...) and keeps it as the last error. */
void app_status(struct app *app, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void app_error(struct app *app, const struct steno_error *err);
/* The user left the thing `about` names (an id): an error that names it stops showing. */
void app_error_forget(struct app *app, const char *about);

/* Shows a resource in the activity pane and polls it until final (a notification when it
 * finishes or fails). The id is copied. Returns 0 or -1 (no memory). */
int app_watch(struct app *app, enum store_activity_kind kind, const char *id);
/* Follows a job of app_jobs() (progress in the activity pane, notification at the end). */
int app_watch_job(struct app *app, int job_id);

/* Remembers a folder of the current organization in the state file (e.g. from a created
 * order) so the organizations pane lists it. Returns 0 or -1. */
int app_learn_folder(struct app *app, const char *folder_id, const char *path);

/* Opens an overlay (dialog, preview) on top of everything; the frame takes ownership of
 * p (also on failure). The pane's ctx must be app_frame(app)->ctx. */
void app_open_overlay(struct app *app, struct pane *p);

/* Reloads the current list from page 1 (after a create or delete). */
void app_request_refresh(struct app *app);

#endif
