/* Headless screen test harness. */
#include "config.h"

#include "harness.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/style.h"
#include "ui/text.h"

void scr_open(struct scr *s, const struct scr_opts *o)
{
	char num[16];

	memset(s, 0, sizeof *s);
	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "C.UTF-8 locale missing");
	/* the size comes from the environment: /dev/null has no window size */
	snprintf(num, sizeof num, "%d", o->rows);
	setenv("LINES", num, 1);
	snprintf(num, sizeof num, "%d", o->cols);
	setenv("COLUMNS", num, 1);
	if (o->no_color)
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");
	s->out = fopen("/dev/null", "w");
	s->in = o->in ? o->in : fopen("/dev/null", "r");
	cr_assert(s->out && s->in);
	struct ui_session_opts so = { .theme = o->theme, .read_only = o->read_only,
		.ascii = o->ascii, .mouse = o->mouse, .term = o->term ? o->term : "xterm-256color",
		.out = s->out, .in = s->in, .key_lines = o->key_lines, .key_origin = "test.conf" };
	cr_assert_eq(ui_session_open(&s->ui, &so), 0, "newterm failed");
	if (!o->key_lines)   /* tests of bad bindings look at the messages themselves */
		cr_assert_eq(s->ui.diag.count, 0, "%s", s->ui.diag.msg[0]);
}

void scr_close(struct scr *s)
{
	ui_session_close(&s->ui);
	fclose(s->out);
	fclose(s->in);
}

void scr_add(struct scr *s, struct pane *p)
{
	cr_assert_not_null(p);
	cr_assert_eq(ui_session_add(&s->ui, p), 0);
}

void scr_draw(struct scr *s)
{
	frame_draw(&s->ui.frame);
}

/* What the main loop does with one pass of keys. */
static void scr_pump(struct scr *s)
{
	ui_key keys[32];
	int n = term_read_keys(stdscr, keys, 32);

	for (int i = 0; i < n && !s->quit; i++) {
		unsigned r = frame_key(&s->ui.frame, keys[i]);
		if (r & PANE_QUIT)
			s->quit = 1;
		ui_session_on_result(&s->ui, r);
	}
	frame_draw(&s->ui.frame);
}

void scr_push_key(ui_key k)
{
	if (KEYS_IS_FN(k))
		cr_assert_eq(ungetch(k & ~KEYS_FN), OK);
	else
		cr_assert_eq(unget_wch((wchar_t)k), OK);
}

int scr_parse_script(const char *script, ui_key *keys, int max)
{
	const char *bad = NULL;
	int n = keys_parse_list(script, keys, max, &bad);

	cr_assert_geq(n, 0, "bad key in script at '%s'", bad);
	return n;
}

void scr_keys(struct scr *s, const char *script)
{
	ui_key keys[128];
	int n = scr_parse_script(script, keys, 128);

	if (n == 0)
		scr_pump(s);   /* what a test queued itself (mouse events) */
	for (int i = 0; i < n; i++) {
		scr_push_key(keys[i]);
		scr_pump(s);
	}
}

void scr_resize(struct scr *s, int rows, int cols)
{
	/* resizeterm queues a KEY_RESIZE itself; a second one, as a burst of SIGWINCH
	 * would give, must collapse into a single relayout */
	cr_assert_eq(resizeterm(rows, cols), OK);
	ungetch(KEY_RESIZE);
	scr_pump(s);
	cr_assert_eq(s->ui.frame.rows, rows);
	cr_assert_eq(s->ui.frame.cols, cols);
}

static char *dump_screen(int attrs)
{
	int rows = getmaxy(curscr), cols = getmaxx(curscr);
	size_t cap = (size_t)rows * ((size_t)cols * 24 + 2) + 1, len = 0;
	char *out = malloc(cap);

	cr_assert_not_null(out);
	for (int y = 0; y < rows; y++) {
		size_t line = len, keep = len;
		for (int x = 0; x < cols; x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1] = { 0 };
			attr_t a = 0;
			short pair = 0;
			mvwin_wch(curscr, y, x, &cc);
			getcchar(&cc, wc, &a, &pair, NULL);
			if (attrs) {
				unsigned m = (a & A_BOLD ? 1 : 0) | (a & A_DIM ? 2 : 0) |
					(a & A_UNDERLINE ? 4 : 0) | (a & A_REVERSE ? 8 : 0);
				out[len++] = m ? "0123456789abcdef"[m] : '.';
				keep = len;
				continue;
			}
			if (!wc[0])
				wc[0] = L' ';
			for (int k = 0; wc[k]; k++)
				len += text_utf8_put(out + len, (unsigned long)wc[k]);
			if (wc[0] != L' ')
				keep = len;
			if (wcwidth(wc[0]) == 2)
				x++;   /* the next cell continues this character */
		}
		len = attrs ? len : keep;
		(void)line;
		out[len++] = '\n';
	}
	out[len] = '\0';
	return out;
}

char *scr_text(void)
{
	return dump_screen(0);
}

char *scr_attrs(void)
{
	return dump_screen(1);
}

int scr_cell_col(const char *line, const char *needle)
{
	const char *hit = strstr(line, needle), *eol = strchr(line, '\n');
	if (!hit || (eol && hit > eol))
		return -1;
	char *head = strndup(line, (size_t)(hit - line));
	wchar_t ws[1024];
	size_t n = head ? mbstowcs(ws, head, 1024) : (size_t)-1;
	free(head);
	cr_assert_neq(n, (size_t)-1, "%s", line);
	return wcswidth(ws, n);
}

int scr_cell_colors(int y, int x, short *fg, short *bg)
{
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short pair = 0;

	*fg = *bg = -1;
	if (mvwin_wch(curscr, y, x, &cc) == ERR || getcchar(&cc, wc, &a, &pair, NULL) == ERR)
		return 0;
	if (pair && pair_content(pair, fg, bg) == ERR)
		*fg = *bg = -1;
	return wc[0] != L' ' && wc[0] != 0;
}

int scr_colored_cells(void)
{
	int rows = getmaxy(curscr), cols = getmaxx(curscr), n = 0;

	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < cols; x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t a;
			short pair = 0;
			mvwin_wch(curscr, y, x, &cc);
			getcchar(&cc, wc, &a, &pair, NULL);
			n += pair != 0;
		}
	}
	return n;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	cr_assert_not_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_all(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

void scr_golden(const char *name, const char *text)
{
	const char *src = getenv("STENO_SRCDIR");
	char path[1024];

	cr_assert_not_null(src, "STENO_SRCDIR is not set");
	snprintf(path, sizeof path, "%s/tests/screen/golden/%s", src, name);
	if (getenv("STENO_UPDATE_GOLDEN") && *getenv("STENO_UPDATE_GOLDEN")) {
		write_all(path, text);
		return;
	}
	char *want = read_all(path);
	if (!want || strcmp(want, text)) {
		char actual[256];
		snprintf(actual, sizeof actual, "%s.actual", name);
		write_all(actual, text);
		cr_assert_fail("screen differs from %s (see %s):\n%s", path, actual, text);
	}
	free(want);
}
