/* The loop on real terminal input: bytes written to a pipe go through ncurses' key
 * parsing (escape sequences, ESCDELAY) into the frame. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_panes.h"
#include "harness.h"
#include "ui/loop.h"

static struct scr s;
static int fds[2];

static void open_piped(void)
{
	cr_assert_eq(pipe(fds), 0);
	FILE *in = fdopen(fds[0], "r");
	cr_assert_not_null(in);
	struct scr_opts o = { .rows = 24, .cols = 80, .theme = "mono", .in = in };
	scr_open(&s, &o);
	scr_add(&s, pane_new(&fake_table_ops, &s.ui.frame.ctx, &fake_plain_table));
}

static void teardown(void)
{
	scr_close(&s);
	if (fds[1] >= 0)
		close(fds[1]);
}

static void type(const char *bytes)
{
	cr_assert_eq(write(fds[1], bytes, strlen(bytes)), (ssize_t)strlen(bytes));
}

static void on_result(void *ctx, unsigned r)
{
	(*(unsigned *)ctx) |= r;
}

TestSuite(loop, .fini = teardown);

Test(loop, keys_from_the_terminal_until_quit)
{
	unsigned seen = 0;
	open_piped();
	/* j, cursor down in keypad mode (ESC O B), help, close it, quit */
	type("j\x1bOB?qq");
	struct ui_loop l = { .frame = &s.ui.frame, .in_fd = fds[0], .timeout_ms = 5000,
		.on_result = on_result, .result_ctx = &seen };
	cr_assert_eq(ui_loop_run(&l), 0, "q quits");
	cr_assert(seen & PANE_QUIT);
	cr_assert_null(s.ui.frame.overlay);
	char *attrs = scr_attrs(), *line = attrs;
	for (int i = 0; i < 4; i++)
		line = strchr(line, '\n') + 1;
	cr_assert_eq(line[5], '8', "the third row is selected:\n%s", attrs);
	free(attrs);
}

Test(loop, end_of_input_ends_the_loop)
{
	open_piped();
	type("j");
	close(fds[1]);
	fds[1] = -1;
	struct ui_loop l = { .frame = &s.ui.frame, .in_fd = fds[0], .timeout_ms = 5000 };
	cr_assert_eq(ui_loop_run(&l), 1);
}

Test(loop, session_runs_with_config_bindings_and_reports_bad_ones)
{
	cr_assert_eq(pipe(fds), 0);
	FILE *in = fdopen(fds[0], "r");
	cr_assert_not_null(in);
	struct scr_opts o = { .rows = 24, .cols = 80, .in = in,
		.key_lines = "bind z quit\nbind j fly\nunbind q\n" };
	scr_open(&s, &o);
	scr_add(&s, pane_new(&fake_table_ops, &s.ui.frame.ctx, &fake_plain_table));
	cr_assert_eq(s.ui.diag.count, 1);
	cr_assert_str_eq(s.ui.diag.msg[0], "test.conf:2: unknown action 'fly'");
	scr_draw(&s);
	char *text = scr_text();
	cr_assert(strstr(text, "test.conf:2: unknown action 'fly'"), "shown in the status bar:\n%s", text);
	free(text);
	type("qz");   /* q is unbound now (its refusal is newer than that error); z quits */
	cr_assert_eq(ui_session_run(&s.ui, NULL, NULL, 5000), 0);
	text = scr_text();
	cr_assert(strstr(text, "q does nothing here") && !strstr(text, "unknown action"),
		  "the refusal replaces the older error:\n%s", text);
	free(text);
}
