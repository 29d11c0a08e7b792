#ifndef STENO_UI_FORM_H
#define STENO_UI_FORM_H

/* The form widget of every dialog: text fields (cursor, wide characters, horizontal
 * scrolling), checkboxes, radio choices, pickers (one of many, type to search), multi-select
 * lists (type to search, Space toggles), a file browser, buttons and read-only notes. Each
 * field can carry an error shown on the line below it; the form carries one message (the
 * server's) at the bottom. Keys: Tab/Down next field, Shift-Tab/Up previous, Enter submits
 * (or presses the focused button), Esc cancels; in a text field Left/Right/Home/End/BS/Del,
 * C-a C-e C-u C-k C-w edit. Pickers open with Space, Right or by typing.
 *
 * The editing and layout logic (form.c, form_pick.c) is pure: no curses, unit-tested.
 * form_draw.c paints into a window. */

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "api/error.h"
#include "ui/actions.h"
#include "ui/keys.h"
#include "ui/listview.h"

enum form_kind {
	FORM_TEXT,    /* one line of text */
	FORM_CHECK,   /* [x] on or off */
	FORM_RADIO,   /* a few options side by side; Left/Right/Space choose */
	FORM_PICK,    /* one of many options, chosen in the picker */
	FORM_MULTI,   /* several of many options, chosen in the picker */
	FORM_FILE,    /* a local path: typed, or chosen in the file browser */
	FORM_BUTTON,  /* Enter presses it */
	FORM_NOTE,    /* read-only text (not focusable) */
};

/* Ownership: strings malloc'd, freed with the form. */
struct form_option {
	char *value;     /* what the dialog sends ("en-US") */
	char *label;     /* what is shown; NULL: the value */
	char *note;      /* shown dimmed after the label ("pro"); may be NULL */
	char *summary;   /* what the field's value line shows once chosen; NULL: the label */
	bool is_dir;     /* file browser entries */
};

/* Ownership: the form's; everything malloc'd is freed by form_free. */
struct form_field {
	enum form_kind kind;
	char key[48];          /* the dialog's name; also the request field names it answers
	                        * errors for, space-separated ("source tmp_url url") */
	char label[32];
	wchar_t *text;         /* TEXT, FILE, NOTE: NUL-terminated, len chars */
	size_t len, cap;
	size_t cursor;         /* index in text, 0..len */
	size_t scroll;         /* first char shown */
	bool checked;          /* CHECK */
	int choice;            /* RADIO, PICK: option index, -1 none */
	bool *selected;        /* MULTI: one per option */
	struct form_option *opts;
	size_t n_opts;
	bool hidden;           /* not shown, not focusable, skipped by Tab */
	char error[256];       /* shown below the field when set */
	bool error_checked;    /* the error is a local validation's (STENO_ERR_INVALID):
	                        * form_recheck drops it once that check passes */
};

/* The picker that PICK, MULTI and FILE fields open over the form body. */
struct form_picker {
	bool active;
	int field;
	wchar_t filter[64];
	size_t flen;
	size_t *idx;           /* options matching the filter (into the field's opts) */
	size_t n_idx;
	struct listview lv;
	char dir[4096];        /* FILE: the directory shown */
	char error[256];       /* FILE: why a directory could not be read */
};

enum form_event {
	FORM_EV_NONE = 0,      /* the key was not used */
	FORM_EV_USED,          /* used: redraw */
	FORM_EV_SUBMIT,        /* Enter outside a button and outside the picker */
	FORM_EV_BUTTON,        /* Enter (or Space) on a button: form.pressed is its key */
	FORM_EV_CANCEL,        /* Esc outside the picker */
};

/* Ownership: form_init/form_free; a plain struct inside a dialog's data. */
struct form {
	struct form_field *fields;
	size_t n;
	int focus;             /* index of the focused field */
	char message[512];     /* the bottom line: a server error or a hint */
	bool message_error;
	bool message_about_fields; /* it points at field errors: goes when they are fixed */
	const char *pressed;   /* key of the button pressed by the last FORM_EV_BUTTON */
	bool nomem;            /* an edit could not allocate (the key was dropped) */
	struct form_picker pick;
	int body_rows;         /* set by form_draw: lines the last draw had (for paging) */
};

void form_init(struct form *f);
void form_free(struct form *f);

/* Adds a field; returns its index, or -1 when out of memory. */
int form_add(struct form *f, enum form_kind kind, const char *key, const char *label);
/* The field whose key's first word is `key`, or NULL. */
struct form_field *form_field(struct form *f, const char *key);
const struct form_field *form_field_c(const struct form *f, const char *key);

/* Adds an option (PICK, MULTI, RADIO). Returns 0 or -1 (no memory). */
int form_add_option(struct form *f, const char *key, const char *value, const char *label,
		    const char *note);
