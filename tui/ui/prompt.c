/* The `:` action prompt. */
#include "config.h"

#include "ui/prompt.h"

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/form_draw.h"
#include "ui/line_input.h"
#include "ui/style.h"
#include "ui/text.h"

/* Ownership: the pane's data, freed by prompt_close. */
struct prompt_state {
	struct line_input in;   /* history: the frame's, borrowed */
	char text[160];         /* the text as UTF-8, refreshed after each key */
	char msg[256];
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
	struct prompt_state *s = calloc(1, sizeof *s);
	if (!s || line_input_init(&s->in, arg, NULL) != 0) {
		free(s);
		return -1;
	}
	p->data = s;
	return 0;
}

static void prompt_close(struct pane *p)
{
	struct prompt_state *s = p->data;
	if (s)
		line_input_free(&s->in);
	free(s);
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
	draw_text(p->win, 0, 0, 1, ":", TEXT_LEFT, flags);
	/* the line is as wide as its text and the cursor cell, the message after it
	 * (form_draw_line keeps a column of its width free for the cursor at the end) */
	snprintf(line, sizeof line, "%s  ", s->text);
	wchar_t *ws = text_sanitize(line, flags);
	int w = ws ? text_width(ws) : 2;
	free(ws);
	if (w > p->cols - 2)
		w = p->cols - 2;
	form_draw_line(&s->in.field, p->win, 0, 1, w, THEME_NORMAL, THEME_DIALOG_FIELD_FOCUS, true,
		       p->ctx->ascii);
	w++;
	if (s->msg[0] && w + 3 < p->cols) {
		style_set(p->win, THEME_DIALOG_ERROR);
		draw_text(p->win, 0, w + 3, p->cols - w - 3, s->msg, TEXT_LEFT, flags);
	}
	style_set(p->win, THEME_NORMAL);
}

/* The line is an action's name, then (for an ACTION_ARG action) its argument after a
 * space: `:order ID`. */
static unsigned prompt_submit(struct pane *p)
{
	struct prompt_state *s = p->data;
	char name[sizeof s->text];
	size_t lead = strspn(s->text, " ");
	size_t n = strcspn(s->text + lead, " ");
	const char *arg = s->text + lead + n;

	arg += strspn(arg, " ");
	/* Tab leaves a space after what it completed: not part of the argument */
	int alen = (int)strlen(arg);
	while (alen > 0 && arg[alen - 1] == ' ')
		alen--;
	snprintf(name, sizeof name, "%.*s", (int)n, s->text + lead);
	int id = prompt_resolve(name, s->msg, sizeof s->msg);

	if (s->in.history && line_history_add(s->in.history, s->text) != 0)
		snprintf(s->msg, sizeof s->msg, "out of memory");
	if (id <= 0)
		return PANE_HANDLED | PANE_REDRAW;
	const struct action_info *a = action_info((enum action_id)id);
	if (alen && !(a->flags & ACTION_ARG)) {
		snprintf(s->msg, sizeof s->msg, "%s takes no argument", a->name);
		return PANE_HANDLED | PANE_REDRAW;
	}
	if ((size_t)alen >= sizeof p->ctx->pending_arg) {
		snprintf(s->msg, sizeof s->msg, "argument too long");
		return PANE_HANDLED | PANE_REDRAW;
	}
	snprintf(p->ctx->pending_arg, sizeof p->ctx->pending_arg, "%.*s", alen, arg);
	p->ctx->pending = (enum action_id)id;
	return PANE_HANDLED | PANE_CLOSE;
}

/* Tab after "ACTION ": its argument completed from what the app knows (order ids, column
 * names): the common part of the candidates, the candidates listed when several. */
static unsigned prompt_complete_arg(struct pane *p)
{
	struct prompt_state *s = p->data;
	size_t lead = strspn(s->text, " "), n = strcspn(s->text + lead, " ");
	char name[64];
	const char *arg = s->text + lead + n, *found[16];

	arg += strspn(arg, " ");
	text_format(name, sizeof name, "%.*s", (int)n, s->text + lead);
	int id = action_resolve(name, &(size_t){ 0 });
	const struct action_info *a = id > 0 ? action_info((enum action_id)id) : NULL;
	if (!a || !(a->flags & ACTION_ARG) || !p->ctx->complete_arg) {
		text_format(s->msg, sizeof s->msg, "nothing to complete here");
		return PANE_HANDLED | PANE_REDRAW;
	}
	size_t k = p->ctx->complete_arg(p->ctx->complete_ud, id, arg, found, 16);
	if (!k) {
		text_format(s->msg, sizeof s->msg, "no %s starts with '%s'", a->name, arg);
		return PANE_HANDLED | PANE_REDRAW;
	}
	size_t common = strlen(found[0]);
	for (size_t i = 1; i < k; i++)
		for (size_t c = 0; c < common; c++)
			if (found[i][c] != found[0][c]) {
				common = c;
				break;
			}
	char line[sizeof s->text];
	text_format(line, sizeof line, "%s %.*s%s", a->name, (int)common, found[0], k == 1 ? " " : "");
	if (line_input_set(&s->in, line) != 0)
		text_format(s->msg, sizeof s->msg, "out of memory");
	line_input_text(&s->in, s->text, sizeof s->text);
	for (size_t i = 0, len = 0; k > 1 && i < k; i++)
		len = text_appendf(s->msg, sizeof s->msg, len, "%s%s", i ? " " : "", found[i]);
	return PANE_HANDLED | PANE_REDRAW;
}

/* Tab on the action's name: the common part of the names that start so, the names listed
 * when several (as prompt_complete_arg lists an argument's). */
static unsigned prompt_complete_action(struct pane *p)
{
	struct prompt_state *s = p->data;
	char prefix[sizeof s->text];
	const char *name;

	text_format(prefix, sizeof prefix, "%s", s->text);
	size_t k = action_complete(prefix, s->text, sizeof s->text);
	if (k == 0)
		text_format(s->msg, sizeof s->msg, "no action starts with '%s'", prefix);
	else if (line_input_set(&s->in, s->text) != 0)
		text_format(s->msg, sizeof s->msg, "out of memory");
	for (size_t i = 0, len = 0; k > 1 && (name = action_complete_nth(prefix, i)); i++)
		len = text_appendf(s->msg, sizeof s->msg, len, "%s%s", i ? " " : "", name);
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned prompt_key(struct pane *p, enum action_id act, ui_key key)
{
	struct prompt_state *s = p->data;
	bool history = key == (KEYS_FN | KEY_UP) || key == (KEYS_FN | KEY_DOWN);

	s->msg[0] = '\0';
	switch (history ? ACT_NONE : act) {
	case ACT_SUBMIT: return prompt_submit(p);
	case ACT_CANCEL: return PANE_HANDLED | PANE_CLOSE;
	case ACT_FIELD_NEXT:
		if (strchr(s->text, ' '))
			return prompt_complete_arg(p);
		return prompt_complete_action(p);
	default:
		break;
	}
	if (key == (KEYS_FN | KEY_BACKSPACE) && !s->in.field.len)
		return PANE_HANDLED | PANE_CLOSE;   /* like vim: BS on an empty prompt leaves */
	if (line_input_key(&s->in, key) < 0)
		snprintf(s->msg, sizeof s->msg, "out of memory");
	line_input_text(&s->in, s->text, sizeof s->text);
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
