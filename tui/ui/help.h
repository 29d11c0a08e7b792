#ifndef STENO_UI_HELP_H
#define STENO_UI_HELP_H

/* The `?` overlay's lines, generated from the actions table and the current keymap.
 * Pure (no curses), so it is unit-tested as strings; help_pane.c draws it. */

#include <stddef.h>
#include <stdio.h>

#include "ui/keymap.h"

/* HELP_NOTE: a line of text after the actions (how the `/` filter and the sort picker
 * work); the overlay shows notes, the key table of help_write leaves them out. */
enum help_kind { HELP_SECTION, HELP_ACTION, HELP_BLANK, HELP_NOTE };

struct help_line {
	enum help_kind kind;
	int inactive;            /* a write action in read-only mode: drawn greyed */
	char keys[48];           /* "j <Down> <C-n>", or "(unbound)" */
	const char *name;        /* action name, or the section title */
	const char *help;        /* static text from the table */
	const char *why;         /* read-only mode: why it is refused or what it still does */
	int notes;               /* a note, or the section title of the notes (overlay only) */
};

/* Builds the lines: per section a title, then one line per action, then a blank; in
 * read-only mode first a title line saying what read-only means (ACTION_READ_ONLY_RULE);
 * last the notes on the transcriptions' filter and sort (the query language).
 * Returns a newly allocated array (caller frees with free) and its length in *count,
 * or NULL when out of memory. */
struct help_line *help_build(const struct keymap *km, int read_only, size_t *count);

/* Formats one line as the overlay shows it, keys padded to key_cols and names to
 * name_cols: "  j <Down> <C-n>  move-down       Move the cursor down one line".
 * In read-only mode a refused line ends with " (read-only: WHY)". Returns buf. */
char *help_format_line(const struct help_line *l, int key_cols, int name_cols, char *buf, size_t size);

enum help_output { HELP_OUT_TEXT, HELP_OUT_ROFF };

/* Writes the key table for people outside the TUI: plain text (`steno --keys`) or a
 * roff table section for the man page (generated from the same table). Returns 0, or
 * -1 when out of memory or on a write error. */
int help_write(FILE *out, const struct keymap *km, enum help_output fmt);

#endif
