/* ui/theme: theme files, colours, lookup and the built-in default. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/diag.h"
#include "ui/theme.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/steno-theme-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

TestSuite(theme_files, .init = make_dir, .fini = remove_dir);

Test(theme, colour_names)
{
	cr_assert_eq(theme_parse_color("default"), THEME_COLOR_DEFAULT);
	cr_assert_eq(theme_parse_color("red"), 1);
	cr_assert_eq(theme_parse_color("bright-red"), 9);
	cr_assert_eq(theme_parse_color("brightwhite"), 15);
	cr_assert_eq(theme_parse_color("color208"), 208);
	cr_assert_eq(theme_parse_color("37"), 37);
	cr_assert_eq(theme_parse_color("#ff0000"), 196);
	cr_assert_eq(theme_parse_color("#002b36"), 234);
	cr_assert_eq(theme_parse_color("256"), -2);
	cr_assert_eq(theme_parse_color("#12345"), -2);
	cr_assert_eq(theme_parse_color("bright-pink"), -2);
	cr_assert_eq(theme_parse_color(""), -2);
}

Test(theme, reduce_256_to_8_and_16)
{
	cr_assert_eq(theme_color_reduce(196, 8), 1);      /* red */
	cr_assert_eq(theme_color_reduce(46, 8), 2);       /* green */
	cr_assert_eq(theme_color_reduce(21, 8), 4);       /* blue */
	cr_assert_eq(theme_color_reduce(37, 8), 6);       /* teal -> cyan */
	cr_assert_eq(theme_color_reduce(236, 8), 0);      /* dark grey -> black */
	cr_assert_eq(theme_color_reduce(252, 8), 7);      /* light grey -> white */
	cr_assert_eq(theme_color_reduce(9, 8), 1);        /* bright red -> red */
	cr_assert_eq(theme_color_reduce(196, 16), 9);     /* bright red */
	cr_assert_eq(theme_color_reduce(196, 256), 196);
	cr_assert_eq(theme_color_reduce(THEME_COLOR_DEFAULT, 8), THEME_COLOR_DEFAULT);
	cr_assert_eq(theme_color_reduce(3, 2), THEME_COLOR_DEFAULT);
}

Test(theme, greys_stay_grey_when_reduced)
{
	cr_assert_eq(theme_color_reduce(244, 8), 7, "mid grey -> white, not yellow");
	cr_assert_eq(theme_color_reduce(242, 8), 0);
	cr_assert_eq(theme_color_reduce(244, 16), 8);
	cr_assert_eq(theme_color_reduce(theme_parse_color("#928374"), 8), 7, "gruvbox grey");
	cr_assert_eq(theme_color_reduce(theme_parse_color("#002b36"), 8), 0, "too dark for a hue");
	cr_assert_eq(theme_color_reduce(94, 8), 1, "a hue stays a hue");
}

Test(theme, pairs_stay_legible_when_reduced)
{
	int fg = 244, bg = THEME_COLOR_DEFAULT;
	theme_pair_reduce(&fg, &bg, 8);
	cr_assert_eq(fg, THEME_COLOR_DEFAULT, "grey text on the terminal's background");
	cr_assert_eq(bg, THEME_COLOR_DEFAULT);
	fg = 244, bg = THEME_COLOR_DEFAULT;
	theme_pair_reduce(&fg, &bg, 16);
	cr_assert_eq(fg, 8, "16 colours have a grey");
	fg = 7, bg = 24;   /* white on dark blue: cyan at 8 colours, too light for white */
	theme_pair_reduce(&fg, &bg, 8);
	cr_assert_eq(bg, 6);
	cr_assert_eq(fg, 0);
	fg = 7, bg = 24;
	theme_pair_reduce(&fg, &bg, 256);
	cr_assert(fg == 7 && bg == 24, "256 colours are left alone");
	fg = 1, bg = 3;    /* base colours the theme chose: kept */
	theme_pair_reduce(&fg, &bg, 8);
	cr_assert(fg == 1 && bg == 3);
	cr_assert_float_eq(theme_color_contrast(0, 15), 21.0, 0.01);
	cr_assert_float_eq(theme_color_contrast(5, 5), 1.0, 0.001);
}

/* Every element of every bundled theme at 8 and 16 colours: a grey never becomes a hue,
 * and two explicit colours keep a readable contrast. */
