/* The form's picker (type to search in a long list; Space toggles in a multi-select), its
 * file browser, and the pure views of field values. No curses. */
#include "config.h"

#include "ui/form.h"

#include <curses.h>   /* KEY_* codes only */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/textfold.h"
#include "ui/text.h"

#define PICK_DEFAULT_ROWS 10

/* ---- pure views ---- */

void form_text_view(struct form_field *fl, int cols, wchar_t *out, size_t cap, int *cursor_col)
{
	if (cap)
		out[0] = L'\0';
	*cursor_col = 0;
	if (!fl->text || cols <= 0 || cap < 2)
		return;
	if (fl->scroll > fl->cursor)
		fl->scroll = fl->cursor;
	for (;;) {
		int w = 0;
		for (size_t i = fl->scroll; i < fl->cursor; i++)
			w += text_char_width(fl->text[i]);
		if (w + 1 <= cols || fl->scroll >= fl->cursor)
			break;
		fl->scroll++;
	}
	/* never start on a combining mark: it belongs to the character before */
	while (fl->scroll > 0 && fl->scroll < fl->len && text_char_width(fl->text[fl->scroll]) == 0)
		fl->scroll--;
	int w = 0;
	size_t o = 0;
	for (size_t i = fl->scroll; i < fl->len && o + 1 < cap; i++) {
		int cw = text_char_width(fl->text[i]);
		if (w + cw > cols)
			break;
		if (i == fl->cursor)
			*cursor_col = w;
		out[o++] = fl->text[i];
		w += cw;
	}
	out[o] = L'\0';
	if (fl->cursor >= fl->scroll + o)
		*cursor_col = w;
}

static const char *opt_label(const struct form_option *o)
{
	return o->label ? o->label : o->value;
}

static const char *opt_summary(const struct form_option *o)
{
	return o->summary ? o->summary : opt_label(o);
}

void form_value_line(const struct form_field *fl, char *buf, size_t size, bool ascii)
{
	size_t n = 0;
	(void)ascii;
	if (size)
		buf[0] = '\0';
	switch (fl->kind) {
	case FORM_CHECK:
		snprintf(buf, size, "[%c]", fl->checked ? 'x' : ' ');
		return;
	case FORM_RADIO:
		for (size_t i = 0; i < fl->n_opts; i++)
			n = text_appendf(buf, size, n, "%s(%c) %s", i ? "  " : "",
					 (int)i == fl->choice ? '*' : ' ', opt_label(&fl->opts[i]));
		return;
	case FORM_PICK:
		if (fl->choice < 0 || (size_t)fl->choice >= fl->n_opts) {
			snprintf(buf, size, "%s", fl->n_opts ? "(none: Space to choose)" : "(nothing to choose)");
			return;
		}
		text_format(buf, size, "%s%s%s%s", opt_summary(&fl->opts[fl->choice]),
			 fl->opts[fl->choice].note ? "  (" : "",
			 fl->opts[fl->choice].note ? fl->opts[fl->choice].note : "",
			 fl->opts[fl->choice].note ? ")" : "");
		return;
	case FORM_MULTI: {
		size_t count = 0;
		for (size_t i = 0; i < fl->n_opts; i++) {
			if (!fl->selected[i])
				continue;
			n = text_appendf(buf, size, n, "%s%s", count ? ", " : "",
					 opt_summary(&fl->opts[i]));
			count++;
		}
		if (!count)
			snprintf(buf, size, "%s", fl->n_opts ? "(none: Space to choose)" : "(nothing to choose)");
		return;
	}
	case FORM_BUTTON:
		text_format(buf, size, "[ %s ]", fl->label);
		return;
	case FORM_TEXT:
	case FORM_FILE:
	case FORM_NOTE:
		break;
	}
}

/* ---- the picker ---- */

enum pick_rank { RANK_VALUE_PREFIX, RANK_WORD_PREFIX, RANK_ANYWHERE, RANK_COUNT, RANK_NONE };

/* How well an option matches the search (UTF-8, case folded): see form.h. */
static enum pick_rank pick_rank(const struct form_option *o, const char *search)
{
	if (!*search || textfold_has_prefix(o->value, search))
		return RANK_VALUE_PREFIX;
	if (o->label && textfold_word_prefix(o->label, search))
		return RANK_WORD_PREFIX;
	if (textfold_contains(o->value, search) || (o->label && textfold_contains(o->label, search)))
		return RANK_ANYWHERE;
	return RANK_NONE;
}

