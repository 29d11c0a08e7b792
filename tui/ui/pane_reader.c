/* The reader: a transcript from the local store, full screen (pane_reader.h). */
#include "config.h"

#include "ui/pane_reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wctype.h>

#include "core/content_db.h"
#include "ui/clipboard.h"
#include "ui/draw.h"
#include "ui/frame.h"
#include "ui/keys.h"
#include "ui/line_input.h"
#include "ui/listview.h"
#include "ui/style.h"
#include "ui/text.h"

/* One display line: a paragraph's header, or a piece of its text (wide-char range). */
struct rd_line {
	size_t para;
	bool header;
	size_t from, to;
};

struct rd_para {
	wchar_t *text;       /* sanitized */
	char head[200];      /* "12:30  Speaker 1" */
};

enum rd_input { RD_NONE, RD_FIND, RD_COMMAND };

/* Ownership: the pane's data; rd_close frees everything. */
struct rd {
	struct reader_arg a;
	char id[160];
	struct content_doc doc;
	struct rd_para *paras;
	struct rd_line *lines;
	size_t n_lines, cap_lines;
	int wrap_cols;
	struct listview lv;          /* the cursor line: its paragraph is the one `y` copies */
	enum rd_input input;
	wchar_t in[120];
	size_t inlen;
	wchar_t find[120];           /* the words searched (lower case) */
	size_t flen;
	char msg[300];
	double total;                /* the transcript's end, seconds */
};

static void rd_free(struct rd *r)
{
	for (size_t i = 0; r->paras && i < r->doc.n; i++)
		free(r->paras[i].text);
	free(r->paras);
	free(r->lines);
	content_doc_free(&r->doc);
}

static void set_find(struct rd *r, const wchar_t *w, size_t n)
{
	r->flen = 0;
	for (size_t i = 0; i < n && r->flen + 1 < sizeof r->find / sizeof *r->find; i++)
		r->find[r->flen++] = (wchar_t)towlower((wint_t)w[i]);
	r->find[r->flen] = L'\0';
}

static int rd_load(struct rd *r, struct steno_error *err)
{
	int rc = content_db_load(r->a.db, r->id, &r->doc, err);
	if (rc <= 0)
		return rc < 0 ? -1 : steno_error_set(err, STENO_ERR_INVALID, "%s is not in the local "
						      "store yet", r->id);
	r->paras = calloc(r->doc.n ? r->doc.n : 1, sizeof *r->paras);
	if (!r->paras)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < r->doc.n; i++) {
		const struct content_para *p = &r->doc.paras[i];
		char tc[32];
		content_timecode(p->start, tc, sizeof tc);
		snprintf(r->paras[i].head, sizeof r->paras[i].head, "%s  %s", tc,
			 p->speaker ? p->speaker : "");
		if (!(r->paras[i].text = text_sanitize(p->text ? p->text : "", 0)))
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		if (p->end > r->total)
			r->total = p->end;
	}
	return 0;
}

static int add_line(struct rd *r, size_t para, bool header, size_t from, size_t to)
{
	if (r->n_lines == r->cap_lines) {
		size_t cap = r->cap_lines ? r->cap_lines * 2 : 256;
		struct rd_line *l = realloc(r->lines, cap * sizeof *l);
		if (!l)
			return -1;
		r->lines = l;
		r->cap_lines = cap;
	}
	r->lines[r->n_lines++] = (struct rd_line){ para, header, from, to };
	return 0;
}

/* Wraps every paragraph to cols at spaces (again only when the width changed); the cursor
 * stays on its paragraph. */
