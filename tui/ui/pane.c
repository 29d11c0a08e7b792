/* Panes: creation, placement and the draw step. */
#include "config.h"

#include "ui/pane.h"

#include <stdlib.h>

#include "ui/style.h"

struct pane *pane_new(const struct pane_ops *ops, struct ui_ctx *ctx, void *arg)
{
	struct pane *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->ops = ops;
	p->ctx = ctx;
	p->weight = 1;
	p->dirty = 1;
	if (ops->open && ops->open(p, arg) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

void pane_free(struct pane *p)
{
	if (!p)
		return;
	if (p->ops->close)
		p->ops->close(p);
	if (p->win)
		delwin(p->win);
	free(p);
}

int pane_place(struct pane *p, int y, int x, int rows, int cols)
{
	p->dirty = 1;
	if (p->win && p->y == y && p->x == x && p->rows == rows && p->cols == cols)
		return 0;
	if (p->win) {
		delwin(p->win);
		p->win = NULL;
	}
	p->y = y;
	p->x = x;
	p->rows = rows > 0 ? rows : 0;
	p->cols = cols > 0 ? cols : 0;
	if (!p->rows || !p->cols)
		return 0;
	p->win = newwin(p->rows, p->cols, y, x);
	if (!p->win)
		return -1;
	/* A pane may write its last cell; it must not scroll. */
	scrollok(p->win, FALSE);
	return 0;
}

int pane_render(struct pane *p, int force)
{
	if (!p || !p->win || p->hidden || (!p->dirty && !force))
		return 0;
	style_set(p->win, THEME_NORMAL);
	style_bkgd(p->win, THEME_NORMAL);
	werase(p->win);
	if (p->ops->draw)
		p->ops->draw(p);
	wnoutrefresh(p->win);
	p->dirty = 0;
	return 1;
}
