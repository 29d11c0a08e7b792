/* Screen tests of the frame: help overlay, prompt, status bar, read-only refusal. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fake_panes.h"
#include "harness.h"

static struct scr s;

static void browse_screen(int rows, int cols, int read_only, const char *theme)
{
	struct scr_opts o = { .rows = rows, .cols = cols, .read_only = read_only, .theme = theme };
	scr_open(&s, &o);
	snprintf(s.ui.status.profile, sizeof s.ui.status.profile, "work");
	snprintf(s.ui.status.org, sizeof s.ui.status.org, "acme");
	snprintf(s.ui.status.folder, sizeof s.ui.status.folder, "media");
	s.ui.status.health = STATUS_ONLINE;
	scr_add(&s, pane_new(&fake_orgs_ops, &s.ui.frame.ctx, NULL));
	struct pane *t = pane_new(&fake_table_ops, &s.ui.frame.ctx, &fake_plain_table);
	cr_assert_not_null(t);
	t->weight = 3;
	scr_add(&s, t);
	scr_add(&s, pane_new(&fake_log_ops, &s.ui.frame.ctx, NULL));
	scr_keys(&s, "<Tab>");   /* focus the transcriptions */
}

static void golden_text(const char *name)
{
	char *text = scr_text();
	scr_golden(name, text);
	free(text);
}

static void golden_attrs(const char *name)
{
	char *text = scr_attrs();
	scr_golden(name, text);
	free(text);
}

static void teardown(void)
{
	scr_close(&s);
}

TestSuite(frame, .fini = teardown);

Test(frame, browse_layout_and_navigation)
{
	browse_screen(24, 100, 0, NULL);
	golden_text("browse-100x24.txt");
	scr_keys(&s, "j j <Down> <Space>");
	golden_text("browse-moved-100x24.txt");
	scr_keys(&s, "G");
	char *text = scr_text();
	cr_assert(strstr(text, "voicemail-88"), "%s", text);
	free(text);
}

Test(frame, help_overlay_from_the_actions_table)
{
	browse_screen(24, 80, 0, NULL);
	scr_keys(&s, "?");
	golden_text("help-80x24.txt");
	scr_keys(&s, "<C-d>");
	golden_text("help-scrolled-80x24.txt");
	scr_keys(&s, "q");
	cr_assert_not(s.quit, "q closes the help, it does not quit");
	cr_assert_null(s.ui.frame.overlay);
	golden_text("browse-80x24.txt");
	scr_keys(&s, "q");
	cr_assert(s.quit);
}

Test(frame, help_greys_write_actions_in_read_only_mode)
{
	browse_screen(40, 90, 1, "mono");
	scr_keys(&s, "? G");
	golden_text("help-read-only-90x40.txt");
	golden_attrs("help-read-only-90x40.attrs");
}

Test(frame, read_only_refuses_write_actions)
{
	browse_screen(24, 80, 1, NULL);
	scr_keys(&s, "D");
	cr_assert_str_eq(s.ui.status.notice, "read-only: delete is refused: it deletes on the server");
	golden_text("refused-80x24.txt");
}

Test(frame, status_bar_shows_state_and_sanitized_errors)
{
	browse_screen(24, 80, 0, NULL);
	s.ui.status.in_flight = 3;
	s.ui.status.rate_wait_s = 11.2;
	snprintf(s.ui.status.error, sizeof s.ui.status.error,
		"HTTP 500: \x1b[5mserver\x1b]0;pwn\x07 exploded\xe2\x80\xae\r\nretry later");
	pane_dirty(s.ui.status_pane);
	scr_draw(&s);
	golden_text("status-80x24.txt");
	s.ui.status.error[0] = '\0';
	s.ui.status.health = STATUS_OFFLINE;
	snprintf(s.ui.status.notice, sizeof s.ui.status.notice, "export exp_42 finished");
	pane_dirty(s.ui.status_pane);
	scr_draw(&s);
	char *text = scr_text();
	cr_assert(strstr(text, "offline  3 req  rate-limited 12s"), "%s", text);
	cr_assert(strstr(text, "export exp_42 finished"), "%s", text);
	free(text);
}

Test(frame, prompt_runs_actions_by_name)
{
	browse_screen(24, 80, 0, NULL);
	scr_keys(&s, ": t o g");
	golden_text("prompt-typing-80x24.txt");
	scr_keys(&s, "<Tab>");
	char *text = scr_text();
	cr_assert(strstr(text, ":toggle-log"), "%s", text);
	free(text);
	scr_keys(&s, "<Enter>");
	cr_assert_null(s.ui.frame.overlay);
	golden_text("log-shown-80x24.txt");
	scr_keys(&s, ": m o v e <Enter>");
	text = scr_text();
	cr_assert(strstr(text, "4 match: move-down move-up move-top move-bottom"), "%s", text);
	free(text);
	scr_keys(&s, "<Esc> L");
	golden_text("browse-80x24.txt");
}

