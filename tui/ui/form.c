/* The form widget: fields, values, errors and text editing (pure, no curses). Its keys are
 * form_key.c's, its picker form_pick.c's: both call this file, never the other way. */
#include "config.h"

#include "ui/form.h"

#include <curses.h>   /* KEY_* codes only */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/text.h"

void form_init(struct form *f)
{
	memset(f, 0, sizeof *f);
	f->pick.field = -1;
}

static void option_free(struct form_option *o)
{
	free(o->value);
	free(o->label);
	free(o->note);
	free(o->summary);
}

static void field_free(struct form_field *fl)
{
	free(fl->text);
	for (size_t i = 0; i < fl->n_opts; i++)
		option_free(&fl->opts[i]);
	free(fl->opts);
	free(fl->selected);
}

void form_free(struct form *f)
{
	for (size_t i = 0; i < f->n; i++)
		field_free(&f->fields[i]);
	free(f->fields);
	free(f->pick.idx);
	form_init(f);
}

int form_add(struct form *f, enum form_kind kind, const char *key, const char *label)
{
	struct form_field *fs = realloc(f->fields, (f->n + 1) * sizeof *fs);
	if (!fs)
		return -1;
	f->fields = fs;
	struct form_field *fl = &fs[f->n];
	memset(fl, 0, sizeof *fl);
	fl->kind = kind;
	fl->choice = -1;
	snprintf(fl->key, sizeof fl->key, "%s", key ? key : "");
	snprintf(fl->label, sizeof fl->label, "%s", label ? label : "");
	if (kind == FORM_TEXT || kind == FORM_FILE || kind == FORM_NOTE) {
		fl->text = calloc(16, sizeof(wchar_t));
		if (!fl->text)
			return -1;
		fl->cap = 16;
	}
	return (int)f->n++;
}

int form_add_radio(struct form *f, const char *key, const char *label, const char *const *options)
{
	char name[64], value[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(key, " "), key);
	if (form_add(f, FORM_RADIO, key, label) < 0)
		return -1;
	for (size_t i = 0; options[i]; i++) {
		const char *bar = strchr(options[i], '|');
		snprintf(value, sizeof value, "%.*s", bar ? (int)(bar - options[i]) : (int)strlen(options[i]), options[i]);
		if (form_add_option(f, name, value, bar ? bar + 1 : NULL, NULL) != 0)
			return -1;
	}
	if (!options[0])
		return 0;
	snprintf(value, sizeof value, "%.*s", (int)strcspn(options[0], "|"), options[0]);
	return form_choose(f, name, value);
}

/* The first word of a key is the field's name. */
static bool key_is(const char *key, const char *name, bool any_word)
{
	size_t n = strlen(name);
	if (strcmp(key, name) == 0)
		return true;
	for (const char *k = key; *k;) {
		size_t w = strcspn(k, " ");
		if (w == n && strncmp(k, name, n) == 0)
			return true;
		if (!any_word)
			return false;
		k += w;
		k += strspn(k, " ");
	}
	return false;
}

struct form_field *form_field(struct form *f, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (key_is(f->fields[i].key, key, false))
			return &f->fields[i];
	return NULL;
}

const struct form_field *form_field_c(const struct form *f, const char *key)
{
	return form_field((struct form *)(uintptr_t)f, key);
}

int form_add_option(struct form *f, const char *key, const char *value, const char *label,
		    const char *note)
{
	struct form_field *fl = form_field(f, key);
	if (!fl)
		return -1;
	struct form_option *os = realloc(fl->opts, (fl->n_opts + 1) * sizeof *os);
	if (!os)
		return -1;
	fl->opts = os;
	bool *sel = realloc(fl->selected, (fl->n_opts + 1) * sizeof *sel);
	if (!sel)
		return -1;
	fl->selected = sel;
	struct form_option *o = &os[fl->n_opts];
	memset(o, 0, sizeof *o);
	o->value = strdup(value ? value : "");
	o->label = label ? strdup(label) : NULL;
	o->note = note ? strdup(note) : NULL;
	if (!o->value || (label && !o->label) || (note && !o->note)) {
		option_free(o);
		return -1;
	}
	sel[fl->n_opts] = false;
	fl->n_opts++;
	return 0;
}

