/* The form widget as pure logic: editing, cursor, wide characters, navigation, pickers,
 * the file browser, errors next to fields; and the OSC 52 sequence. */
#include "config.h"

#include <criterion/criterion.h>
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/clipboard.h"
#include "ui/form.h"
#include "ui/line_input.h"

static void utf8_locale(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "en_US.UTF-8");
}

TestSuite(form, .init = utf8_locale);

static void type(struct form *f, const char *ascii)
{
	for (const char *p = ascii; *p; p++)
		form_key(f, ACT_NONE, (unsigned char)*p);
}

static const char *text_of(struct form *f, const char *key)
{
	static char buf[512];
	return form_text(f, key, buf, sizeof buf);
}

Test(form, typing_and_cursor_moves)
{
	struct form f;
	form_init(&f);
	cr_assert_eq(form_add(&f, FORM_TEXT, "name", "Name"), 0);
	type(&f, "helo");
	form_key(&f, ACT_NONE, KEYS_FN | KEY_LEFT);
	type(&f, "l");
	cr_assert_str_eq(text_of(&f, "name"), "hello");
	cr_assert_eq(f.fields[0].cursor, 4);
	form_key(&f, ACT_NONE, KEYS_FN | KEY_HOME);
	form_key(&f, ACT_NONE, KEYS_FN | KEY_DC);
	cr_assert_str_eq(text_of(&f, "name"), "ello");
	form_key(&f, ACT_NONE, KEYS_FN | KEY_END);
	form_key(&f, ACT_NONE, KEYS_FN | KEY_BACKSPACE);
	cr_assert_str_eq(text_of(&f, "name"), "ell");
	type(&f, " world");
	form_key(&f, ACT_NONE, 23);   /* C-w */
	cr_assert_str_eq(text_of(&f, "name"), "ell ");
	form_key(&f, ACT_NONE, 1);    /* C-a */
	form_key(&f, ACT_NONE, 11);   /* C-k */
	cr_assert_str_eq(text_of(&f, "name"), "");
	type(&f, "abc");
	form_key(&f, ACT_NONE, KEYS_FN | KEY_LEFT);
	form_key(&f, ACT_NONE, 21);   /* C-u */
	cr_assert_str_eq(text_of(&f, "name"), "c");
	cr_assert_eq(f.fields[0].cursor, 0);
	form_free(&f);
}

Test(form, controls_and_bidi_never_enter_a_field)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_TEXT, "t", "T");
	form_key(&f, ACT_NONE, 0x1b);
	form_key(&f, ACT_NONE, 0x9b);
	form_key(&f, ACT_NONE, 0x202e);
	form_key(&f, ACT_NONE, 'x');
	cr_assert_str_eq(text_of(&f, "t"), "x");
	cr_assert_eq(form_set_text(&f, "t", "a\033[31mb\xe2\x80\xae" "c"), 0);
	cr_assert_str_eq(text_of(&f, "t"), "abc");
	form_free(&f);
}

Test(form, wide_characters_scroll_without_being_cut)
{
	struct form f;
	wchar_t out[64];
	int col;
	form_init(&f);
	form_add(&f, FORM_TEXT, "t", "T");
	cr_assert_eq(form_set_text(&f, "t", "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97" "ab"), 0);
	struct form_field *fl = form_field(&f, "t");
	cr_assert_eq(fl->len, 6);
	/* cursor at the end: 4 wide chars (8 cols) + 2 + cursor cell do not fit in 6 */
	form_text_view(fl, 6, out, 64, &col);
	cr_assert_eq(col, 4, "cursor col %d", col);
	cr_assert(wcscmp(out, L"\x5b57" L"ab") == 0);
	int w = 0;
	for (size_t i = 0; out[i]; i++)
		w += wcwidth(out[i]);
	cr_assert_leq(w, 6);
	/* back to the start: the view scrolls back and the cursor is at column 0 */
	form_key(&f, ACT_NONE, KEYS_FN | KEY_HOME);
	form_text_view(fl, 6, out, 64, &col);
	cr_assert_eq(col, 0);
	cr_assert(wcsncmp(out, L"\x6f22\x5b57\x6f22", 3) == 0);
	/* the cursor after the first wide char sits at column 2 */
	form_key(&f, ACT_NONE, KEYS_FN | KEY_RIGHT);
	form_text_view(fl, 6, out, 64, &col);
	cr_assert_eq(col, 2);
	form_free(&f);
}