Test(theme, bundled_themes_legible_on_8_and_16_colours)
{
	for (size_t i = 0; theme_builtins[i].name; i++) {
		struct theme t;
		struct ui_diag d = {0};
		theme_init(&t);
		cr_assert_eq(theme_parse(&t, theme_builtins[i].text, theme_builtins[i].name, &d), 0);
		for (int depth = 8; depth <= 16; depth += 8)
			for (int e = 0; e < THEME_COUNT; e++) {
				const struct theme_style *st = &t.el[e];
				if (!st->has_color)
					continue;
				int fg = st->fg, bg = st->bg, rgb[3];
				theme_pair_reduce(&fg, &bg, depth);
				const char *what = theme_elem_name((enum theme_elem)e);
				if (st->fg >= 0 && fg >= 0) {
					theme_color_rgb(fg, rgb);
					bool grey_now = rgb[0] == rgb[1] && rgb[1] == rgb[2];
					cr_expect(!theme_color_is_grey(st->fg) || grey_now, "%s %s at %d colours: grey %d -> %d",
						  theme_builtins[i].name, what, depth, st->fg, fg);
				}
				if (fg >= 0 && bg >= 0)
					cr_expect_geq(theme_color_contrast(fg, bg), THEME_MIN_CONTRAST,
						      "%s %s at %d colours: %d on %d", theme_builtins[i].name,
						      what, depth, fg, bg);
			}
	}
}

Test(theme, builtin_default_sets_every_element)
{
	struct theme t;
	theme_init(&t);
	cr_assert_str_eq(t.source, "builtin");
	cr_assert(t.colors_enabled);
	for (int e = 0; e < THEME_COUNT; e++)
		cr_assert(t.el[e].has_color, "element %s has no colour", theme_elem_name(e));
	cr_assert_eq(t.el[THEME_LIST_SELECTED].bg, 37);
	cr_assert_eq(t.el[THEME_LIST_SELECTED].mono, THEME_A_REVERSE);
}

Test(theme, parse_lines)
{
	struct theme t;
	struct ui_diag d;
	theme_init(&t);
	ui_diag_clear(&d);
	cr_assert_eq(theme_parse(&t,
		"# comment\n"
		"color list.selected black cyan bold  # trailing comment\n"
		"mono state.failed bold underline\n"
		"set colors off\n", "x.theme", &d), 0);
	cr_assert_eq(t.el[THEME_LIST_SELECTED].fg, 0);
	cr_assert_eq(t.el[THEME_LIST_SELECTED].bg, 6);
	cr_assert_eq(t.el[THEME_LIST_SELECTED].attrs, THEME_A_BOLD);
	cr_assert_eq(t.el[THEME_STATE_FAILED].mono, THEME_A_BOLD | THEME_A_UNDERLINE);
	cr_assert_not(t.colors_enabled);
}

Test(theme, errors_name_file_and_line_and_never_crash)
{
	struct theme t;
	struct ui_diag d;
	theme_init(&t);
	ui_diag_clear(&d);
	cr_assert_eq(theme_parse(&t,
		"color list.selected\n"
		"color no.such black white\n"
		"color title purple white\n"
		"mono title sparkly\n"
		"paint title red\n"
		"set colors maybe\n"
		"color title white red bold\n", "bad.theme", &d), 6);
	cr_assert_eq(d.count, 6);
	cr_assert_str_eq(d.msg[0], "bad.theme:1: usage: color ELEMENT FG BG [ATTR...]");
	cr_assert_str_eq(d.msg[1], "bad.theme:2: unknown element 'no.such'");
	cr_assert_str_eq(d.msg[2], "bad.theme:3: unknown colour 'purple'");
	cr_assert_str_eq(d.msg[3], "bad.theme:4: unknown attribute 'sparkly'");
	cr_assert_str_eq(d.msg[4], "bad.theme:5: unknown command 'paint' (color, mono, set)");
	cr_assert_str_eq(d.msg[5], "bad.theme:6: usage: set colors on|off");
	cr_assert_eq(t.el[THEME_TITLE].bg, 1);   /* the good line after the bad ones applies */
	/* garbage input */
	char junk[2048];
	for (size_t i = 0; i < sizeof junk - 1; i++)
		junk[i] = (char)(i * 37 % 255 + 1);
	junk[sizeof junk - 1] = '\0';
	theme_parse(&t, junk, "junk", &d);
	cr_assert_leq(d.count, UI_DIAG_MAX);
}

Test(theme, shipped_themes_parse_cleanly)
{
	static const char *names[] = { "default", "light", "solarized-dark", "gruvbox", "high-contrast", "mono" };
	const char *src = getenv("STENO_SRCDIR");
	cr_assert_not_null(src, "STENO_SRCDIR not set");
	setenv("STENO_THEMES_DIR", "/nonexistent", 1);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[1024];
		struct theme t;
		struct ui_diag d;
		ui_diag_clear(&d);
		snprintf(path, sizeof path, "%s/themes/%s.theme", src, names[i]);
		cr_assert_eq(theme_load(&t, path, &d), 0, "%s", names[i]);
		cr_assert_eq(d.count, 0, "%s: %s", names[i], d.msg[0]);
	}
}

