#ifndef STENO_UI_STYLE_H
#define STENO_UI_STYLE_H

/* The active theme turned into curses attributes and colour pairs. One table for the
 * whole screen (one terminal per process); style_apply is called after start_color
 * and again when the theme changes. */

#include <curses.h>

#include "ui/theme.h"

/* Whether colours should be used: the terminal has them, NO_COLOR is unset or empty,
 * and the theme does not say `set colors off`. */
int style_want_colors(const struct theme *t);

/* Computes attributes and allocates colour pairs (reduced to COLORS: 256 -> 16 -> 8)
 * for every element. use_colors = 0 gives the mono attributes. */
void style_apply(const struct theme *t, int use_colors);

/* Sets window attributes for element e (wattr_set). */
void style_set(WINDOW *w, enum theme_elem e);

/* Sets the background (what werase fills with) to element e. */
void style_bkgd(WINDOW *w, enum theme_elem e);

/* A cchar-ready attribute for e (attributes | COLOR_PAIR), for wbkgdset and borders. */
attr_t style_attr(enum theme_elem e);
short style_pair(enum theme_elem e);

/* curses attributes of theme attribute bits. */
attr_t style_curses_attrs(unsigned bits);

#endif
