/* Remembered choices of the export and order dialogs against a sandbox: the dialog reports
 * what it was submitted with, the state keeps it (core/choices, as the app does), and the
 * dialog opened again offers it; on another server, nothing of it. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "core/choices.h"
#include "core/state.h"
#include "test_dialog_fixture.h"
#include "ui/dialog_export.h"
#include "ui/dialog_order.h"
#include "ui/dialog_translate.h"

static struct steno_state state;

/* As ui/dialogs.c: what a dialog reports goes into the state. */
static void hook_remember(void *ud, const struct choice_report *r)
{
	struct dfx *x = ud;
	struct steno_error err;
	cr_assert_eq(choices_record(&state, r, 1000, &err), 0, "%s", err.message);
	choices_recent_languages(&state, x->env.org_id, &x->env.recent_languages);
}

/* The fixture with the state of the sandbox's server behind the dialogs. */
static void open_with_state(struct dfx *x, int seed)
{
	char origin[256];
	dfx_open(x, 24, 80, seed);
	state_init(&state);
	state_set_origin(&state, state_origin(x->sb.base_url, origin, sizeof origin), x->sb.org_id);
	x->env.state = &state;
	x->env.hooks.remember = hook_remember;
}

static void close_with_state(struct dfx *x)
{
	dfx_close(x);
	state_free(&state);
}

/* The fixture with its state, a dialog of ops opened on a finished transcription of 12. */
static void open_on_done(struct dfx *x, const struct pane_ops *ops)
{
	open_with_state(x, 12);
	dfx_load(x);
	const char *id = dfx_find(x, "automatic_done");
	cr_assert_eq(dialog_env_set_ids(&x->env, &id, 1), 0);
	dfx_dialog(x, ops);
}

Test(dialog_remember, export_format_options_and_directory)
{
	struct dfx x;
	open_on_done(&x, &dialog_export_ops);
	dfx_type(&x, "docx");
	dfx_keys(&x, "<Enter> <Tab> <Tab> <Space> <Tab> <Tab> <Tab> <Tab> <Tab> <C-u>");
	dfx_type(&x, x.tmp);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "waiting", 5000), "the export was not started");
	dfx_keys(&x, "<Esc>");
	cr_assert_null(x.scr.ui.frame.overlay);
	dfx_dialog(&x, &dialog_export_ops);
	cr_assert(dfx_shows(&x, "Format           docx"), "the format is not offered again");
	cr_assert(dfx_shows(&x, "Speakers         [x]"), "the option is not offered again");
	cr_assert(dfx_shows(&x, x.tmp), "the directory is not offered again");
	dfx_keys(&x, "<Esc>");
	/* another server: its own defaults, nothing of this one */
	state_set_origin(&state, "http://127.0.0.1:1", x.sb.org_id);
	dfx_dialog(&x, &dialog_export_ops);
	cr_assert(dfx_shows(&x, "Format           txt"));
	cr_assert(dfx_shows(&x, "Speakers         [ ]"));
	cr_assert_not(dfx_shows(&x, x.tmp), "a directory of another server is offered");
	close_with_state(&x);
}

Test(dialog_remember, order_kind_language_and_service)
{
	struct dfx x;
	open_with_state(&x, 0);
	dfx_dialog(&x, &dialog_order_ops);
	dfx_keys(&x, "<Right> <Tab> <Tab>");   /* subtitles; the URL */
	dfx_type(&x, "http://127.0.0.1:9/a.wav");
	dfx_keys(&x, "<Tab>");
	dfx_type(&x, "french (france)");
	dfx_keys(&x, "<Enter> <Tab> <Right> <F2>");
	cr_assert(dfx_shows(&x, "creating"), "the order was not started");
	/* a new dialog in its place (the order goes on in the jobs) */
	dfx_dialog(&x, &dialog_order_ops);
	cr_assert(dfx_shows(&x, "(*) subtitles"), "the kind is not offered again");
	cr_assert(dfx_shows(&x, "fr-FR  French (France)"), "the language is not offered again");
	cr_assert(dfx_shows(&x, "(*) pro"), "the service is not offered again");
	close_with_state(&x);
}

/* The targets, the method and the service; the targets first among the recent languages. */
Test(dialog_remember, translate_targets_method_and_service)
{
	struct dfx x;
	open_on_done(&x, &dialog_translate_ops);
	dfx_type(&x, "es");
	dfx_keys(&x, "<Space> <BS> <BS>");
	dfx_type(&x, "it");
	dfx_keys(&x, "<Space> <Enter> <Tab> <Right> <F2>");   /* the pro service */
	cr_assert(dfx_pump(&x, dfx_cond_shows, "waiting", 5000), "the order was not made");
	dfx_dialog(&x, &dialog_translate_ops);
	cr_assert(dfx_shows(&x, "Into             it, es"), "the targets are not offered again");
	cr_assert(dfx_shows(&x, "(*) pro"), "the service is not offered again");
	dfx_keys(&x, "<Space>");
	cr_assert(dfx_shows(&x, "recent"), "no recent language first in the picker");
	dfx_golden("dialog_remember_translate_picker");
	close_with_state(&x);
}
