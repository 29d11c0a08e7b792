/* ui/actions, keys, keymap, help and the prompt's resolution. */
#include "config.h"

#include <criterion/criterion.h>
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/actions.h"
#include "ui/help.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/prompt.h"

static struct keymap km;

static void setup(void)
{
	cr_assert_eq(keymap_init(&km), 0);
}

static void teardown(void)
{
	keymap_free(&km);
}

TestSuite(keymap, .init = setup, .fini = teardown);

static void utf8_locale(void)
{
	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"));
}

TestSuite(keys, .init = utf8_locale);

Test(actions, table_is_consistent)
{
	for (int id = ACT_NONE + 1; id < ACT_COUNT; id++) {
		const struct action_info *a = action_info(id);
		cr_assert_not_null(a);
		cr_assert_eq((int)a->id, id);
		cr_assert_eq(action_by_name(a->name), a->id, "%s", a->name);
		cr_assert_neq(a->scope, 0, "%s has no scope", a->name);
		cr_assert(a->help[0] && a->section[0], "%s", a->name);
		ui_key keys[8];
		const char *bad = NULL;
		cr_assert_geq(keys_parse_list(a->keys, keys, 8, &bad), 0, "%s: bad key at '%s'", a->name, bad);
	}
	cr_assert_null(action_info(ACT_NONE));
	cr_assert_null(action_info(ACT_COUNT));
}

Test(actions, write_actions_are_flagged)
{
	/* what changes or spends on the server, each with the reason --read-only gives */
	static const enum action_id writes[] = { ACT_NEW_TRANSCRIPTION, ACT_NEW_ORDER,
		ACT_CONFIRM_ORDER, ACT_TRANSLATE, ACT_EXPORT, ACT_DELETE };
	for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
		cr_assert(action_info(writes[i])->flags & ACTION_WRITES);
		cr_assert(!action_allowed(writes[i], 1));
		cr_assert(action_allowed(writes[i], 0));
		cr_assert_not_null(action_refusal(writes[i]));
	}
	/* a download of a ready export is a local write: allowed, with what it still does */
	cr_assert(action_info(ACT_DOWNLOAD)->flags & ACTION_LOCAL);
	cr_assert(action_allowed(ACT_DOWNLOAD, 1));
	cr_assert_not_null(action_refusal(ACT_DOWNLOAD));
	cr_assert(action_allowed(ACT_MOVE_DOWN, 1));
	cr_assert(action_allowed(ACT_PREVIEW, 1));
	cr_assert_null(action_refusal(ACT_PREVIEW));
}

Test(actions, sections_follow_the_def_file)
{
	cr_assert_str_eq(action_info(ACT_MOVE_DOWN)->section, "Moving");
	cr_assert_str_eq(action_info(ACT_QUIT)->section, "Panes");
	cr_assert_str_eq(action_info(ACT_DELETE)->section, "Changes");
	cr_assert_str_eq(action_info(ACT_CANCEL)->section, "Dialogs");
}

Test(actions, prompt_resolves_names_and_prefixes)
{
	size_t n;
	char msg[160];
	cr_assert_eq(action_resolve("quit", &n), ACT_QUIT);
	cr_assert_eq(action_resolve("qu", &n), ACT_QUIT);
	cr_assert_eq(action_resolve("move", &n), -1);
	cr_assert_eq(n, 4);
	cr_assert_eq(action_resolve("nope", &n), ACT_NONE);
	cr_assert_eq(prompt_resolve("tog", msg, sizeof msg), ACT_TOGGLE_LOG);
	cr_assert_eq(prompt_resolve("xyz", msg, sizeof msg), ACT_NONE);
	cr_assert_str_eq(msg, "no action 'xyz'");
	cr_assert_eq(prompt_resolve("mark", msg, sizeof msg), ACT_MARK);  /* exact wins over mark-all */
	cr_assert_eq(prompt_resolve("page-", msg, sizeof msg), ACT_NONE);
	cr_assert_str_eq(msg, "2 match: page-down page-up");
}