Test(form, tab_skips_hidden_and_notes_and_wraps)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_NOTE, "n", "Note");
	form_add(&f, FORM_TEXT, "a", "A");
	form_add(&f, FORM_TEXT, "b", "B");
	form_add(&f, FORM_CHECK, "c", "C");
	form_add(&f, FORM_BUTTON, "ok", "OK");
	form_set_hidden(&f, "b", true);
	f.focus = 1;
	cr_assert_eq(form_key(&f, ACT_FIELD_NEXT, '\t'), FORM_EV_USED);
	cr_assert_str_eq(f.fields[f.focus].key, "c");
	form_key(&f, ACT_NONE, ' ');
	cr_assert(form_checked(&f, "c"));
	form_key(&f, ACT_FIELD_NEXT, '\t');
	cr_assert_eq(form_key(&f, ACT_SUBMIT, '\n'), FORM_EV_BUTTON);
	cr_assert_str_eq(f.pressed, "ok");
	form_key(&f, ACT_FIELD_NEXT, '\t');
	cr_assert_str_eq(f.fields[f.focus].key, "a");
	form_key(&f, ACT_FIELD_PREV, '\t');
	cr_assert_str_eq(f.fields[f.focus].key, "ok");
	f.focus = 1;
	cr_assert_eq(form_key(&f, ACT_SUBMIT, '\n'), FORM_EV_SUBMIT);
	cr_assert_eq(form_key(&f, ACT_CANCEL, 27), FORM_EV_CANCEL);
	form_free(&f);
}

/* Hiding the focused field moves the focus to the next field shown, not one further; with a
 * picker open, its cursor stays where it is. */
Test(form, hiding_the_focused_field_focuses_the_next)
{
	struct form f;
	form_init(&f);
	static const char *const keys[] = {"a", "b", "c", "d"};
	for (size_t i = 0; i < 4; i++)
		form_add(&f, FORM_TEXT, keys[i], keys[i]);
	f.focus = 1;
	form_set_hidden(&f, "b", true);
	cr_assert_str_eq(f.fields[f.focus].key, "c");
	form_set_hidden(&f, "a", true);   /* not focused: the focus stays */
	cr_assert_str_eq(f.fields[f.focus].key, "c");
	form_free(&f);

	form_init(&f);
	form_add(&f, FORM_PICK, "p", "P");
	form_add(&f, FORM_TEXT, "t", "T");
	for (int i = 0; i < 3; i++)
		form_add_option(&f, "p", (const char *[]){"x", "y", "z"}[i], NULL, NULL);
	form_key(&f, ACT_SUBMIT, '\n');
	cr_assert(f.pick.active);
	int cursor = f.pick.lv.cursor;
	form_set_hidden(&f, "p", true);
	cr_assert_eq(f.pick.lv.cursor, cursor);
	form_free(&f);
}

Test(form, radio_cycles)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_RADIO, "s", "S");
	form_add_option(&f, "s", "auto", NULL, NULL);
	form_add_option(&f, "s", "pro", NULL, NULL);
	form_choose(&f, "s", "auto");
	form_key(&f, ACT_NONE, KEYS_FN | KEY_RIGHT);
	cr_assert_str_eq(form_choice(&f, "s"), "pro");
	form_key(&f, ACT_NONE, ' ');
	cr_assert_str_eq(form_choice(&f, "s"), "auto");
	form_key(&f, ACT_NONE, KEYS_FN | KEY_LEFT);
	cr_assert_str_eq(form_choice(&f, "s"), "pro");
	char line[128];
	form_value_line(&f.fields[0], line, sizeof line, false);
	cr_assert_str_eq(line, "( ) auto  (*) pro");
	form_free(&f);
}

