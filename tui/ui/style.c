/* Theme -> curses attributes and colour pairs. */
#include "config.h"

#include "ui/style.h"

#include <stdlib.h>

static struct { attr_t attr; short pair; } applied[THEME_COUNT];

attr_t style_curses_attrs(unsigned bits)
{
	attr_t a = A_NORMAL;

	if (bits & THEME_A_BOLD) a |= A_BOLD;
	if (bits & THEME_A_DIM) a |= A_DIM;
	if (bits & THEME_A_UNDERLINE) a |= A_UNDERLINE;
	if (bits & THEME_A_REVERSE) a |= A_REVERSE;
	if (bits & THEME_A_STANDOUT) a |= A_STANDOUT;
	if (bits & THEME_A_BLINK) a |= A_BLINK;
	if (bits & THEME_A_ITALIC) a |= A_ITALIC;
	return a;
}

int style_want_colors(const struct theme *t)
{
	const char *no = getenv("NO_COLOR");

	return t->colors_enabled && has_colors() && !(no && *no);
}

/* Finds or creates the pair for fg/bg among pairs 1..*used. 0 when out of pairs. */
static short pair_for(int fg, int bg, short *used)
{
	for (short p = 1; p <= *used; p++) {
		short f, b;
		if (pair_content(p, &f, &b) == OK && f == fg && b == bg)
			return p;
	}
	if (*used + 1 >= COLOR_PAIRS || *used + 1 > 32767)
		return 0;
	(*used)++;
	if (init_pair(*used, (short)fg, (short)bg) == ERR) {
		(*used)--;
		return 0;
	}
	return *used;
}

void style_apply(const struct theme *t, int use_colors)
{
	short used = 0;
	/* Without use_default_colors (called by term_open) -1 is not a valid colour. */
	int def_fg = 7, def_bg = 0, has_default = use_colors && (use_default_colors() == OK);

	for (int e = 0; e < THEME_COUNT; e++) {
		const struct theme_style *s = &t->el[e];
		applied[e].pair = 0;
		if (!use_colors || !s->has_color) {
			applied[e].attr = style_curses_attrs(s->mono);
			continue;
		}
		int fg = s->fg, bg = s->bg;
		theme_pair_reduce(&fg, &bg, COLORS);
		if (!has_default) {
			fg = fg < 0 ? def_fg : fg;
			bg = bg < 0 ? def_bg : bg;
		}
		applied[e].attr = style_curses_attrs(s->attrs);
		applied[e].pair = pair_for(fg, bg, &used);
	}
}

void style_set(WINDOW *w, enum theme_elem e)
{
	if ((unsigned)e >= THEME_COUNT)
		e = THEME_NORMAL;
	wattr_set(w, applied[e].attr, applied[e].pair, NULL);
}

attr_t style_attr(enum theme_elem e)
{
	return (unsigned)e < THEME_COUNT ? applied[e].attr | COLOR_PAIR(applied[e].pair) : A_NORMAL;
}

short style_pair(enum theme_elem e)
{
	return (unsigned)e < THEME_COUNT ? applied[e].pair : 0;
}

void style_bkgd(WINDOW *w, enum theme_elem e)
{
	cchar_t bg;

	if ((unsigned)e >= THEME_COUNT)
		e = THEME_NORMAL;
	if (setcchar(&bg, L" ", applied[e].attr, applied[e].pair, NULL) == OK)
		wbkgrndset(w, &bg);
}
