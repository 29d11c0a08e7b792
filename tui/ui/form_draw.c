/* Painting of forms: fields, errors, the picker and the message line. */
#include "config.h"

#include "ui/form_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"
#include "ui/text.h"

void form_draw_frame(WINDOW *w, const char *title, const char *hint, bool ascii)
{
	int rows, cols;
	unsigned fl = ascii ? TEXT_ASCII : 0;
	getmaxyx(w, rows, cols);
	style_bkgd(w, THEME_DIALOG);
	werase(w);
	style_set(w, THEME_BORDER);
	draw_border(w, ascii);
	if (title && cols > 6) {
		char t[160];
		snprintf(t, sizeof t, " %s ", title);
		wchar_t *wt = text_sanitize(t, fl);
		int tw = wt ? text_width(wt) : 0;
		style_set(w, THEME_DIALOG_TITLE);
		if (wt)
			draw_wtext(w, 0, 2, tw < cols - 4 ? tw : cols - 4, wt, TEXT_LEFT, fl);
		free(wt);
	}
	if (hint && rows > 2 && cols > 6) {
		int hw = (int)strlen(hint) + 2;
		style_set(w, THEME_MUTED);
		draw_text(w, rows - 1, 2, hw < cols - 4 ? hw : cols - 4, hint, TEXT_LEFT, fl);
	}
	style_set(w, THEME_DIALOG);
}

int form_draw_wrapped(WINDOW *w, int y, int x, int cols, int max_lines, const char *utf8,
		      bool ascii)
{
	unsigned flags = ascii ? TEXT_ASCII : 0;
	wchar_t *ws = text_sanitize(utf8, flags);
	int used = 0;
	if (!ws || cols <= 0)
		goto out;
	size_t n = wcslen(ws), i = 0;
	while (i < n && used < max_lines) {
		size_t j = text_wrap_row(ws, i, n, cols, used + 1 >= max_lines);
		wchar_t save = ws[j];
		ws[j] = L'\0';
		draw_wtext(w, y + used, x, cols, ws + i, TEXT_LEFT, flags);
		ws[j] = save;
		used++;
		i = j;
	}
out:
	free(ws);
	return used;
}

#define NOTE_MAX_LINES 3

/* Lines a field takes with values vw columns wide: notes wrap, errors add one. */
static int field_lines(const struct form_field *fl, int vw)
{
	if (fl->hidden)
		return 0;
	int lines = 1;
	if (fl->kind == FORM_NOTE && vw > 0) {
		int w = text_width(fl->text);
		lines = (w + vw - 1) / vw;
		lines = lines < 1 ? 1 : lines > NOTE_MAX_LINES ? NOTE_MAX_LINES : lines;
	}
	return lines + (fl->error[0] ? 1 : 0);
}

void form_draw_line(struct form_field *fl, WINDOW *w, int y, int x, int cols,
		    enum theme_elem style, enum theme_elem cursor_style, bool cursor, bool ascii)
{
	unsigned flags = ascii ? TEXT_ASCII : 0;
	size_t cap = TEXT_FIT_CAP(cols);
	wchar_t *vis = malloc(cap * sizeof *vis);
	int cc = 0;
	if (!vis)
		return;
	form_text_view(fl, cols - 1, vis, cap, &cc);
	style_set(w, style);
	draw_wtext(w, y, x, cols, vis, TEXT_LEFT, flags);
	if (cursor) {
		/* the cursor cell: the other attribute, so it shows without a terminal cursor */
		style_set(w, cursor_style);
		wchar_t one[2] = { L' ', L'\0' };
		int cw = 1;
		if (fl->cursor < fl->len) {
			one[0] = fl->text[fl->cursor];
			cw = text_char_width(one[0]);
			if (cw < 1)
				cw = 1;
		}
		if (cc + cw <= cols)
			draw_wtext(w, y, x + cc, cw, one, TEXT_LEFT, flags);
	}
	free(vis);
}

