/* tui/core/choices: the dialogs' remembered choices and recent languages in the state file,
 * per server and organization; saved and loaded, merged by two holders and by racing
 * processes (the later choice of a field wins), files without them load, nothing crosses
 * from one server to another. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/choices.h"
#include "state_fixture.h"

TestSuite(choices, .init = setup, .fini = teardown);

/* Records one field of a dialog for org at time ms. */
static void record(struct steno_state *s, enum choice_dialog d, const char *org, const char *field,
		   const char *value, int64_t ms)
{
	struct choice_report r = { .dialog = d, .org_id = org };
	choices_report_add(&r, field, value);
	cr_assert_eq(choices_record(s, &r, ms, &err), 0, "%s", err.message);
}

static void reload(void)
{
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	state_set_origin(&st, A, "7");
}

Test(choices, a_submitted_dialog_is_offered_again_after_a_restart)
{
	state_set_origin(&st, A, "7");
	struct choice_report r = { .dialog = CHOICE_TRANSCRIBE, .org_id = "7" };
	choices_report_add(&r, "language", "ja-JP");
	choices_report_add(&r, "service", "pro");
	choices_report_add(&r, "folder", "/Podcasts");
	choices_report_add(&r, "name", "not remembered");
	cr_assert_eq(choices_record(&st, &r, 1000, &err), 0, "%s", err.message);
	record(&st, CHOICE_EXPORT, "7", "format", "docx", 1000);
	record(&st, CHOICE_EXPORT, "7", "dir", "/tmp/out", 1000);
	cr_assert(st.dirty);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	reload();
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_TRANSCRIBE, "language"), "ja-JP");
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_TRANSCRIBE, "service"), "pro");
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_TRANSCRIBE, "folder"), "/Podcasts");
	cr_assert_null(choices_get(&st, "7", CHOICE_TRANSCRIBE, "name"), "a name is not a choice");
	cr_assert_null(choices_get(&st, "7", CHOICE_ORDER, "language"), "each dialog has its own");
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_EXPORT, "format"), "docx");
	/* the format is the organization's; the directory (a local path) the whole server's */
	cr_assert_null(choices_get(&st, "8", CHOICE_EXPORT, "format"));
	cr_assert_null(choices_get(&st, "8", CHOICE_TRANSCRIBE, "folder"));
	cr_assert_str_eq(choices_get(&st, "8", CHOICE_EXPORT, "dir"), "/tmp/out");
	struct recent_list rl;
	choices_recent_languages(&st, "7", &rl);
	cr_assert_eq(rl.n, 1);
	cr_assert_str_eq(rl.items[0], "ja-JP");
}

Test(choices, recent_languages_newest_first_and_bounded)
{
	state_set_origin(&st, A, "7");
	record(&st, CHOICE_TRANSCRIBE, "7", "language", "fr-FR", 1000);
	record(&st, CHOICE_ORDER, "7", "language", "de-DE", 2000);
	record(&st, CHOICE_TRANSLATE, "7", "targets", "it,es", 3000);
	record(&st, CHOICE_TRANSCRIBE, "7", "language", "fr-FR", 4000);
	struct recent_list rl;
	choices_recent_languages(&st, "7", &rl);
	cr_assert_eq(rl.n, 4);
	const char *want[] = { "fr-FR", "it", "es", "de-DE" };
	for (size_t i = 0; i < 4; i++)
		cr_assert_str_eq(rl.items[i], want[i], "item %zu", i);
	for (int i = 0; i < 20; i++) {
		char code[8];
		snprintf(code, sizeof code, "x%d", i);
		record(&st, CHOICE_TRANSCRIBE, "7", "language", code, 5000 + i);
	}
	choices_recent_languages(&st, "7", &rl);
	cr_assert_eq(rl.n, RECENT_MAX);
	cr_assert_str_eq(rl.items[0], "x19");
	size_t kept = 0;
	for (size_t i = 0; i < st.n_choices; i++)
		kept += strcmp(st.choices[i].dialog, "recent-language") == 0;
	cr_assert_eq(kept, RECENT_MAX, "old languages are kept in the file");
}

/* A file written before choices existed (version 1, folders and watched items only) loads,
 * offers nothing, and takes choices from then on. */
Test(choices, files_without_choices_load)
{
	char d[600];
	snprintf(d, sizeof d, "%s/state/steno", dir);
	cr_assert_eq(paths_mkdir_private(d, &err), 0);
	core_write(file,
		   "{ \"version\": 1, \"folders\": [ { \"origin\": \"" A "\", \"org\": \"7\", \"id\": \"12\","
		   " \"path\": \"/Pods\", \"learned_ms\": 5 } ],"
		   " \"watched\": [ { \"origin\": \"" A "\", \"org\": \"7\", \"kind\": \"order\","
		   " \"id\": \"o1\", \"added_ms\": 9 } ] }", 0600);
	reload();
	cr_assert_eq(st.n_folders, 1);
	cr_assert_eq(st.n_watched, 1);
	cr_assert_null(choices_get(&st, "7", CHOICE_TRANSCRIBE, "language"));
	record(&st, CHOICE_TRANSCRIBE, "7", "language", "fr-FR", 1000);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	reload();
	cr_assert_eq(st.n_folders, 1);
	cr_assert_eq(st.n_watched, 1);
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_TRANSCRIBE, "language"), "fr-FR");
	/* a malformed choice makes the file not ours: kept aside, as for the other lists */
	core_write(file, "{ \"version\": 1, \"folders\": [], \"choices\": [ 3 ] }", 0600);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 1);
}

