/* Search every transcript: the results pane (pane_search.h). */
#include "config.h"

#include "ui/pane_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_db.h"
#include "ui/draw.h"
#include "ui/keys.h"
#include "ui/listview.h"
#include "ui/style.h"
#include "ui/text.h"

#define MARK_OPEN "\x02"
#define MARK_CLOSE "\x03"
#define SEARCH_LIMIT 200

/* A row: a transcription's heading (hit < 0 ... its first hit) or one hit. */
struct sr_row {
	size_t hit;
	bool heading;
};

/* Ownership: the pane's data. */
struct sr {
	struct search_arg a;
	char org[160];
	char typed[400];
	size_t tlen;
	struct content_hit *hits;
	size_t n;
	struct sr_row *rows;
	size_t n_rows;
	char error[600];
	struct listview lv;
};

void search_as_you_type(const char *typed, char *out, size_t size)
{
	size_t n = strlen(typed);
	while (n && typed[n - 1] == ' ')
		n--;
	size_t start = n;
	while (start && typed[start - 1] != ' ' && typed[start - 1] != '(')
		start--;
	const char *last = typed + start;
	size_t k = n - start;
	bool op = (k == 2 && !strncmp(last, "OR", 2)) ||
		(k == 3 && (!strncmp(last, "AND", 3) || !strncmp(last, "NOT", 3)));
	bool prefix = k && !op && last[k - 1] != '*' && last[k - 1] != ')' && !memchr(last, '"', k);
	snprintf(out, size, "%.*s%s", (int)n, typed, prefix ? "*" : "");
}

static void sr_clear(struct sr *s)
{
	content_hits_free(s->hits, s->n);
	free(s->rows);
	s->hits = NULL;
	s->rows = NULL;
	s->n = s->n_rows = 0;
}

/* Hits of one transcription together, in the order of its best hit. */
static int sr_group(struct sr *s)
{
	s->rows = calloc(s->n * 2 + 1, sizeof *s->rows);
	bool *done = calloc(s->n + 1, sizeof *done);
	if (!s->rows || !done) {
		free(done);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (done[i])
			continue;
		s->rows[s->n_rows++] = (struct sr_row){ i, true };
		for (size_t j = i; j < s->n; j++)
			if (!done[j] && !strcmp(s->hits[j].id, s->hits[i].id)) {
				done[j] = true;
				s->rows[s->n_rows++] = (struct sr_row){ j, false };
			}
	}
	free(done);
	return 0;
}

static void sr_run(struct sr *s)
{
	char q[500];
	struct steno_error err;
	sr_clear(s);
	s->error[0] = '\0';
	search_as_you_type(s->typed, q, sizeof q);
	if (!q[0])
		return;
	struct content_query cq = { .text = q, .org = s->org[0] ? s->org : NULL, .names = true,
		.limit = SEARCH_LIMIT, .mark_open = MARK_OPEN, .mark_close = MARK_CLOSE,
		.snippet_words = 16 };
	if (content_db_search(s->a.db, &cq, &s->hits, &s->n, &err) < 0) {
		snprintf(s->error, sizeof s->error, "%s", err.message);
		return;
	}
	if (sr_group(s) < 0)
		snprintf(s->error, sizeof s->error, "out of memory");
	s->lv.cursor = s->lv.top = 0;
}

/* The query's words without operators and marks, to highlight in the reader. */
static void sr_words(const struct sr *s, char *out, size_t size)
{
	size_t o = 0;
	for (const char *p = s->typed; *p && o + 1 < size; p++)
		if (*p != '"' && *p != '*' && *p != '(' && *p != ')')
			out[o++] = *p;
	out[o] = '\0';
	/* only the first word or phrase: what the reader's / looks for */
	char *op = strstr(out, " AND ");
	if (!op)
		op = strstr(out, " OR ");
	if (!op)
		op = strstr(out, " NOT ");
	if (op)
		*op = '\0';
}