static void draw_text_field(struct form_field *fl, WINDOW *w, int y, int x, int cols, bool focus,
			    bool ascii)
{
	form_draw_line(fl, w, y, x, cols, focus ? THEME_DIALOG_FIELD_FOCUS : THEME_DIALOG_FIELD,
		       THEME_DIALOG_FIELD, focus && fl->kind != FORM_NOTE, ascii);
}

static void draw_field(struct form *f, size_t i, WINDOW *w, int y, int x, int cols, bool ascii)
{
	struct form_field *fl = &f->fields[i];
	unsigned flags = ascii ? TEXT_ASCII : 0;
	bool focus = (int)i == f->focus && !f->pick.active;
	int lw = FORM_LABEL_COLS, vx = x + lw + 1, vw = cols - lw - 1;
	char line[1024];

	if (fl->kind == FORM_BUTTON) {
		form_value_line(fl, line, sizeof line, ascii);
		style_set(w, focus ? THEME_DIALOG_BUTTON_FOCUS : THEME_DIALOG_BUTTON);
		draw_text(w, y, vx, (int)strlen(line) < vw ? (int)strlen(line) : vw, line, TEXT_LEFT, flags);
		return;
	}
	style_set(w, fl->error[0] ? THEME_DIALOG_ERROR : THEME_DIALOG);
	draw_text(w, y, x, lw, fl->label, TEXT_LEFT, flags);
	if (vw <= 1)
		return;
	if (fl->kind == FORM_TEXT || fl->kind == FORM_FILE) {
		draw_text_field(fl, w, y, vx, vw, focus, ascii);
	} else if (fl->kind == FORM_NOTE) {
		char t[2048];
		char key[48];
		snprintf(key, sizeof key, "%.*s", (int)strcspn(fl->key, " "), fl->key);
		form_text(f, key, t, sizeof t);
		style_set(w, THEME_DIALOG);
		y += form_draw_wrapped(w, y, vx, vw, NOTE_MAX_LINES, t, ascii) - 1;
	} else {
		form_value_line(fl, line, sizeof line, ascii);
		style_set(w, focus ? THEME_DIALOG_FIELD_FOCUS : THEME_DIALOG);
		draw_text(w, y, vx, vw, line, TEXT_LEFT, flags);
	}
	if (fl->error[0]) {
		style_set(w, THEME_DIALOG_ERROR);
		snprintf(line, sizeof line, "! %s", fl->error);
		draw_text(w, y + 1, vx, vw, line, TEXT_LEFT, flags);
	}
}

/* Columns of the note column: the widest note of the field's options (not cut to a fixed
 * width), at most half the row. */
static int pick_note_cols(const struct form_field *fl, int cols)
{
	int widest = 0;
	if (fl->kind == FORM_FILE)
		return 0;
	for (size_t i = 0; i < fl->n_opts; i++)
		if (fl->opts[i].note) {
			wchar_t *ws = text_sanitize(fl->opts[i].note, 0);
			int nw = text_width(ws);
			free(ws);
			widest = nw > widest ? nw : widest;
		}
	if (!widest)
		return 0;
	widest += 2;
	return widest > cols / 2 ? cols / 2 : widest;
}

static void draw_pick_row(struct form *f, WINDOW *w, int y, int x, int cols, int note_cols,
			  size_t row, bool ascii)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[pk->field];
	const struct form_option *o = &fl->opts[pk->idx[row]];
	unsigned flags = ascii ? TEXT_ASCII : 0;
	char line[600];
	const char *label = o->label ? o->label : o->value;
	if (fl->kind == FORM_MULTI)
		snprintf(line, sizeof line, "[%c] %s", fl->selected[pk->idx[row]] ? 'x' : ' ', label);
	else if (fl->kind == FORM_FILE)
		snprintf(line, sizeof line, "%s%s", label, o->is_dir ? "/" : "");
	else
		snprintf(line, sizeof line, "%c %s", (int)pk->idx[row] == fl->choice ? '*' : ' ', label);
	bool cur = (int)row == pk->lv.cursor;
	style_set(w, cur ? THEME_LIST_SELECTED : THEME_DIALOG);
	int nw = o->note ? note_cols : 0;
	draw_text(w, y, x, cols - nw, line, TEXT_LEFT, flags);
	if (nw) {
		style_set(w, cur ? THEME_LIST_SELECTED : THEME_MUTED);
		draw_text(w, y, x + cols - nw, nw, o->note, TEXT_RIGHT, flags);
	}
}