int form_option_summary(struct form *f, const char *key, const char *summary)
{
	struct form_field *fl = form_field(f, key);
	if (!fl || !fl->n_opts)
		return -1;
	struct form_option *o = &fl->opts[fl->n_opts - 1];
	char *copy = summary ? strdup(summary) : NULL;
	if (summary && !copy)
		return -1;
	free(o->summary);
	o->summary = copy;
	return 0;
}

void form_clear_options(struct form *f, const char *key)
{
	struct form_field *fl = form_field(f, key);
	if (!fl)
		return;
	for (size_t i = 0; i < fl->n_opts; i++)
		option_free(&fl->opts[i]);
	fl->n_opts = 0;
	fl->choice = -1;
}

static int text_reserve(struct form_field *fl, size_t need)
{
	if (need + 1 <= fl->cap)
		return 0;
	size_t cap = fl->cap ? fl->cap : 16;
	while (cap < need + 1)
		cap *= 2;
	wchar_t *t = realloc(fl->text, cap * sizeof *t);
	if (!t)
		return -1;
	fl->text = t;
	fl->cap = cap;
	return 0;
}

int form_set_text(struct form *f, const char *key, const char *utf8)
{
	struct form_field *fl = form_field(f, key);
	if (!fl || !fl->text)
		return -1;
	/* what the user can type: printable text only, so a value from the server is
	 * sanitized the same way */
	wchar_t *w = text_sanitize(utf8 ? utf8 : "", 0);
	if (!w)
		return -1;
	size_t n = wcslen(w);
	if (text_reserve(fl, n) != 0) {
		free(w);
		return -1;
	}
	wmemcpy(fl->text, w, n + 1);
	free(w);
	fl->len = fl->cursor = n;
	fl->scroll = 0;
	return 0;
}

char *form_text(const struct form *f, const char *key, char *buf, size_t size)
{
	const struct form_field *fl = form_field_c(f, key);
	if (size)
		buf[0] = '\0';
	if (!fl || !fl->text || !size)
		return buf;
	size_t o = 0;
	for (size_t i = 0; i < fl->len; i++) {
		char tmp[8];
		size_t k = text_utf8_put(tmp, (unsigned long)fl->text[i]);
		if (o + k + 1 > size)
			break;
		memcpy(buf + o, tmp, k);
		o += k;
	}
	buf[o] = '\0';
	return buf;
}

const char *form_choice(const struct form *f, const char *key)
{
	const struct form_field *fl = form_field_c(f, key);
	if (!fl || fl->choice < 0 || (size_t)fl->choice >= fl->n_opts)
		return NULL;
	return fl->opts[fl->choice].value;
}

int form_choose(struct form *f, const char *key, const char *value)
{
	struct form_field *fl = form_field(f, key);
	for (size_t i = 0; fl && value && i < fl->n_opts; i++)
		if (strcmp(fl->opts[i].value, value) == 0) {
			fl->choice = (int)i;
			return 0;
		}
	return -1;
}

bool form_checked(const struct form *f, const char *key)
{
	const struct form_field *fl = form_field_c(f, key);
	return fl && fl->checked;
}

void form_set_checked(struct form *f, const char *key, bool on)
{
	struct form_field *fl = form_field(f, key);
	if (fl)
		fl->checked = on;
}

bool form_focusable(const struct form_field *fl)
{
	return !fl->hidden && fl->kind != FORM_NOTE;
}

void form_focus_move(struct form *f, int dir)
{
	if (!f->n)
		return;
	int n = (int)f->n;
	for (int k = 1; k <= n; k++) {
		int i = ((f->focus + dir * k) % n + n) % n;
		if (form_focusable(&f->fields[i])) {
			f->focus = i;
			return;
		}
	}
}

void form_set_hidden(struct form *f, const char *key, bool hidden)
{
	struct form_field *fl = form_field(f, key);
	if (!fl)
		return;
	fl->hidden = hidden;
	if (hidden)
		fl->error[0] = '\0';   /* no longer part of the request: its error is moot */
	/* the focus goes to the next field shown (with a picker open, at the first key once it
	 * is closed; its cursor stays) */
	if (hidden && f->focus >= 0 && (size_t)f->focus < f->n && &f->fields[f->focus] == fl) {
		if (!f->pick.active)
			form_focus_move(f, 1);
		form_drop_stale_message(f);
	}
}

