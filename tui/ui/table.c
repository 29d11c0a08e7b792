/* Tables: header and rows drawn through layout and safe text; widths fixed (layout_fit)
 * or from content (core/colwidth). */
#include "config.h"

#include "ui/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"

#define TABLE_TITLE_MAX 48

void table_title(const struct table_view *tv, const struct table_fit *fit, size_t col, char *buf,
	size_t size)
{
	const char *title = tv->cols[col].title;

	if (!fit || fit->sort_col != (int)col) {
		snprintf(buf, size, "%s", title);
		return;
	}
	if (tv->flags & TEXT_ASCII)
		snprintf(buf, size, "%s %s", title, fit->descending ? "v" : "^");
	else
		snprintf(buf, size, "%s %s", title, fit->descending ? "\u25bc" : "\u25b2");
}

/* header: titles in the current style; selected: every cell in base; else each cell
 * in its own element, or base when it has none. */
static void table_draw_cells(WINDOW *w, int y, const struct table_view *tv, const int *widths,
	const struct table_row *row, char (*titles)[TABLE_TITLE_MAX], int selected,
	enum theme_elem base)
{
	int x = TABLE_GUTTER, first = 1;

	for (size_t i = 0; i < tv->ncols; i++) {
		if (!widths[i])
			continue;
		if (!first)
			x += tv->gap;
		first = 0;
		if (!titles && !selected)
			style_set(w, row->elem[i] != THEME_NORMAL ? row->elem[i] : base);
		draw_text(w, y, x, widths[i], titles ? titles[i] : row->cells[i], tv->cols[i].align,
			tv->flags);
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
	table_draw_cells(w, y, tv, widths, row, NULL, selected, base);
}

/* The widest of column i's title and cells; -1 when out of memory. */
static int column_want(const struct table_view *tv, size_t i, const char *title,
	const struct table_row *rows, int nrows)
{
	int want = text_width_utf8(title, tv->flags);

	for (int r = 0; r < nrows && want >= 0; r++) {
		int n = text_width_utf8(rows[r].cells[i], tv->flags);
		want = n < 0 ? -1 : n > want ? n : want;
	}
	return want;
}

/* Widths from content: each shown column measured, then layout_fit_content. */
static int fit_widths(const struct table_view *tv, const struct table_fit *fit,
	char (*titles)[TABLE_TITLE_MAX], const struct table_row *rows, int nrows, int avail,
	int *widths)
{
	int want[TABLE_MAX_COLS];

	for (size_t i = 0; i < tv->ncols; i++) {
		want[i] = fit->hidden & (1u << i) ? 0 : column_want(tv, i, titles[i], rows, nrows);
		if (want[i] < 0)
			return -1;
	}
	layout_fit_content(tv->cols, tv->ncols, want, fit->grow, fit->hidden, fit->sort_col, avail,
		tv->gap, widths);
	return 0;
}

/* The visible rows, asked of fn once each. NULL with *n = 0 when there are none. */
static struct table_row *collect_rows(int y, int maxy, const struct listview *lv, table_row_fn fn,
	void *ctx, int *n, int *nomem)
{
	int count = lv->rows;

	if (count > lv->count - lv->top)
		count = lv->count - lv->top;
	if (count > maxy - y - 1)
		count = maxy - y - 1;
	*n = 0;
	*nomem = 0;
	if (count <= 0)
		return NULL;
	struct table_row *rows = calloc((size_t)count, sizeof *rows);
	if (!rows) {
		*nomem = 1;
		return NULL;
	}
	for (int i = 0; i < count; i++)
		fn(ctx, lv->top + i, &rows[i]);
	*n = count;
	return rows;
}

static void table_draw_header(WINDOW *w, int y, int cols, const struct table_view *tv,
	const int *widths, char (*titles)[TABLE_TITLE_MAX])
{
	style_set(w, THEME_LIST_HEADER);
	draw_blank(w, y, 0, cols);
	table_draw_cells(w, y, tv, widths, NULL, titles, 0, THEME_LIST_HEADER);
}

/* Fixed widths: each row asked for and drawn in turn (its strings may be reused by the next). */
static void table_draw_fixed(WINDOW *w, int y, int cols, const struct table_view *tv,
	const struct listview *lv, table_row_fn fn, void *ctx, char (*titles)[TABLE_TITLE_MAX])
{
	int widths[TABLE_MAX_COLS], maxy = getmaxy(w);

	layout_fit(tv->cols, tv->ncols, cols - TABLE_GUTTER, tv->gap, widths);
	table_draw_header(w, y, cols, tv, widths, titles);
	for (int i = 0; i < lv->rows && lv->top + i < lv->count && y + 1 + i < maxy; i++) {
		struct table_row row;
		memset(&row, 0, sizeof row);
		fn(ctx, lv->top + i, &row);
		table_draw_row(w, y + 1 + i, cols, tv, widths, &row, lv->top + i == lv->cursor);
	}
}

int table_draw(WINDOW *w, int y, int cols, const struct table_view *tv, const struct listview *lv,
	table_row_fn fn, void *ctx)
{
	return table_draw_fit(w, y, cols, tv, NULL, lv, fn, ctx);
}

int table_draw_fit(WINDOW *w, int y, int cols, const struct table_view *tv,
	const struct table_fit *fit, const struct listview *lv, table_row_fn fn, void *ctx)
{
	int widths[TABLE_MAX_COLS], nrows, nomem, rc = 0;
	char titles[TABLE_MAX_COLS][TABLE_TITLE_MAX];

	if (tv->ncols > TABLE_MAX_COLS || cols <= TABLE_GUTTER)
		return -1;
	for (size_t i = 0; i < tv->ncols; i++)
		table_title(tv, fit, i, titles[i], sizeof titles[i]);
	if (!fit) {
		table_draw_fixed(w, y, cols, tv, lv, fn, ctx, titles);
	} else {
		struct table_row *rows = collect_rows(y, getmaxy(w), lv, fn, ctx, &nrows, &nomem);
		if (nomem || fit_widths(tv, fit, titles, rows, nrows, cols - TABLE_GUTTER, widths) != 0)
			rc = -1;
		else {
			table_draw_header(w, y, cols, tv, widths, titles);
			for (int i = 0; i < nrows; i++)
				table_draw_row(w, y + 1 + i, cols, tv, widths, &rows[i],
					lv->top + i == lv->cursor);
		}
		free(rows);
	}
	style_set(w, THEME_NORMAL);
	return rc;
}
