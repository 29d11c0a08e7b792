#ifndef STENO_UI_TABLE_H
#define STENO_UI_TABLE_H

/* A table in a window: a header and the visible rows of a listview, columns fitted by
 * layout_fit, every cell sanitized and aligned. Rows come from a callback so the
 * table holds no data; list panes (transcriptions, activity ...) draw through it. */

#include <curses.h>

#include "ui/layout.h"
#include "ui/listview.h"
#include "ui/theme.h"

#define TABLE_MAX_COLS 16
#define TABLE_GUTTER 2   /* columns before the cells: mark and "still changing" */

/* Filled by the row callback; strings must live until table_draw returns. */
struct table_row {
	const char *cells[TABLE_MAX_COLS];     /* untrusted UTF-8 or NULL */
	enum theme_elem elem[TABLE_MAX_COLS];  /* per cell; THEME_NORMAL by default */
	int marked;                            /* selected for a bulk action */
	int changing;                          /* not in a final state yet */
};

typedef void (*table_row_fn)(void *ctx, int index, struct table_row *row);

struct table_view {
	const struct layout_col *cols;
	size_t ncols;
	int gap;
	int focused;          /* the pane has the focus: list.selected, else .idle */
	unsigned flags;       /* TEXT_ASCII */
};

/* Draws the header at row y and the listview's visible rows below it, within `cols`
 * columns of w. Returns 0, or -1 when out of memory (what was drawn stays). */
int table_draw(WINDOW *w, int y, int cols, const struct table_view *tv, const struct listview *lv,
	table_row_fn fn, void *ctx);

#endif
