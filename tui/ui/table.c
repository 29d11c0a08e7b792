/* Tables: header and rows drawn through layout and safe text. */
#include "config.h"

#include "ui/table.h"

#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"

/* header: titles in the current style; selected: every cell in base; else each cell
 * in its own element, or base when it has none. */
static void table_draw_cells(WINDOW *w, int y, const struct table_view *tv, const int *widths,
	const struct table_row *row, int header, int selected, enum theme_elem base)
{
	int x = TABLE_GUTTER, first = 1;

	for (size_t i = 0; i < tv->ncols; i++) {
		if (!widths[i])
			continue;
		if (!first)
			x += tv->gap;
		first = 0;
		if (!header && !selected)
			style_set(w, row->elem[i] != THEME_NORMAL ? row->elem[i] : base);
		draw_text(w, y, x, widths[i], header ? tv->cols[i].title : row->cells[i],
			tv->cols[i].align, tv->flags);
		x += widths[i];
	}
}

static void table_draw_row(WINDOW *w, int y, int cols, const struct table_view *tv,
	const int *widths, const struct table_row *row, int selected)
{
	int ascii = tv->flags & TEXT_ASCII;
	enum theme_elem base = selected ? (tv->focused ? THEME_LIST_SELECTED : THEME_LIST_SELECTED_IDLE)
		: row->marked ? THEME_LIST_MARKED : THEME_NORMAL;

	style_set(w, base);
	draw_blank(w, y, 0, cols);
	draw_text(w, y, 0, 1, row->marked ? "*" : "", TEXT_LEFT, tv->flags);
	if (row->changing) {
		if (!selected)
			style_set(w, THEME_LIST_CHANGING);
		draw_text(w, y, 1, 1, ascii ? "~" : "\u2022", TEXT_LEFT, tv->flags);
		style_set(w, base);
	}
	table_draw_cells(w, y, tv, widths, row, 0, selected, base);
}

int table_draw(WINDOW *w, int y, int cols, const struct table_view *tv, const struct listview *lv,
	table_row_fn fn, void *ctx)
{
	int widths[TABLE_MAX_COLS], maxy = getmaxy(w);

	if (tv->ncols > TABLE_MAX_COLS || cols <= TABLE_GUTTER)
		return -1;
	layout_fit(tv->cols, tv->ncols, cols - TABLE_GUTTER, tv->gap, widths);
	style_set(w, THEME_LIST_HEADER);
	draw_blank(w, y, 0, cols);
	table_draw_cells(w, y, tv, widths, NULL, 1, 0, THEME_LIST_HEADER);
	for (int i = 0; i < lv->rows && lv->top + i < lv->count && y + 1 + i < maxy; i++) {
		struct table_row row;
		memset(&row, 0, sizeof row);
		fn(ctx, lv->top + i, &row);
		table_draw_row(w, y + 1 + i, cols, tv, widths, &row, lv->top + i == lv->cursor);
	}
	style_set(w, THEME_NORMAL);
	return 0;
}