static void rd_wrap(struct rd *r, int cols)
{
	size_t keep = r->n_lines ? r->lines[r->lv.cursor].para : 0;
	if (r->wrap_cols == cols || cols < 8)
		return;
	r->n_lines = 0;
	r->wrap_cols = cols;
	for (size_t p = 0; p < r->doc.n; p++) {
		const wchar_t *t = r->paras[p].text;
		size_t n = wcslen(t), i = 0;
		while (i < n && t[i] == L' ')
			i++;
		if (add_line(r, p, true, 0, 0) < 0)
			return;
		while (i < n) {
			size_t j = text_wrap_row(t, i, n, cols, 0);
			if (add_line(r, p, false, i, j) < 0)
				return;
			i = j;
		}
		if (p + 1 < r->doc.n && add_line(r, p, false, 0, 0) < 0)
			return;
	}
	for (size_t i = 0; i < r->n_lines; i++)
		if (r->lines[i].para == keep && r->lines[i].header) {
			r->lv.cursor = (int)i;
			break;
		}
}

/* Where the searched words start in s[0..n) from `from`, or -1. */
static long find_in(const struct rd *r, const wchar_t *s, size_t n, size_t from)
{
	for (size_t i = from; r->flen && i + r->flen <= n; i++) {
		size_t k = 0;
		while (k < r->flen && (wchar_t)towlower((wint_t)s[i + k]) == r->find[k])
			k++;
		if (k == r->flen)
			return (long)i;
	}
	return -1;
}

static bool line_hit(const struct rd *r, size_t li)
{
	const struct rd_line *l = &r->lines[li];
	return !l->header && find_in(r, r->paras[l->para].text + l->from, l->to - l->from, 0) >= 0;
}

/* The next (dir 1) or previous (-1) line with a match, after / before `from`; wraps. */
static long rd_find(const struct rd *r, long from, int dir)
{
	long n = (long)r->n_lines;
	for (long k = 1; r->flen && k <= n; k++) {
		long i = ((from + dir * k) % n + n) % n;
		if (line_hit(r, (size_t)i))
			return i;
	}
	return -1;
}

static void rd_goto(struct rd *r, long line)
{
	listview_select(&r->lv, (int)line);
	/* the line goes to the top third of the screen, not to its edge */
	int top = (int)line - r->lv.rows / 3;
	r->lv.top = top < 0 ? 0 : top;
}

/* The paragraph that is being said at `t` (the last one started by then). */
static void rd_goto_time(struct rd *r, double t)
{
	size_t best = 0;
	for (size_t p = 0; p < r->doc.n; p++)
		if (r->doc.paras[p].start >= 0 && r->doc.paras[p].start <= t + 1e-9)
			best = p;
	for (size_t i = 0; i < r->n_lines; i++)
		if (r->lines[i].para == best && r->lines[i].header) {
			rd_goto(r, (long)i);
			return;
		}
}

/* The whole text as "[12:30] Speaker: text" paragraphs. Caller frees. */
static char *rd_text(const struct rd *r, size_t only, bool one)
{
	size_t cap = 1;
	for (size_t p = 0; p < r->doc.n; p++)
		if (!one || p == only)
			cap += strlen(r->doc.paras[p].text ? r->doc.paras[p].text : "") + 240;
	char *s = malloc(cap), *o = s;
	if (!s)
		return NULL;
	*o = '\0';
	for (size_t p = 0; p < r->doc.n; p++) {
		if (one && p != only)
			continue;
		const struct content_para *cp = &r->doc.paras[p];
		char tc[32];
		const char *t = cp->text ? cp->text : "";
		content_timecode(cp->start, tc, sizeof tc);
		while (*t == ' ')
			t++;
		o += snprintf(o, cap - (size_t)(o - s), "%s[%s] %.160s%s%s", o == s ? "" : "\n\n", tc,
			      cp->speaker ? cp->speaker : "", cp->speaker ? ": " : "", t);
	}
	return s;
}

