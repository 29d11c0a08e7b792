#ifndef STENO_UI_DIALOG_BASE_H
#define STENO_UI_DIALOG_BASE_H

/* The life of a form dialog, shared by every dialog so that each file keeps only what is its
 * own: allocation and release, the usual form keys, the frame, following a job, and reading
 * the fields several dialogs have (upload source, folder, tags, the list of names). */

#include <stdbool.h>
#include <stddef.h>

#include "ui/dialog_common.h"
#include "ui/form.h"
#include "ui/pane.h"

/* The first member (`b`) of every form dialog's data. Ownership: dialog_new allocates the
 * whole dialog; dialog_close frees the form, the env copy and the dialog. pane is borrowed. */
struct dialog_base {
	struct dialog_env env;
	struct form form;
	struct pane *pane;
	int job;                  /* the job the dialog follows (0: none yet) */
	/* The dialog's local validation of the request the form makes now (NULL: none): after
	 * each change, a validation error it no longer gives leaves the form (form_recheck). */
	int (*check)(void *dialog, struct steno_error *err);
	/* Enter inside a field submits (a dialog that makes nothing on the server: a download);
	 * false, the default, for the forms that create or spend: Enter goes to the next field,
	 * the button or submit-form (F2) submits. */
	bool enter_submits;
};

/* Allocates a zeroed dialog of `size` bytes (a struct beginning with struct dialog_base),
 * copies env, runs build(dialog) and makes it p->data. NULL (nothing left) on failure. */
void *dialog_new(struct pane *p, size_t size, const struct dialog_env *env, int (*build)(void *dialog));
/* A pane_ops close: cancels the requests the dialog made through core/jobs_extra (it is
 * their owner), frees p->data (a dialog from dialog_new). Dialogs holding more release that
 * first, then call it. */
void dialog_close(struct pane *p);

/* The form's keys: Esc and the "cancel" button close (PANE_HANDLED | PANE_CLOSE); any other
 * button and submit-form (F2) call submit(dialog), Enter too when b->enter_submits (else it
 * goes to the next field); then update(dialog) (may be NULL) and a redraw. */
unsigned dialog_form_key(struct dialog_base *b, enum action_id act, ui_key key,
			 void (*submit)(void *dialog), void (*update)(void *dialog));
/* A frame_fit_fn for form dialogs (p->data a struct dialog_base): the border, the fields
 * shown with their errors, room for the form's message (a gap and two lines), at least
 * DIALOG_FIT_MIN_ROWS so that progress and results have room; 0 (the whole height) while a
 * picker is open. */
#define DIALOG_FIT_MESSAGE_ROWS 3
#define DIALOG_FIT_MIN_ROWS 12
int dialog_fit_rows(const struct pane *p, int cols);
/* A finished dialog: Enter and Esc close, other keys are swallowed. */
unsigned dialog_result_key(enum action_id act);
/* Draws the frame; while editing (edit) the form too and returns true: nothing more to draw. */
bool dialog_draw_form(struct pane *p, struct dialog_base *b, const char *title, const char *hint, bool edit);
/* Wraps text over at most max_lines body lines from row y, in the error style when error
 * (then back to the dialog style); returns the lines used. */
int dialog_draw_text(struct pane *p, int y, int max_lines, const char *text, bool error);

/* Begins a submit: clears err and the form's errors, then returns a zeroed request of `size`
 * bytes (the caller frees), or NULL with "out of memory" on the form. */
void *dialog_request_new(struct dialog_base *b, size_t size, struct steno_error *err);
/* After starting a job: on id >= 0 follows it (b->job, the watch hook) and returns true;
 * else shows err on the form and returns false. */
bool dialog_job_started(struct dialog_base *b, int id, const struct steno_error *err);
/* b->job while it runs or once done; NULL when it is gone or failed (its error shown) or was
 * cancelled (`cancelled` shown): the dialog goes back to editing. */
const struct steno_job *dialog_job_alive(struct dialog_base *b, const char *cancelled);
/* Cancels b->job while its file is still being uploaded; true when it did. */
bool dialog_cancel_upload(struct dialog_base *b);

/* The "source" radio (url / file): shows the "url" or the "file" field; true for a file. */
bool dialog_update_source(struct form *f);
/* With the "file" source: 1 and *upload = file when it is a regular file, -1 (the error on
 * the "file" field, focused) when not; 0 and *upload = NULL with the URL source. */
int dialog_upload_file(struct form *f, const char *file, const char **upload);
/* The folder the form names: the typed "folder" path (into buf, without a leading '/'), else
 * the learned folder picked in "folder_pick" (path or id); both NULL when none. */
void dialog_fill_folder(struct form *f, char *buf, size_t size, const char **folder, const char **folder_id);
/* The "tags" field (copied into buf) split into v (at most max); *tags = v, or NULL when there
 * are none. Returns the count. */
size_t dialog_fill_tags(struct form *f, char *buf, size_t size, const char **v, size_t max,
			const char *const **tags);
/* "name, name, ..." of env's transcriptions into buf (cut at size). */
void dialog_join_names(const struct dialog_env *env, char *buf, size_t size);

#endif