static unsigned sr_key(struct pane *p, enum action_id act, ui_key key)
{
	struct sr *s = p->data;
	if (key == 27)
		return PANE_HANDLED | PANE_CLOSE;
	if (key == '\n' || key == '\r') {
		if (!s->n_rows)
			return PANE_HANDLED;
		const struct sr_row *r = &s->rows[s->lv.cursor];
		const struct content_hit *h = &s->hits[r->hit];
		char words[400];
		sr_words(s, words, sizeof words);
		if (s->a.open)
			s->a.open(s->a.ud, h->id, r->heading ? -1 : h->start, words);
		return PANE_HANDLED | PANE_CLOSE;
	}
	if (key == (KEYS_FN | KEY_BACKSPACE) || key == 127 || key == 8) {
		if (s->tlen) {   /* a whole UTF-8 character */
			do
				s->tlen--;
			while (s->tlen && ((unsigned char)s->typed[s->tlen] & 0xc0) == 0x80);
			s->typed[s->tlen] = '\0';
			sr_run(s);
		}
		return PANE_HANDLED | PANE_REDRAW;
	}
	if (KEYS_IS_FN(key)) {   /* letters are typed; arrows and pages move */
		if (listview_action(&s->lv, act) >= 0)
			return PANE_HANDLED | PANE_REDRAW;
		return PANE_HANDLED;
	}
	if (key >= 32 && !KEYS_IS_FN(key)) {
		char u[8];
		size_t k = text_utf8_put(u, (unsigned long)key);
		if (s->tlen + k + 1 < sizeof s->typed) {
			memcpy(s->typed + s->tlen, u, k);
			s->tlen += k;
			s->typed[s->tlen] = '\0';
			sr_run(s);
		}
		return PANE_HANDLED | PANE_REDRAW;
	}
	return PANE_HANDLED;
}

/* Cells of s's first n bytes as drawn: the marks take none. -1 on no memory. */
static int plain_width(const char *s, size_t n, unsigned flags)
{
	char *t = strndup(s, n);
	if (!t)
		return -1;
	size_t o = 0;
	for (size_t i = 0; t[i]; i++)
		if (t[i] != MARK_OPEN[0] && t[i] != MARK_CLOSE[0])
			t[o++] = t[i];
	t[o] = '\0';
	int w = text_width_utf8(t, flags);
	free(t);
	return w;
}

/* Where a snippet wider than width cells starts to be drawn: at the word from which its
 * first marked word shows, with at most a third of the width of words before it (s itself
 * when all of it fits or the mark is near enough the start). */
static const char *snippet_start(const char *s, int width, unsigned flags)
{
	const char *mark = strchr(s, MARK_OPEN[0]);
	int room = width / 3;
	if (!mark || plain_width(s, strlen(s), flags) <= width ||
	    plain_width(s, (size_t)(mark - s), flags) <= room)
		return s;
	for (const char *p = s; p < mark; p++)
		if (*p == ' ' && plain_width(p + 1, (size_t)(mark - p - 1), flags) <= room)
			return p + 1;
	return mark;
}

/* Draws the snippet with its marked words highlighted, from the word that lets its first
 * marked word show ("…" before it). */
static void draw_marked(WINDOW *w, int y, int x, int width, const char *s, bool selected,
			unsigned flags)
{
	bool on = false;
	int end = x + width;
	const char *from = snippet_start(s, width, flags);
	if (from != s && width > 2) {
		style_set(w, selected ? THEME_LIST_SELECTED : THEME_NORMAL);
		x += draw_text(w, y, x, 1, flags & TEXT_ASCII ? "~" : "…", TEXT_LEFT, flags);
		s = from;
	}
	while (*s && x < end) {
		size_t k = strcspn(s, MARK_OPEN MARK_CLOSE);
		char *piece = strndup(s, k);
		if (!piece)
			return;
		int pw = text_width_utf8(piece, flags);
		style_set(w, on != selected ? THEME_LIST_SELECTED : THEME_NORMAL);
		if (pw > 0)
			draw_text(w, y, x, pw < end - x ? pw : end - x, piece, TEXT_LEFT, flags);
		x += pw > 0 ? pw : 0;
		free(piece);
		if (s[k] == MARK_OPEN[0])
			on = true;
		else if (s[k] == MARK_CLOSE[0])
			on = false;
		s += k + (s[k] ? 1 : 0);
	}
	style_set(w, THEME_NORMAL);
}