/* The last screen line (the prompt's), trailing spaces cut. */
static char *last_line(void)
{
	char *text = scr_text();
	size_t len = strlen(text);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	char *nl = strrchr(text, '\n');
	char *line = strdup(nl ? nl + 1 : text);
	free(text);
	return line;
}

static void expect_prompt(const char *want)
{
	char *line = last_line();
	cr_expect_eq(strncmp(line, want, strlen(want)), 0, "prompt line '%s', want '%s'", line, want);
	cr_expect(line[strlen(want)] == '\0' || line[strlen(want)] == ' ', "'%s'", line);
	free(line);
}

Test(frame, prompt_takes_readline_keys_and_history)
{
	browse_screen(24, 80, 0, NULL);
	scr_keys(&s, ": t o g g l e <C-a> x");
	expect_prompt(":xtoggle");
	scr_keys(&s, "<C-e> y <Left> <Left> z");
	expect_prompt(":xtogglzey");
	scr_keys(&s, "<C-u>");
	expect_prompt(":ey");
	scr_keys(&s, "<C-k> t o g g l e - l o g x <BS> <C-w>");
	expect_prompt(":");
	scr_keys(&s, "t o g g l e - l o g <Enter>");
	cr_assert_null(s.ui.frame.overlay, "the action ran");
	scr_keys(&s, ": m o <Up>");
	expect_prompt(":toggle-log");
	scr_keys(&s, "<Down>");
	expect_prompt(":mo");
	scr_keys(&s, "<Up> <Enter>");
	cr_assert_null(s.ui.frame.overlay);
	char *text = scr_text();
	cr_assert_null(strstr(text, "Log"), "toggled twice: the log is hidden again\n%s", text);
	free(text);
	scr_keys(&s, ": <Up> <Up> <Up>");
	expect_prompt(":toggle-log");   /* one entry: the same line twice is kept once */
	scr_keys(&s, "<Esc>");
}

Test(frame, focus_moves_between_panes)
{
	browse_screen(24, 80, 0, NULL);
	cr_assert_eq(frame_focused(&s.ui.frame)->ops, &fake_table_ops);
	scr_keys(&s, "<Tab>");
	cr_assert_eq(frame_focused(&s.ui.frame)->ops, &fake_orgs_ops, "the hidden log is skipped");
	scr_keys(&s, "<S-Tab>");
	cr_assert_eq(frame_focused(&s.ui.frame)->ops, &fake_table_ops);
	scr_keys(&s, "L <Tab>");
	cr_assert_eq(frame_focused(&s.ui.frame)->ops, &fake_log_ops);
	scr_keys(&s, "1");
	cr_assert_eq(frame_focused(&s.ui.frame)->ops, &fake_orgs_ops);
}

/* ---- side panes that say how wide they need to be (pane_ops.max_cols) ---- */

static int orgs_need = 12;

static int fake_orgs_max_cols(const struct pane *p)
{
	(void)p;
	return orgs_need;
}

/* The cell column where `needle` starts on row y of the screen, -1 if absent. */
static int screen_col(int y, const char *needle)
{
	char *text = scr_text(), *line = text;
	for (int i = 0; i < y && line; i++) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	cr_assert_not_null(line);
	int col = scr_cell_col(line, needle);
	free(text);
	return col;
}

static void capped_screen(int rows, int cols)
{
	static struct pane_ops capped;
	capped = fake_orgs_ops;
	capped.max_cols = fake_orgs_max_cols;
	struct scr_opts o = { .rows = rows, .cols = cols };
	scr_open(&s, &o);
	scr_add(&s, pane_new(&capped, &s.ui.frame.ctx, NULL));
	struct pane *t = pane_new(&fake_table_ops, &s.ui.frame.ctx, &fake_plain_table);
	cr_assert_not_null(t);
	t->weight = 3;
	scr_add(&s, t);
	scr_keys(&s, "");
}

Test(frame, a_side_pane_takes_no_more_than_it_needs_and_the_rest_goes_to_the_list)
{
	orgs_need = 12;
	capped_screen(24, 100);
	/* a quarter would be 25 columns: it needs 12, the list starts right after */
	cr_assert_eq(screen_col(0, "Transcriptions"), 12 + 1);
	/* the content grows (a longer name arrived): the pane follows before its next draw */
	orgs_need = 20;
	frame_dirty_scope(&s.ui.frame, SCOPE_ORGS);
	scr_draw(&s);
	cr_assert_eq(screen_col(0, "Transcriptions"), 20 + 1);
	/* wider than its share: the share, as without a max (today's proportions) */
	orgs_need = 40;
	frame_dirty_scope(&s.ui.frame, SCOPE_ORGS);
	scr_draw(&s);
	cr_assert_eq(screen_col(0, "Transcriptions"), 25 + 1);
	/* a resize keeps both rules */
	scr_resize(&s, 24, 60);
	cr_assert_eq(screen_col(0, "Transcriptions"), 15 + 1);
	orgs_need = 12;
	frame_dirty_scope(&s.ui.frame, SCOPE_ORGS);
	scr_resize(&s, 24, 160);
	cr_assert_eq(screen_col(0, "Transcriptions"), 12 + 1);
}