Test(form, picker_type_to_search_and_choose)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_PICK, "language", "Language");
	const char *codes[] = { "en-US", "en-GB", "fr-FR", "de-DE", "es-ES" };
	for (size_t i = 0; i < 5; i++)
		form_add_option(&f, "language", codes[i], NULL, i < 2 ? "pro" : NULL);
	type(&f, "fr");   /* typing on a picker field opens it with the search */
	cr_assert(f.pick.active);
	cr_assert_eq(f.pick.n_idx, 1);
	cr_assert_eq(form_key(&f, ACT_SUBMIT, '\n'), FORM_EV_USED);
	cr_assert_not(f.pick.active);
	cr_assert_str_eq(form_choice(&f, "language"), "fr-FR");
	/* Esc in the picker keeps the old choice */
	form_key(&f, ACT_NONE, ' ');
	cr_assert(f.pick.active);
	form_key(&f, ACT_FIELD_NEXT, KEYS_NONE);
	form_key(&f, ACT_CANCEL, 27);
	cr_assert_str_eq(form_choice(&f, "language"), "fr-FR");
	/* BS edits the search */
	type(&f, "EN");
	cr_assert_eq(f.pick.n_idx, 2, "case-insensitive: %zu", f.pick.n_idx);
	form_key(&f, ACT_NONE, KEYS_FN | KEY_BACKSPACE);
	form_key(&f, ACT_NONE, KEYS_FN | KEY_BACKSPACE);
	cr_assert_eq(f.pick.n_idx, 5);
	form_key(&f, ACT_FIELD_NEXT, KEYS_NONE);
	form_key(&f, ACT_NONE, ' ');
	cr_assert_str_eq(form_choice(&f, "language"), "en-GB");
	char line[128];
	form_value_line(&f.fields[0], line, sizeof line, false);
	cr_assert_str_eq(line, "en-GB  (pro)");
	form_free(&f);
}

Test(form, picker_ranks_value_prefix_then_word_prefix_then_anywhere)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_PICK, "language", "Language");
	form_add_option(&f, "language", "hy-AM", "hy-AM  Armenian (Armenia)", NULL);
	form_add_option(&f, "language", "sl-SI", "sl-SI  Slovenian (Slovenia) · slovenščina", NULL);
	form_add_option(&f, "language", "en-US", "en-US  English (United States)", NULL);
	form_add_option(&f, "language", "ja-JP", "ja-JP  Japanese (Japan) · 日本語 (日本)", NULL);
	type(&f, "en");
	cr_assert_eq(f.pick.n_idx, 3, "%zu", f.pick.n_idx);
	cr_assert_eq(f.pick.idx[0], 2, "the code en-US first");
	cr_assert_eq(f.pick.idx[1], 0, "then names containing it, in order");
	cr_assert_eq(f.pick.idx[2], 1);
	form_key(&f, ACT_CANCEL, 27);
	type(&f, "JAPANESE");
	cr_assert_eq(f.pick.n_idx, 1);
	cr_assert_eq(f.pick.idx[0], 3);
	form_key(&f, ACT_CANCEL, 27);
	form_key(&f, ACT_NONE, 0x65E5);   /* 日 */
	cr_assert_eq(f.pick.n_idx, 1);
	cr_assert_eq(f.pick.idx[0], 3);
	form_key(&f, ACT_CANCEL, 27);
	type(&f, "SLOVEN");
	form_key(&f, ACT_NONE, 0x160);   /* Š folds to the š of slovenščina */
	cr_assert_eq(f.pick.n_idx, 1);
	cr_assert_eq(f.pick.idx[0], 1);
	form_free(&f);
}

Test(form, option_summary_is_the_value_line)
{
	struct form f;
	char line[128];
	form_init(&f);
	form_add(&f, FORM_PICK, "language", "Language");
	cr_assert_eq(form_option_summary(&f, "language", "x"), -1, "no option yet");
	form_add_option(&f, "language", "ja-JP", "ja-JP       Japanese (Japan) · 日本語", "auto only");
	cr_assert_eq(form_option_summary(&f, "language", "ja-JP  Japanese (Japan)"), 0);
	form_choose(&f, "language", "ja-JP");
	form_value_line(&f.fields[0], line, sizeof line, false);
	cr_assert_str_eq(line, "ja-JP  Japanese (Japan)  (auto only)");
	form_free(&f);
}

