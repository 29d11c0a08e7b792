/* Screen tests of terminal care: tiny terminals, resizes, mono, hostile strings. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "fake_panes.h"
#include "harness.h"
#include "ui/style.h"
#include "ui/text.h"

static struct scr s;

static void open_table(int rows, int cols, struct fake_table *t, const char *theme, int no_color,
	int ascii)
{
	struct scr_opts o = { .rows = rows, .cols = cols, .theme = theme, .no_color = no_color,
		.ascii = ascii };
	scr_open(&s, &o);
	snprintf(s.ui.status.profile, sizeof s.ui.status.profile, "sandbox");
	s.ui.status.health = STATUS_ONLINE;
	scr_add(&s, pane_new(&fake_table_ops, &s.ui.frame.ctx, t));
	scr_draw(&s);
}

static void golden_text(const char *name)
{
	char *text = scr_text();
	scr_golden(name, text);
	free(text);
}

static void teardown(void)
{
	scr_close(&s);
}

TestSuite(term, .fini = teardown);

Test(term, too_small_message_at_20x5)
{
	open_table(5, 20, &fake_plain_table, NULL, 0, 0);
	golden_text("too-small-20x5.txt");
	scr_keys(&s, "j ?");
	cr_assert_null(s.ui.frame.overlay, "no overlay on a tiny terminal");
	golden_text("too-small-20x5.txt");
	scr_resize(&s, 24, 80);
	char *text = scr_text();
	cr_assert_null(strstr(text, "too small"), "%s", text);
	cr_assert(strstr(text, "board-meeting"), "%s", text);
	free(text);
	scr_keys(&s, "q");
	cr_assert(s.quit);
}

Test(term, resize_leaves_no_garbage)
{
	open_table(40, 120, &fake_plain_table, NULL, 0, 0);
	scr_keys(&s, "? j");
	golden_text("resize-before-120x40.txt");
	scr_resize(&s, 15, 60);
	char *after = scr_text();
	scr_golden("resize-after-60x15.txt", after);
	scr_close(&s);

	/* the same state drawn fresh at the new size must give the same screen */
	open_table(15, 60, &fake_plain_table, NULL, 0, 0);
	scr_keys(&s, "? j");
	char *fresh = scr_text();
	cr_assert_str_eq(after, fresh);
	free(after);
	free(fresh);
}

Test(term, repeated_resizes_collapse)
{
	open_table(24, 80, &fake_plain_table, NULL, 0, 0);
	cr_assert_eq(resizeterm(30, 90), OK);
	cr_assert_eq(resizeterm(20, 70), OK);
	ungetch(KEY_RESIZE);
	ungetch(KEY_RESIZE);
	ui_key keys[8];
	int n = term_read_keys(stdscr, keys, 8);
	int resizes = 0;
	for (int i = 0; i < n; i++)
		resizes += keys[i] == (KEYS_FN | KEY_RESIZE);
	cr_assert_eq(resizes, 1);
	frame_key(&s.ui.frame, KEYS_FN | KEY_RESIZE);
	cr_assert_eq(s.ui.frame.rows, 20);
	cr_assert_eq(s.ui.frame.cols, 70);
}

Test(term, mono_theme_uses_attributes_only)
{
	open_table(12, 100, &fake_plain_table, "mono", 0, 0);
	cr_assert_eq(scr_colored_cells(), 0);
	char *attrs = scr_attrs();
	scr_golden("mono-100x12.attrs", attrs);
	free(attrs);
	golden_text("mono-100x12.txt");
}

Test(term, no_color_env_uses_attributes_only)
{
	open_table(12, 100, &fake_plain_table, NULL, 1, 0);
	cr_assert_eq(scr_colored_cells(), 0);
	char *attrs = scr_attrs();
	scr_golden("mono-100x12.attrs", attrs);
	free(attrs);
}

Test(term, default_theme_uses_colours)
{
	open_table(12, 100, &fake_plain_table, NULL, 0, 0);
	cr_assert_gt(scr_colored_cells(), 100);
}

/* Column of the first occurrence of needle in line (display columns). */
static int column_of(const char *line, const char *needle)
{
	const char *at = strstr(line, needle);
	cr_assert_not_null(at, "'%s' not in '%s'", needle, line);
	char *prefix = strndup(line, (size_t)(at - line));
	wchar_t *w = text_sanitize(prefix, 0);
	int col = text_width(w);
	free(w);
	free(prefix);
	return col;
}

