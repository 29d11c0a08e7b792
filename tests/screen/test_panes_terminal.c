/* Screen tests of the TUI's terminal care against a sandbox: resize, a tiny terminal,
 * the mono theme, hostile strings from the seed, the log pane, read-only mode. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(terminal, .fini = teardown);

Test(terminal, resize_relays_out_without_garbage)
{
	struct pf_opts o = { .rows = 40, .cols = 160, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_golden(&f, "panes-wide-160x40.txt");
	pf_resize(&f, 24, 80);
	pf_golden(&f, "panes-narrow-80x24.txt");
}

Test(terminal, tiny_terminal_says_it_is_too_small)
{
	struct pf_opts o = { .rows = 24, .cols = 80, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_resize(&f, 5, 20);
	pf_golden(&f, "panes-tiny-20x5.txt");
	pf_resize(&f, 24, 80);
	pf_expect(&f, "Transcriptions 30+");
}

Test(terminal, mono_theme_uses_attributes_only)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo30, .theme = "mono",
		.no_color = 1 };
	pf_open(&f, &o);
	cr_assert_eq(scr_colored_cells(), 0);
	char *a = scr_attrs();
	scr_golden("panes-mono-100x24.attrs", a);
	free(a);
}

Test(terminal, hostile_names_are_sanitized_and_aligned)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_keys(&f, "G / e s c a p e <Enter>");
	pf_expect(&f, "Red alert escape test");
	pf_reject(&f, "[31m");
	pf_reject(&f, "\x1b");
	pf_keys(&f, "\\ / 会 議 <Enter>");
	pf_golden(&f, "panes-cjk-140x30.txt");
}

Test(terminal, log_pane_shows_this_runs_requests)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_keys(&f, "L");
	pf_expect(&f, "Log (this run's requests)");
	pf_expect(&f, "/api/v1/transcriptions?");
	pf_expect(&f, " 200 ");
	char *t = pf_text(&f);
	cr_assert_null(strstr(t, f.sbx.api_key), "the key is never shown");
	free(t);
	pf_keys(&f, "L");
	pf_reject(&f, "Log (this run's requests)");
}

/* A dialog's requests (made through core/jobs_extra, here a delete to the trash) are in the
 * log too, not only the panes' own. */
Test(terminal, log_pane_shows_the_dialogs_requests)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_keys(&f, "D <Tab> <Tab> <Enter>");   /* from Cancel over "How" to Delete */
	pf_keys(&f, "<Esc> L");
	pf_expect(&f, "Log (this run's requests)");
	pf_expect(&f, "DELETE ");
	char *t = pf_text(&f);
	cr_assert_null(strstr(t, f.sbx.api_key), "the key is never shown");
	free(t);
}

Test(terminal, read_only_refuses_writes)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo30, .read_only = 1 };
	pf_open(&f, &o);
	pf_keys(&f, "a");
	pf_expect(&f, "read-only: new-transcription is refused: it spends credit");
}

Test(terminal, quit_key_ends_the_loop)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_keys(&f, "q");
	cr_assert(f.quit);
}

Test(terminal, help_overlay_and_prompt_run_actions)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_keys(&f, "?");
	pf_expect(&f, "Move the cursor down one line");
	pf_keys(&f, "q");
	cr_assert_not(f.quit);
	pf_reject(&f, "Move the cursor down one line");
	pf_keys(&f, ": s o r t <Enter>");
	pf_expect(&f, "Sort the transcriptions");   /* the sort picker */
	pf_keys(&f, "<Down> <Enter>");
	pf_expect(&f, "sort:name");
	pf_keys(&f, ": t o g g l e - l <Enter>");
	pf_expect(&f, "Log (this run's requests)");
}

Test(terminal, remapped_keys_from_the_config)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30,
		.key_lines = "bind x move-down\nunbind j\n" };
	pf_open(&f, &o);
	pf_keys(&f, "j");
	pf_reject(&f, "Name        Vorlesung");
	pf_keys(&f, "x");
	pf_expect(&f, "Name        Vorlesung");
}

/* The first line of the screen (the pane titles, or a dialog's border when it covers them). */
static void expect_first_line(const char *needle, bool present)
{
	char *t = pf_text(&f);
	char *nl = strchr(t, '\n');
	if (nl)
		*nl = '\0';
	cr_assert(present == (strstr(t, needle) != NULL), "first line: %s", t);
	free(t);
}

Test(terminal, dialogs_fit_their_content_centred_through_resizes)
{
	struct pf_opts o = { .rows = 40, .cols = 120 };   /* no data: nothing run-dependent */
	pf_open(&f, &o);
	pf_expect(&f, "No transcriptions here yet.");
	pf_keys(&f, "a");
	pf_expect(&f, "New transcription");
	expect_first_line("Organizations", true);   /* the panes above it stay in sight */
	pf_golden(&f, "dialog-fit-120x40.txt");
	pf_resize(&f, 16, 60);   /* smaller than the form: as tall as the screen allows */
	pf_expect(&f, "New transcription");
	expect_first_line("Organizations", false);
	pf_golden(&f, "dialog-fit-60x16.txt");
	pf_resize(&f, 5, 20);
	pf_expect(&f, "terminal too small");
	pf_resize(&f, 40, 120);
	pf_expect(&f, "New transcription");
	pf_golden(&f, "dialog-fit-120x40.txt");
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "New transcription");
}

/* TERM=dumb cannot move the cursor: the browser would show only its status line. It says
 * so and does not start. */
Test(terminal, a_terminal_that_cannot_move_the_cursor_says_so)
{
	FILE *in = fopen("/dev/null", "r"), *out = fopen("/dev/null", "w");
	char home[64] = "/tmp/steno-dumb-XXXXXX", cmd[128];
	cr_assert(in && out && mkdtemp(home));
	/* nothing of this run in the user's own state or cache */
	setenv("XDG_STATE_HOME", home, 1);
	setenv("XDG_CACHE_HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	struct ui_options uo = { .base_url = "http://127.0.0.1:9", .api_key = "k", .org_id = "1",
		.term = "dumb", .in = in, .out = out };
	char msg[640] = "";
	struct app *app = app_new(&uo, msg, sizeof msg);
	cr_assert_null(app, "the browser started on TERM=dumb");
	cr_assert(strstr(msg, "TERM=dumb") && strstr(msg, "cannot move its cursor"), "%s", msg);
	fclose(in);
	fclose(out);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
	cr_assert_eq(system(cmd), 0);
}