Test(form, line_input_history_keeps_the_line_being_typed)
{
	struct line_history h = {0};
	struct line_input in;
	char buf[64];
	cr_assert_eq(line_history_add(&h, "first"), 0);
	cr_assert_eq(line_history_add(&h, "second"), 0);
	cr_assert_eq(line_history_add(&h, "second"), 0);
	cr_assert_eq(line_history_add(&h, ""), 0);
	cr_assert_eq(h.n, 2, "no empty line, no repeat of the newest");
	cr_assert_eq(line_input_init(&in, &h, "dra"), 0);
	cr_assert_eq(line_input_key(&in, 'f'), 1);
	cr_assert_eq(line_input_key(&in, KEYS_FN | KEY_DOWN), 0, "nothing newer");
	cr_assert_eq(line_input_key(&in, KEYS_FN | KEY_UP), 1);
	cr_assert_str_eq(line_input_text(&in, buf, sizeof buf), "second");
	cr_assert_eq(line_input_key(&in, KEYS_FN | KEY_UP), 1);
	cr_assert_str_eq(line_input_text(&in, buf, sizeof buf), "first");
	cr_assert_eq(line_input_key(&in, KEYS_FN | KEY_UP), 0, "nothing older");
	cr_assert_eq(line_input_key(&in, KEYS_FN | KEY_DOWN), 1);
	cr_assert_eq(line_input_key(&in, KEYS_FN | KEY_DOWN), 1);
	cr_assert_str_eq(line_input_text(&in, buf, sizeof buf), "draf", "the draft comes back");
	cr_assert_eq(line_input_key(&in, 1), 1);          /* C-a */
	cr_assert_eq(line_input_key(&in, 11), 1);         /* C-k */
	cr_assert_str_eq(line_input_text(&in, buf, sizeof buf), "");
	line_input_free(&in);
	for (int i = 0; i < LINE_HISTORY_MAX + 5; i++) {
		snprintf(buf, sizeof buf, "l%d", i);
		cr_assert_eq(line_history_add(&h, buf), 0);
	}
	cr_assert_eq(h.n, LINE_HISTORY_MAX);
	cr_assert_str_eq(h.items[LINE_HISTORY_MAX - 1], buf);
	line_history_free(&h);
	cr_assert_eq(h.n, 0);
}

Test(form, errors_go_when_the_field_is_fixed_or_hidden)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_TEXT, "name", "Name");
	form_add(&f, FORM_TEXT, "document_url", "Document URL");
	struct steno_error err = {0};
	steno_error_set(&err, STENO_ERR_HTTP, "name is too long");
	err.http_status = 422;
	snprintf(err.field, sizeof err.field, "name");
	form_show_error(&f, &err);
	cr_assert_str_eq(form_field(&f, "name")->error, "Name is too long");   /* the label, not the API field */
	cr_assert(strstr(f.message, "see Name"), "%s", f.message);
	type(&f, "x");
	cr_assert_str_eq(form_field(&f, "name")->error, "");
	cr_assert_str_eq(f.message, "", "the message about the field goes with its error");
	/* a message of its own stays */
	form_set_message(&f, true, "HTTP 500: boom");
	type(&f, "y");
	cr_assert_str_eq(f.message, "HTTP 500: boom");
	/* a hidden field is no longer sent: its error goes */
	form_set_error(&f, "document_url", "document_url is required");
	form_set_hidden(&f, "document_url", true);
	form_set_hidden(&f, "document_url", false);
	cr_assert_str_eq(form_field(&f, "document_url")->error, "");
	form_free(&f);
}

Test(form, multi_select_toggles)
{
	struct form f;
	const char *sel[8];
	form_init(&f);
	form_add(&f, FORM_MULTI, "targets", "Into");
	form_add_option(&f, "targets", "fr", NULL, NULL);
	form_add_option(&f, "targets", "de", NULL, NULL);
	form_add_option(&f, "targets", "es", NULL, NULL);
	form_key(&f, ACT_NONE, ' ');
	form_key(&f, ACT_NONE, ' ');           /* fr */
	form_key(&f, ACT_FIELD_NEXT, KEYS_NONE);
	form_key(&f, ACT_FIELD_NEXT, KEYS_NONE);
	form_key(&f, ACT_NONE, ' ');           /* es */
	type(&f, "d");
	form_key(&f, ACT_NONE, ' ');           /* de, found by search */
	form_key(&f, ACT_NONE, ' ');           /* and off again */
	form_key(&f, ACT_SUBMIT, '\n');
	cr_assert_not(f.pick.active);
	cr_assert_eq(form_selected(&f, "targets", sel, 8), 2);
	cr_assert_str_eq(sel[0], "fr");
	cr_assert_str_eq(sel[1], "es");
	char line[128];
	form_value_line(&f.fields[0], line, sizeof line, false);
	cr_assert_str_eq(line, "fr, es");
	form_free(&f);
}

