#ifndef STENO_UI_TABLE_H
#define STENO_UI_TABLE_H

/* A table in a window: a header and the visible rows of a listview, every cell sanitized
 * and aligned. Columns are fitted by layout_fit (fixed widths), or, with a struct
 * table_fit, from their content: each column measured in terminal cells over its header
 * and the rows on screen, then allocated by core/colwidth (drop order, slack to the
 * growing columns). Rows come from a callback so the table holds no data; list panes
 * (transcriptions, activity ...) draw through it. */

#include <curses.h>
#include <stdbool.h>

#include "ui/layout.h"
#include "ui/listview.h"
#include "ui/theme.h"

#define TABLE_MAX_COLS 16
#define TABLE_GUTTER 2   /* columns before the cells: mark and "still changing" */

/* Filled by the row callback; strings must live until table_draw returns (with a
 * table_fit, every visible row's at once: the rows are measured before they are drawn). */
struct table_row {
	const char *cells[TABLE_MAX_COLS];     /* untrusted UTF-8 or NULL */
	enum theme_elem elem[TABLE_MAX_COLS];  /* per cell; THEME_NORMAL by default */
	int marked;                            /* selected for a bulk action */
	int changing;                          /* not in a final state yet */
};

typedef void (*table_row_fn)(void *ctx, int index, struct table_row *row);

/* Widths from content, columns hidden by choice, and the sort arrow in the header. */
struct table_fit {
	/* per column, 0: the content is kept whole up to the column's pref cells (dropped
	 * rather than cut; wider content is cut only when room lacks); 1, 2 ...: cut down to
	 * its min when room lacks, takes the slack in this order */
	unsigned char grow[TABLE_MAX_COLS];
	unsigned hidden;      /* bit i: column i is not shown */
	int sort_col;         /* the column the rows are sorted by (arrow in its title, never
	                       * dropped for room); -1: none */
	bool descending;      /* the arrow points down (ASCII: "v", else "^") */
};

struct table_view {
	const struct layout_col *cols;
	size_t ncols;
	int gap;
	int focused;          /* the pane has the focus: list.selected, else .idle */
	unsigned flags;       /* TEXT_ASCII */
};

/* Draws the header at row y and the listview's visible rows below it, within `cols`
 * columns of w, with fixed widths (layout_fit). Returns 0, or -1 when out of memory (what
 * was drawn stays). */
int table_draw(WINDOW *w, int y, int cols, const struct table_view *tv, const struct listview *lv,
	table_row_fn fn, void *ctx);
/* The same with widths from content, hidden columns and the sort arrow of `fit`
 * (NULL: as table_draw). */
int table_draw_fit(WINDOW *w, int y, int cols, const struct table_view *tv,
	const struct table_fit *fit, const struct listview *lv, table_row_fn fn, void *ctx);

/* A column's header as drawn: its title, with the sort arrow when it is fit->sort_col
 * (fit may be NULL). */
void table_title(const struct table_view *tv, const struct table_fit *fit, size_t col, char *buf,
	size_t size);

#endif
