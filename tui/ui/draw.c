/* Safe drawing into curses windows. */
#include "config.h"

#include "ui/draw.h"

#include <stdlib.h>

/* Clips width to what fits in the window from x; -1 when y,x is outside. */
static int clip_width(WINDOW *w, int y, int x, int width)
{
	int rows, cols;

	getmaxyx(w, rows, cols);
	if (y < 0 || y >= rows || x < 0 || x >= cols || width <= 0)
		return -1;
	return width > cols - x ? cols - x : width;
}

int draw_wtext(WINDOW *w, int y, int x, int width, const wchar_t *ws, enum text_align align,
	unsigned flags)
{
	wchar_t small[256], *buf = small;
	size_t cap;

	width = clip_width(w, y, x, width);
	if (width < 0)
		return -1;
	cap = TEXT_FIT_CAP(width);
	if (cap > sizeof small / sizeof small[0] && !(buf = malloc(cap * sizeof *buf)))
		return -1;
	if (text_fit(buf, cap, ws, width, align, flags) < 0) {
		if (buf != small)
			free(buf);
		return -1;
	}
	/* In the bottom-right cell waddnwstr returns ERR after writing (the cursor cannot
	 * advance); the text is already fitted, so that ERR means nothing here. */
	(void)mvwaddnwstr(w, y, x, buf, -1);
	if (buf != small)
		free(buf);
	return width;
}

int draw_text(WINDOW *w, int y, int x, int width, const char *utf8, enum text_align align,
	unsigned flags)
{
	wchar_t *ws = text_sanitize(utf8, flags);
	int r;

	if (!ws)
		return -1;
	r = draw_wtext(w, y, x, width, ws, align, flags);
	free(ws);
	return r;
}

void draw_hline(WINDOW *w, int y, int x, int width, int ascii)
{
	width = clip_width(w, y, x, width);
	if (width < 0)
		return;
	if (ascii)
		mvwhline(w, y, x, '-', width);
	else
		mvwhline_set(w, y, x, WACS_HLINE, width);
}

void draw_border(WINDOW *w, int ascii)
{
	if (ascii)
		wborder(w, '|', '|', '-', '-', '+', '+', '+', '+');
	else
		wborder_set(w, WACS_VLINE, WACS_VLINE, WACS_HLINE, WACS_HLINE,
			WACS_ULCORNER, WACS_URCORNER, WACS_LLCORNER, WACS_LRCORNER);
}

void draw_blank(WINDOW *w, int y, int x, int width)
{
	width = clip_width(w, y, x, width);
	if (width > 0)
		mvwhline(w, y, x, ' ', width);
}
