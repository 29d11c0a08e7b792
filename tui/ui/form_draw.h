#ifndef STENO_UI_FORM_DRAW_H
#define STENO_UI_FORM_DRAW_H

/* Painting of forms and of the dialog chrome around them (no I/O: the frame refreshes). */

#include <curses.h>
#include <stdbool.h>

#include "ui/form.h"
#include "ui/theme.h"

#define FORM_LABEL_COLS 16

/* Erases w, draws the border, the title on the top line and a key hint on the bottom one. */
void form_draw_frame(WINDOW *w, const char *title, const char *hint, bool ascii);

/* Paints f into the rectangle (y0, x0, rows, cols) of w: the fields (scrolled so the focused
 * one shows), each error below its field, the picker when open, the message at the end. */
void form_draw(struct form *f, WINDOW *w, int y0, int x0, int rows, int cols, bool ascii);

/* Paints a text field's line (scrolled so the cursor shows) in `style`, and its cursor cell
 * in `cursor_style` when `cursor` (no terminal cursor is used). */
void form_draw_line(struct form_field *fl, WINDOW *w, int y, int x, int cols,
		    enum theme_elem style, enum theme_elem cursor_style, bool cursor, bool ascii);

/* Wraps untrusted text over at most max_lines lines of width cols at (y, x); returns the
 * lines used. */
int form_draw_wrapped(WINDOW *w, int y, int x, int cols, int max_lines, const char *utf8,
		      bool ascii);

#endif