size_t form_selected(const struct form *f, const char *key, const char **out, size_t max)
{
	const struct form_field *fl = form_field_c(f, key);
	size_t n = 0;
	for (size_t i = 0; fl && i < fl->n_opts; i++)
		if (fl->selected[i]) {
			if (n < max)
				out[n] = fl->opts[i].value;
			n++;
		}
	return n;
}

void form_select(struct form *f, const char *key, const char *value, bool on)
{
	struct form_field *fl = form_field(f, key);
	for (size_t i = 0; fl && i < fl->n_opts; i++)
		if (strcmp(fl->opts[i].value, value) == 0)
			fl->selected[i] = on;
}

/* ---- errors ---- */

/* The shown field answering to name (any word of its key), or NULL. */
static struct form_field *error_field(struct form *f, const char *name)
{
	for (size_t i = 0; name && name[0] && i < f->n; i++)
		if (!f->fields[i].hidden && key_is(f->fields[i].key, name, true))
			return &f->fields[i];
	return NULL;
}

/* msg into an error line of size bytes, cut between UTF-8 characters when too long. */
static void error_copy(char *dst, size_t size, const char *msg)
{
	size_t n = strlen(msg);
	if (n >= size) {
		n = size - 1;
		while (n > 0 && ((unsigned char)msg[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(dst, msg, n);
	dst[n] = '\0';
}

int form_set_error(struct form *f, const char *name, const char *msg)
{
	struct form_field *fl = error_field(f, name);
	if (!fl)
		return -1;
	error_copy(fl->error, sizeof fl->error, msg);
	fl->error_checked = false;
	return 0;
}

void form_clear_errors(struct form *f)
{
	for (size_t i = 0; i < f->n; i++)
		f->fields[i].error[0] = '\0';
	f->message[0] = '\0';
	f->message_error = false;
	f->message_about_fields = false;
}

void form_set_message(struct form *f, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	text_vformat(f->message, sizeof f->message, fmt, ap);
	va_end(ap);
	f->message_error = error;
	f->message_about_fields = false;
}

/* The field's label as people read it: "Media URL", without a hint in parentheses. */
static void plain_label(char *buf, size_t size, const char *label)
{
	const char *paren = label ? strstr(label, " (") : NULL;

	text_format(buf, size, "%.*s", paren ? (int)(paren - label) : (int)strlen(label ? label : ""),
		    label ? label : "");
}

/* An API message about a field ("tmp_url must be ...") said with the field's label ("Media
 * URL must be ..."), as the form shows it. */
static void labelled_message(char *buf, size_t size, const struct form_field *fl,
			     const struct steno_error *err)
{
	size_t n = strlen(err->field);
	char label[128];

	plain_label(label, sizeof label, fl->label);
	if (label[0] && !strncmp(err->message, err->field, n) &&
	    (err->message[n] == ' ' || err->message[n] == ':'))
		text_format(buf, size, "%s%s", label, err->message + n);
	else
		text_copy(buf, size, err->message);
}

void form_show_error(struct form *f, const struct steno_error *err)
{
	struct form_field *fl = err->field[0] ? error_field(f, err->field) : NULL;
	char msg[sizeof err->message + 128], label[128];

	if (fl) {
		labelled_message(msg, sizeof msg, fl, err);
		plain_label(label, sizeof label, fl->label);
	}
	if (fl && form_set_error(f, err->field, msg) == 0) {
		fl->error_checked = err->kind == STENO_ERR_INVALID;
		form_focus_first_error(f);
		if (err->kind == STENO_ERR_HTTP) {
			form_set_message(f, true, "the server refused it (HTTP %ld): see %s",
					 err->http_status, label[0] ? label : err->field);
			f->message_about_fields = true;
		}
		return;
	}
	if (err->kind == STENO_ERR_HTTP && err->http_status == 429)
		form_set_message(f, true, "%s%s: nothing was created. Wait, then submit again (F2).",
				 strstr(err->message, "HTTP 429") ? "" : "too many requests (HTTP 429): ",
				 err->message);
	else if (err->kind == STENO_ERR_HTTP)
		form_set_message(f, true, "HTTP %ld: %s", err->http_status, err->message);
	else if (steno_error_outcome_unknown(err))
		form_set_message(f, true, "%s. Submit again? (F2)", err->message);
	else if (strcmp(err->code, STENO_CODE_OUTCOME_FOUND) == 0)
		form_set_message(f, false, "%s: no need to submit again", err->message);
	else
		form_set_message(f, true, "%s", err->message);
}

bool form_has_checked_error(const struct form *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->fields[i].error[0] && f->fields[i].error_checked)
			return true;
	return false;
}

/* A message that points at field errors goes once none is left (they were fixed). */
void form_drop_stale_message(struct form *f)
{
	if (!f->message_about_fields)
		return;
	for (size_t i = 0; i < f->n; i++)
		if (f->fields[i].error[0] && !f->fields[i].hidden)
			return;
	f->message[0] = '\0';
	f->message_error = false;
	f->message_about_fields = false;
}

void form_recheck(struct form *f, const struct steno_error *now)
{
	char said[sizeof f->fields[0].error], msg[sizeof now->message + 128];
	for (size_t i = 0; i < f->n; i++) {
		struct form_field *fl = &f->fields[i];
		if (!fl->error[0] || !fl->error_checked)
			continue;
		bool mine = now->kind == STENO_ERR_INVALID && now->field[0] &&
			    key_is(fl->key, now->field, true);
		if (mine) {   /* as form_show_error said it: with the field's label */
			labelled_message(msg, sizeof msg, fl, now);
			error_copy(said, sizeof said, msg);
		}
		bool still = mine && strcmp(fl->error, said) == 0;
		if (!still)
			fl->error[0] = '\0';
	}
	form_drop_stale_message(f);
}

void form_focus_first_error(struct form *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->fields[i].error[0] && form_focusable(&f->fields[i])) {
			f->focus = (int)i;
			return;
		}
}

void form_focus(struct form *f, const char *key)
{
	struct form_field *fl = form_field(f, key);
	if (fl && form_focusable(fl))
		f->focus = (int)(fl - f->fields);
}

/* ---- text editing ---- */

int form_edit_insert(struct form_field *fl, wchar_t wc)
{
	if (!fl->text || wc < 32 || wc == 127 || (wc >= 0x80 && wc < 0xa0))
		return 0;
	/* bidi controls and other invisible format characters never enter a field */
	if ((wc >= 0x202a && wc <= 0x202e) || (wc >= 0x2066 && wc <= 0x2069) ||
	    wc == 0x200e || wc == 0x200f || wc == 0x061c)
		return 0;
	if (text_reserve(fl, fl->len + 1) != 0)
		return -1;
	wmemmove(fl->text + fl->cursor + 1, fl->text + fl->cursor, fl->len - fl->cursor + 1);
	fl->text[fl->cursor++] = wc;
	fl->len++;
	return 1;
}

static int edit_delete(struct form_field *fl, size_t from, size_t to)
{
	if (to <= from || to > fl->len)
		return 0;
	wmemmove(fl->text + from, fl->text + to, fl->len - to + 1);
	fl->len -= to - from;
	if (fl->cursor > to)
		fl->cursor -= to - from;
	else if (fl->cursor > from)
		fl->cursor = from;
	return 1;
}

static size_t word_start(const struct form_field *fl)
{
	size_t i = fl->cursor;
	while (i > 0 && fl->text[i - 1] == L' ')
		i--;
	while (i > 0 && fl->text[i - 1] != L' ' && fl->text[i - 1] != L'/')
		i--;
	return i;
}

int form_edit_key(struct form_field *fl, ui_key key)
{
	size_t c = fl->cursor;
	if (!fl->text)
		return 0;
	switch (key) {
	case KEYS_FN | KEY_LEFT: fl->cursor = c ? c - 1 : 0; return c != fl->cursor;
	case KEYS_FN | KEY_RIGHT: fl->cursor = c < fl->len ? c + 1 : c; return c != fl->cursor;
	case KEYS_FN | KEY_HOME: case 1: fl->cursor = 0; return c != 0;
	case KEYS_FN | KEY_END: case 5: fl->cursor = fl->len; return c != fl->len;
	case KEYS_FN | KEY_BACKSPACE: return c ? edit_delete(fl, c - 1, c) : 0;
	case KEYS_FN | KEY_DC: case 4: return edit_delete(fl, c, c + 1);
	case 21: return edit_delete(fl, 0, c);          /* C-u */
	case 11: return edit_delete(fl, c, fl->len);    /* C-k */
	case 23: return edit_delete(fl, word_start(fl), c); /* C-w */
	default: break;
	}
	if (key >= 32 && !KEYS_IS_FN(key))
		return form_edit_insert(fl, (wchar_t)key);
	return 0;
}
