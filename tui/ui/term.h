#ifndef STENO_UI_TERM_H
#define STENO_UI_TERM_H

/* Terminal care: locale before curses, a short ESC delay, raw keys, no cursor, mouse
 * off unless asked, ASCII mode when the locale is not UTF-8, the minimum size and
 * draining input with repeated resizes collapsed. */

#include <curses.h>
#include <stdio.h>

#include "ui/keys.h"

#define TERM_MIN_COLS 40
#define TERM_MIN_ROWS 10

struct term_opts {
	int mouse;          /* capture the mouse (click selects, wheel scrolls); off by default */
	int force_ascii;    /* ASCII mode even in a UTF-8 locale */
	const char *term;   /* terminal type for newterm; NULL = $TERM */
	FILE *out, *in;     /* NULL = stdout/stdin; tests pass their own */
};

/* Ownership: term_open fills it; term_close releases the SCREEN. */
struct term {
	SCREEN *screen;
	FILE *in;           /* the input stream (not owned) */
	int ascii;          /* no line drawing, "~" for "…": locale not UTF-8 or forced */
	int mouse;
	char why[200];      /* why term_open failed, for people ("" when it did not say) */
};

/* Whether the current LC_CTYPE is UTF-8 (call after setlocale). */
int term_locale_is_utf8(void);

/* setlocale(LC_ALL, "") if no locale is set yet, set_escdelay(25) unless $ESCDELAY is
 * set, newterm, cbreak, noecho, nonl, keypad, no cursor, colours started.
 * Returns 0, or -1 when the terminal cannot be opened or cannot move its cursor (TERM=dumb:
 * only the last line would ever show); then t->why says so for the caller to print. */
int term_open(struct term *t, const struct term_opts *o);
void term_close(struct term *t);

/* Turns mouse capture on or off (click and wheel only). */
void term_set_mouse(struct term *t, int on);

/* Whether a rows x cols screen is below the minimum. */
int term_too_small(int rows, int cols, int min_rows, int min_cols);

/* Draws the "terminal too small" message centred on stdscr (no panes). */
void term_draw_too_small(WINDOW *w, int min_rows, int min_cols, int ascii);

/* Reads every pending key without blocking (timeout 0) into keys (at most max).
 * Repeated KEY_RESIZE collapse into one, kept at its last position. Returns the
 * number of keys. */
int term_read_keys(WINDOW *w, ui_key *keys, int max);

#endif