Test(actions, completion_gives_common_prefix)
{
	char buf[64];
	cr_assert_eq(action_complete("mo", buf, sizeof buf), 4);
	cr_assert_str_eq(buf, "move-");
	cr_assert_eq(action_complete("for", buf, sizeof buf), 1);
	cr_assert_str_eq(buf, "force-refresh");
	cr_assert_eq(action_complete("zz", buf, sizeof buf), 0);
	cr_assert_str_eq(buf, "");
}

Test(keys, names_parse_and_print_round_trip)
{
	static const char *names[] = { "j", "G", "<Down>", "<C-d>", "<PgDn>", "<PgUp>", "<Enter>",
		"<Esc>", "<Tab>", "<S-Tab>", "<F1>", "<F12>", "<Space>", "<lt>", "<BS>", "<Del>",
		"<Home>", "<End>", "?", "/", ":", "é", "<C-l>" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char buf[32];
		ui_key k = keys_parse(names[i]);
		cr_assert_neq(k, KEYS_NONE, "%s", names[i]);
		cr_assert_str_eq(keys_name(k, buf, sizeof buf), names[i]);
	}
}

Test(keys, values_and_aliases)
{
	cr_assert_eq(keys_parse("<C-d>"), 4);
	cr_assert_eq(keys_parse("<c-D>"), 4);
	cr_assert_eq(keys_parse("<enter>"), '\n');
	cr_assert_eq(keys_parse("<Return>"), '\n');
	cr_assert_eq(keys_parse("<PageDown>"), KEYS_FN | KEY_NPAGE);
	cr_assert_eq(keys_parse("<Down>"), KEYS_FN | KEY_DOWN);
	cr_assert_eq(keys_parse("<F5>"), KEYS_FN | KEY_F(5));
	cr_assert_eq(keys_parse("<"), '<');
	cr_assert_eq(keys_parse("<Nope>"), KEYS_NONE);
	cr_assert_eq(keys_parse("jj"), KEYS_NONE);
	cr_assert_eq(keys_parse(""), KEYS_NONE);
	cr_assert_eq(keys_parse("<F99>"), KEYS_NONE);
	cr_assert_eq(keys_parse("\x1b"), KEYS_NONE);
}

Test(keys, wget_wch_results_normalized)
{
	cr_assert_eq(keys_from_wch(OK, '\r'), '\n');
	cr_assert_eq(keys_from_wch(KEY_CODE_YES, KEY_ENTER), '\n');
	cr_assert_eq(keys_from_wch(OK, 127), KEYS_FN | KEY_BACKSPACE);
	cr_assert_eq(keys_from_wch(KEY_CODE_YES, KEY_DOWN), KEYS_FN | KEY_DOWN);
	cr_assert_eq(keys_from_wch(OK, L'é'), L'é');
}

Test(keymap, defaults_have_no_conflicts)
{
	struct ui_diag d;
	ui_diag_clear(&d);
	cr_assert_eq(keymap_conflicts(&km, &d), 0, "%s", d.msg[0]);
}

Test(keymap, lookup_by_context)
{
	unsigned tr = SCOPE_TRANSCRIPTIONS | SCOPE_GLOBAL, pv = SCOPE_PREVIEW | SCOPE_GLOBAL;
	cr_assert_eq(keymap_lookup(&km, 'j', tr), ACT_MOVE_DOWN);
	cr_assert_eq(keymap_lookup(&km, KEYS_FN | KEY_DOWN, tr), ACT_MOVE_DOWN);
	cr_assert_eq(keymap_lookup(&km, '/', tr), ACT_FILTER);
	cr_assert_eq(keymap_lookup(&km, '/', pv), ACT_SEARCH);
	cr_assert_eq(keymap_lookup(&km, 'q', tr), ACT_QUIT);
	cr_assert_eq(keymap_lookup(&km, '\t', tr), ACT_NEXT_PANE);
	cr_assert_eq(keymap_lookup(&km, '\t', SCOPE_DIALOG), ACT_FIELD_NEXT);
	cr_assert_eq(keymap_lookup(&km, 'q', SCOPE_DIALOG), ACT_NONE);
	cr_assert_eq(keymap_lookup(&km, 'D', tr), ACT_DELETE);
	cr_assert_eq(keymap_lookup(&km, 'D', SCOPE_ORGS | SCOPE_GLOBAL), ACT_NONE);
}

