/* The frame: layout, key routing and the draw pass. */
#include "config.h"

#include "ui/frame.h"

#include <stdio.h>
#include <string.h>

#include "ui/help_pane.h"
#include "ui/prompt.h"
#include "ui/style.h"
#include "ui/term.h"

void frame_init(struct ui_frame *f, const struct keymap *km, int ascii, int read_only)
{
	memset(f, 0, sizeof *f);
	f->ctx.keymap = km;
	f->ctx.ascii = ascii;
	f->ctx.read_only = read_only;
	f->min_rows = TERM_MIN_ROWS;
	f->min_cols = TERM_MIN_COLS;
	f->all_dirty = 1;
}

void frame_free(struct ui_frame *f)
{
	frame_close_overlay(f);
	for (int i = 0; i < f->npanes; i++)
		pane_free(f->panes[i]);
	f->npanes = 0;
	line_history_free(&f->prompt_history);
}

static int focusable(const struct pane *p)
{
	return p && !p->hidden && (p->ops->place == PANE_PLACE_MAIN || p->ops->place == PANE_PLACE_BOTTOM);
}

static void frame_set_focus(struct ui_frame *f, int i)
{
	if (i < 0 || i >= f->npanes || !focusable(f->panes[i]))
		return;
	if (f->focus < f->npanes && f->panes[f->focus]) {
		f->panes[f->focus]->focused = 0;
		pane_dirty(f->panes[f->focus]);
	}
	f->focus = i;
	f->panes[i]->focused = 1;
	pane_dirty(f->panes[i]);
}

int frame_add(struct ui_frame *f, struct pane *p)
{
	if (!p)
		return -1;
	if (f->npanes == FRAME_MAX_PANES) {
		pane_free(p);
		return -1;
	}
	f->panes[f->npanes++] = p;
	if (!focusable(frame_focused(f)))
		frame_set_focus(f, f->npanes - 1);
	f->all_dirty = 1;
	return 0;
}

struct pane *frame_focused(struct ui_frame *f)
{
	return f->focus < f->npanes ? f->panes[f->focus] : NULL;
}

static int overlay_rows(const struct ui_frame *f, const struct pane *p);
static int overlay_cols(const struct ui_frame *f);

static void frame_drop_backdrop(struct ui_frame *f)
{
	if (f->backdrop)
		delwin(f->backdrop);
	f->backdrop = NULL;
}

static void place_overlay(struct ui_frame *f, struct pane *p)
{
	if (p->ops->place == PANE_PLACE_PROMPT) {
		pane_place(p, f->rows - 1, 0, 1, f->cols);
		return;
	}
	if (p->ops->place == PANE_PLACE_FULL) {
		pane_place(p, 0, 0, f->rows > 1 ? f->rows - 1 : f->rows, f->cols);
		frame_drop_backdrop(f);
		return;
	}
	int rows = overlay_rows(f, p), cols = overlay_cols(f);
	int y = (f->rows - rows) / 2, x = (f->cols - cols) / 2;
	pane_place(p, y, x, rows, cols);
	frame_drop_backdrop(f);
	if (p == f->overlay && rows > 0 && x >= 1 && x + cols < f->cols)
		f->backdrop = newwin(rows, cols + 2, y, x - 1);   /* NULL: no margin, no harm */
}

/* Below this an overlay is not worth shrinking: a border, a line, a hint. */
#define OVERLAY_MIN_ROWS 5

static int overlay_cols(const struct ui_frame *f)
{
	return f->cols - 4 > 100 ? 100 : f->cols - 4;
}

static int overlay_rows(const struct ui_frame *f, const struct pane *p)
{
	int max = f->rows - 2;
	int want = f->overlay_fit && p == f->overlay ? f->overlay_fit(p, overlay_cols(f)) : 0;

	if (want <= 0 || want > max)
		return max;
	return want < OVERLAY_MIN_ROWS ? (max < OVERLAY_MIN_ROWS ? max : OVERLAY_MIN_ROWS) : want;
}

/* The overlay's content changed its height (a picker opened, an error appeared): placed
 * again, and everything below redrawn, since a smaller overlay uncovers the panes. */