int form_pick_refilter(struct form *f)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[pk->field];
	size_t *idx = realloc(pk->idx, (fl->n_opts + 1) * sizeof *idx);
	if (!idx)
		return -1;
	pk->idx = idx;
	pk->n_idx = 0;
	char search[sizeof pk->filter / sizeof pk->filter[0] * 4 + 1];
	size_t o = 0;
	for (size_t i = 0; i < pk->flen; i++)
		o += text_utf8_put(search + o, (unsigned long)pk->filter[i]);
	search[o] = '\0';
	/* the file browser keeps its order (and ".." whatever is typed) */
	bool ranked = fl->kind != FORM_FILE;
	for (int pass = 0; pass < (ranked ? RANK_COUNT : 1); pass++)
		for (size_t i = 0; i < fl->n_opts; i++) {
			const struct form_option *op = &fl->opts[i];
			enum pick_rank r = pick_rank(op, search);
			bool keep = ranked ? (int)r == pass :
				r != RANK_NONE || strcmp(op->value, "..") == 0;
			if (keep)
				idx[pk->n_idx++] = i;
		}
	listview_resize(&pk->lv, (int)pk->n_idx, pk->lv.rows > 0 ? pk->lv.rows : PICK_DEFAULT_ROWS);
	return 0;
}

static int opt_cmp(const void *a, const void *b)
{
	const struct form_option *x = a, *y = b;
	if (strcmp(x->value, "..") == 0 || strcmp(y->value, "..") == 0)
		return strcmp(x->value, "..") == 0 ? -1 : 1;
	if (x->is_dir != y->is_dir)
		return x->is_dir ? -1 : 1;
	return strcmp(x->value, y->value);
}

static int add_entry(struct form *f, struct form_field *fl, const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	bool is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	if (form_add_option(f, fl->key, name, NULL, is_dir ? "dir" : NULL) != 0)
		return -1;
	fl->opts[fl->n_opts - 1].is_dir = is_dir;
	return 0;
}

int form_pick_load_dir(struct form *f, const char *dir)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[pk->field];
	char real[PATH_MAX];
	if (!realpath(dir, real)) {
		text_format(pk->error, sizeof pk->error, "%s: %s", dir, strerror(errno));
		return -1;
	}
	DIR *d = opendir(real);
	if (!d) {
		text_format(pk->error, sizeof pk->error, "%s: %s", real, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < fl->n_opts; i++)
		free(fl->opts[i].value), free(fl->opts[i].label), free(fl->opts[i].note);
	fl->n_opts = 0;
	pk->error[0] = '\0';
	snprintf(pk->dir, sizeof pk->dir, "%s", real);
	int rc = strcmp(real, "/") != 0 ? add_entry(f, fl, real, "..") : 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || strcmp(e->d_name, "..") == 0))
			continue;
		if (e->d_name[0] == '.' && !(pk->flen && pk->filter[0] == L'.'))
			continue;
		rc = add_entry(f, fl, real, e->d_name);
	}
	closedir(d);
	qsort(fl->opts, fl->n_opts, sizeof *fl->opts, opt_cmp);
	pk->lv.cursor = pk->lv.top = 0;
	return rc == 0 ? form_pick_refilter(f) : -1;
}

static void file_start_dir(const struct form_field *fl, char *dir, size_t size)
{
	char buf[PATH_MAX] = "";
	struct stat st;
	size_t o = 0;
	for (size_t i = 0; i < fl->len && o + 8 < sizeof buf; i++)
		o += text_utf8_put(buf + o, (unsigned long)fl->text[i]);
	buf[o] = '\0';
	if (buf[0] && stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(dir, size, "%s", buf);
		return;
	}
	char *slash = strrchr(buf, '/');
	if (slash && slash != buf) {
		*slash = '\0';
		snprintf(dir, size, "%s", buf);
		return;
	}
	snprintf(dir, size, "%s", ".");
}

int form_pick_open(struct form *f, int field, wchar_t seed)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[field];
	pk->active = true;
	pk->field = field;
	pk->flen = 0;
	pk->filter[0] = L'\0';
	if (seed && text_char_width(seed) > 0) {
		pk->filter[pk->flen++] = seed;
		pk->filter[pk->flen] = L'\0';
	}
	memset(&pk->lv, 0, sizeof pk->lv);
	pk->lv.rows = f->body_rows > 3 ? f->body_rows - 2 : PICK_DEFAULT_ROWS;
	if (fl->kind == FORM_FILE) {
		char dir[PATH_MAX];
		file_start_dir(fl, dir, sizeof dir);
		if (form_pick_load_dir(f, dir) != 0 && form_pick_load_dir(f, ".") != 0)
			return 0;   /* the picker shows pk->error */
		return 0;
	}
	if (form_pick_refilter(f) != 0) {
		pk->active = false;
		return -1;
	}
	for (size_t i = 0; fl->kind == FORM_PICK && i < pk->n_idx; i++)
		if ((int)pk->idx[i] == fl->choice)
			listview_select(&pk->lv, (int)i);
	return 0;
}

