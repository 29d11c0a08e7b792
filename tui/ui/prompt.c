/* The `:` action prompt. */
#include "config.h"

#include "ui/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"

/* Ownership: the pane's data, freed by prompt_close. */
struct prompt_state {
	char text[64];
	char msg[160];
};

int prompt_resolve(const char *text, char *msg, size_t size)
{
	size_t count = 0;
	int id = action_resolve(text, &count);

	msg[0] = '\0';
	if (id > 0)
		return id;
	if (id == ACT_NONE) {
		snprintf(msg, size, "no action '%s'", text);
		return ACT_NONE;
	}
	size_t len = (size_t)snprintf(msg, size, "%zu match:", count);
	for (size_t i = 0; i < count && len < size; i++)
		len += (size_t)snprintf(msg + len, size - len, " %s", action_complete_nth(text, i));
	return ACT_NONE;
}

static int prompt_open(struct pane *p, void *arg)
{
	(void)arg;
	p->data = calloc(1, sizeof(struct prompt_state));
	return p->data ? 0 : -1;
}

static void prompt_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

static void prompt_draw(struct pane *p)
{
	struct prompt_state *s = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	char line[256];

	style_bkgd(p->win, THEME_NORMAL);
	werase(p->win);
	style_set(p->win, THEME_NORMAL);
	snprintf(line, sizeof line, ":%s", s->text);
	int w = (int)strlen(line);
	if (w > p->cols - 1)
		w = p->cols - 1;
	draw_text(p->win, 0, 0, w, line, TEXT_LEFT, flags);
	style_set(p->win, THEME_DIALOG_FIELD_FOCUS);
	draw_blank(p->win, 0, w, 1);
	if (s->msg[0] && w + 3 < p->cols) {
		style_set(p->win, THEME_DIALOG_ERROR);
		draw_text(p->win, 0, w + 3, p->cols - w - 3, s->msg, TEXT_LEFT, flags);
	}
	style_set(p->win, THEME_NORMAL);
}

static unsigned prompt_submit(struct pane *p)
{
	struct prompt_state *s = p->data;
	int id = prompt_resolve(s->text, s->msg, sizeof s->msg);

	if (id <= 0)
		return PANE_HANDLED | PANE_REDRAW;
	p->ctx->pending = (enum action_id)id;
	return PANE_HANDLED | PANE_CLOSE;
}

static unsigned prompt_key(struct pane *p, enum action_id act, ui_key key)
{
	struct prompt_state *s = p->data;
	size_t len = strlen(s->text);

	s->msg[0] = '\0';
	switch (act) {
	case ACT_SUBMIT: return prompt_submit(p);
	case ACT_CANCEL: return PANE_HANDLED | PANE_CLOSE;
	case ACT_FIELD_NEXT:
		if (action_complete(s->text, s->text, sizeof s->text) == 0)
			snprintf(s->msg, sizeof s->msg, "no action starts with '%s'", s->text);
		return PANE_HANDLED | PANE_REDRAW;
	default:
		break;
	}
	if (key == (KEYS_FN | KEY_BACKSPACE)) {
		if (!len)
			return PANE_HANDLED | PANE_CLOSE;   /* like vim: BS on an empty prompt leaves */
		s->text[len - 1] = '\0';
	} else if (key > ' ' && key < 127 && len + 1 < sizeof s->text) {
		/* action names are ASCII; anything else cannot match */
		s->text[len] = (char)key;
		s->text[len + 1] = '\0';
	}
	return PANE_HANDLED | PANE_REDRAW;
}

const struct pane_ops prompt_pane_ops = {
	.name = "prompt",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_PROMPT,
	.open = prompt_open,
	.draw = prompt_draw,
	.key = prompt_key,
	.close = prompt_close,
};
