/* Remembered choices in the real TUI against a sandbox: a dialog opened again, and after a
 * restart with the same state file, offers what it was last submitted with; the language
 * picker finds a language by its name with the recent choice first; a validation error goes
 * once the field it is about is fixed; a key that does nothing in the focused pane says why. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"

/* Types text, one key per character (ASCII), then settles. */
static void type(struct pf *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		scr_push_key((unsigned char)*p);
		pf_settle(f);
	}
}

/* The earliest of the needles in line (NULL: none); *len its length. */
static const char *first_of(const char *line, const char *const *needles, size_t *len)
{
	const char *best = NULL;
	for (size_t i = 0; needles[i]; i++) {
		const char *p = strstr(line, needles[i]);
		if (p && (!best || p < best)) {
			best = p;
			*len = strlen(needles[i]);
		}
	}
	return best;
}

/* Compares the dialog's box only (border to border) with golden/NAME: what is behind it (the
 * list's new row, its changing state, the status line's id) depends on the run. */
static void box_golden(struct pf *f, const char *name)
{
	static const char *const left[] = { "┌", "│", "└", NULL };
	static const char *const right[] = { "┐", "│", "┘", NULL };
	char *t = pf_text(f), *out = calloc(1, strlen(t) + 1);
	cr_assert_not_null(out);
	bool in = false;
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		size_t n = 0;
		const char *a = first_of(line, left, &n);
		in = in || (a && strncmp(a, "┌", n) == 0);
		if (!in || !a)
			continue;
		const char *b = NULL;
		for (const char *p = a; (p = first_of(p, right, &n)); p += n)
			b = p + n;
		strncat(out, a, (size_t)(b - a));
		strcat(out, "\n");
		if (strncmp(a, "└", strlen("└")) == 0)
			break;
	}
	cr_assert(out[0], "no dialog on screen");
	scr_golden(name, out);
	free(out);
	free(t);
}

/* The new-transcription dialog ('a') filled in with a language found by name, a URL,
 * `service_rights` presses of Right on the service, and submitted. */
static void create_transcription(struct pf *f, const char *lang_name, int service_rights,
				 const char *folder)
{
	pf_keys(f, "a");
	pf_expect(f, "New transcription");
	type(f, "Talk");
	pf_keys(f, "<Tab>");
	type(f, lang_name);
	pf_keys(f, "<Enter> <Tab> <Tab>");
	type(f, "http://127.0.0.1:9/a.wav");
	pf_keys(f, "<Tab>");
	for (int i = 0; i < service_rights; i++)
		pf_keys(f, "<Right>");
	if (folder) {
		pf_keys(f, "<Tab> <Space> <Tab> <Tab>");   /* Subtitles on, to the folder path */
		type(f, folder);
	}
	pf_keys(f, "<F2>");
	pf_wait_text(f, "Created transcription");
	pf_keys(f, "<Enter>");
	pf_reject(f, "New transcription");
}

Test(remember, the_transcribe_dialog_offers_its_last_choices_again_and_after_a_restart)
{
	struct pf f;
	struct pf_opts o = { .rows = 40, .cols = 120, .sandbox_args = (const char *const[]){ "--seed-demo", "3", NULL } };
	pf_open(&f, &o);
	pf_keys(&f, "a");
	pf_expect(&f, "en-US  English (United States)");
	pf_expect(&f, "(*) auto");
	pf_keys(&f, "<Esc>");
	create_transcription(&f, "german", 1, "/Pods");
	/* saved at once, not only when steno quits: a killed steno keeps it */
	char path[400];
	snprintf(path, sizeof path, "%s/state/steno/state.json", f.dir);
	FILE *in = fopen(path, "r");
	cr_assert_not_null(in, "no state file before quitting: %s", path);
	char text[8192] = "";
	size_t n = fread(text, 1, sizeof text - 1, in);
	text[n] = '\0';
	fclose(in);
	cr_assert(strstr(text, "de-DE") && strstr(text, "/Pods"), "%s", text);
	pf_keys(&f, "a");
	pf_expect(&f, "de-DE  German (Germany)");
	pf_expect(&f, "(*) pro");
	pf_expect(&f, "Subtitles        [x]");
	pf_expect(&f, "Folder path      /Pods");
	box_golden(&f, "remember_transcribe_again");
	pf_keys(&f, "<Esc>");
	pf_restart(&f, &o);
	pf_keys(&f, "a");
	box_golden(&f, "remember_transcribe_restart");
	pf_expect(&f, "de-DE  German (Germany)");
	pf_expect(&f, "Folder path      /Pods");
	pf_close(&f);
}