static void sr_draw(struct pane *p)
{
	struct sr *s = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	char line[600];
	int cols = p->cols;
	snprintf(line, sizeof line, "search every transcript: %s_", s->typed);
	style_set(p->win, THEME_TITLE);
	wmove(p->win, 0, 0);
	whline(p->win, ' ', cols);
	draw_text(p->win, 0, 1, cols - 2, line, TEXT_LEFT, flags);
	int rows = p->rows - 2;
	style_set(p->win, s->error[0] ? THEME_DIALOG_ERROR : THEME_MUTED);
	if (s->error[0])
		snprintf(line, sizeof line, "%s", s->error);
	else if (!s->typed[0])
		snprintf(line, sizeof line, "words, \"a phrase\", gard*, a OR b, a NOT b; Enter opens "
			 "the reader at the hit; Esc closes");
	else
		snprintf(line, sizeof line, "%zu hit%s%s", s->n, s->n == 1 ? "" : "s",
			 s->n >= SEARCH_LIMIT ? " (the best shown)" : "");
	draw_text(p->win, 1, 1, cols - 2, line, TEXT_LEFT, flags);
	listview_resize(&s->lv, (int)s->n_rows, rows > 0 ? rows : 1);
	for (int i = 0; i < rows && (size_t)(s->lv.top + i) < s->n_rows; i++) {
		const struct sr_row *r = &s->rows[s->lv.top + i];
		const struct content_hit *h = &s->hits[r->hit];
		bool sel = s->lv.top + i == s->lv.cursor;
		int y = i + 2;
		if (sel) {
			style_set(p->win, THEME_LIST_SELECTED);
			wmove(p->win, y, 0);
			whline(p->win, ' ', cols);
		}
		if (r->heading) {
			if (h->item_hits > 1)
				snprintf(line, sizeof line, "%s  (%s)  %ld passages match",
					 h->name ? h->name : h->id, h->id, h->item_hits);
			else
				snprintf(line, sizeof line, "%s  (%s)", h->name ? h->name : h->id,
					 h->id);
			style_set(p->win, sel ? THEME_LIST_SELECTED : THEME_PANE_TITLE);
			draw_text(p->win, y, 1, cols - 2, line, TEXT_LEFT, flags);
			continue;
		}
		char tc[32];
		if (h->start >= 0)
			content_timecode(h->start, tc, sizeof tc);
		else
			snprintf(tc, sizeof tc, "%s", h->para < 0 ? "name" : "--:--");
		/* the speaker in at most a fifth of the width (24 cells), cut on a character */
		int who = cols / 5 < 24 ? cols / 5 : 24;
		snprintf(line, sizeof line, "%8s", tc);
		style_set(p->win, sel ? THEME_LIST_SELECTED : THEME_MUTED);
		int x = 3 + draw_text(p->win, y, 3, 8, line, TEXT_LEFT, flags);
		if (h->speaker && who > 0)
			x += 2 + draw_text(p->win, y, x + 2, who, h->speaker, TEXT_LEFT, flags);
		draw_marked(p->win, y, x + 2, cols - x - 3, h->snippet ? h->snippet : "", sel, flags);
	}
	style_set(p->win, THEME_NORMAL);
}

static int sr_open(struct pane *p, void *arg)
{
	struct sr *s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	s->a = *(const struct search_arg *)arg;
	snprintf(s->org, sizeof s->org, "%s", s->a.org ? s->a.org : "");
	snprintf(s->typed, sizeof s->typed, "%s", s->a.query ? s->a.query : "");
	s->tlen = strlen(s->typed);
	s->a.query = s->a.org = NULL;
	p->data = s;
	if (s->tlen)
		sr_run(s);
	return 0;
}

static void sr_close(struct pane *p)
{
	struct sr *s = p->data;
	if (!s)
		return;
	sr_clear(s);
	free(s);
	p->data = NULL;
}

const struct pane_ops search_pane_ops = {
	.name = "search", .scope = SCOPE_PREVIEW, .place = PANE_PLACE_FULL,
	.open = sr_open, .draw = sr_draw, .key = sr_key, .close = sr_close,
};