/* Choices made on one server never show on another (--sandbox has its own file, and even a
 * shared file keeps them apart); a state without a server keeps nothing. */
Test(choices, nothing_crosses_between_servers)
{
	state_set_origin(&st, A, "7");
	record(&st, CHOICE_TRANSCRIBE, "7", "language", "ja-JP", 1000);
	record(&st, CHOICE_EXPORT, "7", "dir", "/a", 1000);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	state_set_origin(&st, B, "7");
	cr_assert_null(choices_get(&st, "7", CHOICE_TRANSCRIBE, "language"));
	cr_assert_null(choices_get(&st, "7", CHOICE_EXPORT, "dir"));
	struct recent_list rl;
	choices_recent_languages(&st, "7", &rl);
	cr_assert_eq(rl.n, 0, "a language of server A is recent on B");
	record(&st, CHOICE_TRANSCRIBE, "7", "language", "de-DE", 2000);
	state_set_origin(&st, A, "7");
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_TRANSCRIBE, "language"), "ja-JP");
	/* no server known: nothing read, nothing kept */
	struct steno_state none;
	state_init(&none);
	record(&none, CHOICE_TRANSCRIBE, "7", "language", "ja-JP", 1000);
	cr_assert_eq(none.n_choices, 0);
	cr_assert_null(choices_get(&none, "7", CHOICE_TRANSCRIBE, "language"));
	state_free(&none);
}

Test(choices, invalid_values_are_refused)
{
	state_set_origin(&st, A, "7");
	struct choice_report r = { .dialog = CHOICE_EXPORT, .org_id = "7" };
	choices_report_add(&r, "dir", "/tmp/a\nb");
	cr_assert_eq(choices_record(&st, &r, 1000, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_INVALID);
	cr_assert_eq(st.n_choices, 0);
}

/* Two holders of the file: field by field, the later choice wins, whoever saves last. */
Test(choices, two_holders_merge_field_by_field)
{
	struct steno_state other;
	cr_assert_eq(state_load(&other, file, &err), 0);
	state_set_origin(&st, A, "7");
	state_set_origin(&other, A, "7");
	record(&st, CHOICE_TRANSCRIBE, "7", "language", "fr-FR", 3000);   /* later */
	record(&st, CHOICE_EXPORT, "7", "dir", "/mine", 1000);
	record(&other, CHOICE_TRANSCRIBE, "7", "language", "de-DE", 2000);
	record(&other, CHOICE_EXPORT, "7", "format", "srt", 2000);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(state_save(&other, file, &err), 0, "%s", err.message);
	/* the holder that saved last now holds the merged state too */
	cr_assert_str_eq(choices_get(&other, "7", CHOICE_TRANSCRIBE, "language"), "fr-FR");
	state_free(&other);
	reload();
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_TRANSCRIBE, "language"), "fr-FR",
			 "an earlier choice saved later overwrote a later one");
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_EXPORT, "dir"), "/mine");
	cr_assert_str_eq(choices_get(&st, "7", CHOICE_EXPORT, "format"), "srt");
	struct recent_list rl;
	choices_recent_languages(&st, "7", &rl);
	cr_assert_eq(rl.n, 2);
	cr_assert_str_eq(rl.items[0], "fr-FR");
	cr_assert_str_eq(rl.items[1], "de-DE");
}

#define RACERS 3
#define ROUNDS 30

/* One process: loads once, then ROUNDS times submits a dialog in its own organization and
 * saves. */
static void racer(int who)
{
	struct steno_state s;
	struct steno_error e;
	char org[8];
	snprintf(org, sizeof org, "o%d", who);
	steno_error_clear(&e);
	if (state_load(&s, file, &e) < 0)
		_exit(1);
	state_set_origin(&s, A, org);
	for (int i = 0; i < ROUNDS; i++) {
		struct choice_report r = { .dialog = CHOICE_EXPORT, .org_id = org };
		choices_report_add(&r, "format", i % 2 ? "srt" : "docx");
		if (choices_record(&s, &r, 1000 + i, &e) != 0 || state_save(&s, file, &e) != 0)
			_exit(1);
		struct choice_report t = { .dialog = CHOICE_TRANSCRIBE, .org_id = org };
		choices_report_add(&t, "language", i == ROUNDS - 1 ? "ja-JP" : "fr-FR");
		if (choices_record(&s, &t, 1000 + i, &e) != 0 || state_save(&s, file, &e) != 0)
			_exit(1);
	}
	state_free(&s);
	_exit(0);
}

/* RACERS real processes submit and save at the same time: each one's last choices are in
 * the file. */
Test(choices, racing_processes_keep_every_last_choice, .timeout = 60)
{
	core_race(RACERS, racer);
	reload();
	for (int w = 0; w < RACERS; w++) {
		char org[8];
		snprintf(org, sizeof org, "o%d", w);
		cr_assert_str_eq(choices_get(&st, org, CHOICE_EXPORT, "format"), "srt", "racer %d", w);
		cr_assert_str_eq(choices_get(&st, org, CHOICE_TRANSCRIBE, "language"), "ja-JP");
		struct recent_list rl;
		choices_recent_languages(&st, org, &rl);
		cr_assert_eq(rl.n, 2, "racer %d", w);
		cr_assert_str_eq(rl.items[0], "ja-JP");
	}
}