Test(theme, mono_theme_turns_colours_off)
{
	char path[1024];
	struct theme t;
	snprintf(path, sizeof path, "%s/themes/mono.theme", getenv("STENO_SRCDIR"));
	cr_assert_eq(theme_load(&t, path, NULL), 0);
	cr_assert_not(t.colors_enabled);
	cr_assert_eq(t.el[THEME_LIST_SELECTED].mono, THEME_A_REVERSE);
}

Test(theme_files, lookup_order)
{
	char xdg[128], themes[128], path[256], found[4096];
	snprintf(xdg, sizeof xdg, "%s/config", dir);
	snprintf(themes, sizeof themes, "%s/shipped", dir);
	mkdir(xdg, 0700);
	snprintf(path, sizeof path, "%s/steno", xdg);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/steno/themes", xdg);
	mkdir(path, 0700);
	mkdir(themes, 0700);
	snprintf(path, sizeof path, "%s/steno/themes/mine.theme", xdg);
	write_file(path, "color title red blue\n");
	snprintf(path, sizeof path, "%s/mine.theme", themes);
	write_file(path, "color title green blue\n");
	snprintf(path, sizeof path, "%s/other.theme", themes);
	write_file(path, "color title yellow blue\nmono nope bold\n");
	setenv("XDG_CONFIG_HOME", xdg, 1);
	setenv("STENO_THEMES_DIR", themes, 1);

	cr_assert_eq(theme_find("mine", found, sizeof found), 0);
	cr_assert(strstr(found, "/config/steno/themes/mine.theme"), "%s", found);
	cr_assert_eq(theme_find("other", found, sizeof found), 0);
	cr_assert(strstr(found, "/shipped/other.theme"), "%s", found);
	cr_assert_eq(theme_find("../etc/passwd", found, sizeof found), -1);
	cr_assert_eq(theme_find("missing", found, sizeof found), -1);

	struct theme t;
	struct ui_diag d;
	ui_diag_clear(&d);
	cr_assert_eq(theme_load(&t, "mine", &d), 0);
	cr_assert_eq(t.el[THEME_TITLE].fg, 1);
	cr_assert_eq(t.el[THEME_STATUS].bg, 236, "other elements keep the default");
	cr_assert_eq(theme_load(&t, "other", &d), 0);
	cr_assert_eq(d.count, 1);
	cr_assert(strstr(d.msg[0], "other.theme:2: unknown element 'nope'"), "%s", d.msg[0]);
	ui_diag_clear(&d);
	cr_assert_eq(theme_load(&t, "missing", &d), -1);
	cr_assert_str_eq(d.msg[0], "missing: theme not found");
	cr_assert_str_eq(t.source, "builtin");
	cr_assert_eq(theme_load(&t, "default", &d), 0, "default is built in");
	cr_assert_str_eq(t.source, "builtin");
	cr_assert_eq(t.el[THEME_LIST_SELECTED].bg, 37);
}

/* Every bundled theme loads by name with no theme file anywhere (steno run from the build
 * tree), and the compiled-in text is the shipped file's. */
Test(theme_files, every_bundled_theme_is_built_in)
{
	static const char *names[] = { "default", "light", "solarized-dark", "gruvbox", "high-contrast", "mono" };
	const char *src = getenv("STENO_SRCDIR");
	cr_assert_not_null(src, "STENO_SRCDIR not set");
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("STENO_THEMES_DIR", dir, 1);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[1024], found[4096], text[8192];
		struct theme t;
		struct ui_diag d;
		FILE *f;
		size_t n;

		snprintf(path, sizeof path, "%s/themes/%s.theme", src, names[i]);
		cr_assert_not_null(f = fopen(path, "r"), "%s", path);
		n = fread(text, 1, sizeof text - 1, f);
		fclose(f);
		text[n] = '\0';
		cr_assert_not_null(theme_builtin_text(names[i]), "%s is compiled in", names[i]);
		cr_assert_str_eq(theme_builtin_text(names[i]), text, "%s", names[i]);
		if (theme_find(names[i], found, sizeof found) == 0)
			continue; /* installed copy found under the prefix: it takes precedence */
		ui_diag_clear(&d);
		cr_assert_eq(theme_load(&t, names[i], &d), 0, "%s: %s", names[i], d.count ? d.msg[0] : "");
		cr_assert_eq(d.count, 0, "%s", names[i]);
	}
	cr_assert_null(theme_builtin_text("nope"));
	struct theme t;
	cr_assert_eq(theme_load(&t, "mono", NULL), 0);
	cr_assert_not(t.colors_enabled, "the built-in mono is the real mono theme");
}
