#ifndef STENO_UI_APP_H
#define STENO_UI_APP_H

/* The interactive TUI: ui_main opens the terminal, the engine, the store, the poll
 * scheduler and the jobs, lays out the panes (organizations, transcriptions, details,
 * activity, log, status bar) and runs the single-thread loop of DESIGN.md until quit.
 *
 * struct app is opaque; dialogs (ui/dialogs.h) and panes reach its parts through the
 * accessors below. Every accessor takes a non-NULL app. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api/error.h"
#include "core/store.h"

struct steno_http;
struct steno_config;
struct steno_paths;
struct steno_jobs;
struct steno_state;
struct scheduler;
struct ui_frame;
struct pane;
struct app;

/* What main() hands to ui_main. Ownership: everything stays the caller's; ui_main copies
 * what it keeps. NULL / 0 fields take the defaults noted. */
struct ui_options {
	/* the account (already resolved by main: --profile, env, config) */
	const char *base_url;        /* required */
	const char *api_key;         /* may be NULL (then the server will answer 401) */
	const char *org_id;          /* the default organization; NULL: none configured */
	const char *profile;         /* profile name for the status bar; may be NULL */
	/* looks */
	const char *theme;           /* --theme (name or path); NULL: config's, else "default" */
	int read_only;               /* --read-only (or config read_only) */
	int offline;                 /* --offline (or config offline): nothing is sent */
	int ascii;                   /* --ascii (or config ascii) */
	int mouse;                   /* --mouse (or config mouse); off by default */
	const char *trace_path;      /* --trace FILE; NULL: config's trace_file, else none */
	/* "bind ..." / "unbind ..." lines (NULL: taken from config->bindings) */
	const char *key_lines;
	const char *key_origin;      /* file name for their messages */
	const struct steno_config *config;  /* the loaded config; NULL: built-in defaults */
	const struct steno_paths *paths;    /* for the state file; NULL: resolved from env */
	/* For tests and benches; NULL = the real terminal / clock. */
	const char *term;            /* terminfo name; NULL: $TERM */
	FILE *in, *out;              /* NULL: stdin / stdout */
	int64_t (*clock_ms)(void *ud);      /* wall clock in ms since the epoch (countdowns,
					     * "time in state"); NULL: real time */
	void *clock_ud;
	/* transcripts read into the local store in the background (config `index`; off here
	 * unless set: the screen tests count their requests) */
	int index_content;
};

/* Runs the TUI. Returns 0 on quit, 1 when input ended (EOF/HUP), 2 when the terminal,
 * the engine or memory could not be set up (a message went to stderr). */
int ui_main(const struct ui_options *opts);

/* For screen tests and benches: ui_main's set-up without its loop. app_new returns NULL
 * with a message in msg when set-up fails. app_step runs one pass without reading the
 * terminal's fd: waits at most max_ms for the engine (0: no wait), runs completions and
 * due polls, then reads the keys queued in curses (ungetch) and draws. Returns 1 once a
 * key asked to quit. app_busy: requests of the app or of jobs are still running. */
struct app *app_new(const struct ui_options *opts, char *msg, size_t size);
int app_step(struct app *app, int max_ms);
bool app_busy(struct app *app);
void app_destroy(struct app *app);

/* ---- the app, for panes and dialogs ---- */

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

/* The dialogs hook (issue 6), implemented in ui/dialogs.c and declared in ui/dialogs.h as
 *     int dialogs_handle_action(struct app *app, int action_id);
 * app.c calls it for every ACTION_WRITES action (never in read-only mode: those are
 * refused first) and for ACT_PREVIEW, ACT_COPY_URL, ACT_COPY_ID, ACT_EXPORT, ACT_DOWNLOAD and
 * ACT_OPEN_FILE. It returns enum pane_result bits (PANE_HANDLED | PANE_REDRAW ...), or
 * PANE_IGNORED when it did nothing. app.c also calls dialogs_notify(app) on every job event and store change. */

#endif
