/* The log pane (toggled with L): this run's requests, retries and errors, newest at the
 * bottom. Lines are built by the app from completions and the engine's retry listener;
 * URLs are redacted, the key is never part of them, and drawing sanitizes them again.
 * Every line is shown whole, wrapped over as many rows as it needs; `/` filters the lines
 * as you type (case folded, core/textfold.h), Enter keeps the filter, Esc drops it. */
#include "config.h"

#include "ui/pane_log.h"

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textfold.h"
#include "ui/app_access.h"
#include "ui/app_draw.h"
#include "ui/draw.h"
#include "ui/form_draw.h"
#include "ui/line_input.h"
#include "ui/style.h"
#include "ui/text.h"

/* Ownership: the pane's data. */
struct log_pane {
	struct app *app;
	int back;                 /* matching lines scrolled back from the newest */
	bool typing;              /* the filter line has the keys */
	struct line_input in;     /* the filter being typed */
	char filter[256];         /* UTF-8; "" shows every line */
};

static int log_open(struct pane *p, void *arg)
{
	struct log_pane *lp = calloc(1, sizeof *lp);

	if (!lp || line_input_init(&lp->in, NULL, NULL) != 0) {
		free(lp);
		return -1;
	}
	lp->app = arg;
	p->data = lp;
	return 0;
}

static void log_close(struct pane *p)
{
	struct log_pane *lp = p->data;

	if (lp)
		line_input_free(&lp->in);
	free(lp);
	p->data = NULL;
}

static const char *log_line(const struct app *app, int i)
{
	return app->log[(app->log_head + (size_t)i) % APP_LOG_LINES];
}

/* The indices of the lines matching the filter, oldest first; returns the count. */
static int log_matches(const struct log_pane *lp, int *idx)
{
	int n = 0;
	for (int i = 0; i < (int)lp->app->log_count; i++)
		if (textfold_contains(log_line(lp->app, i), lp->filter))
			idx[n++] = i;
	return n;
}

/* Rows a sanitized line takes at width cols. */
static int line_rows(const wchar_t *ws, int cols)
{
	size_t n = wcslen(ws), i = 0;
	int rows = 0;
	while (i < n) {
		i = text_wrap_row(ws, i, n, cols, 0);
		rows++;
	}
	return rows ? rows : 1;
}

/* Draws a line whole over its rows, its last row at y_end - 1; rows above y_min are left
 * out (the oldest line shown may lose its top, never its end). Returns its first row. */
static int draw_line_up(struct pane *p, wchar_t *ws, int y_end, int y_min, int cols,
			unsigned flags)
{
	size_t n = wcslen(ws), i = 0;
	int y = y_end - line_rows(ws, cols), first = y;
	do {
		size_t j = text_wrap_row(ws, i, n, cols, 0);
		if (y >= y_min) {
			wchar_t save = ws[j];
			ws[j] = L'\0';
			draw_wtext(p->win, y, 1, cols, ws + i, TEXT_LEFT, flags);
			ws[j] = save;
		}
		i = j;
		y++;
	} while (i < n);
	return first;
}

/* The bottom row while filtering: the filter being typed, or the filter kept. */
static void draw_filter_bar(struct pane *p, struct log_pane *lp, int shown, int total)
{
	unsigned flags = app_text_flags(p);
	int y = p->rows - 1, cols = p->cols - 2;
	char tail[96];
	snprintf(tail, sizeof tail, "  %d of %d lines%s", shown, total,
		 lp->typing ? "  Enter: keep  Esc: clear" : "  /: change  Esc: clear");
	style_set(p->win, THEME_MUTED);
	draw_blank(p->win, y, 1, cols);
	draw_text(p->win, y, 1, 1, "/", TEXT_LEFT, flags);
	int w = cols / 2;
	if (lp->typing) {
		form_draw_line(&lp->in.field, p->win, y, 2, w, THEME_NORMAL, THEME_DIALOG_FIELD_FOCUS,
			       true, p->ctx->ascii);
	} else {
		style_set(p->win, THEME_NORMAL);
		draw_text(p->win, y, 2, w, lp->filter, TEXT_LEFT, flags);
	}
	style_set(p->win, THEME_MUTED);
	draw_text(p->win, y, 2 + w, cols - 1 - w, tail, TEXT_LEFT, flags);
}

static void log_draw(struct pane *p)
{
	struct log_pane *lp = p->data;
	struct app *app = lp->app;
	unsigned flags = app_text_flags(p);
	bool bar = lp->typing || lp->filter[0];
	int cols = p->cols - 2, y_end = p->rows - (bar ? 1 : 0);
	int *idx = malloc((app->log_count + 1) * sizeof *idx);

	app_draw_title(p, "Log (this run's requests)");
	if (!idx || cols < 1)
		goto out;
	int n = log_matches(lp, idx);
	if (lp->back > (n ? n - 1 : 0))
		lp->back = n ? n - 1 : 0;
	for (int k = n - 1 - lp->back; k >= 0 && y_end > 1; k--) {
		const char *line = log_line(app, idx[k]);
		wchar_t *ws = text_sanitize(line, flags);
		if (!ws)
			break;
		style_set(p->win, strstr(line, " -> ") ? THEME_LOG_ERROR : THEME_LOG);
		y_end = draw_line_up(p, ws, y_end, 1, cols, flags);
		free(ws);
	}
	if (bar)
		draw_filter_bar(p, lp, n, (int)app->log_count);
out:
	free(idx);
	style_set(p->win, THEME_NORMAL);
}

/* Keys while the filter line is open: it narrows the lines on each key. */
static unsigned log_filter_key(struct log_pane *lp, ui_key key)
{
	if (key == 27) {
		lp->typing = false;
		lp->filter[0] = '\0';
	} else if (key == '\n' || key == '\r') {
		lp->typing = false;
	} else if (key == (KEYS_FN | KEY_BACKSPACE) && !lp->in.field.len) {
		lp->typing = false;
	} else {
		line_input_key(&lp->in, key);
		line_input_text(&lp->in, lp->filter, sizeof lp->filter);
	}
	lp->back = 0;
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned log_key(struct pane *p, enum action_id act, ui_key key)
{
	struct log_pane *lp = p->data;
	int n = (int)lp->app->log_count, page = p->rows > 2 ? p->rows - 2 : 1;

	if (lp->typing)
		return log_filter_key(lp, key);
	switch (act) {
	case ACT_FILTER:
		lp->typing = true;
		if (line_input_set(&lp->in, lp->filter) != 0)
			lp->typing = false;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_BACK:
	case ACT_CLEAR_FILTER:
		if (!lp->filter[0])
			return app_pass_action(lp->app, act);
		lp->filter[0] = '\0';
		lp->back = 0;
		return PANE_HANDLED | PANE_REDRAW;
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