/* A key that does nothing in a pane: where its action works, or that it is bound nowhere;
 * nothing when the pane has it (the pane's own business). */
Test(keymap, explain_a_key_that_does_nothing_here)
{
	char why[128] = "";
	unsigned orgs = SCOPE_ORGS | SCOPE_GLOBAL, list = SCOPE_TRANSCRIPTIONS | SCOPE_GLOBAL;
	cr_assert_eq(keymap_explain(&km, 'p', orgs, why, sizeof why), 1);
	cr_assert_str_eq(why, "preview works on a transcription: select one in the list");
	cr_assert_eq(keymap_explain(&km, 'c', list, why, sizeof why), 1);
	cr_assert_str_eq(why, "confirm-order works in the activity pane (orders, exports, tasks)");
	cr_assert_eq(keymap_explain(&km, 'z', list, why, sizeof why), 1);
	cr_assert_str_eq(why, "z does nothing here (? lists the keys)");
	snprintf(why, sizeof why, "untouched");
	cr_assert_eq(keymap_explain(&km, 'p', list, why, sizeof why), 0);
	cr_assert_eq(keymap_explain(&km, 'q', orgs, why, sizeof why), 0);
	cr_assert_str_eq(why, "untouched");
	/* it follows the bindings: w bound to preview in the organizations pane */
	struct ui_diag d;
	ui_diag_clear(&d);
	cr_assert_eq(keymap_explain(&km, 'w', list, why, sizeof why), 1);
	cr_assert_str_eq(why, "w does nothing here (? lists the keys)");
	cr_assert_eq(keymap_apply_line(&km, "bind organizations w preview", "t", 1, &d), 0);
	cr_assert_eq(keymap_explain(&km, 'w', list, why, sizeof why), 1);
	cr_assert_str_eq(why, "preview works in the organizations pane");
}

/* From the details pane a transcription is shown, so "select one" would mislead: an action of
 * the list alone says it works in the list. */
Test(keymap, explain_a_list_only_key_from_the_details_pane)
{
	char why[128] = "";
	unsigned details = SCOPE_DETAILS | SCOPE_GLOBAL, orgs = SCOPE_ORGS | SCOPE_GLOBAL;
	cr_assert_eq(keymap_explain(&km, 't', details, why, sizeof why), 1);
	cr_assert_str_eq(why, "tag-filter works in the transcriptions list");
	cr_assert_eq(keymap_explain(&km, 'M', orgs, why, sizeof why), 1);
	cr_assert_str_eq(why, "mark-all works in the transcriptions list");
	cr_assert_eq(keymap_explain(&km, 'p', orgs, why, sizeof why), 1);
	cr_assert_str_eq(why, "preview works on a transcription: select one in the list");
}

Test(keymap, bind_lines_remap)
{
	struct ui_diag d;
	ui_diag_clear(&d);
	cr_assert_eq(keymap_apply_text(&km,
		"# my keys\n"
		"bind <C-j> move-down\n"
		"bind list x move-up\n"
		"unbind q\n"
		"bind transcriptions j none\n"
		"\n", "steno.conf", &d), 0, "%s", d.msg[0]);
	unsigned tr = SCOPE_TRANSCRIPTIONS | SCOPE_GLOBAL;
	cr_assert_eq(keymap_lookup(&km, 10, tr), ACT_MOVE_DOWN);   /* <C-j> is <Enter>: list beats nothing */
	cr_assert_eq(keymap_lookup(&km, 'x', tr), ACT_MOVE_UP);
	cr_assert_eq(keymap_lookup(&km, 'x', SCOPE_ACTIVITY | SCOPE_GLOBAL), ACT_CANCEL_JOB);
	cr_assert_eq(keymap_lookup(&km, 'q', tr), ACT_NONE);
	cr_assert_eq(keymap_lookup(&km, 'j', tr), ACT_NONE);
	cr_assert_eq(keymap_lookup(&km, 'j', SCOPE_ORGS | SCOPE_GLOBAL), ACT_MOVE_DOWN);
}