static void draw_picker(struct form *f, WINDOW *w, int y0, int x, int rows, int cols, bool ascii)
{
	struct form_picker *pk = &f->pick;
	struct form_field *fl = &f->fields[pk->field];
	unsigned flags = ascii ? TEXT_ASCII : 0;
	char head[4800], filt[300];
	size_t o = 0;
	for (size_t i = 0; i < pk->flen && o + 8 < sizeof filt; i++)
		o += text_utf8_put(filt + o, (unsigned long)pk->filter[i]);
	filt[o] = '\0';
	if (fl->kind == FORM_FILE)
		snprintf(head, sizeof head, "%s: %s  search: %s", fl->label, pk->dir, filt);
	else
		snprintf(head, sizeof head, "%s  search: %s  (%zu of %zu)", fl->label, filt,
			 pk->n_idx, fl->n_opts);
	style_set(w, THEME_DIALOG_TITLE);
	draw_text(w, y0, x, cols, head, TEXT_LEFT, flags);
	int list_rows = rows - 2;
	if (list_rows < 1)
		return;
	listview_resize(&pk->lv, (int)pk->n_idx, list_rows);
	if (pk->error[0]) {
		style_set(w, THEME_DIALOG_ERROR);
		draw_text(w, y0 + 1, x, cols, pk->error, TEXT_LEFT, flags);
	}
	int y = y0 + 1 + (pk->error[0] ? 1 : 0);
	int note_cols = pick_note_cols(fl, cols);
	for (int r = 0; r < list_rows && pk->lv.top + r < (int)pk->n_idx && y < y0 + rows - 1; r++, y++)
		draw_pick_row(f, w, y, x, cols, note_cols, (size_t)(pk->lv.top + r), ascii);
	if (!pk->n_idx) {
		style_set(w, THEME_MUTED);
		draw_text(w, y, x, cols, "nothing matches", TEXT_LEFT, flags);
	}
	style_set(w, THEME_MUTED);
	draw_text(w, y0 + rows - 1, x, cols, fl->kind == FORM_MULTI ?
		  "type to search  Space: toggle  Enter: done  Esc: back" : fl->kind == FORM_FILE ?
		  "type to search  Enter: open/choose  BS/Left: up  Esc: back" :
		  "type to search  Enter: choose  Esc: back", TEXT_LEFT, flags);
}

/* The first field to show so that the focused one (and its error) fits. */
static size_t first_shown(const struct form *f, int rows, int vw)
{
	size_t top = 0;
	for (;;) {
		int used = 0;
		for (size_t i = top; i < f->n && (int)i <= f->focus; i++)
			used += field_lines(&f->fields[i], vw);
		if (used <= rows || (int)top >= f->focus)
			return top;
		top++;
	}
}

void form_draw(struct form *f, WINDOW *w, int y0, int x0, int rows, int cols, bool ascii)
{
	int msg_rows = f->message[0] ? (rows > 8 ? 2 : 1) : 0;
	int body = rows - (msg_rows ? msg_rows + 1 : 0);
	f->body_rows = rows;
	if (body < 1 || cols < FORM_LABEL_COLS + 4)
		return;
	if (f->pick.active) {
		draw_picker(f, w, y0, x0, rows, cols, ascii);
		return;
	}
	int y = y0, vw = cols - FORM_LABEL_COLS - 1;
	for (size_t i = first_shown(f, body, vw); i < f->n; i++) {
		int need = field_lines(&f->fields[i], vw);
		if (!need)
			continue;
		if (y + need > y0 + body)
			break;
		draw_field(f, i, w, y, x0, cols, ascii);
		y += need;
	}
	if (msg_rows) {
		style_set(w, f->message_error ? THEME_DIALOG_ERROR : THEME_DIALOG);
		form_draw_wrapped(w, y0 + rows - msg_rows, x0, cols, msg_rows, f->message, ascii);
	}
	style_set(w, THEME_DIALOG);
}
