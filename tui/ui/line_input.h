#ifndef STENO_UI_LINE_INPUT_H
#define STENO_UI_LINE_INPUT_H

/* A one-line input with the readline keys people expect: the editing of form text fields
 * (Left/Right, Home/End and C-a/C-e, BS, Del and C-d, C-u kills to the start, C-k to the
 * end, C-w the word before the cursor; form.c) plus a history browsed with Up/Down (the
 * line being typed comes back after the newest entry). Pure: no curses calls.
 * Ownership: line_input_init/line_input_free; the history is borrowed and outlives it. */

#include <stdbool.h>
#include <stddef.h>

#include "ui/form.h"

#define LINE_HISTORY_MAX 50

/* Lines entered before, oldest first. Ownership: line_history_free. */
struct line_history {
	char *items[LINE_HISTORY_MAX];
	size_t n;
};

/* Adds a line (not an empty one, not the same as the newest); the oldest drops out when
 * full. 0, or -1 when out of memory. */
int line_history_add(struct line_history *h, const char *utf8);
void line_history_free(struct line_history *h);

struct line_input {
	struct form_field field;        /* the text, cursor and scroll (FORM_TEXT) */
	struct line_history *history;   /* may be NULL */
	size_t hist_pos;                /* history->n: the line being typed */
	char *draft;                    /* the line being typed while browsing the history */
};

/* 0, or -1 when out of memory. initial may be NULL. */
int line_input_init(struct line_input *in, struct line_history *history, const char *initial);
void line_input_free(struct line_input *in);
/* Replaces the text (cursor at the end). 0 or -1. */
int line_input_set(struct line_input *in, const char *utf8);
/* One key: 1 the text or cursor changed, 0 the key is not an editing key, -1 no memory. */
int line_input_key(struct line_input *in, ui_key key);
/* The text as UTF-8 into buf (cut to size); returns buf. */
char *line_input_text(const struct line_input *in, char *buf, size_t size);

/* The bare typed line of the reader's and the preview's find prompts: `*len` wide characters
 * in buf (cap of them with the NUL), typed at the end only. One key: Backspace (or DEL, C-h)
 * takes the last character off, a printable key adds one (dropped when full). Returns false
 * for Backspace on an empty line (the prompt ends), else true (the key, if any, is taken). */
bool typed_line_key(wchar_t *buf, size_t *len, size_t cap, ui_key key);
/* The typed line as UTF-8 into out (cut at whole characters to fit size); returns out. */
char *typed_line_utf8(const wchar_t *buf, size_t len, char *out, size_t size);

#endif