static void frame_refit_overlay(struct ui_frame *f)
{
	struct pane *o = f->overlay;

	if (!o || !f->overlay_fit || !o->dirty || o->ops->place == PANE_PLACE_PROMPT)
		return;
	if (overlay_rows(f, o) == o->rows && overlay_cols(f) == o->cols)
		return;
	place_overlay(f, o);
	f->all_dirty = 1;
}

static int pane_weight(const struct pane *p)
{
	return p->weight > 0 ? p->weight : 1;
}

static int is_main(const struct pane *p)
{
	return !p->hidden && p->ops->place == PANE_PLACE_MAIN && !p->stacked;
}

/* Panes with a stack_on (pane.h): at their stack_cols and more, stack_on always shows;
 * narrower, one of the two, the focused one (else this pane, shown last). */
static void frame_stack(struct ui_frame *f)
{
	struct pane *fp = f->focus < f->npanes ? f->panes[f->focus] : NULL;

	for (int i = 0; i < f->npanes; i++) {
		struct pane *p = f->panes[i], *s = p->stack_on;
		if (!s)
			continue;
		int wide = f->cols >= p->stack_cols;
		if (wide) {
			p->stacked = 1;
			s->hidden = 0;
		} else if (p->stacked) {
			p->stacked = 0;
			if (!p->hidden && !s->hidden)
				p->hidden = fp == s;
			s->hidden = !p->hidden;
		}
	}
}

/* A stacked pane shown: under the main panes from its stack_from to the right edge, which
 * keep their columns and give it the lower two fifths of their rows. */
static void place_stacked(struct ui_frame *f, struct pane *p)
{
	struct pane *from = p->stack_from ? p->stack_from : p->stack_on;
	int rows = from->rows, top = rows - rows * 2 / 5;

	if (from->hidden || rows < 10) {
		pane_place(p, 0, 0, 0, 0);   /* no room under them: no window */
		return;
	}
	for (int i = 0; i < f->npanes; i++) {
		struct pane *m = f->panes[i];
		if (is_main(m) && m->x >= from->x)
			pane_place(m, m->y, m->x, top, m->cols);
	}
	pane_place(p, from->y + top, from->x, rows - top, f->cols - from->x);
}

/* The edges of n panes' shares of cols by weight (only those with use[i]), in w[]. */
static void share_by_weight(struct pane *const *m, int n, const int *use, int cols, int *w)
{
	int weights = 0;

	for (int i = 0; i < n; i++)
		weights += use[i] ? pane_weight(m[i]) : 0;
	for (int i = 0, acc = 0, edge = 0; i < n; i++) {
		if (!use[i])
			continue;
		acc += pane_weight(m[i]);
		int next = (int)((long)cols * acc / weights);
		w[i] = next - edge;
		edge = next;
	}
}

/* The widths of the n main panes m[], in order, in cols: a pane with a max_cols takes its
 * share by weight or that max if less; the panes without one share the rest by weight
 * (the list takes what the side panes have no use for). If every pane has a max, the
 * heaviest takes the rest. */
static void main_widths(struct pane *const *m, int n, int cols, int *w)
{
	int all[FRAME_MAX_PANES], open[FRAME_MAX_PANES], room = cols, heaviest = 0, any = 0;

	if (n <= 0)
		return;
	for (int i = 0; i < n; i++) {
		all[i] = 1;
		heaviest = pane_weight(m[i]) > pane_weight(m[heaviest]) ? i : heaviest;
	}
	share_by_weight(m, n, all, cols, w);
	for (int i = 0; i < n; i++) {
		int max = m[i]->ops->max_cols ? m[i]->ops->max_cols(m[i]) : 0;
		open[i] = max <= 0;
		any |= open[i];
		if (!open[i] && w[i] > max)
			w[i] = max;
	}
	open[heaviest] |= !any;
	for (int i = 0; i < n; i++)
		room -= open[i] ? 0 : w[i];
	share_by_weight(m, n, open, room, w);
}

/* The visible main panes, in order, and their widths now. Returns how many. */
static int main_panes(struct ui_frame *f, struct pane **m, int *w)
{
	int n = 0;

	for (int i = 0; i < f->npanes; i++)
		if (is_main(f->panes[i]))
			m[n++] = f->panes[i];
	main_widths(m, n, f->cols, w);
	return n;
}

