#ifndef STENO_TESTS_SCREEN_HARNESS_H
#define STENO_TESTS_SCREEN_HARNESS_H

/* Headless screen tests (tig's test/tools/libtest.sh + save_display idea): ncurses
 * runs on a terminal of fixed size whose output goes to /dev/null; keys from a
 * script are pushed into ncurses' own input queue and read back through the same
 * path as the real loop (term_read_keys -> frame_key -> frame_draw); the screen is
 * dumped from curscr (what ncurses has put on the terminal) as text, and optionally
 * as attributes, and compared with golden files in tests/screen/golden.
 * STENO_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing. */

#include "ui/session.h"

struct scr_opts {
	int rows, cols;
	const char *theme;      /* NULL = built-in default */
	int read_only;
	int ascii;
	int no_color;           /* as if NO_COLOR were set */
	const char *term;       /* terminfo name; NULL = xterm-256color */
	FILE *in;               /* terminal input; NULL = /dev/null (keys are pushed) */
	int mouse;
	const char *key_lines;  /* config bind lines */
};

/* Ownership: scr_open sets everything up (through ui_session_open, as main does),
 * scr_close frees it all. */
struct scr {
	struct ui_session ui;
	FILE *out, *in;
	int quit;
};

void scr_open(struct scr *s, const struct scr_opts *o);
void scr_close(struct scr *s);

/* Adds a pane to the frame (relayout). */
void scr_add(struct scr *s, struct pane *p);

/* Runs the keys of a script ("j j <Down> ? <Esc>") one by one, drawing after each;
 * "" runs one pass over what is already queued. */
void scr_keys(struct scr *s, const char *script);
/* The pieces of scr_keys for fixtures with their own settling: parse a key script (asserts
 * that it is valid; returns the count) and queue one key for the next wget_wch. */
int scr_parse_script(const char *script, ui_key *keys, int max);
void scr_push_key(ui_key k);

/* Changes the terminal size as a SIGWINCH would, then runs the loop once. */
void scr_resize(struct scr *s, int rows, int cols);

/* One draw pass (after changing data from a test). */
void scr_draw(struct scr *s);

/* The screen as text, one line per row, trailing spaces cut. Caller frees. */
char *scr_text(void);

/* The terminal cell where `needle` starts in `line` (UTF-8, one row of scr_text), -1 if it
 * is not there before the line's end. */
int scr_cell_col(const char *line, const char *needle);

/* The attributes per cell as hex digits (bold 1, dim 2, underline 4, reverse 8;
 * '.' for none), one line per row. Caller frees. */
char *scr_attrs(void);

/* The colours a cell is drawn in (-1: the terminal's default), from its colour pair in
 * curscr; returns whether the cell shows a visible character (not a space). */
int scr_cell_colors(int y, int x, short *fg, short *bg);

/* How many cells use a colour pair. */
int scr_colored_cells(void);

/* Compares text with golden/NAME (asserting); writes NAME.actual in the current
 * directory on a mismatch, or the golden file itself with STENO_UPDATE_GOLDEN=1. */
void scr_golden(const char *name, const char *text);

#endif
