/* tui/core state file, per server and shared: folders keyed by origin and organization,
 * files of the previous format migrated, and saves that merge under a lock so that two
 * processes writing at the same time lose nothing (real processes, forked). */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "state_fixture.h"

TestSuite(state_merge, .init = setup, .fini = teardown);

static long folders(struct steno_state *s, const char *org)
{
	size_t *idx = NULL;
	long n = state_folders_of(s, org, &idx);
	free(idx);
	return n;
}

static long watched(struct steno_state *s, const char *origin, const char *org)
{
	size_t *idx = NULL;
	long n = state_watched_of(s, origin, org, &idx);
	free(idx);
	return n;
}

/* A folder learned on one server never shows on another, even for the same organization
 * id; saved and loaded, it stays with its server. */
Test(state_merge, folders_are_per_server)
{
	state_set_origin(&st, A, "7");
	cr_assert_eq(state_folder_learn(&st, "7", "12", "/Pods", 1000, &err), 1, "%s", err.message);
	cr_assert_eq(folders(&st, "7"), 1);
	state_set_origin(&st, B, "7");
	cr_assert_eq(folders(&st, "7"), 0, "a folder of A shows on B");
	cr_assert_eq(state_folder_learn(&st, "7", "12", "/Other", 2000, &err), 1);
	cr_assert_eq(folders(&st, "7"), 1);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	state_set_origin(&st, A, "7");
	size_t *idx = NULL;
	cr_assert_eq(state_folders_of(&st, "7", &idx), 1);
	cr_assert_str_eq(st.folders[idx[0]].path, "/Pods");
	free(idx);
	state_set_origin(&st, B, "7");
	cr_assert_eq(state_folders_of(&st, "7", &idx), 1);
	cr_assert_str_eq(st.folders[idx[0]].path, "/Other");
	free(idx);
}

/* A file of the previous format (version 1, folders without a server) still loads: the
 * watched items are kept, and the folders go to the first server that opens their
 * organization, and only to it. */
Test(state_merge, version_1_files_are_migrated)
{
	char d[600];
	snprintf(d, sizeof d, "%s/state/steno", dir);
	cr_assert_eq(paths_mkdir_private(d, &err), 0);
	core_write(file,
		   "{ \"version\": 1, \"folders\": [ { \"org\": \"7\", \"id\": \"12\", \"path\": \"/Pods\","
		   " \"learned_ms\": 5 }, { \"org\": \"8\", \"id\": \"3\", \"learned_ms\": 6 } ],"
		   " \"watched\": [ { \"origin\": \"" A "\", \"org\": \"7\", \"kind\": \"order\","
		   " \"id\": \"o1\", \"added_ms\": 9 } ] }", 0600);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(watched(&st, A, "7"), 1, "the user's watched items are lost");
	state_set_origin(&st, A, "7");
	cr_assert_eq(folders(&st, "7"), 1);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	state_set_origin(&st, B, "7");
	cr_assert_eq(folders(&st, "7"), 0, "the migrated folder shows on another server");
	state_set_origin(&st, B, "8");
	cr_assert_eq(folders(&st, "8"), 1, "org 8's folder, never opened, is adopted by B");
	state_set_origin(&st, A, "7");
	cr_assert_eq(folders(&st, "7"), 1);
	cr_assert_eq(watched(&st, A, "7"), 1);
}

/* Two holders of the same file: each save merges what the other saved meanwhile. */
Test(state_merge, a_save_keeps_what_another_holder_saved)
{
	struct steno_state other;
	cr_assert_eq(state_load(&st, file, &err), 0);
	cr_assert_eq(state_load(&other, file, &err), 0);
	state_set_origin(&st, A, "7");
	state_set_origin(&other, A, "7");
	cr_assert_eq(state_watch_add(&st, A, "7", STATE_WATCH_ORDER, "mine", 1000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "7", "1", "/Mine", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&other, A, "7", STATE_WATCH_EXPORT, "theirs", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&other, A, "7", STATE_WATCH_ORDER, "mine", 1000, &err), 1);
	state_watch_final(&other, A, "7", STATE_WATCH_ORDER, "mine", 4000);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(state_save(&other, file, &err), 0, "%s", err.message);
	state_free(&other);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	state_set_origin(&st, A, "7");
	cr_assert_eq(watched(&st, A, "7"), 2, "an item saved by the other holder is lost");
	cr_assert_eq(folders(&st, "7"), 1, "a folder saved by the other holder is lost");
	size_t *idx = NULL;
	cr_assert_eq(state_watched_of(&st, A, "7", &idx), 2);
	for (size_t i = 0; i < 2; i++)
		if (!strcmp(st.watched[idx[i]].id, "mine"))
			cr_assert_eq(st.watched[idx[i]].final_ms, 4000, "the final time is lost");
	free(idx);
}

