#ifndef STENO_UI_APP_H
#define STENO_UI_APP_H

/* The interactive TUI: ui_main opens the terminal, the engine, the store, the poll
 * scheduler and the jobs, lays out the panes (organizations, transcriptions, details,
 * activity, log, status bar) and runs the single-thread loop of DESIGN.md until quit.
 *
 * struct app is opaque; dialogs (ui/dialogs.h) and panes reach its parts through the
 * accessors of ui/app_api.h (included here for main and the tests). */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ui/app_api.h"
#include "ui/ui_options.h"

struct app;

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

/* The dialogs hook (issue 6), implemented in ui/dialogs.c and declared in ui/dialogs.h as
 *     int dialogs_handle_action(struct app *app, int action_id);
 * app.c calls it for every ACTION_WRITES action (never in read-only mode: those are
 * refused first) and for ACT_PREVIEW, ACT_COPY_URL, ACT_COPY_ID, ACT_EXPORT, ACT_DOWNLOAD and
 * ACT_OPEN_FILE. It returns enum pane_result bits (PANE_HANDLED | PANE_REDRAW ...), or
 * PANE_IGNORED when it did nothing. app.c also calls dialogs_notify(app) on every job event and store change. */

#endif
