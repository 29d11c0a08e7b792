/* A text popup. */
#include "config.h"

#include "ui/dialog_popup.h"

#include <stdlib.h>
#include <string.h>

#include "ui/form_draw.h"
#include "ui/style.h"
#include "ui/text.h"

/* Ownership: the pane's data, freed by popup_close. */
struct popup {
	char *title, *text;
};

static int popup_open(struct pane *p, void *arg)
{
	const struct dialog_popup_arg *a = arg;
	struct popup *u = calloc(1, sizeof *u);
	if (!u)
		return -1;
	u->title = strdup(a && a->title ? a->title : "");
	u->text = strdup(a && a->text ? a->text : "");
	if (!u->title || !u->text) {
		free(u->title);
		free(u->text);
		free(u);
		return -1;
	}
	p->data = u;
	return 0;
}

static void popup_close(struct pane *p)
{
	struct popup *u = p->data;
	if (u) {
		free(u->title);
		free(u->text);
	}
	free(u);
	p->data = NULL;
}

static void popup_draw_hint(struct pane *p, const char *hint)
{
	struct popup *u = p->data;
	form_draw_frame(p->win, u->title, hint, p->ctx->ascii);
	style_set(p->win, THEME_DIALOG);
	/* each line of the text wraps on its own (a list: one item a line) */
	int y = 2, end = p->rows - 2;
	for (const char *line = u->text; line && y < end;) {
		const char *nl = strchr(line, '\n');
		char *one = strndup(line, nl ? (size_t)(nl - line) : strlen(line));
		if (!one)
			break;
		y += form_draw_wrapped(p->win, y, 2, p->cols - 4, end - y, one, p->ctx->ascii);
		if (!one[0])
			y++;
		free(one);
		line = nl ? nl + 1 : NULL;
	}
}

static void popup_draw(struct pane *p)
{
	popup_draw_hint(p, "any key: close");
}

int dialog_popup_fit(const struct pane *p, int cols)
{
	const struct popup *u = p->data;
	int body = cols - 4, rows = 4;
	if (body < 1)
		return 0;
	for (const char *line = u ? u->text : NULL; line;) {
		const char *nl = strchr(line, '\n');
		char *one = strndup(line, nl ? (size_t)(nl - line) : strlen(line));
		wchar_t *w = one ? text_sanitize(one, 0) : NULL;
		int tw = w ? text_width(w) : 0;
		free(w);
		free(one);
		/* words wrap, so a line may end early: one spare line each */
		rows += tw ? (tw + body - 1) / body + (tw > body) : 1;
		line = nl ? nl + 1 : NULL;
	}
	return rows + 1;
}

static unsigned popup_key(struct pane *p, enum action_id act, ui_key key)
{
	(void)p;
	(void)act;
	(void)key;
	return PANE_HANDLED | PANE_CLOSE;
}

const struct pane_ops dialog_popup_ops = {
	.name = "popup",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = popup_open,
	.draw = popup_draw,
	.key = popup_key,
	.close = popup_close,
};

static void quit_draw(struct pane *p)
{
	popup_draw_hint(p, "q/y: quit anyway  any other key: stay");
}

static unsigned quit_key(struct pane *p, enum action_id act, ui_key key)
{
	(void)p;
	if (key == 'q' || key == 'y' || key == 'Y' || act == ACT_QUIT)
		return PANE_HANDLED | PANE_CLOSE | PANE_QUIT;
	return PANE_HANDLED | PANE_CLOSE;
}

const struct pane_ops dialog_quit_ops = {
	.name = "quit",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = popup_open,
	.draw = quit_draw,
	.key = quit_key,
	.close = popup_close,
};