/* Main panes side by side (main_widths); bottom panes share a third below; status last. */
static void frame_layout(struct ui_frame *f)
{
	struct pane *m[FRAME_MAX_PANES];
	int w[FRAME_MAX_PANES], main_rows = f->rows, bottom = 0, n;

	frame_stack(f);
	n = main_panes(f, m, w);

	for (int i = 0; i < f->npanes; i++) {
		struct pane *p = f->panes[i];
		if (p->hidden) {
			pane_place(p, 0, 0, 0, 0);
		} else if (p->ops->place == PANE_PLACE_STATUS) {
			main_rows--;
			pane_place(p, f->rows - 1, 0, 1, f->cols);
		} else if (p->ops->place == PANE_PLACE_BOTTOM) {
			bottom = 1;
		}
	}
	int bottom_rows = bottom ? (main_rows / 3 > 3 ? main_rows / 3 : 3) : 0;
	main_rows -= bottom_rows;
	for (int i = 0; i < f->npanes; i++) {
		struct pane *p = f->panes[i];
		if (!p->hidden && p->ops->place == PANE_PLACE_BOTTOM)
			pane_place(p, main_rows, 0, bottom_rows, f->cols);
	}
	for (int i = 0, x = 0; i < n; x += w[i++])
		pane_place(m[i], 0, x, main_rows, w[i]);
	for (int i = 0; i < f->npanes; i++)
		if (f->panes[i]->stacked && !f->panes[i]->hidden)
			place_stacked(f, f->panes[i]);
	if (f->overlay)
		place_overlay(f, f->overlay);
}

/* A dirty main pane may want another width (its content changed): laid out again when a
 * width differs, before anything is drawn. */
static void frame_refit_main(struct ui_frame *f)
{
	struct pane *m[FRAME_MAX_PANES];
	int w[FRAME_MAX_PANES], asks = 0;

	for (int i = 0; i < f->npanes; i++) {
		struct pane *p = f->panes[i];
		asks |= is_main(p) && p->ops->max_cols && (p->dirty || f->all_dirty);
	}
	if (!asks)
		return;
	int n = main_panes(f, m, w);
	for (int i = 0; i < n; i++) {
		if (m[i]->cols != w[i]) {
			frame_layout(f);
			f->all_dirty = 1;
			return;
		}
	}
}

void frame_resize(struct ui_frame *f)
{
	getmaxyx(stdscr, f->rows, f->cols);
	f->too_small = term_too_small(f->rows, f->cols, f->min_rows, f->min_cols);
	f->all_dirty = 1;
	if (!f->too_small)
		frame_layout(f);
}

/* The status bar's key hint depends on the overlay. */
static void frame_dirty_status(struct ui_frame *f)
{
	for (int i = 0; i < f->npanes; i++)
		if (f->panes[i]->ops->place == PANE_PLACE_STATUS)
			pane_dirty(f->panes[i]);
}

void frame_open_overlay_fit(struct ui_frame *f, struct pane *p, frame_fit_fn fit)
{
	frame_close_overlay(f);
	if (!p)
		return;
	f->overlay = p;
	f->overlay_fit = fit;
	f->ctx.overlay_scope = p->ops->scope;
	frame_dirty_status(f);
	if (f->rows && f->cols)
		place_overlay(f, p);
}

void frame_open_overlay(struct ui_frame *f, struct pane *p)
{
	frame_open_overlay_fit(f, p, NULL);
}

void frame_close_overlay(struct ui_frame *f)
{
	if (!f->overlay)
		return;
	pane_free(f->overlay);
	f->overlay = NULL;
	f->overlay_fit = NULL;
	f->ctx.overlay_scope = 0;
	frame_dirty_status(f);
	frame_drop_backdrop(f);
	f->all_dirty = 1;
}

void frame_dirty_scope(struct ui_frame *f, unsigned scope)
{
	for (int i = 0; i < f->npanes; i++)
		if (f->panes[i]->ops->scope & scope)
			pane_dirty(f->panes[i]);
}