/* The picker found by typing a name, the language chosen before first ("recent"). */
static void picker_by_name(struct pf *f, const char *golden)
{
	pf_keys(f, "a <Tab>");
	type(f, "japanese");
	pf_expect(f, "ja-JP");
	pf_expect(f, "Japanese (Japan)");
	pf_keys(f, "<BS> <BS> <BS> <BS> <BS> <BS> <BS> <BS>");
	type(f, "english");
	box_golden(f, golden);
	pf_keys(f, "<Esc> <Esc>");
	pf_reject(f, "New transcription");
}

Test(remember, the_language_picker_finds_names_with_the_recent_choice_first)
{
	struct pf f;
	struct pf_opts o = { .rows = 24, .cols = 80, .sandbox_args = (const char *const[]){ "--seed-demo", "3", NULL } };
	pf_open(&f, &o);
	create_transcription(&f, "english (australia)", 0, NULL);
	picker_by_name(&f, "remember_picker_80x24");
	pf_resize(&f, 40, 120);
	picker_by_name(&f, "remember_picker_120x40");
	pf_resize(&f, 50, 200);
	picker_by_name(&f, "remember_picker_200x50");
	pf_close(&f);
}

/* "pro is not available for ja-JP" is about the language and the service: fixing either
 * clears it at once, before any submit. */
Test(remember, a_validation_error_clears_when_either_field_is_fixed)
{
	struct pf f;
	struct pf_opts o = { .rows = 40, .cols = 120, .sandbox_args = (const char *const[]){ "--seed-demo", "3", NULL } };
	pf_open(&f, &o);
	pf_keys(&f, "a");
	type(&f, "Talk");
	pf_keys(&f, "<Tab>");
	type(&f, "japanese");
	pf_keys(&f, "<Enter> <Tab> <Tab>");
	type(&f, "http://127.0.0.1:9/a.wav");
	pf_keys(&f, "<Tab> <Right> <F2>");
	pf_expect(&f, "the pro service is not available for ja-JP");
	/* the focus went to the language; the service is fixed */
	pf_keys(&f, "<Tab> <Tab> <Tab> <Left>");
	pf_reject(&f, "the pro service is not available");
	box_golden(&f, "remember_error_cleared");
	/* again, then the language is fixed */
	pf_keys(&f, "<Right> <F2>");
	pf_expect(&f, "the pro service is not available for ja-JP");
	type(&f, "french");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "fr-CA  French (Canada)");
	pf_reject(&f, "the pro service is not available");
	/* an error that still holds stays: a URL still not http(s) after an edit */
	pf_keys(&f, "<Tab> <Tab> <C-u>");
	type(&f, "ftp://x");
	pf_keys(&f, "<F2>");
	pf_expect(&f, "Media URL must be an http:// or https:// URL");
	pf_keys(&f, "<Tab> <Left> <Right>");
	pf_expect(&f, "Media URL must be an http:// or https:// URL");
	pf_close(&f);
}

Test(remember, a_key_that_does_nothing_here_says_why)
{
	struct pf f;
	struct pf_opts o = { .rows = 24, .cols = 120, .sandbox_args = (const char *const[]){ "--seed-demo", "3", NULL } };
	pf_open(&f, &o);
	pf_keys(&f, "1 p");
	pf_expect(&f, "preview works on a transcription: select one in the list");
	/* the status bar only: the panes above it are other tests' business */
	char *t = pf_text(&f), *end = t + strlen(t);
	while (end > t && end[-1] == '\n')
		*--end = '\0';
	char *last = strrchr(t, '\n');
	scr_golden("remember_key_does_nothing", last ? last + 1 : t);
	free(t);
	pf_keys(&f, "2 c");
	pf_expect(&f, "confirm-order works in the activity pane");
	pf_keys(&f, "z");
	pf_expect(&f, "z does nothing here (? lists the keys)");
	/* from the details pane, where a transcription is shown: the list is where it works */
	pf_keys(&f, "3 t");
	pf_expect(&f, "tag-filter works in the transcriptions list");
	pf_close(&f);
}
