/* Drawing shared by the app's panes. */
#include "config.h"

#include "ui/app_internal.h"

#include "ui/draw.h"
#include "ui/style.h"

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
	long long a = seconds < 0 ? -seconds : seconds;
	/* fmt_span shows seconds under a minute, minutes under a day, then hours; near a
	 * minute the seconds are about to show */
	int ms = a < 120 ? 1000 : a < 86400 ? 60000 : 3600000;

	if (!*tick_ms || ms < *tick_ms)
		*tick_ms = ms;
}
