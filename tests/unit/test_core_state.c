/* tui/core state file: learned folders, atomic save, corrupt files kept as .bad. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/paths.h"
#include "core/state.h"
#include "core_helpers.h"

static char *dir;
static struct steno_error err;
static struct steno_state st;

static void setup(void)
{
	dir = core_tmpdir();
	steno_error_clear(&err);
	state_init(&st);
}

static void teardown(void)
{
	state_free(&st);
	core_rm_rf(dir);
}

TestSuite(state, .init = setup, .fini = teardown);

Test(state, learn_save_load)
{
	cr_assert_eq(state_folder_learn(&st, "6411621", "12", NULL, 1000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "6411621", "12", NULL, 2000, &err), 0);
	cr_assert_eq(state_folder_learn(&st, "6411621", NULL, "/Pods/2024", 3000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "77", "5", "/Other", 4000, &err), 1);
	/* a path learned later fills in the id's entry */
	cr_assert_eq(state_folder_learn(&st, "6411621", "12", "/Interviews", 5000, &err), 1);
	cr_assert_eq(state_folder_learn(&st, "", "1", NULL, 1, &err), -1);
	cr_assert_eq(state_folder_learn(&st, "1", NULL, "no-slash", 1, &err), -1);
	cr_assert(st.dirty);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_eq(state_save(&st, p.state_file, &err), 0, "%s", err.message);
	cr_assert_not(st.dirty);
	struct stat sb;
	cr_assert_eq(stat(p.state_file, &sb), 0);
	cr_assert_eq(sb.st_mode & 0777, 0600);
	cr_assert_eq(stat(p.state_dir, &sb), 0);
	cr_assert_eq(sb.st_mode & 0777, 0700);
	state_free(&st);
	cr_assert_eq(state_load(&st, p.state_file, &err), 0, "%s", err.message);
	cr_assert_eq(st.n_folders, 3);
	size_t *idx;
	cr_assert_eq(state_folders_of(&st, "6411621", &idx), 2);
	cr_assert_str_eq(st.folders[idx[0]].folder_id, "12");
	cr_assert_str_eq(st.folders[idx[0]].path, "/Interviews");
	cr_assert_eq(st.folders[idx[0]].learned_ms, 1000);
	cr_assert_str_eq(st.folders[idx[1]].path, "/Pods/2024");
	cr_assert_null(st.folders[idx[1]].folder_id);
	free(idx);
	paths_free(&p);
}

Test(state, missing_file_is_empty)
{
	cr_assert_eq(state_load(&st, core_path(dir, "none.json"), &err), 0);
	cr_assert_eq(st.n_folders, 0);
}

static void check_quarantine(const char *content)
{
	char *f = core_path(dir, "state.json");
	core_write(f, content, 0600);
	state_free(&st);
	steno_error_clear(&err);
	cr_assert_eq(state_load(&st, f, &err), 1, "%s", content);
	cr_assert_eq(st.n_folders, 0);
	cr_assert(strstr(err.message, "corrupt"), "%s", err.message);
	cr_assert(strstr(err.message, ".bad"), "%s", err.message);
	char bad[600];
	snprintf(bad, sizeof(bad), "%s.bad", f);
	struct stat sb;
	cr_assert_eq(stat(bad, &sb), 0);
	cr_assert_neq(stat(f, &sb), 0);
	unlink(bad);
}

Test(state, corrupt_files_are_kept_aside)
{
	check_quarantine("{not json");
	check_quarantine("{\"version\":1,\"folders\":[]} trailing");
	check_quarantine("[1,2,3]");
	check_quarantine("{\"version\":2,\"folders\":[]}");
	check_quarantine("{\"version\":1,\"folders\":[{\"org\":\"1\"}]}");
	check_quarantine("{\"version\":1,\"folders\":[{\"org\":\"1\",\"id\":\"a\\u0001b\"}]}");
}

Test(state, origin_of_a_base_url)
{
	char o[128];
	cr_assert_str_eq(state_origin("HTTPS://user:pw@API.Example.com:8443/v1?x#y", o, sizeof o),
			 "https://api.example.com:8443");
	cr_assert_str_eq(state_origin("http://127.0.0.1:4000", o, sizeof o), "http://127.0.0.1:4000");
	cr_assert_null(state_origin("ftp://x/", o, sizeof o));
	cr_assert_null(state_origin("example.com/v1", o, sizeof o));
	cr_assert_null(state_origin("https:///v1", o, sizeof o));
	cr_assert_null(state_origin("https://a-very-long-host.example.com", o, 10));
}

