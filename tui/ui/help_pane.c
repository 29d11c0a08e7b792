/* The help overlay pane. */
#include "config.h"

#include "ui/help_pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/help.h"
#include "ui/style.h"

/* Ownership: the pane's data; help_close frees it. */
struct help_state {
	struct help_line *lines;
	size_t count;
	int top;
	int key_cols, name_cols;
};

static int help_open(struct pane *p, void *arg)
{
	struct help_state *h = calloc(1, sizeof *h);

	(void)arg;
	if (!h)
		return -1;
	h->lines = help_build(p->ctx->keymap, p->ctx->read_only, &h->count);
	if (!h->lines) {
		free(h);
		return -1;
	}
	for (size_t i = 0; i < h->count; i++) {
		if (h->lines[i].kind != HELP_ACTION)
			continue;
		int kw = (int)strlen(h->lines[i].keys), nw = (int)strlen(h->lines[i].name);
		h->key_cols = kw > h->key_cols ? kw : h->key_cols;
		h->name_cols = nw > h->name_cols ? nw : h->name_cols;
	}
	if (h->key_cols > 20)
		h->key_cols = 20;
	p->data = h;
	return 0;
}

static void help_close(struct pane *p)
{
	struct help_state *h = p->data;

	if (h)
		free(h->lines);
	free(h);
	p->data = NULL;
}

static int help_body_rows(const struct pane *p)
{
	return p->rows - 2 > 0 ? p->rows - 2 : 0;
}

static void help_draw_line(struct pane *p, const struct help_state *h, const struct help_line *l, int y)
{
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	int x = 2, w = p->cols - 3;

	if (l->kind == HELP_SECTION) {
		style_set(p->win, THEME_HELP_SECTION);
		draw_text(p->win, y, x, w, l->name, TEXT_LEFT, flags);
		return;
	}
	if (l->kind == HELP_NOTE) {
		style_set(p->win, THEME_HELP_TEXT);
		draw_text(p->win, y, x, w, l->name, TEXT_LEFT, flags);
		return;
	}
	if (l->kind != HELP_ACTION)
		return;
	style_set(p->win, l->inactive ? THEME_HELP_INACTIVE : THEME_HELP_KEY);
	draw_text(p->win, y, x + 1, h->key_cols, l->keys, TEXT_LEFT, flags);
	x += 1 + h->key_cols + 2;
	if (x >= p->cols - 1)
		return;
	style_set(p->win, l->inactive ? THEME_HELP_INACTIVE : THEME_HELP_TEXT);
	draw_text(p->win, y, x, p->cols - 1 - x, l->name, TEXT_LEFT, flags);
	x += h->name_cols + 2;
	if (x >= p->cols - 1)
		return;
	char text[256];
	snprintf(text, sizeof text, "%s%s%s%s", l->help, l->why ? " (read-only: " : "",
		 l->why ? l->why : "", l->why ? ")" : "");
	draw_text(p->win, y, x, p->cols - 1 - x, text, TEXT_LEFT, flags);
}

static void help_draw(struct pane *p)
{
	struct help_state *h = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	int rows = help_body_rows(p);
	char title[64];

	style_bkgd(p->win, THEME_DIALOG);
	werase(p->win);
	style_set(p->win, THEME_BORDER);
	draw_border(p->win, p->ctx->ascii);
	style_set(p->win, THEME_DIALOG_TITLE);
	int tw = snprintf(title, sizeof title, " Keys %d/%d  q: close ", h->top + 1, (int)h->count);
	/* only the title's own width: the rest of the line is the border */
	draw_text(p->win, 0, 2, tw < p->cols - 4 ? tw : p->cols - 4, title, TEXT_LEFT, flags);
	for (int i = 0; i < rows && (size_t)(h->top + i) < h->count; i++)
		help_draw_line(p, h, &h->lines[h->top + i], 1 + i);
	style_set(p->win, THEME_DIALOG);
}

static unsigned help_scroll(struct pane *p, int top)
{
	struct help_state *h = p->data;
	int max = (int)h->count - help_body_rows(p);

	if (max < 0)
		max = 0;
	top = top < 0 ? 0 : top > max ? max : top;
	if (top == h->top)
		return PANE_HANDLED;
	h->top = top;
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned help_key(struct pane *p, enum action_id act, ui_key key)
{
	struct help_state *h = p->data;
	int page = help_body_rows(p);

	(void)key;
	switch (act) {
	case ACT_MOVE_DOWN: return help_scroll(p, h->top + 1);
	case ACT_MOVE_UP: return help_scroll(p, h->top - 1);
	case ACT_PAGE_DOWN: return help_scroll(p, h->top + page);
	case ACT_PAGE_UP: return help_scroll(p, h->top - page);
	case ACT_HALF_PAGE_DOWN: return help_scroll(p, h->top + page / 2);
	case ACT_HALF_PAGE_UP: return help_scroll(p, h->top - page / 2);
	case ACT_MOVE_TOP: return help_scroll(p, 0);
	case ACT_MOVE_BOTTOM: return help_scroll(p, (int)h->count);
	case ACT_BACK: case ACT_QUIT: case ACT_HELP: case ACT_ENTER:
		return PANE_HANDLED | PANE_CLOSE;
	default:
		return PANE_HANDLED;
	}
}

const struct pane_ops help_pane_ops = {
	.name = "help",
	.scope = SCOPE_HELP,
	.place = PANE_PLACE_OVERLAY,
	.open = help_open,
	.draw = help_draw,
	.key = help_key,
	.close = help_close,
};