static void rd_copy(struct rd *r)
{
	char how[160];
	if (!r->n_lines)
		return;
	size_t para = r->lines[r->lv.cursor].para;
	char *text = rd_text(r, para, true);
	if (!text) {
		snprintf(r->msg, sizeof r->msg, "not copied: out of memory");
		return;
	}
	char tc[32];
	content_timecode(r->doc.paras[para].start, tc, sizeof tc);
	if (clipboard_copy(r->a.tty, r->a.clipboard, text, false, how, sizeof how) == 0)
		snprintf(r->msg, sizeof r->msg, "copied the paragraph at %s (%s)", tc, how);
	else
		snprintf(r->msg, sizeof r->msg, "not copied: %s", how);
	free(text);
}

/* Leaves curses, runs `run`, comes back (tig's way: def_prog_mode, endwin, reset). */
static int rd_outside(struct rd *r, int (*run)(struct rd *r, const char *text))
{
	char *text = rd_text(r, 0, false);
	if (!text)
		return -1;
	def_prog_mode();
	endwin();
	int rc = run(r, text);
	reset_prog_mode();
	free(text);
	return rc;
}

static int run_pager(struct rd *r, const char *text)
{
	const char *pager = getenv("PAGER");
	FILE *p = popen(pager && *pager ? pager : "less", "w");
	if (!p)
		return -1;
	fputs(text, p);
	fputc('\n', p);
	(void)r;
	return pclose(p) == -1 ? -1 : 0;
}

