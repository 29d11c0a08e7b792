/* The log pane (toggled with L): this run's requests, retries and errors, newest at the
 * bottom. Lines are built by the app from completions and the engine's retry listener;
 * URLs are redacted, the key is never part of them, and drawing sanitizes them again. */
#include "config.h"

#include "ui/pane_log.h"

#include <stdlib.h>
#include <string.h>

#include "ui/app_internal.h"
#include "ui/draw.h"
#include "ui/style.h"

/* Ownership: the pane's data. */
struct log_pane {
	struct app *app;
	int back;      /* lines scrolled back from the newest */
};

static int log_open(struct pane *p, void *arg)
{
	struct log_pane *lp = calloc(1, sizeof *lp);

	if (!lp)
		return -1;
	lp->app = arg;
	p->data = lp;
	return 0;
}

static void log_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

static void log_draw(struct pane *p)
{
	struct log_pane *lp = p->data;
	struct app *app = lp->app;
	int rows = p->rows - 1, n = (int)app->log_count;
	int last = n - lp->back, first = last - rows;

	app_draw_title(p, "Log (this run's requests)");
	if (first < 0)
		first = 0;
	for (int i = first; i < last; i++) {
		const char *line = app->log[(app->log_head + (size_t)i) % APP_LOG_LINES];
		style_set(p->win, strstr(line, " -> ") ? THEME_LOG_ERROR : THEME_LOG);
		draw_text(p->win, i - first + 1, 1, p->cols - 2, line, TEXT_LEFT, app_text_flags(p));
	}
	style_set(p->win, THEME_NORMAL);
}

static unsigned log_key(struct pane *p, enum action_id act, ui_key key)
{
	struct log_pane *lp = p->data;
	int n = (int)lp->app->log_count, page = p->rows > 2 ? p->rows - 2 : 1;

	(void)key;
	switch (act) {
	case ACT_MOVE_UP: lp->back++; break;
	case ACT_MOVE_DOWN: lp->back--; break;
	case ACT_PAGE_UP: lp->back += page; break;
	case ACT_PAGE_DOWN: lp->back -= page; break;
	case ACT_MOVE_TOP: lp->back = n; break;
	case ACT_MOVE_BOTTOM: lp->back = 0; break;
	default: return app_pass_action(lp->app, act);
	}
	if (lp->back > n - 1)
		lp->back = n > 0 ? n - 1 : 0;
	if (lp->back < 0)
		lp->back = 0;
	return PANE_HANDLED | PANE_REDRAW;
}

const struct pane_ops log_pane_ops = {
	.name = "log", .scope = SCOPE_LOG, .place = PANE_PLACE_BOTTOM,
	.open = log_open, .draw = log_draw, .key = log_key, .close = log_close,
};
