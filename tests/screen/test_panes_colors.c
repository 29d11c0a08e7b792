/* Every bundled theme on 8- and 16-colour terminals (terminfo xterm and xterm-16color):
 * the browser, its help and a dialog drawn against a sandbox, and every visible character
 * read back from the screen with the colours it got. Each must keep a contrast of at least
 * THEME_MIN_CONTRAST (WCAG ratio, xterm's palette) with its background; the terminal's own
 * colours are taken as light text on black, or for the light theme dark text on white. */
#include "config.h"

#include <criterion/criterion.h>
#include <curses.h>
#include <string.h>

#include "panes_fixture.h"
#include "ui/theme.h"

static const char *const demo30[] = {"--seed-demo", "30", NULL};

struct bad_cell {
	int y, x;
	short fg, bg;
	int count;
};

/* Checks every visible cell; returns how many are illegible (the first one in *first). */
static int illegible_cells(bool light_terminal, struct bad_cell *first)
{
	int rows = getmaxy(curscr), cols = getmaxx(curscr), bad = 0;
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++) {
			short fg, bg;
			if (!scr_cell_colors(y, x, &fg, &bg))
				continue;
			int f = fg >= 0 ? fg : light_terminal ? 0 : 7;
			int b = bg >= 0 ? bg : light_terminal ? 7 : 0;
			if (theme_color_contrast(f, b) >= THEME_MIN_CONTRAST)
				continue;
			if (!bad++)
				*first = (struct bad_cell){ y, x, fg, bg, 0 };
		}
	return bad;
}

/* The first cell of `word` on screen (ASCII), or false. */
static bool find_word(const char *word, int *wy, int *wx)
{
	int rows = getmaxy(curscr), cols = getmaxx(curscr), n = (int)strlen(word);
	for (int y = 0; y < rows; y++)
		for (int x = 0; x + n <= cols; x++) {
			int k = 0;
			for (; k < n; k++) {
				cchar_t cc;
				wchar_t wc[CCHARW_MAX + 1];
				attr_t a;
				short pair;
				mvwin_wch(curscr, y, x + k, &cc);
				getcchar(&cc, wc, &a, &pair, NULL);
				if (wc[0] != (wchar_t)word[k])
					break;
			}
			if (k == n) {
				*wy = y;
				*wx = x;
				return true;
			}
		}
	return false;
}

/* The details pane's labels are drawn "muted", a grey in every theme: they stay grey
 * (or the terminal's own colour), never a hue (the yellow labels of 8-colour terminals). */
static void check_muted_label(const char *theme, const char *term)
{
	int y, x;
	short fg, bg;
	cr_assert(find_word("Refunded", &y, &x), "no details label on screen");
	scr_cell_colors(y, x, &fg, &bg);
	cr_expect(fg < 0 || theme_color_is_grey(fg), "%s on %s: the label 'Refunded' is colour %d",
		  theme, term, fg);
}

static void check_screen(const char *theme, const char *term, const char *what)
{
	struct bad_cell first = {0};
	int bad = illegible_cells(strcmp(theme, "light") == 0, &first);
	cr_expect_eq(bad, 0, "%s on %s, %s: %d illegible cells, first at %d,%d: %d on %d", theme,
		     term, what, bad, first.y, first.x, first.fg, first.bg);
}

static void check_theme(const char *theme)
{
	static const char *const terms[] = {"xterm", "xterm-16color"};
	for (size_t i = 0; i < 2; i++) {
		struct pf f;
		struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30,
				     .theme = theme, .term = terms[i] };
		pf_open(&f, &o);
		cr_assert_eq(COLORS, i ? 16 : 8, "%s has %d colours", terms[i], COLORS);
		pf_expect(&f, "Transcriptions");
		check_screen(theme, terms[i], "the browser");
		check_muted_label(theme, terms[i]);
		pf_keys(&f, "?");
		check_screen(theme, terms[i], "the help");
		pf_keys(&f, "<Esc> a");
		pf_expect(&f, "New transcription");
		check_screen(theme, terms[i], "a dialog");
		pf_close(&f);
	}
}

Test(colors, default_theme_legible_on_8_and_16_colours) { check_theme("default"); }
Test(colors, light_theme_legible_on_8_and_16_colours) { check_theme("light"); }
Test(colors, solarized_dark_legible_on_8_and_16_colours) { check_theme("solarized-dark"); }
Test(colors, gruvbox_legible_on_8_and_16_colours) { check_theme("gruvbox"); }
Test(colors, high_contrast_legible_on_8_and_16_colours) { check_theme("high-contrast"); }
Test(colors, mono_legible_on_8_and_16_colours) { check_theme("mono"); }

/* Every bundled theme has its test above. */
Test(colors, every_bundled_theme_is_checked)
{
	static const char *const checked[] = {"default", "light", "solarized-dark", "gruvbox",
					      "high-contrast", "mono"};
	size_t n = 0;
	for (; theme_builtins[n].name; n++) {
		bool found = false;
		for (size_t k = 0; k < sizeof checked / sizeof checked[0]; k++)
			found |= strcmp(checked[k], theme_builtins[n].name) == 0;
		cr_expect(found, "theme %s has no colour test", theme_builtins[n].name);
	}
	cr_expect_eq(n, sizeof checked / sizeof checked[0]);
}

/* `:theme NAME` switches the theme for the run and repaints every cell; a name it cannot
 * find is said and the theme in use stays; Tab completes the bundled themes' names. */
Test(colors, the_theme_is_switched_from_the_prompt)
{
	struct pf f;
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30,
			     .theme = "gruvbox", .term = "xterm-256color" };
	int y, x;
	short fg, bg;

	pf_open(&f, &o);
	cr_assert(find_word("Refunded", &y, &x), "no details label on screen");
	cr_assert(scr_cell_colors(y, x, &fg, &bg) && fg >= 0, "gruvbox's label has no colour");
	pf_keys(&f, ": t h e m e <Space> n o p e <Enter>");
	pf_expect(&f, "theme nope: ");
	pf_expect(&f, "not found");
	cr_assert(scr_cell_colors(y, x, &fg, &bg) && fg >= 0, "the theme in use did not stay");
	pf_keys(&f, ": t h e m e <Space> m o <Tab>");
	pf_expect(&f, ":theme mono");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "theme mono");
	short fg2 = 0, bg2 = 0;
	bool colored = scr_cell_colors(y, x, &fg2, &bg2);
	cr_expect(!colored || (fg2 < 0 && bg2 < 0), "after :theme mono the label is %d on %d",
		  fg2, bg2);
	pf_close(&f);
}