/* Sets the summary of the option added last to key's field. 0 or -1 (no memory, no option). */
int form_option_summary(struct form *f, const char *key, const char *summary);
/* Adds a RADIO field (key and label as form_add) with the options of the NULL-terminated
 * list `options`, each "value" or "value|label"; the first is chosen. 0 or -1 (no memory). */
int form_add_radio(struct form *f, const char *key, const char *label, const char *const *options);
/* Drops every option (e.g. before a list loaded from the server is put in). */
void form_clear_options(struct form *f, const char *key);

/* Text of TEXT/FILE/NOTE fields as UTF-8. form_set_text returns 0 or -1 (no memory or bad
 * UTF-8). form_text writes into buf (cut to size) and returns buf; "" when unknown. */
int form_set_text(struct form *f, const char *key, const char *utf8);
char *form_text(const struct form *f, const char *key, char *buf, size_t size);
/* The chosen option's value (RADIO, PICK) or NULL. */
const char *form_choice(const struct form *f, const char *key);
/* Chooses the option with that value; returns 0 or -1 when absent. */
int form_choose(struct form *f, const char *key, const char *value);
bool form_checked(const struct form *f, const char *key);
void form_set_checked(struct form *f, const char *key, bool on);
void form_set_hidden(struct form *f, const char *key, bool hidden);
/* MULTI: selected values into out (at most max); returns how many are selected. */
size_t form_selected(const struct form *f, const char *key, const char **out, size_t max);
void form_select(struct form *f, const char *key, const char *value, bool on);

/* Errors. form_set_error finds the field answering to `name` (any word of its key) and
 * shows msg below it; returns 0, or -1 when no field answers (the caller shows it as the
 * form message). form_show_error puts an error from api/core where it belongs: next to
 * its field when err->field names one, else as the form message ("HTTP 422: ..."). A field
 * error goes when the field is edited or hidden; a message pointing at field errors goes
 * with the last of them. A local validation's error (err->kind STENO_ERR_INVALID) also goes
 * when that validation, run again on the changed form, no longer gives it: form_recheck
 * with what it gives now (its kind STENO_ERR_NONE when it passes), so fixing the other
 * field the error was about (the service, for "pro is not available for ja-JP") clears it
 * too. */
int form_set_error(struct form *f, const char *name, const char *msg);
void form_clear_errors(struct form *f);
void form_show_error(struct form *f, const struct steno_error *err);
void form_recheck(struct form *f, const struct steno_error *now);
/* Whether a field shows an error of a local validation. */
bool form_has_checked_error(const struct form *f);
void form_set_message(struct form *f, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Focuses the first field with an error (after validation). */
void form_focus_first_error(struct form *f);
/* Focuses the field with that key (if shown). */
void form_focus(struct form *f, const char *key);

/* Handles one key (act from the dialog keymap scope, key the raw key): form_key.c. */
enum form_event form_key(struct form *f, enum action_id act, ui_key key);
/* Whether the field can have the focus (shown, not a note). */
bool form_focusable(const struct form_field *fl);
/* Moves the focus to the next (dir 1) or previous (-1) focusable field, round. */
void form_focus_move(struct form *f, int dir);
/* Drops the form message that points at field errors once none is left (after a key, a
 * recheck). */
void form_drop_stale_message(struct form *f);

/* ---- pure pieces, exported for the unit tests and form_draw ---- */

/* Text editing of one field (TEXT/FILE). Return 1 when something changed, 0 if not,
 * -1 on no memory. */
int form_edit_insert(struct form_field *fl, wchar_t wc);
int form_edit_key(struct form_field *fl, ui_key key);

/* What a text field shows in `cols` columns: out gets the visible part (capacity cap wide
 * chars incl. NUL), *cursor_col the column of the cursor. Adjusts fl->scroll so the cursor
 * stays visible and a wide character is never cut. */
void form_text_view(struct form_field *fl, int cols, wchar_t *out, size_t cap, int *cursor_col);

/* The value line of a non-text field as UTF-8 ("[x]", "(*) auto  ( ) pro", "en-US",
 * "fr, de (2)"). */
void form_value_line(const struct form_field *fl, char *buf, size_t size, bool ascii);

/* Picker: open on a field (seeding the filter with a typed char, 0 for none), refilter, close.
 * The search folds case (core/textfold.h); the options whose value starts with it come
 * first, then those with a word of the label starting with it, then those containing it
 * anywhere, each group in the options' own order (a file browser keeps its order). */
int form_pick_open(struct form *f, int field, wchar_t seed);
void form_pick_close(struct form *f);
int form_pick_refilter(struct form *f);
enum form_event form_pick_key(struct form *f, enum action_id act, ui_key key);
/* FILE: lists dir into the field's options (directories first, sorted, hidden files
 * skipped unless the filter starts with '.'). 0, or -1 with pick.error set. */
int form_pick_load_dir(struct form *f, const char *dir);

#endif
