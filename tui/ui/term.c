/* Terminal set-up and care. */
#include "config.h"

#include "ui/term.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"

int term_locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

int term_open(struct term *t, const struct term_opts *o)
{
	static const struct term_opts none;
	const char *esc = getenv("ESCDELAY");
	const char *cur = setlocale(LC_CTYPE, NULL);

	if (!o)
		o = &none;
	memset(t, 0, sizeof *t);
	/* wide characters need the user's locale before initscr; keep one main set */
	if (!cur || !strcmp(cur, "C") || !strcmp(cur, "POSIX"))
		setlocale(LC_ALL, "");
	t->in = o->in ? o->in : stdin;
	t->screen = newterm(o->term, o->out ? o->out : stdout, t->in);
	if (!t->screen) {
		snprintf(t->why, sizeof t->why, "cannot open the terminal (TERM=%s)",
			 o->term ? o->term : getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	set_term(t->screen);
	const char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		/* a terminal that cannot move the cursor shows only the last line drawn */
		const char *name = o->term ? o->term : getenv("TERM");
		snprintf(t->why, sizeof t->why,
			 "the terminal (TERM=%s) cannot move its cursor: the browser needs one "
			 "(TERM=xterm-256color, for one); the commands (steno ls ...) work anywhere",
			 name ? name : "");
		endwin();
		delscreen(t->screen);
		t->screen = NULL;
		return -1;
	}
	if (!esc || !*esc)
		set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	t->ascii = o->force_ascii || !term_locale_is_utf8();
	term_set_mouse(t, o->mouse);
	return 0;
}

void term_close(struct term *t)
{
	if (!t->screen)
		return;
	term_set_mouse(t, 0);
	endwin();
	delscreen(t->screen);
	t->screen = NULL;
}

void term_set_mouse(struct term *t, int on)
{
	t->mouse = on;
	mousemask(on ? (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0, NULL);
}

int term_too_small(int rows, int cols, int min_rows, int min_cols)
{
	return rows < min_rows || cols < min_cols;
}

void term_draw_too_small(WINDOW *w, int min_rows, int min_cols, int ascii)
{
	char one[64], need[32];
	int rows, cols, n = 0;
	const char *lines[3];

	getmaxyx(w, rows, cols);
	snprintf(need, sizeof need, "(need %dx%d)", min_cols, min_rows);
	int len = snprintf(one, sizeof one, "terminal too small %s", need);
	/* one line when it fits, else the size on a line of its own */
	if (len <= cols) {
		lines[n++] = one;
	} else {
		lines[n++] = "terminal too small";
		lines[n++] = need;
	}
	lines[n++] = "q: quit";
	style_set(w, THEME_NORMAL);
	werase(w);
	style_set(w, THEME_TOO_SMALL);
	int top = rows > n ? (rows - n) / 2 : 0;
	for (int i = 0; i < n && top + i < rows; i++)
		draw_text(w, top + i, 0, cols, lines[i], TEXT_CENTER, ascii ? TEXT_ASCII : 0);
	style_set(w, THEME_NORMAL);
}

int term_read_keys(WINDOW *w, ui_key *keys, int max)
{
	int n = 0, rc;
	wint_t wc;

	wtimeout(w, 0);
	while (n < max && (rc = wget_wch(w, &wc)) != ERR) {
		ui_key k = keys_from_wch(rc, wc);
		if (k == (KEYS_FN | KEY_RESIZE)) {
			/* only the last size matters: drop the earlier resize */
			int j = 0;
			for (int i = 0; i < n; i++)
				if (keys[i] != k)
					keys[j++] = keys[i];
			n = j;
		}
		keys[n++] = k;
	}
	return n;
}