Test(form, file_browser_descends_and_chooses)
{
	char dir[] = "/tmp/steno-form-XXXXXX", path[600];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/sub", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/sub/talk.wav", dir);
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fclose(fp);
	snprintf(path, sizeof path, "%s/.hidden", dir);
	fp = fopen(path, "w");
	fclose(fp);

	struct form f;
	form_init(&f);
	form_add(&f, FORM_FILE, "file", "File");
	form_set_text(&f, "file", dir);
	form_key(&f, ACT_NONE, 15);  /* C-o */
	cr_assert(f.pick.active);
	cr_assert_eq(f.pick.n_idx, 2, "'..' and sub, no hidden file: %zu", f.pick.n_idx);
	type(&f, "su");
	cr_assert_eq(f.pick.n_idx, 2);   /* ".." always stays */
	form_key(&f, ACT_FIELD_NEXT, KEYS_NONE);
	form_key(&f, ACT_SUBMIT, '\n');   /* into sub */
	cr_assert(strstr(f.pick.dir, "/sub") != NULL);
	form_key(&f, ACT_FIELD_NEXT, KEYS_NONE);
	form_key(&f, ACT_SUBMIT, '\n');   /* talk.wav */
	cr_assert_not(f.pick.active);
	cr_assert(strstr(text_of(&f, "file"), "/sub/talk.wav") != NULL, "%s", text_of(&f, "file"));
	form_free(&f);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(form, errors_go_next_to_their_field)
{
	struct form f;
	struct steno_error err;
	form_init(&f);
	form_add(&f, FORM_TEXT, "name", "Name");
	form_add(&f, FORM_TEXT, "url tmp_url", "URL");
	form_add(&f, FORM_BUTTON, "ok", "OK");
	f.focus = 2;
	steno_error_clear(&err);
	steno_error_invalid(&err, "tmp_url", "must be an http(s) URL");
	form_show_error(&f, &err);
	cr_assert_str_eq(form_field(&f, "url")->error, "must be an http(s) URL");
	cr_assert_eq(f.focus, 1, "focus moves to the field with the error");
	/* typing clears that field's error */
	type(&f, "h");
	cr_assert_str_eq(form_field(&f, "url")->error, "");
	/* a server error about no field goes to the message; typed text stays */
	steno_error_clear(&err);
	err.kind = STENO_ERR_HTTP;
	err.http_status = 429;
	snprintf(err.message, sizeof err.message, "slow down");
	form_show_error(&f, &err);
	cr_assert(f.message_error);
	cr_assert(strstr(f.message, "429") && strstr(f.message, "nothing was created"), "%s", f.message);
	cr_assert_str_eq(text_of(&f, "url"), "h");
	cr_assert_eq(form_set_error(&f, "nosuch", "x"), -1);
	form_clear_errors(&f);
	cr_assert_str_eq(f.message, "");
	form_free(&f);
}

/* A local validation's error goes when that validation passes again, also when another
 * field than the one it shows under was changed; a server's error with a field does not. */
