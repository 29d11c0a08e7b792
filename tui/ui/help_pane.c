/* The help overlay pane. */
#include "config.h"

#include "ui/help_pane.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/actions.h"
#include "ui/draw.h"
#include "ui/help.h"
#include "ui/style.h"
#include "ui/text.h"

/* Ownership: the pane's data; help_close frees it. */
struct help_state {
	struct help_line *lines;
	size_t count;
	size_t *shown;           /* indices of the lines the search leaves (all without one) */
	size_t n_shown;
	int top;
	int key_cols, name_cols;
	bool typing;             /* `/` was pressed: keys go to the search */
	char query[64];
	char pane_title[64];     /* "Keys of the activity pane" */
};

/* An action of the focused pane's own: in its scope, and not one every list has. */
static bool pane_own(const struct help_line *l, unsigned scope)
{
	enum action_id id = l->kind == HELP_ACTION ? action_by_name(l->name) : ACT_NONE;
	const struct action_info *a = id != ACT_NONE ? action_info(id) : NULL;

	return a && (a->scope & scope) && (a->scope & SCOPE_LIST) != SCOPE_LIST;
}

/* The focused pane's keys first, under their own title, then every section. */
static int help_pane_first(struct help_state *h, unsigned scope)
{
	size_t own = 0;

	for (size_t i = 0; i < h->count; i++)
		own += pane_own(&h->lines[i], scope);
	if (!own || !scope)
		return 0;
	struct help_line *all = calloc(h->count + own + 2, sizeof *all);
	if (!all)
		return -1;
	const char *name = action_scope_name(scope);
	text_format(h->pane_title, sizeof h->pane_title, "Keys of this pane (%s)", name ? name : "");
	size_t n = 0;
	all[n++] = (struct help_line){ .kind = HELP_SECTION, .name = h->pane_title };
	for (size_t i = 0; i < h->count; i++)
		if (pane_own(&h->lines[i], scope))
			all[n++] = h->lines[i];
	all[n++] = (struct help_line){ .kind = HELP_BLANK };
	memcpy(all + n, h->lines, h->count * sizeof *all);
	free(h->lines);
	h->lines = all;
	h->count += own + 2;
	return 0;
}

static bool line_matches(const struct help_line *l, const char *q)
{
	return l->kind == HELP_ACTION && (strcasestr(l->keys, q) || strcasestr(l->name, q) ||
					 (l->help && strcasestr(l->help, q)));
}

/* The lines the search leaves: the matching actions under their section titles. */
static void help_refilter(struct help_state *h)
{
	const char *section = NULL;
	size_t section_at = 0;

	h->n_shown = 0;
	h->top = 0;
	for (size_t i = 0; i < h->count; i++) {
		const struct help_line *l = &h->lines[i];
		if (!h->query[0]) {
			h->shown[h->n_shown++] = i;
			continue;
		}
		if (l->kind == HELP_SECTION) {
			section = l->name;
			section_at = i;
			continue;
		}
		if (!line_matches(l, h->query))
			continue;
		if (section) {
			h->shown[h->n_shown++] = section_at;
			section = NULL;
		}
		h->shown[h->n_shown++] = i;
	}
}

static int help_open(struct pane *p, void *arg)
{
	struct help_state *h = calloc(1, sizeof *h);
	const unsigned *scope = arg;

	if (!h)
		return -1;
	h->lines = help_build(p->ctx->keymap, p->ctx->read_only, &h->count);
	if (!h->lines || help_pane_first(h, scope ? *scope : 0) < 0 ||
	    !(h->shown = calloc(h->count, sizeof *h->shown))) {
		free(h->lines);
		free(h);
		return -1;
	}
	help_refilter(h);
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

	if (h) {
		free(h->lines);
		free(h->shown);
	}
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
	int tw = h->typing || h->query[0] ?
		text_format(title, sizeof title, " Keys %d/%d  /%s%s  Esc: all ", h->n_shown ? h->top + 1 : 0,
			    (int)h->n_shown, h->query, h->typing ? "_" : "") :
		text_format(title, sizeof title, " Keys %d/%d  /: search  q: close ", h->top + 1,
			    (int)h->n_shown);
	/* only the title's own width: the rest of the line is the border */
	draw_text(p->win, 0, 2, tw < p->cols - 4 ? tw : p->cols - 4, title, TEXT_LEFT, flags);
	if (!h->n_shown) {
		style_set(p->win, THEME_HELP_TEXT);
		draw_text(p->win, 1, 2, p->cols - 3, "no key matches", TEXT_LEFT, flags);
	}
	for (int i = 0; i < rows && (size_t)(h->top + i) < h->n_shown; i++)
		help_draw_line(p, h, &h->lines[h->shown[h->top + i]], 1 + i);
	style_set(p->win, THEME_DIALOG);
}

static unsigned help_scroll(struct pane *p, int top)
{
	struct help_state *h = p->data;
	int max = (int)h->n_shown - help_body_rows(p);

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

	if (h->typing || (key == '/' && !h->query[0])) {
		size_t n = strlen(h->query);
		if (key == '/' && !h->typing) {
			h->typing = true;
		} else if (key == 27 || act == ACT_BACK || act == ACT_CANCEL) {
			h->typing = false;   /* Esc: the search goes */
			h->query[0] = '\0';
		} else if (key == '\n' || key == '\r' || key == (KEYS_FN | KEY_ENTER)) {
			h->typing = false;   /* Enter: the lines found stay */
		} else if (key == (KEYS_FN | KEY_BACKSPACE) || key == 127 || key == 8) {
			h->query[n ? n - 1 : 0] = '\0';
		} else if (key >= ' ' && key < 127 && n + 1 < sizeof h->query) {
			h->query[n] = (char)key;
			h->query[n + 1] = '\0';
		}
		help_refilter(h);
		return PANE_HANDLED | PANE_REDRAW;
	}
	if (h->query[0] && (act == ACT_BACK || key == 27)) {   /* Esc: every key again */
		h->query[0] = '\0';
		help_refilter(h);
		return PANE_HANDLED | PANE_REDRAW;
	}
	switch (act) {
	case ACT_MOVE_DOWN: return help_scroll(p, h->top + 1);
	case ACT_MOVE_UP: return help_scroll(p, h->top - 1);
	case ACT_PAGE_DOWN: return help_scroll(p, h->top + page);
	case ACT_PAGE_UP: return help_scroll(p, h->top - page);
	case ACT_HALF_PAGE_DOWN: return help_scroll(p, h->top + page / 2);
	case ACT_HALF_PAGE_UP: return help_scroll(p, h->top - page / 2);
	case ACT_MOVE_TOP: return help_scroll(p, 0);
	case ACT_MOVE_BOTTOM: return help_scroll(p, (int)h->n_shown);
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