Test(keymap, bad_lines_reported_with_file_and_line)
{
	struct ui_diag d;
	ui_diag_clear(&d);
	cr_assert_eq(keymap_apply_text(&km,
		"bind j\n"
		"bind <Nope> quit\n"
		"bind j fly\n"
		"bind galaxy j quit\n"
		"frobnicate\n", "keys.conf", &d), 5);
	cr_assert_eq(d.count, 5);
	cr_assert_str_eq(d.msg[0], "keys.conf:1: usage: bind [SCOPE] KEY ACTION");
	cr_assert_str_eq(d.msg[1], "keys.conf:2: unknown key '<Nope>'");
	cr_assert_str_eq(d.msg[2], "keys.conf:3: unknown action 'fly'");
	cr_assert_str_eq(d.msg[3], "keys.conf:4: unknown scope 'galaxy'");
	cr_assert_str_eq(d.msg[4], "keys.conf:5: unknown command 'frobnicate'");
	cr_assert_eq(keymap_lookup(&km, 'j', SCOPE_ORGS), ACT_MOVE_DOWN);
}

Test(keymap, shadowing_and_conflicts_reported)
{
	struct ui_diag d;
	ui_diag_clear(&d);
	/* quit is global: list's j still wins in list panes */
	cr_assert_eq(keymap_apply_line(&km, "bind j quit", "c", 7, &d), 0);
	cr_assert_eq(d.count, 1);
	cr_assert_str_eq(d.msg[0], "c:7: j stays bound to move-down in scope list (more specific)");
	ui_diag_clear(&d);
	cr_assert_eq(keymap_apply_line(&km, "bind preview j search-next", "c", 8, &d), 0);
	cr_assert_eq(d.count, 0);
	cr_assert_eq(keymap_lookup(&km, 'j', SCOPE_PREVIEW), ACT_SEARCH_NEXT);
	ui_diag_clear(&d);
	cr_assert_eq(keymap_apply_line(&km, "bind activity p search-next", "c", 9, &d), 0);
	cr_assert_str_eq(d.msg[0], "c:9: search-next does not apply in scope activity");
	ui_diag_clear(&d);
	/* two bindings of one key, same precedence, overlapping scopes */
	cr_assert_eq(keymap_bind(&km, SCOPE_ITEM, 'z', ACT_EXPORT, "c", 10, &d), 0);
	cr_assert_eq(keymap_bind(&km, SCOPE_TRANSCRIPTIONS | SCOPE_ORGS, 'z', ACT_PREVIEW, "c", 11, &d), 0);
	cr_assert_eq(d.count, 1);
	cr_assert_str_eq(d.msg[0], "c:11: z conflicts with export in scope item");
	cr_assert_eq(keymap_conflicts(&km, NULL), 1);
}

Test(keymap, help_lists_every_action_and_greys_writes)
{
	size_t n, actions = 0;
	struct help_line *lines = help_build(&km, 1, &n);
	char buf[256];
	cr_assert_not_null(lines);
	for (size_t i = 0; i < n; i++) {
		if (lines[i].kind != HELP_ACTION)
			continue;
		actions++;
		enum action_id id = action_by_name(lines[i].name);
		cr_assert_eq(lines[i].inactive, !!(action_info(id)->flags & ACTION_WRITES), "%s", lines[i].name);
	}
	cr_assert_eq(actions, ACT_COUNT - 1);
	/* read-only first says what it means, then the sections */
	cr_assert_eq(lines[0].kind, HELP_SECTION);
	cr_assert_str_eq(help_format_line(&lines[0], 14, 12, buf, sizeof buf), ACTION_READ_ONLY_RULE);
	cr_assert_str_eq(help_format_line(&lines[1], 14, 12, buf, sizeof buf), ACTION_READ_ONLY_ALLOWED);
	cr_assert_eq(lines[2].kind, HELP_BLANK);
	cr_assert_str_eq(help_format_line(&lines[3], 14, 12, buf, sizeof buf), "Moving");
	cr_assert_str_eq(help_format_line(&lines[4], 14, 12, buf, sizeof buf),
		"  j <Down> <C-n>  move-down     Move the cursor down one line");
	for (size_t i = 0; i < n; i++)
		if (lines[i].kind == HELP_ACTION && !strcmp(lines[i].name, "delete"))
			cr_assert_str_eq(help_format_line(&lines[i], 8, 8, buf, sizeof buf),
				"  D <Del>   delete    Delete (to trash or permanently) (read-only: it deletes on the server)");
	free(lines);
	/* without read-only: no rule, no reasons */
	lines = help_build(&km, 0, &n);
	cr_assert_not_null(lines);
	cr_assert_str_eq(help_format_line(&lines[0], 14, 12, buf, sizeof buf), "Moving");
	for (size_t i = 0; i < n; i++)
		cr_assert_null(lines[i].why);
	free(lines);
}