static void frame_cycle(struct ui_frame *f, int dir)
{
	for (int k = 1; k <= f->npanes; k++) {
		int i = ((f->focus + dir * k) % f->npanes + f->npanes) % f->npanes;
		if (focusable(f->panes[i])) {
			frame_set_focus(f, i);
			return;
		}
	}
}

static unsigned frame_focus_scope(struct ui_frame *f, unsigned scope)
{
	for (int i = 0; i < f->npanes; i++) {
		if (f->panes[i]->ops->scope & scope) {
			if (f->panes[i]->hidden) {
				f->panes[i]->hidden = 0;
				frame_layout(f);
				f->all_dirty = 1;
			}
			frame_set_focus(f, i);
			return PANE_HANDLED;
		}
	}
	return PANE_IGNORED;
}

static unsigned frame_toggle_log(struct ui_frame *f)
{
	for (int i = 0; i < f->npanes; i++) {
		struct pane *p = f->panes[i];
		if (!(p->ops->scope & SCOPE_LOG))
			continue;
		p->hidden = !p->hidden;
		if (p->hidden && f->focus == i)
			frame_cycle(f, 1);
		if (!f->too_small)
			frame_layout(f);
		f->all_dirty = 1;
		return PANE_HANDLED | PANE_REDRAW_ALL;
	}
	return PANE_IGNORED;
}

static unsigned frame_global(struct ui_frame *f, enum action_id act)
{
	switch (act) {
	case ACT_NEXT_PANE: frame_cycle(f, 1); return PANE_HANDLED;
	case ACT_PREV_PANE: frame_cycle(f, -1); return PANE_HANDLED;
	case ACT_VIEW_ORGS: return frame_focus_scope(f, SCOPE_ORGS);
	case ACT_VIEW_TRANSCRIPTIONS: return frame_focus_scope(f, SCOPE_TRANSCRIPTIONS);
	case ACT_VIEW_DETAILS: return frame_focus_scope(f, SCOPE_DETAILS);
	case ACT_VIEW_ACTIVITY: return frame_focus_scope(f, SCOPE_ACTIVITY);
	case ACT_TOGGLE_LOG: return frame_toggle_log(f);
	case ACT_HELP: {
		/* the focused pane's own keys first */
		struct pane *p = frame_focused(f);
		unsigned scope = p ? p->ops->scope : 0;
		frame_open_overlay(f, pane_new(&help_pane_ops, &f->ctx, &scope));
		return PANE_HANDLED;
	}
	case ACT_PROMPT:
		frame_open_overlay(f, pane_new(&prompt_pane_ops, &f->ctx, &f->prompt_history));
		return PANE_HANDLED;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		f->all_dirty = 1;
		return PANE_HANDLED;
	case ACT_QUIT: {
		unsigned asked = f->before_quit ? f->before_quit(f->before_quit_ud) : 0;
		return asked ? asked : PANE_HANDLED | PANE_QUIT;
	}
	default:
		return PANE_IGNORED;
	}
}

static void frame_apply(struct ui_frame *f, struct pane *p, unsigned r)
{
	if (r & PANE_REDRAW)
		pane_dirty(p);
	if (r & PANE_REDRAW_ALL)
		f->all_dirty = 1;
}

unsigned frame_run(struct ui_frame *f, enum action_id act, ui_key key)
{
	struct pane *p = frame_focused(f);
	const struct action_info *a = action_info(act);
	unsigned r = PANE_IGNORED;

	if (a && !action_allowed(act, f->ctx.read_only)) {
		if (f->ctx.offline)
			snprintf(f->notice, sizeof f->notice,
				 "offline: %s is refused: nothing is sent (--offline)", a->name);
		else
			snprintf(f->notice, sizeof f->notice, "read-only: %s is refused: %s", a->name,
				 action_refusal(act) ? action_refusal(act) : "it changes the server");
		return PANE_HANDLED | PANE_REFUSED;
	}
	if (p && p->ops->key) {
		r = p->ops->key(p, act, key);
		frame_apply(f, p, r);
		if (r & PANE_HANDLED)
			return r;
	}
	return r | frame_global(f, act);
}

