#ifndef STENO_UI_APP_INPUT_H
#define STENO_UI_APP_INPUT_H

#include "ui/app_access.h"

/* app_input.c: a one-line text input on the last line (filter, tag, order id), with the
 * readline keys and history of ui/line_input.h. On Enter `submit` gets the text ("" clears;
 * the line goes into the history); Esc calls `cancel` (may be NULL). A live input also calls
 * `changed` after each edit, `key` first with each key (true: used, e.g. Tab), and draws
 * `hint` after the line (a count, or an error in the error style). */
typedef void (*app_input_fn)(struct app *app, const char *text);
struct app_input {
	const char *label;                 /* static */
	const char *initial;               /* copied; may be NULL */
	app_input_fn submit, changed, cancel;
	bool (*key)(struct app *app, ui_key key);
	void (*hint)(struct app *app, char *buf, size_t size, bool *error);
	/* Tab: the line completed from text into out (true), the candidates said by the owner;
	 * NULL: Tab is the line's own */
	bool (*complete)(struct app *app, const char *text, char *out, size_t size);
	struct line_history *history;      /* borrowed; may be NULL */
};
void app_input_start(struct app *app, const struct app_input *spec);
void app_input_open(struct app *app, const char *label, const char *initial, app_input_fn fn);
struct pane *app_input_pane(struct app *app);   /* the input open on top, or NULL */

#endif