void form_pick_close(struct form *f)
{
	f->pick.active = false;
	f->pick.n_idx = 0;
}

static struct form_option *pick_current(struct form *f)
{
	struct form_picker *pk = &f->pick;
	if (!pk->n_idx || pk->lv.cursor < 0 || (size_t)pk->lv.cursor >= pk->n_idx)
		return NULL;
	return &f->fields[pk->field].opts[pk->idx[pk->lv.cursor]];
}

static enum form_event file_enter(struct form *f, struct form_option *o)
{
	struct form_picker *pk = &f->pick;
	char path[PATH_MAX + 256];
	snprintf(path, sizeof path, "%s/%s", pk->dir, o->value);
	if (o->is_dir) {
		pk->flen = 0;
		pk->filter[0] = L'\0';
		form_pick_load_dir(f, path);
		return FORM_EV_USED;
	}
	struct form_field *fl = &f->fields[pk->field];
	char key[48];
	snprintf(key, sizeof key, "%.*s", (int)strcspn(fl->key, " "), fl->key);
	if (form_set_text(f, key, path) != 0)
		f->nomem = true;
	fl = &f->fields[pk->field];   /* same field; the array did not move */
	fl->error[0] = '\0';
	form_pick_close(f);
	return FORM_EV_USED;
}

static enum form_event pick_accept(struct form *f)
{
	struct form_field *fl = &f->fields[f->pick.field];
	struct form_option *o = pick_current(f);
	if (fl->kind == FORM_FILE)
		return o ? file_enter(f, o) : FORM_EV_USED;
	if (fl->kind == FORM_PICK && o)
		fl->choice = (int)(o - fl->opts);
	fl->error[0] = '\0';
	form_pick_close(f);
	return FORM_EV_USED;
}

static enum form_event pick_filter_key(struct form *f, ui_key key)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[pk->field];
	if (key == (KEYS_FN | KEY_BACKSPACE) || key == (KEYS_FN | KEY_LEFT)) {
		if (pk->flen && key == (KEYS_FN | KEY_BACKSPACE)) {
			pk->filter[--pk->flen] = L'\0';
		} else if (fl->kind == FORM_FILE) {
			char up[PATH_MAX + 8];
			snprintf(up, sizeof up, "%s/..", pk->dir);
			pk->flen = 0;
			pk->filter[0] = L'\0';
			form_pick_load_dir(f, up);
			return FORM_EV_USED;
		} else {
			return FORM_EV_USED;
		}
	} else if (key > ' ' && !KEYS_IS_FN(key) && text_char_width((wchar_t)key) > 0 &&
		   pk->flen + 1 < sizeof pk->filter / sizeof pk->filter[0]) {
		pk->filter[pk->flen++] = (wchar_t)key;
		pk->filter[pk->flen] = L'\0';
	} else {
		return FORM_EV_USED;
	}
	pk->lv.cursor = pk->lv.top = 0;
	if (form_pick_refilter(f) != 0)
		f->nomem = true;
	/* what was typed searches: the cursor on its first match, not on "../" (always kept) */
	if (fl->kind == FORM_FILE && pk->flen && pk->n_idx > 1 &&
	    strcmp(fl->opts[pk->idx[0]].value, "..") == 0)
		pk->lv.cursor = 1;
	return FORM_EV_USED;
}

enum form_event form_pick_key(struct form *f, enum action_id act, ui_key key)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[pk->field];
	switch (act) {
	case ACT_CANCEL: form_pick_close(f); return FORM_EV_USED;
	case ACT_FIELD_NEXT: listview_action(&pk->lv, ACT_MOVE_DOWN); return FORM_EV_USED;
	case ACT_FIELD_PREV: listview_action(&pk->lv, ACT_MOVE_UP); return FORM_EV_USED;
	case ACT_SUBMIT: return pick_accept(f);
	default: break;
	}
	if (key == (KEYS_FN | KEY_NPAGE) || key == (KEYS_FN | KEY_PPAGE)) {
		listview_action(&pk->lv, key == (KEYS_FN | KEY_NPAGE) ? ACT_PAGE_DOWN : ACT_PAGE_UP);
		return FORM_EV_USED;
	}
	if (key == ' ') {
		struct form_option *o = pick_current(f);
		if (fl->kind == FORM_MULTI && o) {
			size_t i = (size_t)(o - fl->opts);
			fl->selected[i] = !fl->selected[i];
			fl->error[0] = '\0';
			return FORM_EV_USED;
		}
		return pick_accept(f);
	}
	if (key == (KEYS_FN | KEY_RIGHT) && fl->kind == FORM_FILE) {
		struct form_option *o = pick_current(f);
		return o && o->is_dir ? file_enter(f, o) : FORM_EV_USED;
	}
	return pick_filter_key(f, key);
}
