/* Drawing shared by the app's panes. */
#include "config.h"

#include "ui/app_draw.h"
#include "ui/app_access.h"

#include <stdlib.h>

#include "ui/draw.h"
#include "ui/format.h"
#include "ui/style.h"
#include "ui/text.h"

unsigned app_text_flags(const struct pane *p)
{
	return p->ctx->ascii ? TEXT_ASCII : 0;
}

void app_draw_title(struct pane *p, const char *title)
{
	style_set(p->win, p->focused ? THEME_PANE_TITLE_FOCUS : THEME_PANE_TITLE);
	draw_blank(p->win, 0, 0, p->cols);
	draw_text(p->win, 0, 1, p->cols - 1, title, TEXT_LEFT, app_text_flags(p));
	style_set(p->win, THEME_NORMAL);
}

void app_draw_message(struct pane *p, int y, const char *const *lines, size_t n)
{
	style_set(p->win, THEME_MUTED);
	for (size_t i = 0; i < n && y + (int)i < p->rows; i++)
		draw_text(p->win, y + (int)i, 1, p->cols - 2, lines[i], TEXT_LEFT, app_text_flags(p));
	style_set(p->win, THEME_NORMAL);
}

void app_time_tick(int *tick_ms, long long seconds)
{
	int ms = (int)fmt_span_tick_ms(seconds);

	if (!*tick_ms || ms < *tick_ms)
		*tick_ms = ms;
}

long app_tick_wait_ms(int tick_ms, int64_t drawn_ms, int64_t now_ms)
{
	if (tick_ms <= 0)
		return -1;
	int64_t left = drawn_ms + tick_ms - now_ms;
	return left > 0 ? (long)left : 0;
}

int app_draw_field(struct pane *p, const struct app_field *f, int row, int skip, int top_y)
{
	unsigned flags = app_text_flags(p);
	int vx = f->label_w + 2, vw = p->cols - f->label_w - 2, used = 0;
	wchar_t *ws = text_sanitize(f->value ? f->value : "", flags);

	if (!ws || vw <= 0) {
		free(ws);
		return 1;
	}
	wchar_t *w = ws;
	do {
		/* take as many characters as fit in vw columns */
		int cols = 0;
		size_t n = 0;
		while (w[n] && cols + text_char_width(w[n]) <= vw)
			cols += text_char_width(w[n++]);
		/* break after the last space that fits; a word longer than the row is split */
		size_t brk = n;
		while (w[n] && brk > 0 && w[brk - 1] != L' ')
			brk--;
		/* a one-row value split inside a word (a link) is drawn with its end as "…" */
		int split = w[n] && brk == 0 && f->cut;
		if (w[n] && brk > 0)
			n = brk;
		if (n == 0 && w[0])
			n = 1;
		int y = top_y + row + used - skip;
		if (y >= top_y && y < p->rows) {
			wchar_t save = w[n];
			if (!split)
				w[n] = L'\0';
			style_set(p->win, f->selected ? THEME_LIST_SELECTED : THEME_MUTED);
			if (f->selected)
				draw_blank(p->win, y, 0, p->cols);
			if (used == 0)
				draw_text(p->win, y, 1, f->label_w, f->label, TEXT_LEFT, flags);
			style_set(p->win, f->selected ? THEME_LIST_SELECTED : f->elem);
			draw_wtext(p->win, y, vx, vw, w, TEXT_LEFT, flags);
			w[n] = save;
		}
		w += n;
		used++;
	} while (*w && !f->cut);   /* else never cut: a long value takes more rows */
	free(ws);
	style_set(p->win, THEME_NORMAL);
	return used;
}
