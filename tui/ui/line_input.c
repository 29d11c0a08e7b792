/* One-line input: form.c's editing keys plus a history. */
#include "config.h"

#include "ui/line_input.h"

#include <curses.h>   /* KEY_* codes only */

#include <stdlib.h>
#include <string.h>

#include "ui/text.h"

int line_history_add(struct line_history *h, const char *utf8)
{
	if (!utf8 || !*utf8 || (h->n && strcmp(h->items[h->n - 1], utf8) == 0))
		return 0;
	char *copy = strdup(utf8);
	if (!copy)
		return -1;
	if (h->n == LINE_HISTORY_MAX) {
		free(h->items[0]);
		memmove(h->items, h->items + 1, (LINE_HISTORY_MAX - 1) * sizeof h->items[0]);
		h->n--;
	}
	h->items[h->n++] = copy;
	return 0;
}

void line_history_free(struct line_history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->items[i]);
	h->n = 0;
}

int line_input_set(struct line_input *in, const char *utf8)
{
	struct form_field *fl = &in->field;
	wchar_t *w = text_sanitize(utf8 ? utf8 : "", 0);
	if (!w)
		return -1;
	fl->len = fl->cursor = fl->scroll = 0;
	fl->text[0] = L'\0';
	int rc = 0;
	for (size_t i = 0; w[i] && rc >= 0; i++)
		rc = form_edit_insert(fl, w[i]);
	free(w);
	return rc < 0 ? -1 : 0;
}

int line_input_init(struct line_input *in, struct line_history *history, const char *initial)
{
	memset(in, 0, sizeof *in);
	in->field.kind = FORM_TEXT;
	in->field.cap = 16;
	in->field.text = calloc(in->field.cap, sizeof *in->field.text);
	in->history = history;
	in->hist_pos = history ? history->n : 0;
	if (!in->field.text || line_input_set(in, initial) != 0) {
		line_input_free(in);
		return -1;
	}
	return 0;
}

void line_input_free(struct line_input *in)
{
	free(in->field.text);
	free(in->draft);
	memset(in, 0, sizeof *in);
}

char *line_input_text(const struct line_input *in, char *buf, size_t size)
{
	size_t o = 0;
	if (!size)
		return buf;
	for (size_t i = 0; i < in->field.len && o + 5 < size; i++)
		o += text_utf8_put(buf + o, (unsigned long)in->field.text[i]);
	buf[o] = '\0';
	return buf;
}

/* Up (dir -1) or Down (+1) in the history. */
static int history_move(struct line_input *in, int dir)
{
	struct line_history *h = in->history;
	if (!h || (dir < 0 && in->hist_pos == 0) || (dir > 0 && in->hist_pos >= h->n))
		return 0;
	if (in->hist_pos == h->n) {   /* leaving the line being typed: keep it */
		char buf[1024];
		free(in->draft);
		if (!(in->draft = strdup(line_input_text(in, buf, sizeof buf))))
			return -1;
	}
	in->hist_pos = dir < 0 ? in->hist_pos - 1 : in->hist_pos + 1;
	const char *line = in->hist_pos < h->n ? h->items[in->hist_pos] : in->draft;
	return line_input_set(in, line) == 0 ? 1 : -1;
}

int line_input_key(struct line_input *in, ui_key key)
{
	if (key == (KEYS_FN | KEY_UP) || key == 16)     /* Up, C-p */
		return history_move(in, -1);
	if (key == (KEYS_FN | KEY_DOWN) || key == 14)   /* Down, C-n */
		return history_move(in, 1);
	return form_edit_key(&in->field, key);
}

bool typed_line_key(wchar_t *buf, size_t *len, size_t cap, ui_key key)
{
	if (key == (KEYS_FN | KEY_BACKSPACE) || key == 127 || key == 8) {
		if (!*len)
			return false;
		buf[--*len] = L'\0';
	} else if (key >= 32 && !KEYS_IS_FN(key) && *len + 1 < cap) {
		buf[(*len)++] = (wchar_t)key;
		buf[*len] = L'\0';
	}
	return true;
}

char *typed_line_utf8(const wchar_t *buf, size_t len, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 8 < size; i++)
		o += text_utf8_put(out + o, (unsigned long)buf[i]);
	out[o] = '\0';
	return out;
}