Test(form, recheck_drops_what_validation_no_longer_says)
{
	struct form f;
	struct steno_error err, now;
	form_init(&f);
	form_add(&f, FORM_TEXT, "language", "Language");
	form_add(&f, FORM_TEXT, "service", "Service");
	steno_error_clear(&err);
	steno_error_invalid(&err, "language", "pro is not available for ja-JP");
	form_show_error(&f, &err);
	cr_assert(form_has_checked_error(&f));
	/* still said: stays */
	now = err;
	form_recheck(&f, &now);
	cr_assert_str_eq(form_field(&f, "language")->error, "pro is not available for ja-JP");
	/* something else said, or nothing: goes */
	steno_error_clear(&now);
	steno_error_invalid(&now, "name", "name is required");
	form_recheck(&f, &now);
	cr_assert_str_eq(form_field(&f, "language")->error, "");
	form_show_error(&f, &err);
	steno_error_clear(&now);
	form_recheck(&f, &now);
	cr_assert_str_eq(form_field(&f, "language")->error, "");
	/* a message longer than the line is cut between characters, and still recognised */
	char lng[600] = "";
	for (int i = 0; i < 200; i++)
		strcat(lng, "é");
	steno_error_clear(&err);
	steno_error_invalid(&err, "language", "%s", lng);
	form_show_error(&f, &err);
	cr_assert_eq(strlen(form_field(&f, "language")->error), 254, "cut inside a character");
	now = err;
	form_recheck(&f, &now);
	cr_assert_neq(form_field(&f, "language")->error[0], '\0', "a long error that holds went");
	form_clear_errors(&f);
	steno_error_clear(&now);
	/* the server's refusal of a field is not a local check's: only editing it clears it */
	steno_error_clear(&err);
	err.kind = STENO_ERR_HTTP;
	err.http_status = 422;
	snprintf(err.field, sizeof err.field, "service");
	snprintf(err.message, sizeof err.message, "refused");
	form_show_error(&f, &err);
	cr_assert_not(form_has_checked_error(&f));
	form_recheck(&f, &now);
	cr_assert_str_eq(form_field(&f, "service")->error, "refused");
	form_free(&f);
}

Test(clipboard, osc52_sequence)
{
	char buf[2048];
	cr_assert_eq(clipboard_osc52_seq("hi", CLIPBOARD_OSC52, buf, sizeof buf), 12);
	cr_assert_str_eq(buf, "\033]52;c;aGk=\a");
	clipboard_osc52_seq("https://x/y", CLIPBOARD_TMUX, buf, sizeof buf);
	cr_assert_str_eq(buf, "\033Ptmux;\033\033]52;c;aHR0cHM6Ly94L3k=\a\033\\");
	clipboard_osc52_seq("hi", CLIPBOARD_SCREEN, buf, sizeof buf);
	cr_assert_str_eq(buf, "\033P\033]52;c;aGk=\a\033\\");
	cr_assert_eq(clipboard_osc52_seq("hello", CLIPBOARD_OSC52, buf, 8), -1);
	/* screen: a long text goes in chunks of 700 base64 characters, each its own DCS */
	char text[600];
	memset(text, 'a', sizeof text - 1);
	text[sizeof text - 1] = '\0';
	int n = clipboard_osc52_seq(text, CLIPBOARD_SCREEN, buf, sizeof buf);
	cr_assert_gt(n, 0);
	const char *cut = strstr(buf, "\033\\\033P");
	cr_assert_not_null(cut);
	cr_assert_eq(cut - (buf + strlen("\033P\033]52;c;")), 700);
}