Test(term, hostile_strings_drawn_clean_and_aligned)
{
	open_table(12, 100, &fake_hostile_table, NULL, 0, 0);
	char *text = scr_text();
	golden_text("hostile-100x12.txt");
	cr_assert_null(strchr(text, '\x1b'));
	cr_assert_null(strstr(text, "owned"));
	cr_assert_null(strstr(text, "\xe2\x80\xae"));
	/* every state and length value starts in the header's column */
	char *line = strtok(text, "\n");
	line = strtok(NULL, "\n");   /* header */
	int state_col = column_of(line, "State"), len_end = column_of(line, "Length") + 6;
	static const char *states[] = { "done", "done", "failed", "working", "done", "waiting" };
	static const char *lengths[] = { "0:01:00", "0:02:00", "0:03:00", "0:04:00", "0:05:00", "0:06:00" };
	for (int i = 0; i < 6; i++) {
		line = strtok(NULL, "\n");
		cr_assert_not_null(line);
		cr_assert_eq(column_of(line, states[i]), state_col, "row %d: %s", i, line);
		cr_assert_eq(column_of(line, lengths[i]) + 7, len_end, "row %d: %s", i, line);
	}
	free(text);
}

Test(term, ascii_mode_draws_plain_ascii)
{
	open_table(12, 100, &fake_hostile_table, NULL, 0, 1);
	scr_keys(&s, "?");
	char *text = scr_text();
	for (const char *p = text; *p; p++)
		cr_assert((unsigned char)*p < 0x80, "non-ASCII byte in: %s", text);
	golden_text("ascii-help-100x12.txt");
	free(text);
}

Test(term, eight_colour_terminal_gets_nearest_colours)
{
	struct scr_opts o = { .rows = 24, .cols = 80, .term = "xterm" };
	short fg, bg;
	scr_open(&s, &o);
	cr_assert_eq(COLORS, 8);
	cr_assert_eq(pair_content(style_pair(THEME_LIST_SELECTED), &fg, &bg), OK);
	cr_assert_eq(fg, COLOR_BLACK);
	cr_assert_eq(bg, COLOR_CYAN, "colour 37 falls back to cyan");
	cr_assert_eq(pair_content(style_pair(THEME_STATUS), &fg, &bg), OK);
	cr_assert_eq(bg, COLOR_BLACK, "colour 236 falls back to black");
}

Test(term, escdelay_is_short_unless_set)
{
	struct scr_opts o = { .rows = 24, .cols = 80 };
	unsetenv("ESCDELAY");
	scr_open(&s, &o);
	cr_assert_eq(get_escdelay(), 25);
	scr_close(&s);
	setenv("ESCDELAY", "300", 1);
	scr_open(&s, &o);
	cr_assert_eq(get_escdelay(), 300);
}

Test(term, ascii_mode_follows_the_locale)
{
	cr_assert_not_null(setlocale(LC_ALL, "C"));
	cr_assert_not(term_locale_is_utf8());
	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"));
	cr_assert(term_locale_is_utf8());
	struct scr_opts o = { .rows = 24, .cols = 80 };
	scr_open(&s, &o);
	cr_assert_not(s.ui.term.ascii);
	cr_assert_not(s.ui.term.mouse, "mouse capture is off by default");
}

Test(term, mouse_click_selects_and_wheel_scrolls)
{
	struct scr_opts o = { .rows = 24, .cols = 80, .mouse = 1, .theme = "mono" };
	scr_open(&s, &o);
	scr_add(&s, pane_new(&fake_table_ops, &s.ui.frame.ctx, &fake_plain_table));
	scr_draw(&s);
	MEVENT ev = { .id = 0, .x = 10, .y = 6, .bstate = BUTTON1_CLICKED };
	cr_assert_eq(ungetmouse(&ev), OK);
	scr_keys(&s, "");
	char *attrs = scr_attrs();
	/* row 6 = the 5th data row (title, header, rows from 2): reversed */
	char *line = attrs;
	for (int i = 0; i < 6; i++)
		line = strchr(line, '\n') + 1;
	cr_assert_eq(line[10], '8', "%s", attrs);
	free(attrs);
	ev.bstate = BUTTON5_PRESSED;
	cr_assert_eq(ungetmouse(&ev), OK);
	scr_keys(&s, "");
	attrs = scr_attrs();
	line = attrs;
	for (int i = 0; i < 9; i++)
		line = strchr(line, '\n') + 1;
	cr_assert_eq(line[10], '8', "wheel moves three rows: %s", attrs);
	free(attrs);
}

Test(term, monochrome_terminal_uses_attributes_only)
{
	struct scr_opts o = { .rows = 12, .cols = 100, .term = "xterm-mono" };
	scr_open(&s, &o);
	cr_assert_not(has_colors());
	scr_add(&s, pane_new(&fake_table_ops, &s.ui.frame.ctx, &fake_plain_table));
	scr_draw(&s);
	cr_assert_eq(scr_colored_cells(), 0);
	char *attrs = scr_attrs();
	scr_golden("mono-100x12.attrs", attrs);
	free(attrs);
}
