/* A one-line text input on the last line, for the list's text and tag filters. */
#include "config.h"

#include "ui/app_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"

/* Ownership: the pane's data, freed by input_close. */
struct input_state {
	struct app *app;
	const char *label;        /* static */
	char text[128];           /* UTF-8 */
	app_input_fn fn;
};

static int input_open(struct pane *p, void *arg)
{
	p->data = arg;
	return 0;
}

static void input_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

static void input_draw(struct pane *p)
{
	struct input_state *s = p->data;
	char line[200];

	style_bkgd(p->win, THEME_NORMAL);
	werase(p->win);
	style_set(p->win, THEME_NORMAL);
	snprintf(line, sizeof line, "%s%s", s->label, s->text);
	draw_text(p->win, 0, 0, p->cols - 1, line, TEXT_LEFT, p->ctx->ascii ? TEXT_ASCII : 0);
	wchar_t *ws = text_sanitize(line, p->ctx->ascii ? TEXT_ASCII : 0);
	int w = text_width(ws);
	free(ws);
	if (w < p->cols) {
		style_set(p->win, THEME_DIALOG_FIELD_FOCUS);
		draw_blank(p->win, 0, w, 1);
	}
	style_set(p->win, THEME_NORMAL);
}

/* Removes the last UTF-8 character. */
static void input_backspace(char *text)
{
	size_t len = strlen(text);

	while (len > 0) {
		len--;
		if (((unsigned char)text[len] & 0xC0) != 0x80)
			break;
	}
	text[len] = '\0';
}

static unsigned input_key(struct pane *p, enum action_id act, ui_key key)
{
	struct input_state *s = p->data;
	size_t len = strlen(s->text);

	if (act == ACT_SUBMIT) {
		s->fn(s->app, s->text);
		return PANE_HANDLED | PANE_CLOSE | PANE_REDRAW_ALL;
	}
	if (act == ACT_CANCEL)
		return PANE_HANDLED | PANE_CLOSE;
	if (key == (KEYS_FN | KEY_BACKSPACE)) {
		input_backspace(s->text);
	} else if (key >= ' ' && !KEYS_IS_FN(key) && key != 127 && len + 5 < sizeof s->text) {
		len += text_utf8_put(s->text + len, (unsigned long)key);
		s->text[len] = '\0';
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static const struct pane_ops input_pane_ops = {
	.name = "input", .scope = SCOPE_DIALOG, .place = PANE_PLACE_PROMPT,
	.open = input_open, .draw = input_draw, .key = input_key, .close = input_close,
};

void app_input_open(struct app *app, const char *label, const char *initial, app_input_fn fn)
{
	struct input_state *s = calloc(1, sizeof *s);

	if (!s) {
		app_status(app, "out of memory");
		return;
	}
	s->app = app;
	s->label = label;
	s->fn = fn;
	snprintf(s->text, sizeof s->text, "%s", initial ? initial : "");
	struct pane *p = pane_new(&input_pane_ops, &app->ses.frame.ctx, s);
	if (!p) {
		free(s);
		app_status(app, "out of memory");
		return;
	}
	frame_open_overlay(&app->ses.frame, p);
}