Test(clipboard, only_what_is_shown)
{
	char why[128];
	setlocale(LC_ALL, "C.UTF-8"); /* as steno's main: wcwidth knows non-ASCII letters */
	/* the attack: an editor URL that ends the shell's bracketed paste and runs a command */
	cr_assert_not(clipboard_check("https://e.example/x\033[201~\nrm -rf ~\n", true, why, sizeof why));
	cr_assert(strstr(why, "0x1b"), "%s", why);
	cr_assert_not(clipboard_check("https://e.example/\xc2\x9b" "31m", true, why, sizeof why));
	cr_assert_not(clipboard_check("https://e.example/\xe2\x80\xae" "exe.txt", true, why, sizeof why));
	cr_assert_not(clipboard_check("https://e.example/a b", true, why, sizeof why));
	cr_assert_not(clipboard_check("https://e.example/a\tb", true, why, sizeof why));
	cr_assert_not(clipboard_check("javascript:alert(1)", true, why, sizeof why));
	cr_assert_not(clipboard_check("https:///path", true, why, sizeof why));
	cr_assert(clipboard_check("https://e.example/edit/ab12?lang=fr#t=3", true, why, sizeof why));
	cr_assert(clipboard_check("HTTP://127.0.0.1:8080/x%20y", true, why, sizeof why));
	/* plain values: what the screen shows unchanged */
	cr_assert(clipboard_check("a1b2 c3d4", false, why, sizeof why));
	cr_assert(clipboard_check("Commande n\xc2\xb0" "4", false, why, sizeof why));
	cr_assert_not(clipboard_check("id\033[201~", false, why, sizeof why));
	cr_assert_not(clipboard_check("id\n", false, why, sizeof why));
	cr_assert_not(clipboard_check("\xe2\x80\xaeid", false, why, sizeof why));
	cr_assert_not(clipboard_check("bad\xff", false, why, sizeof why));
	cr_assert_not(clipboard_check("del\x7f", false, why, sizeof why));
	/* a refused value never reaches the terminal */
	char *out = NULL, msg[160];
	size_t len = 0;
	FILE *tty = open_memstream(&out, &len);
	cr_assert_eq(clipboard_copy(tty, CLIPBOARD_OSC52, "https://e.example/x\033[201~", true, msg,
				    sizeof msg), -1);
	cr_assert_eq(clipboard_copy(tty, CLIPBOARD_OFF, "https://e.example/x", true, msg, sizeof msg), -1);
	fflush(tty);
	cr_assert_eq(len, 0);
	cr_assert_eq(clipboard_copy(tty, CLIPBOARD_OSC52, "https://e.example/x", true, msg, sizeof msg), 0);
	fclose(tty);
	cr_assert_str_eq(msg, "OSC 52");
	cr_assert_str_eq(out, "\033]52;c;aHR0cHM6Ly9lLmV4YW1wbGUveA==\a");
	free(out);
}

/* Inside a tmux server with its default options (set-clipboard external, allow-passthrough
 * off), `y` must reach tmux: tmux's own buffer is what tmux sends to the outer terminal. */
Test(clipboard, tmux_with_default_settings)
{
	if (system("command -v tmux >/dev/null 2>&1") != 0)
		cr_skip_test("tmux is not installed");
	char dir[] = "/tmp/steno-tmux-XXXXXX", cmd[512], env[600];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "tmux -S %s/s -f /dev/null new-session -d -s t 'sleep 30'", dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(env, sizeof env, "%s/s,%d,0", dir, (int)getpid());
	setenv("TMUX", env, 1);
	char *out = NULL, msg[160];
	size_t len = 0;
	FILE *tty = open_memstream(&out, &len);
	int rc = clipboard_copy(tty, CLIPBOARD_AUTO, "https://e.example/edit/42", true, msg, sizeof msg);
	fclose(tty);
	unsetenv("TMUX");
	snprintf(cmd, sizeof cmd, "tmux -S %s/s show-buffer 2>&1", dir);
	FILE *p = popen(cmd, "r");
	char got[256] = "";
	cr_assert_not_null(fgets(got, sizeof got, p));
	pclose(p);
	snprintf(cmd, sizeof cmd, "tmux -S %s/s kill-server; rm -rf %s", dir, dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(rc, 0, "%s", msg);
	cr_assert_str_eq(msg, "tmux");
	cr_assert_str_eq(got, "https://e.example/edit/42");
	free(out);
}

/* The JSON view's answer copied: one line, the same JSON, nothing clipboard_check refuses. */
Test(clipboard, json_made_safe_is_the_same_json_on_one_line)
{
	char why[160];
	setlocale(LC_ALL, "C.UTF-8");
	char *s = clipboard_json_safe("{\n  \"a\": \"x\\ny\",\n  \"b\": [\n    1,\n    2\n  ]\n}");
	cr_assert_str_eq(s, "{\"a\": \"x\\ny\",\"b\": [1,2]}");
	cr_assert(clipboard_check(s, false, why, sizeof why), "%s", why);
	free(s);
	/* a bidi override and a byte that is not UTF-8 inside a string: escaped */
	s = clipboard_json_safe("{\n  \"n\": \"\xe2\x80\xae" "exe.txt \xff \xf0\x9f\x98\x80 n\xc2\xb0" "2\"\n}");
	cr_assert_str_eq(s, "{\"n\": \"\\u202eexe.txt \\ufffd \xf0\x9f\x98\x80 n\xc2\xb0" "2\"}");
	cr_assert(clipboard_check(s, false, why, sizeof why), "%s", why);
	free(s);
	s = clipboard_json_safe("");
	cr_assert_str_eq(s, "");
	free(s);
}
