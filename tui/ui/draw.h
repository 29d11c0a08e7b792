#ifndef STENO_UI_DRAW_H
#define STENO_UI_DRAW_H

/* Safe drawing into curses windows: every string is sanitized (ui/text.h) and fitted
 * to exactly `width` columns, so nothing from the network can move the cursor,
 * change the terminal or spill into the next column. Draw with the window's current
 * attributes (style_set first). No I/O: the caller refreshes. */

#include <curses.h>
#include <wchar.h>

#include "ui/text.h"

/* Draws untrusted UTF-8 at y,x within width columns (clipped to the window).
 * flags: TEXT_ASCII. Returns the columns drawn, or -1 (out of memory, off-window). */
int draw_text(WINDOW *w, int y, int x, int width, const char *utf8, enum text_align align,
	unsigned flags);

/* Same for an already sanitized wide string. */
int draw_wtext(WINDOW *w, int y, int x, int width, const wchar_t *ws, enum text_align align,
	unsigned flags);

/* A horizontal line (ACS or '-' in ASCII mode) and a box border around the window. */
void draw_hline(WINDOW *w, int y, int x, int width, int ascii);
void draw_border(WINDOW *w, int ascii);

/* Fills width columns at y,x with spaces in the current attributes. */
void draw_blank(WINDOW *w, int y, int x, int width);

#endif