Test(keymap, help_ends_with_the_filter_and_sort_notes)
{
	size_t n;
	char buf[256];
	struct help_line *lines = help_build(&km, 0, &n);
	cr_assert_not_null(lines);
	size_t first = n;
	for (size_t i = 0; i < n && first == n; i++)
		if (lines[i].notes)
			first = i;
	cr_assert_lt(first, n);
	for (size_t i = first; i < n; i++)
		cr_assert(lines[i].notes && lines[i].kind != HELP_ACTION);
	cr_assert_str_eq(help_format_line(&lines[first + 1], 8, 8, buf, sizeof buf),
			 "Filter and sort of the transcriptions");
	bool query = false, picker = false;
	for (size_t i = first; i < n; i++) {
		help_format_line(&lines[i], 8, 8, buf, sizeof buf);
		query = query || (strstr(buf, "state:failed") && strstr(buf, "lang:fr"));
		picker = picker || strstr(buf, "the current one again reverses it");
	}
	cr_assert(query && picker);
	free(lines);
	/* the key table (steno keys, the man page) leaves them out */
	char *text = NULL;
	size_t tlen = 0;
	FILE *t = open_memstream(&text, &tlen);
	cr_assert_eq(help_write(t, &km, HELP_OUT_TEXT), 0);
	fclose(t);
	cr_assert_null(strstr(text, "state:failed"));
	cr_assert(strstr(text, "load-all"));
	free(text);
}

Test(keymap, help_follows_remapping)
{
	size_t n;
	keymap_apply_line(&km, "unbind <F1>", "c", 1, NULL);
	keymap_apply_line(&km, "bind <F2> help", "c", 2, NULL);
	struct help_line *lines = help_build(&km, 0, &n);
	cr_assert_not_null(lines);
	for (size_t i = 0; i < n; i++)
		if (lines[i].kind == HELP_ACTION && !strcmp(lines[i].name, "help"))
			cr_assert_str_eq(lines[i].keys, "? <F2>");
	free(lines);
}

Test(keymap, key_table_for_docs)
{
	char *text = NULL, *roff = NULL;
	size_t tlen = 0, rlen = 0;
	FILE *t = open_memstream(&text, &tlen), *r = open_memstream(&roff, &rlen);
	cr_assert(t && r);
	cr_assert_eq(help_write(t, &km, HELP_OUT_TEXT), 0);
	cr_assert_eq(help_write(r, &km, HELP_OUT_ROFF), 0);
	fclose(t);
	fclose(r);
	cr_assert(strstr(text, "\n  j <Down> <C-n>        move-down             Move the cursor down one line\n"), "%s", text);
	cr_assert(strstr(roff, ".SS Moving\n.TP\n.B j <Down> <C\\-n>\nmove\\-down: Move the cursor down one line\n"), "%s", roff);
	cr_assert(strstr(roff, "delete: Delete (to trash or permanently) (refused with \\-\\-read\\-only: it deletes on the server)\n"), "%s", roff);
	free(text);
	free(roff);
}
