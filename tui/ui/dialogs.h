#ifndef STENO_UI_DIALOGS_H
#define STENO_UI_DIALOGS_H

/* The write flows of the TUI (issue 6), reached from app.c: every ACTION_WRITES action and
 * preview / copy-url / copy-id / export / download open their dialog (one per file:
 * dialog_transcribe, dialog_order, dialog_confirm, dialog_translate, dialog_export,
 * dialog_delete, pane_preview, dialog_popup) as an overlay of the app's frame. */

struct app;

/* Opens the dialog of action_id (enum action_id) for the app's current organization,
 * folder, marks or selection. Returns enum pane_result bits, PANE_IGNORED for an action
 * that has no dialog. */
int dialogs_handle_action(struct app *app, int action_id);

/* Marks an open dialog dirty so it shows new progress: the app calls it from its jobs
 * event callback and its store listener (dialogs follow their jobs when they draw). */
void dialogs_notify(struct app *app);

/* ACT_OPEN_FILE for a downloaded file (e.g. the activity pane's export): runs the configured
 * opener when a display is available ($DISPLAY / $WAYLAND_DISPLAY), else says where the
 * file is, in the status bar. Returns enum pane_result bits. */
int dialogs_open_file(struct app *app, const char *path);

#endif
