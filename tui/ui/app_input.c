/* A one-line text input on the last line (the list's filter and tag, `:order`'s id), with
 * the readline keys of ui/line_input.h; a live input tells its owner of every edit. */
#include "config.h"

#include "ui/app_input.h"
#include "ui/app_access.h"

#include <curses.h>   /* KEY_* codes only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/form_draw.h"
#include "ui/style.h"
#include "ui/text.h"

/* Ownership: the pane's data, freed by input_close; the history is borrowed. */
struct input_state {
	struct app *app;
	struct app_input spec;    /* label static, initial unused after open */
	struct line_input in;
	char text[256];           /* UTF-8, refreshed after each edit */
};

static int input_open(struct pane *p, void *arg)
{
	p->data = arg;
	return 0;
}

static void input_close(struct pane *p)
{
	struct input_state *s = p->data;

	if (s)
		line_input_free(&s->in);
	free(s);
	p->data = NULL;
}

/* The label, the line as wide as its text and the cursor cell, then the owner's hint. */
static void input_draw(struct pane *p)
{
	struct input_state *s = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	char hint[256] = "";
	bool error = false;

	style_bkgd(p->win, THEME_NORMAL);
	werase(p->win);
	style_set(p->win, THEME_NORMAL);
	int lw = text_width_utf8(s->spec.label, flags);
	lw = lw > 0 ? lw : 0;
	draw_text(p->win, 0, 0, p->cols, s->spec.label, TEXT_LEFT, flags);
	char line[sizeof s->text + 4];
	snprintf(line, sizeof line, "%s  ", s->text);
	wchar_t *ws = text_sanitize(line, flags);
	int w = ws ? text_width(ws) : 2;
	free(ws);
	if (w > p->cols - lw)
		w = p->cols - lw;
	if (w < 1)
		return;
	form_draw_line(&s->in.field, p->win, 0, lw, w, THEME_NORMAL, THEME_DIALOG_FIELD_FOCUS, true,
		       p->ctx->ascii);
	if (s->spec.hint)
		s->spec.hint(s->app, hint, sizeof hint, &error);
	int x = lw + w + 2;
	if (hint[0] && x < p->cols) {
		style_set(p->win, error ? THEME_DIALOG_ERROR : THEME_MUTED);
		draw_text(p->win, 0, x, p->cols - x, hint, TEXT_LEFT, flags);
	}
	style_set(p->win, THEME_NORMAL);
}

static unsigned input_key(struct pane *p, enum action_id act, ui_key key)
{
	struct input_state *s = p->data;
	bool history = key == (KEYS_FN | KEY_UP) || key == (KEYS_FN | KEY_DOWN);

	if (!history && act == ACT_SUBMIT) {
		if (s->spec.history && line_history_add(s->spec.history, s->text) != 0)
			app_status(s->app, "out of memory");
		s->spec.submit(s->app, s->text);
		return PANE_HANDLED | PANE_CLOSE | PANE_REDRAW_ALL;
	}
	if (!history && act == ACT_CANCEL) {
		if (s->spec.cancel)
			s->spec.cancel(s->app, s->text);
		return PANE_HANDLED | PANE_CLOSE | PANE_REDRAW_ALL;
	}
	if (s->spec.key && s->spec.key(s->app, key))
		return PANE_HANDLED | PANE_REDRAW;
	char done[sizeof s->text];
	if (s->spec.complete && act == ACT_FIELD_NEXT) {
		if (s->spec.complete(s->app, s->text, done, sizeof done) &&
		    line_input_set(&s->in, done) != 0)
			app_status(s->app, "out of memory");
		line_input_text(&s->in, s->text, sizeof s->text);
		return PANE_HANDLED | PANE_REDRAW;
	}
	int rc = line_input_key(&s->in, key);
	if (rc < 0)
		app_status(s->app, "out of memory");
	if (rc <= 0)
		return PANE_HANDLED;
	char before[sizeof s->text];
	memcpy(before, s->text, sizeof before);
	line_input_text(&s->in, s->text, sizeof s->text);
	if (s->spec.changed && strcmp(before, s->text) != 0)
		s->spec.changed(s->app, s->text);
	return PANE_HANDLED | PANE_REDRAW;
}

static const struct pane_ops input_pane_ops = {
	.name = "input", .scope = SCOPE_DIALOG, .place = PANE_PLACE_PROMPT,
	.open = input_open, .draw = input_draw, .key = input_key, .close = input_close,
};

void app_input_start(struct app *app, const struct app_input *spec)
{
	struct input_state *s = calloc(1, sizeof *s);

	if (!s || line_input_init(&s->in, spec->history, spec->initial) != 0) {
		free(s);
		app_status(app, "out of memory");
		return;
	}
	s->app = app;
	s->spec = *spec;
	line_input_text(&s->in, s->text, sizeof s->text);
	struct pane *p = pane_new(&input_pane_ops, &app->ses.frame.ctx, s);
	if (!p) {
		line_input_free(&s->in);
		free(s);
		app_status(app, "out of memory");
		return;
	}
	frame_open_overlay(&app->ses.frame, p);
}

void app_input_open(struct app *app, const char *label, const char *initial, app_input_fn fn)
{
	struct app_input spec = { .label = label, .initial = initial, .submit = fn };

	app_input_start(app, &spec);
}

/* The input pane open on top, or NULL: its owner marks it dirty when what its hint says
 * changed (a page came). */
struct pane *app_input_pane(struct app *app)
{
	struct pane *o = app->ses.frame.overlay;

	return o && o->ops == &input_pane_ops ? o : NULL;
}