Test(state, watched_items_survive_a_save_and_are_kept_per_origin_and_org)
{
	const char *a = "https://api.example.com", *b = "http://127.0.0.1:4000";
	cr_assert_eq(state_watch_add(&st, a, "6411621", STATE_WATCH_ORDER, "o1", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&st, a, "6411621", STATE_WATCH_ORDER, "o1", 2000, &err), 0);
	cr_assert_eq(state_watch_add(&st, a, "6411621", STATE_WATCH_EXPORT, "o1", 2000, &err), 1);
	cr_assert_eq(state_watch_add(&st, a, "77", STATE_WATCH_TASK, "t1", 3000, &err), 1);
	cr_assert_eq(state_watch_add(&st, b, NULL, STATE_WATCH_TASK, "t2", 3000, &err), 1);
	cr_assert_eq(state_watch_add(&st, a, "1", STATE_WATCH_TASK, "bad\nid", 3000, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_INVALID);
	state_watch_final(&st, a, "6411621", STATE_WATCH_EXPORT, "o1", 5000);
	state_watch_final(&st, a, "6411621", STATE_WATCH_EXPORT, "o1", 9000);   /* first one kept */
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_eq(state_save(&st, p.state_file, &err), 0, "%s", err.message);
	state_free(&st);
	cr_assert_eq(state_load(&st, p.state_file, &err), 0, "%s", err.message);
	cr_assert_eq(st.n_watched, 4);
	size_t *idx;
	cr_assert_eq(state_watched_of(&st, a, "6411621", &idx), 2);
	cr_assert_eq(st.watched[idx[0]].kind, STATE_WATCH_ORDER);
	cr_assert_str_eq(st.watched[idx[0]].id, "o1");
	cr_assert_eq(st.watched[idx[0]].added_ms, 1000);
	cr_assert_eq(st.watched[idx[0]].final_ms, 0);
	cr_assert_eq(st.watched[idx[1]].kind, STATE_WATCH_EXPORT);
	cr_assert_eq(st.watched[idx[1]].final_ms, 5000);
	free(idx);
	cr_assert_eq(state_watched_of(&st, b, NULL, &idx), 1);
	cr_assert_str_eq(st.watched[idx[0]].id, "t2");
	free(idx);
	cr_assert_eq(state_watched_of(&st, b, "77", &idx), 0);
	free(idx);
	char *text;
	size_t len;
	cr_assert_eq(paths_read_file(p.state_file, 1 << 20, &text, &len, &err), 0);
	cr_assert(strstr(text, "\"watched\""), "%s", text);
	free(text);
	paths_free(&p);
}

Test(state, final_items_are_dropped_after_a_week_and_the_list_is_bounded)
{
	const char *a = "https://api.example.com";
	int64_t day = 24LL * 3600 * 1000;
	cr_assert_eq(state_watch_add(&st, a, "1", STATE_WATCH_ORDER, "done", 0, &err), 1);
	cr_assert_eq(state_watch_add(&st, a, "1", STATE_WATCH_ORDER, "running", 0, &err), 1);
	state_watch_final(&st, a, "1", STATE_WATCH_ORDER, "done", day);
	state_watch_prune(&st, 7 * day);
	cr_assert_eq(st.n_watched, 2);
	state_watch_prune(&st, 9 * day);
	cr_assert_eq(st.n_watched, 1);
	cr_assert_str_eq(st.watched[0].id, "running");
	/* full: the oldest final item makes room, then the oldest */
	state_watch_final(&st, a, "1", STATE_WATCH_ORDER, "running", 10 * day);
	char id[32];
	for (int i = 1; i < STATE_WATCHED_MAX; i++) {
		snprintf(id, sizeof id, "o%d", i);
		cr_assert_eq(state_watch_add(&st, a, "1", STATE_WATCH_ORDER, id, 10 * day, &err), 1);
	}
	cr_assert_eq(st.n_watched, STATE_WATCHED_MAX);
	cr_assert_eq(state_watch_add(&st, a, "1", STATE_WATCH_ORDER, "new", 10 * day, &err), 1);
	cr_assert_eq(st.n_watched, STATE_WATCHED_MAX);
	cr_assert_str_eq(st.watched[0].id, "o1");   /* "running" (final) went first */
	cr_assert_eq(state_watch_add(&st, a, "1", STATE_WATCH_ORDER, "newer", 10 * day, &err), 1);
	cr_assert_str_eq(st.watched[0].id, "o2");
	cr_assert_str_eq(st.watched[STATE_WATCHED_MAX - 1].id, "newer");
}

/* The watched item at i's recorded job end (text NULL: none). */
static void expect_end(size_t i, const char *text, bool failed, const char *state, int64_t ms)
{
	const struct state_watch *w = &st.watched[i];
	if (text)
		cr_assert_str_eq(w->job_end, text);
	else
		cr_assert_null(w->job_end, "%s", w->job_end);
	cr_assert_eq(w->job_end_failed, failed);
	if (state)
		cr_assert_str_eq(w->job_end_state, state);
	else
		cr_assert_null(w->job_end_state);
	cr_assert_eq(w->job_end_ms, ms);
}

/* How the last job on a watched item ended is saved with it and read back: its text made
 * safe (control characters become spaces, cut below STATE_JOB_END_MAX bytes whole
 * characters), whether it failed, the item's state and the time; the same end again keeps
 * its first time; a job with nothing to say clears the text. */
Test(state, a_job_end_survives_a_save)
{
	const char *a = "https://api.example.com";
	char file[512], long_text[STATE_JOB_END_MAX + 8];
	snprintf(file, sizeof file, "%s/state.json", dir);
	cr_assert_eq(state_watch_add(&st, a, "7", STATE_WATCH_EXPORT, "e1", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&st, a, "7", STATE_WATCH_EXPORT, "e2", 1000, &err), 1);
	cr_assert_eq(state_watch_add(&st, a, "7", STATE_WATCH_ORDER, "o1", 1000, &err), 1);
	struct state_job_end e1 = { "downloaded to /tmp/a\x1b[2Jb.txt", false, "ready", 5000 };
	state_watch_job_end(&st, a, "7", STATE_WATCH_EXPORT, "e1", &e1);
	e1.ended_ms = 6000;   /* the same end again */
	state_watch_job_end(&st, a, "7", STATE_WATCH_EXPORT, "e1", &e1);
	memset(long_text, 'x', sizeof long_text);
	memcpy(long_text + STATE_JOB_END_MAX - 3, "é", 2);   /* its second byte at MAX - 2 */
	memcpy(long_text + STATE_JOB_END_MAX - 1, "é", 2);   /* cut in the middle: goes whole */
	long_text[sizeof long_text - 1] = '\0';
	struct state_job_end e2 = { long_text, true, "bad\nstate", 7000 };
	state_watch_job_end(&st, a, "7", STATE_WATCH_EXPORT, "e2", &e2);
	struct state_job_end o1 = { "order cancelled", true, NULL, 8000 };
	state_watch_job_end(&st, a, "7", STATE_WATCH_ORDER, "o1", &o1);
	o1.text = NULL;   /* a later job with nothing to say */
	o1.ended_ms = 9000;
	state_watch_job_end(&st, a, "7", STATE_WATCH_ORDER, "o1", &o1);
	state_watch_job_end(&st, a, "7", STATE_WATCH_ORDER, "unknown", &o1);
	cr_assert_eq(st.n_watched, 3);
	cr_assert_eq(state_save(&st, file, &err), 0, "%s", err.message);
	state_free(&st);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(st.n_watched, 3);
	expect_end(0, "downloaded to /tmp/a [2Jb.txt", false, "ready", 5000);
	cr_assert_eq(strlen(st.watched[1].job_end), STATE_JOB_END_MAX - 1);
	cr_assert_str_eq(st.watched[1].job_end + STATE_JOB_END_MAX - 3, "é");
	cr_assert(st.watched[1].job_end_failed);
	cr_assert_null(st.watched[1].job_end_state, "a state that is not a word is kept");
	expect_end(2, NULL, false, NULL, 9000);
}

/* A file without job ends (an older steno's) loads, and so does one with keys this steno
 * does not know (a newer one's) and job-end keys of the wrong type (no end, no failure). */
Test(state, files_without_or_with_other_job_end_keys_load)
{
	char file[512];
	snprintf(file, sizeof file, "%s/state.json", dir);
	core_write(file, "{ \"version\": 1, \"folders\": [], \"later\": [1], \"watched\": ["
		   " { \"origin\": \"https://a.example\", \"org\": \"7\", \"kind\": \"export\","
		   " \"id\": \"e1\", \"added_ms\": 9 },"
		   " { \"origin\": \"https://a.example\", \"org\": \"7\", \"kind\": \"export\","
		   " \"id\": \"e2\", \"added_ms\": 9, \"job_end_ms\": 20, \"job_end\": 5,"
		   " \"job_end_failed\": \"yes\", \"job_end_state\": [\"ready\"], \"later\": {} } ] }",
		   0600);
	cr_assert_eq(state_load(&st, file, &err), 0, "%s", err.message);
	cr_assert_eq(st.n_watched, 2);
	expect_end(0, NULL, false, NULL, 0);
	expect_end(1, NULL, false, NULL, 20);
}