static unsigned frame_overlay_key(struct ui_frame *f, ui_key key)
{
	struct pane *o = f->overlay;
	unsigned scope = o->ops->scope;
	enum action_id act = keymap_lookup(f->ctx.keymap, key,
		scope == SCOPE_DIALOG ? scope : scope | SCOPE_GLOBAL);
	unsigned r = o->ops->key ? o->ops->key(o, act, key) : PANE_IGNORED;

	frame_apply(f, o, r);
	if (r & PANE_CLOSE) {
		frame_close_overlay(f);
		enum action_id next = f->ctx.pending;
		f->ctx.pending = ACT_NONE;
		if (next != ACT_NONE)
			r |= frame_run(f, next, KEYS_NONE);
		f->ctx.pending_arg[0] = '\0';
	}
	/* overlays are modal: keys never reach the panes below */
	return r | PANE_HANDLED;
}

static unsigned frame_mouse(struct ui_frame *f)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return PANE_IGNORED;
	for (int i = 0; i < f->npanes; i++) {
		struct pane *p = f->panes[i];
		if (!focusable(p) || !p->win || !wenclose(p->win, ev.y, ev.x))
			continue;
		frame_set_focus(f, i);
		if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
			enum action_id a = (ev.bstate & BUTTON4_PRESSED) ? ACT_MOVE_UP : ACT_MOVE_DOWN;
			unsigned r = 0;
			for (int k = 0; k < 3; k++)
				r |= frame_run(f, a, KEYS_NONE);
			return r;
		}
		unsigned r = p->ops->select ? p->ops->select(p, ev.y - p->y) : PANE_IGNORED;
		frame_apply(f, p, r);
		return r | PANE_HANDLED;
	}
	return PANE_IGNORED;
}

unsigned frame_key(struct ui_frame *f, ui_key key)
{
	if (key == (KEYS_FN | KEY_RESIZE)) {
		frame_resize(f);
		return PANE_HANDLED | PANE_REDRAW_ALL;
	}
	if (f->too_small) {
		enum action_id act = keymap_lookup(f->ctx.keymap, key, SCOPE_GLOBAL);
		return act == ACT_QUIT ? PANE_HANDLED | PANE_QUIT : PANE_IGNORED;
	}
	if (key == (KEYS_FN | KEY_MOUSE))
		return frame_mouse(f);
	if (f->overlay)
		return frame_overlay_key(f, key);
	struct pane *p = frame_focused(f);
	unsigned ctx = (p ? p->ops->scope : 0) | SCOPE_GLOBAL;
	unsigned r = frame_run(f, keymap_lookup(f->ctx.keymap, key, ctx), key);
	/* a key that did nothing says why (keymap_explain), through the refusal's notice */
	if (!(r & PANE_HANDLED) && keymap_explain(f->ctx.keymap, key, ctx, f->notice, sizeof f->notice))
		r |= PANE_REFUSED;
	return r;
}

void frame_draw(struct ui_frame *f)
{
	int force, drawn = 0;

	if (!f->too_small) {
		frame_refit_main(f);
		frame_refit_overlay(f);
	}
	force = f->all_dirty;

	if (f->too_small) {
		style_bkgd(stdscr, THEME_NORMAL);
		term_draw_too_small(stdscr, f->min_rows, f->min_cols, f->ctx.ascii);
		wnoutrefresh(stdscr);
		doupdate();
		f->all_dirty = 1;   /* everything must come back once the size is fine */
		return;
	}
	if (force) {
		style_bkgd(stdscr, THEME_NORMAL);
		werase(stdscr);
		wnoutrefresh(stdscr);
		drawn = 1;
	}
	for (int i = 0; i < f->npanes; i++)
		drawn |= pane_render(f->panes[i], force);
	if (f->overlay) {
		int redraw = drawn || f->overlay->dirty;
		if (redraw && f->backdrop) {
			style_bkgd(f->backdrop, THEME_NORMAL);
			werase(f->backdrop);
			wnoutrefresh(f->backdrop);
		}
		drawn |= pane_render(f->overlay, redraw);
	}
	f->all_dirty = 0;
	if (drawn)
		doupdate();
}