static int run_editor(struct rd *r, const char *text)
{
	const char *tmp = getenv("TMPDIR"), *ed = getenv("VISUAL");
	char path[600], cmd[1400];
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	snprintf(path, sizeof path, "%s/steno-transcript-XXXXXX.txt", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(path, 4);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	bool ok = write(fd, text, n) == (ssize_t)n && write(fd, "\n", 1) == 1 &&
		fchmod(fd, 0400) == 0;   /* a read-only copy */
	close(fd);
	/* the path holds no quote: mkstemps's letters under TMPDIR, refused if it has one */
	if (ok && !strchr(path, '\''))
		snprintf(cmd, sizeof cmd, "%s '%s'", ed && *ed ? ed : "vi", path);
	int rc = ok && !strchr(path, '\'') ? system(cmd) : -1;
	unlink(path);
	(void)r;
	return rc == -1 ? -1 : 0;
}

static void rd_command(struct rd *r)
{
	char cmd[400];
	double t;
	const char *arg = typed_line_utf8(r->in, r->inlen, cmd, sizeof cmd);
	while (*arg == ' ')
		arg++;
	if ((arg[0] == 't' && (arg[1] == ' ' || !arg[1])) || !strncmp(arg, "time ", 5)) {
		arg += arg[1] == ' ' || !arg[1] ? 1 : 5;
		if (content_parse_timecode(arg, &t) == 0) {
			rd_goto_time(r, t);
			return;
		}
		snprintf(r->msg, sizeof r->msg, "not a time: \"%.40s\" (12:30, 1:02:03, 95, 12m30s)", arg);
		return;
	}
	snprintf(r->msg, sizeof r->msg, "in the reader: \":t 12:30\" goes to a time");
}

static unsigned rd_input_key(struct rd *r, ui_key key)
{
	if (key == 27) {
		r->input = RD_NONE;
	} else if (key == '\n' || key == '\r') {
		enum rd_input was = r->input;
		r->input = RD_NONE;
		if (was == RD_COMMAND) {
			rd_command(r);
		} else {
			set_find(r, r->in, r->inlen);
			long m = rd_find(r, r->lv.cursor - 1, 1);
			if (m >= 0)
				rd_goto(r, m);
			else if (r->flen)
				snprintf(r->msg, sizeof r->msg, "not found");
		}
	} else if (!typed_line_key(r->in, &r->inlen, sizeof r->in / sizeof *r->in, key)) {
		r->input = RD_NONE;
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned rd_key(struct pane *p, enum action_id act, ui_key key)
{
	struct rd *r = p->data;
	if (r->input != RD_NONE)
		return rd_input_key(r, key);
	r->msg[0] = '\0';
	if (act == ACT_NONE || act == ACT_PROMPT) {
		/* the reader's own keys, whatever the keymap of the panes below says */
		act = key == ':' ? ACT_PROMPT : key == 'y' ? ACT_READER_COPY :
			key == '|' ? ACT_READER_PAGER : key == 'E' ? ACT_READER_EDIT : act;
	}
	if (pane_act_leaves(act))
		return PANE_HANDLED | PANE_CLOSE;
	switch (act) {
	case ACT_SEARCH:
	case ACT_FILTER:
	case ACT_PROMPT:
		r->input = act == ACT_PROMPT ? RD_COMMAND : RD_FIND;
		r->inlen = 0;
		r->in[0] = L'\0';
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV: {
		long m = rd_find(r, r->lv.cursor, act == ACT_SEARCH_NEXT ? 1 : -1);
		if (m >= 0)
			rd_goto(r, m);
		else
			snprintf(r->msg, sizeof r->msg, r->flen ? "not found" : "search first: /");
		return PANE_HANDLED | PANE_REDRAW;
	}
	case ACT_READER_COPY:
		rd_copy(r);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_READER_PAGER:
	case ACT_READER_EDIT:
		if (rd_outside(r, act == ACT_READER_PAGER ? run_pager : run_editor) < 0)
			snprintf(r->msg, sizeof r->msg, "could not run the %s",
				 act == ACT_READER_PAGER ? "pager" : "editor");
		return PANE_HANDLED | PANE_REDRAW_ALL;
	default:
		break;
	}
	if (listview_action(&r->lv, act) >= 0)
		return PANE_HANDLED | PANE_REDRAW;
	return PANE_HANDLED;   /* modal: nothing reaches the panes below */
}

/* A text line, every match of the searched words highlighted. */
static void draw_body(struct rd *r, WINDOW *w, int y, int x, int cols, const struct rd_line *l,
		      unsigned flags)
{
	const wchar_t *s = r->paras[l->para].text + l->from;
	size_t n = l->to - l->from, at = 0;
	wchar_t piece[512];
	while (at < n && x < cols) {
		long m = find_in(r, s, n, at);
		size_t end = m < 0 ? n : (size_t)m;
		for (int hl = 0; hl < 2; hl++) {
			size_t k = end - at < 511 ? end - at : 511;
			if (k) {
				wmemcpy(piece, s + at, k);
				piece[k] = L'\0';
				int pw = 0;
				for (size_t i = 0; i < k; i++)
					pw += text_char_width(piece[i]);
				style_set(w, hl ? THEME_LIST_SELECTED : THEME_NORMAL);
				if (pw > 0)
					draw_wtext(w, y, x, pw < cols - x ? pw : cols - x, piece,
						   TEXT_LEFT, flags);
				x += pw;
			}
			at = end;
			if (m < 0 || hl)
				break;
			end = (size_t)m + r->flen;
		}
	}
	style_set(w, THEME_NORMAL);
}

static void rd_status(struct rd *r, WINDOW *w, int y, int cols, unsigned flags)
{
	char line[600], now[32], all[32], when[40] = "";
	double at = 0;
	if (r->n_lines) {
		const struct content_para *cp = &r->doc.paras[r->lines[r->lv.cursor].para];
		at = cp->start > 0 ? cp->start : 0;
	}
	content_timecode(at, now, sizeof now);
	content_timecode(r->total, all, sizeof all);
	time_t ft = (time_t)r->doc.fetched_s;
	struct tm tm;
	if (ft > 0 && localtime_r(&ft, &tm))
		strftime(when, sizeof when, "fetched %Y-%m-%d %H:%M", &tm);
	int pct = r->n_lines > 1 ? (int)(100L * r->lv.cursor / (long)(r->n_lines - 1)) : 100;
	if (r->input != RD_NONE) {
		char typed[400];
		snprintf(line, sizeof line, "%s%s_", r->input == RD_FIND ? "/" : ":",
			 typed_line_utf8(r->in, r->inlen, typed, sizeof typed));
	} else {
		/* a message takes the place of when it was fetched */
		snprintf(line, sizeof line, " %s  %s / %s  %d%%  %s", r->doc.name ? r->doc.name :
			 r->id, now, all, pct, r->msg[0] ? r->msg : when);
	}
	style_set(w, r->input != RD_NONE ? THEME_NOTICE : THEME_STATUS);
	wmove(w, y, 0);
	whline(w, ' ', cols);
	draw_text(w, y, 0, cols, line, TEXT_LEFT, flags);
	style_set(w, THEME_NORMAL);
}

static void rd_draw(struct pane *p)
{
	struct rd *r = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	int rows = p->rows - 1, cols = p->cols - 4;
	rd_wrap(r, cols);
	listview_resize(&r->lv, (int)r->n_lines, rows > 0 ? rows : 1);
	for (int i = 0; i < rows && (size_t)(r->lv.top + i) < r->n_lines; i++) {
		size_t li = (size_t)(r->lv.top + i);
		const struct rd_line *l = &r->lines[li];
		if ((int)li == r->lv.cursor) {
			style_set(p->win, THEME_LIST_SELECTED);
			mvwaddstr(p->win, i, 0, p->ctx->ascii ? ">" : "\u25b8");
		}
		if (l->header) {
			style_set(p->win, THEME_DIALOG_TITLE);
			draw_text(p->win, i, 2, cols, r->paras[l->para].head, TEXT_LEFT, flags);
		} else if (l->to > l->from) {
			draw_body(r, p->win, i, 2, cols + 2, l, flags);
		}
		style_set(p->win, THEME_NORMAL);
	}
	rd_status(r, p->win, rows, p->cols, flags);
}

static int rd_open(struct pane *p, void *arg)
{
	struct rd *r = calloc(1, sizeof *r);
	struct steno_error err;
	if (!r)
		return -1;
	r->a = *(const struct reader_arg *)arg;
	snprintf(r->id, sizeof r->id, "%s", r->a.id ? r->a.id : "");
	r->a.id = r->id;
	r->a.find = NULL;
	if (rd_load(r, &err) < 0) {   /* not in the store: pane_new frees the pane, not r */
		rd_free(r);
		free(r);
		return -1;
	}
	p->data = r;
	const char *find = ((const struct reader_arg *)arg)->find;
	if (find) {
		wchar_t *w = text_sanitize(find, 0);
		if (w)
			set_find(r, w, wcslen(w));
		free(w);
	}
	return 0;
}

static void rd_close(struct pane *p)
{
	struct rd *r = p->data;
	if (!r)
		return;
	rd_free(r);
	free(r);
	p->data = NULL;
}

const struct pane_ops reader_pane_ops = {
	.name = "reader", .scope = SCOPE_PREVIEW, .place = PANE_PLACE_FULL,
	.open = rd_open, .draw = rd_draw, .key = rd_key, .close = rd_close,
};

int reader_open(struct ui_frame *f, const struct reader_arg *a, char *msg, size_t size)
{
	struct pane *p = a->db ? pane_new(&reader_pane_ops, &f->ctx, (void *)(uintptr_t)a) : NULL;
	if (!p) {
		snprintf(msg, size, a->db ? "the transcript of %s is not in the local store yet" :
			 "no local store (cache = off?): no transcript to read", a->id);
		return -1;
	}
	struct rd *r = p->data;
	frame_open_overlay(f, p);
	/* the lines exist once the pane knows its width: wrapped now for the jump */
	rd_wrap(r, p->cols - 4);
	listview_resize(&r->lv, (int)r->n_lines, p->rows - 1 > 0 ? p->rows - 1 : 1);
	if (a->at >= 0)
		rd_goto_time(r, a->at);
	return 0;
}