/* An item the user dismissed (or the server said is gone) is dropped from the file at the
 * next save, although the file on disk still holds it: the merge does not bring it back. */
Test(state_merge, a_forgotten_item_stays_forgotten_after_a_save)
{
	cr_assert_eq(state_load(&st, file, &err), 0);
	state_set_origin(&st, A, "7");
	cr_assert_eq(state_watch_add(&st, A, "7", STATE_WATCH_ORDER, "bogus1", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&st, A, "7", STATE_WATCH_ORDER, "kept", 1000, &err), 1);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	state_watch_forget(&st, A, "7", STATE_WATCH_ORDER, "bogus1");
	cr_assert_eq(watched(&st, A, "7"), 1);
	cr_assert(st.dirty);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(watched(&st, A, "7"), 1, "the save's merge brought it back");
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(watched(&st, A, "7"), 1, "the forgotten item is still in the file");
	cr_assert_str_eq(st.watched[0].id, "kept");
}

/* Two holders end jobs on the same export: the end that happened last is the one kept,
 * whichever saved last. */
Test(state_merge, a_save_keeps_the_later_job_end)
{
	struct steno_state other;
	cr_assert_eq(state_load(&st, file, &err), 0);
	cr_assert_eq(state_load(&other, file, &err), 0);
	cr_assert_eq(state_watch_add(&st, A, "7", STATE_WATCH_EXPORT, "e1", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&other, A, "7", STATE_WATCH_EXPORT, "e1", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&other, A, "7", STATE_WATCH_EXPORT, "e2", 1000, &err), 1);
	struct state_job_end later = { "downloaded to /b", false, "ready", 6000 };
	struct state_job_end earlier = { "download cancelled", true, "ready", 5000 };
	state_watch_job_end(&st, A, "7", STATE_WATCH_EXPORT, "e1", &later);
	state_watch_job_end(&other, A, "7", STATE_WATCH_EXPORT, "e1", &earlier);
	state_watch_job_end(&other, A, "7", STATE_WATCH_EXPORT, "e2", &earlier);
	/* the file holds the earlier end when the later is saved, then the later when the
	 * earlier is saved again */
	cr_assert_eq(state_save(&other, file, &err), 0, "%s", err.message);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(state_save(&other, file, &err), 0, "%s", err.message);
	state_free(&other);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	size_t *idx = NULL;
	cr_assert_eq(state_watched_of(&st, A, "7", &idx), 2);
	for (size_t i = 0; i < 2; i++) {
		const struct state_watch *w = &st.watched[idx[i]];
		bool e1 = !strcmp(w->id, "e1");
		cr_assert_str_eq(w->job_end, e1 ? "downloaded to /b" : "download cancelled");
		cr_assert_eq(w->job_end_failed, !e1);
		cr_assert_eq(w->job_end_ms, e1 ? 6000 : 5000);
	}
	free(idx);
}

#define RACERS 3
#define ROUNDS 40

/* One racing process: loads once, then ROUNDS times learns a folder and watches an item of
 * its own and saves (as the browser and a command do). Exits 0, or 1 on a failed save. */
static void racer(int who)
{
	struct steno_state s;
	struct steno_error e;
	steno_error_clear(&e);
	if (state_load(&s, file, &e) < 0)
		_exit(1);
	state_set_origin(&s, A, "7");
	for (int i = 0; i < ROUNDS; i++) {
		char id[32], path[32];
		snprintf(id, sizeof id, "r%d-%d", who, i);
		snprintf(path, sizeof path, "/r%d/%d", who, i);
		if (state_watch_add(&s, A, "7", STATE_WATCH_EXPORT, id, 1000, &e) != 1 ||
		    state_folder_learn(&s, "7", NULL, path, 1000, &e) != 1 || state_save(&s, file, &e) != 0)
			_exit(1);
	}
	state_free(&s);
	_exit(0);
}

/* RACERS real processes save the same file at the same time, ROUNDS times each: nothing is
 * lost, and the file is always whole JSON (no .bad is ever made). */
Test(state_merge, racing_processes_lose_nothing, .timeout = 60)
{
	core_race(RACERS, racer);
	char bad[600];
	snprintf(bad, sizeof bad, "%s.bad", file);
	cr_assert_not(paths_exists(bad), "a save left a corrupt file");
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	state_set_origin(&st, A, "7");
	cr_assert_eq(watched(&st, A, "7"), RACERS * ROUNDS, "watched items were lost");
	cr_assert_eq(folders(&st, "7"), RACERS * ROUNDS, "learned folders were lost");
}
