/* Screen tests of the activity pane, notifications and state changes as the sandbox's
 * clock moves. */
#include "config.h"

#include <criterion/criterion.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity_fixture.h"

Test(activity, watched_export_runs_to_ready_with_a_notice)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char eid[64];

	pf_open(&f, &o);
	watch_new_export(eid, sizeof eid);
	pf_settle(&f);
	pf_expect(&f, "Activity 1");
	pf_expect(&f, "export");
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	pf_keys(&f, "R");
	pf_wait_text(&f, "finished (ready)");
	pf_expect(&f, " ready ");
	pf_expect(&f, "txt, 1 transc");
}

Test(activity, refresh_shows_states_that_moved_on_the_server)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };

	pf_open(&f, &o);
	pf_expect_row(&f, "•Vorlesung Übung 30 ", " transcribing ");
	cr_assert_eq(sbx_advance(&f.sbx, 8 * 3600), 0);
	pf_keys(&f, "R");
	/* its row says done, wherever the columns fit to the new content fall */
	pf_expect_row(&f, " Vorlesung Übung 30 ", " done ");
}

Test(activity, an_idle_screen_sets_no_timer)
{
	/* no demo data: nothing changes; the live list is off */
	struct pf_opts o = { .rows = 24, .cols = 100, .refresh = "0" };

	pf_open(&f, &o);
	pf_expect(&f, "No transcriptions here yet.");
	cr_assert_eq(app_wait_timeout(f.app), -1, "the loop would wake up by itself");
}

Test(activity, an_idle_live_screen_wakes_only_for_the_live_list)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .refresh = "30" };

	pf_open(&f, &o);
	pf_expect(&f, "No transcriptions here yet.");
	long t = app_wait_timeout(f.app);
	cr_assert(t > 25000 && t <= 30000, "timeout %ld: only the live re-read is due", t);
}

Test(activity, changing_items_are_polled_on_a_timer)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo30 };

	pf_open(&f, &o);
	long t = app_wait_timeout(f.app);
	cr_assert(t > 0 && t <= 60000, "timeout %ld", t);
}

/* An order of the demo organization from media the receiver serves; its id into id. */
static void new_order(struct sbx_receiver *rc, char *id, size_t n)
{
	char body[400];
	long status = 0;

	snprintf(body, sizeof body, "{\"order\":{\"url\":\"%s/media.wav\",\"language\":\"en-US\","
		 "\"organization_id\":\"%s\"}}", sbx_receiver_origin(rc), f.sbx.org_id);
	json_object *o = sbx_call(&f.sbx, "POST", "orders", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(id, n, "%s", sbx_str(o, "id"));
	json_object_put(o);
}

Test(activity, confirm_acts_on_the_order_under_the_cursor)
{
	struct pf_opts o = { .rows = 30, .cols = 120 };
	struct sbx_receiver *rc = sbx_receiver_start(30.0, NULL, NULL, 0);
	char older[64], newer[64], line[128];

	cr_assert_not_null(rc);
	pf_open(&f, &o);
	new_order(rc, older, sizeof older);
	new_order(rc, newer, sizeof newer);
	cr_assert_eq(app_watch(f.app, STORE_ACT_ORDER, older), 0);
	cr_assert_eq(app_watch(f.app, STORE_ACT_ORDER, newer), 0);
	pf_settle(&f);
	pf_keys(&f, "4");   /* the cursor on the first row: the older order */
	enum store_activity_kind kind = STORE_ACT_EXPORT;
	const char *sel = app_selected_activity(f.app, &kind);
	cr_assert(sel && !strcmp(sel, older) && kind == STORE_ACT_ORDER, "%s", sel ? sel : "(none)");
	pf_keys(&f, "c");
	snprintf(line, sizeof line, "Order %s", older);
	pf_wait_text(&f, line);
	pf_keys(&f, "<Esc> j c");   /* the second row */
	snprintf(line, sizeof line, "Order %s", newer);
	pf_wait_text(&f, line);
	pf_keys(&f, "<Esc>");
	sbx_receiver_stop(rc);
}

Test(activity, download_wants_a_ready_export_under_the_cursor)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char eid[64];

	pf_open(&f, &o);
	watch_new_export(eid, sizeof eid);
	pf_settle(&f);
	pf_keys(&f, "4 d");
	pf_expect(&f, "not ready to download yet");
	pf_reject(&f, "Download export");
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	pf_keys(&f, "R");
	pf_wait_text(&f, "finished (ready)");
	pf_keys(&f, "d");
	pf_wait_text(&f, "Download export");
	pf_keys(&f, "<Esc>");
}

/* The status bar shows the newest message: an error that a later action moved past (a failed
 * export tried again) would read as the outcome of that action. */
Test(activity, a_newer_notice_replaces_an_old_error)
{
	struct pf_opts o = { .rows = 24, .cols = 100 };
	struct steno_error e;

	pf_open(&f, &o);
	steno_error_set(&e, STENO_ERR_HTTP, "injected fault");
	e.http_status = 500;
	app_error(f.app, &e);
	pf_settle(&f);
	pf_expect(&f, "HTTP 500: injected fault");
	app_status(f.app, "job 7 started: see the activity pane");
	pf_settle(&f);
	pf_reject(&f, "HTTP 500");
	pf_expect(&f, "job 7 started");
}

Test(activity, watched_items_come_back_after_a_restart_refreshed)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char eid[64];

	pf_open(&f, &o);
	watch_new_export(eid, sizeof eid);
	pf_settle(&f);
	restart();
	const struct store_activity *a = store_activity_find(app_store(f.app), STORE_ACT_EXPORT, eid);
	cr_assert_not_null(a, "the watched export was forgotten");
	cr_assert(a->watched);
	cr_assert_not_null(a->state, "not refreshed after the restart");
	pf_keys(&f, "4");
	pf_expect(&f, "Activity 1");
	pf_expect(&f, "export");
}

Test(activity, the_shells_exports_show_in_the_activity_pane)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char tid[64], cmd[1024];

	pf_open(&f, &o);
	find_state("automatic_done", tid, sizeof tid);
	const char *bin = getenv("STENO_BIN");
	cr_assert_not_null(bin);
	/* the environment already points XDG_STATE_HOME at the test's dir */
	snprintf(cmd, sizeof cmd,
		 "STENO_BASE_URL='%s' STENO_API_KEY='%s' STENO_ORG_ID='%s' '%s' export '%s' "
		 "--format txt >/dev/null 2>&1",
		 f.sbx.base_url, f.sbx.api_key, f.sbx.org_id, bin, tid);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	restart();
	cr_assert_eq(store_activity_count(app_store(f.app)), 1);
	const struct store_activity *a = store_activity_at(app_store(f.app), 0);
	cr_assert_eq(a->kind, STORE_ACT_EXPORT);
	cr_assert_not_null(a->state, "not refreshed after the start");
}


/* Exports a finished transcription of the demo into dir, followed by the app, and runs
 * until the job waits for the export. Returns the job. */
static int export_waiting(const char *dir)
{
	static char tid[64];
	const char *ids[1] = { tid };
	struct steno_error err;

	find_state("automatic_done", tid, sizeof tid);
	struct steno_export_create_req req = { .format = "txt", .transcription_ids = ids,
					       .n_transcription_ids = 1 };
	steno_error_clear(&err);
	int job = jobs_export(app_jobs(f.app), &req, dir, NULL, false, &err);
	cr_assert_gt(job, 0, "%s", err.message);
	cr_assert_eq(app_watch_job(f.app, job), 0);
	step_until(job, JOB_STEP_WAITING);
	return job;
}

/* Cancelling an export's wait leaves nothing stuck: the job's row says what happened, the
 * export stays followed as an activity, `r` reads its true state, and once it is ready `d`
 * downloads it. */
Test(activity, a_cancelled_export_wait_stays_refreshable)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	pf_open(&f, &o);
	int job = export_waiting(f.dir);
	scr_push_key('4');
	f.quit |= app_step(f.app, 0);
	scr_push_key('x');
	f.quit |= app_step(f.app, 0);
	cr_assert_eq(jobs_get(app_jobs(f.app), job)->step, JOB_STEP_CANCELLED);
	pf_settle(&f);
	pf_expect(&f, "cancelled while wait");   /* the Info column cuts the rest */
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	pf_keys(&f, "r");
	pf_wait_text(&f, "finished (ready)");
	pf_expect(&f, " ready ");
	pf_keys(&f, "d");
	pf_expect(&f, "Download export");
}

/* `:order bogus1`: the server answers 404. The order is not watched, not polled, not saved,
 * and said once; leaving its view takes the error away; a restart shows nothing of it. */
Test(activity, an_order_that_is_not_there_is_said_once_and_forgotten)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .refresh = "0" };

	pf_open(&f, &o);
	pf_keys(&f, ":");
	for (const char *c = "order bogus1"; *c; c++) {
		char k[2] = { *c, 0 };
		pf_keys(&f, *c == ' ' ? "<Space>" : k);
	}
	pf_keys(&f, "<Enter>");
	pf_settle(&f);
	pf_expect(&f, "404");
	cr_assert_eq(store_activity_count(app_store(f.app)), 0, "the order that is not there is watched");
	cr_assert_eq(app_wait_timeout(f.app), -1, "the order that is not there is still polled");
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "404");
	pf_reject(&f, "bogus1");
	/* a refusal is newer than an error: it replaces it */
	struct steno_error e;
	steno_error_set(&e, STENO_ERR_HTTP, "injected fault");
	e.http_status = 500;
	app_error(f.app, &e);
	pf_settle(&f);
	pf_expect(&f, "HTTP 500");
	pf_keys(&f, "p");   /* preview: nothing is selected */
	pf_reject(&f, "HTTP 500");
	restart();
	cr_assert_eq(store_activity_count(app_store(f.app)), 0, "the order came back after a restart");
	pf_reject(&f, "bogus1");
}

/* X on an activity row: the export is no longer watched, polled nor remembered (a restart
 * does not bring it back). */
Test(activity, a_row_can_be_dismissed)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char eid[64];

	pf_open(&f, &o);
	watch_new_export(eid, sizeof eid);
	pf_settle(&f);
	pf_keys(&f, "4");
	pf_expect(&f, "Activity 1");
	pf_keys(&f, "X");
	pf_expect(&f, "dismissed");
	pf_expect(&f, "Activity 0");
	cr_assert_eq(store_activity_count(app_store(f.app)), 0);
	restart();
	cr_assert_null(store_activity_find(app_store(f.app), STORE_ACT_EXPORT, eid),
		       "the dismissed export came back after a restart");
}

/* Files in dir (no .part). */
static int files_in(const char *dir)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -vc '\\.part$'", dir);
	FILE *p = popen(cmd, "r");
	int n = 0;
	cr_assert_not_null(p);
	if (fscanf(p, "%d", &n) != 1)
		n = 0;
	pclose(p);
	return n;
}

/* q with an export still being made: steno says what quitting does and asks; another key
 * stays, q again quits; after the restart, once the export is ready, its file is downloaded
 * into the directory asked for, as the user asked. */
Test(activity, quit_with_an_export_waiting_asks_and_downloads_it_after_the_restart)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char dl[300];

	pf_open(&f, &o);
	snprintf(dl, sizeof dl, "%s/dl", f.dir);
	cr_assert_eq(mkdir(dl, 0700), 0);
	int job = export_waiting(dl);
	/* keys one pass each: a settle would wait for the export */
	scr_push_key('q');
	f.quit |= app_step(f.app, 0);
	cr_assert_not(f.quit, "q quit at once with an export being made");
	pf_expect(&f, "Quit steno?");
	pf_expect(&f, "downloaded when it is ready");
	scr_push_key(27);
	f.quit |= app_step(f.app, 0);
	cr_assert_not(f.quit, "a key other than q or y quit");
	pf_reject(&f, "Quit steno?");
	scr_push_key('q');
	f.quit |= app_step(f.app, 0);
	scr_push_key('q');
	f.quit |= app_step(f.app, 0);
	cr_assert(f.quit, "q on the question did not quit");
	cr_assert_eq(jobs_get(app_jobs(f.app), job)->step, JOB_STEP_WAITING);
	cr_assert_eq(files_in(dl), 0);
	restart();
	f.quit = 0;
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	pf_keys(&f, "R");
	/* the export's next poll finds it ready, then its download runs: at most 20 s */
	for (int i = 0; i < 400 && files_in(dl) == 0; i++)
		f.quit |= app_step(f.app, 50);
	pf_settle(&f);
	pf_keys(&f, "4");
	pf_expect(&f, "downloaded");   /* "downloaded to PATH", cut at 120 columns */
	cr_assert_eq(files_in(dl), 1, "the export was not downloaded after the restart");
	/* asked once: a second restart downloads nothing more */
	restart();
	pf_settle(&f);
	cr_assert_eq(files_in(dl), 1);
}

/* Closes the app, makes every watched item of the state file `ms` older, starts again. */
static void restart_older(const char *path, int64_t ms)
{
	app_destroy(f.app);
	json_object *root = json_object_from_file(path), *arr;
	cr_assert_not_null(root, "no state file %s", path);
	cr_assert(json_object_object_get_ex(root, "watched", &arr));
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *w = json_object_array_get_idx(arr, i), *t;
		cr_assert(json_object_object_get_ex(w, "added_ms", &t));
		json_object_object_add(w, "added_ms", json_object_new_int64(json_object_get_int64(t) - ms));
	}
	cr_assert_eq(json_object_to_file(path, root), 0);
	json_object_put(root);
	struct ui_options uo = {
		.base_url = f.sbx.base_url, .api_key = f.sbx.api_key, .org_id = f.sbx.org_id,
		.profile = "test", .term = "xterm-256color", .in = f.in, .out = f.out,
	};
	char msg[640];
	f.app = app_new(&uo, msg, sizeof msg);
	cr_assert_not_null(f.app, "%s", msg);
	pf_settle(&f);
}

/* The activity pane fits its columns to what they hold, as the list does: at 200 columns an
 * export's id shows (24 characters of it and more), not "67607…"; its age counts from when it was first followed
 * (the state file's time), so a restart does not start it again at 0. */
Test(activity, columns_fit_and_the_age_survives_a_restart)
{
	struct pf_opts o = { .rows = 40, .cols = 200, .sandbox_args = demo30 };
	char eid[64], state[400];

	pf_open(&f, &o);
	watch_new_export(eid, sizeof eid);
	pf_settle(&f);
	pf_keys(&f, "4");
	char head[25];
	snprintf(head, sizeof head, "%.24s", eid);
	pf_expect(&f, head);   /* the id, not "67607…" */
	pf_expect(&f, "Age");
	snprintf(state, sizeof state, "%s/state/steno/state.json", f.dir);
	restart_older(state, 3600000);
	pf_keys(&f, "4");
	pf_expect_row(&f, head, "1h 00m");
}

/* `?` shows the focused pane's keys first, and `/` searches the keys. */
Test(activity, help_starts_with_the_panes_keys_and_searches)
{
	struct pf_opts o = { .rows = 40, .cols = 120, .sandbox_args = demo30 };

	pf_open(&f, &o);
	pf_keys(&f, "4 ?");
	pf_expect(&f, "Keys of this pane (activity)");
	pf_expect(&f, "Remove the selected row");   /* dismiss: on the first page */
	pf_keys(&f, "/ d o w n l o a d");
	pf_expect(&f, "/download_");
	pf_expect(&f, "Download the export");
	pf_reject(&f, "Move the cursor down");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "Download the export");
	pf_keys(&f, "<Esc>");
	pf_expect(&f, "Move the cursor down");
	pf_keys(&f, "q");
	pf_reject(&f, "Keys of this pane");
}

/* One row per thing: an export job waiting for its export shows on the export's row (its
 * step there), not on a second row that reads "export 7ed15…" too. */
Test(activity, a_job_shows_on_its_items_row)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	pf_open(&f, &o);
	export_waiting(f.dir);
	scr_push_key('4');
	f.quit |= app_step(f.app, 0);
	pf_expect(&f, "Activity 1");
	pf_expect(&f, " waiting ");
}

/* The activity pane's screen at 80x24, 120x40 and 200x50: a ready export watched, the ids
 * (random at each run) masked whole or cut ("4c1f…") by the same number of '#'. */
static void activity_golden(const char *name, const char *const *ids, size_t n_ids)
{
	char *t = pf_text(&f);

	for (size_t i = 0; i < n_ids; i++) {
		size_t len = strlen(ids[i]);
		for (size_t k = len; k >= 3; k--) {
			char needle[80];
			snprintf(needle, sizeof needle, "%.*s%s", (int)k, ids[i], k == len ? "" : "\u2026");
			for (char *p = t; (p = strstr(p, needle)); p += k)
				memset(p, '#', k);
		}
	}
	/* the age moves while the test runs: "ready   0s" masks as "ready   ~s" */
	for (char *p = t; (p = strstr(p, " ready ")); ) {
		p += strlen(" ready ");
		while (*p == ' ')
			p++;
		while (*p >= '0' && *p <= '9')
			*p++ = '~';
	}
	/* the status line's message races with the refresh's answer: the bar up to "online" */
	size_t len = strlen(t);
	size_t start = len && t[len - 1] == '\n' ? len - 1 : len;
	while (start > 0 && t[start - 1] != '\n')
		start--;
	char *online = strstr(t + start, "online");
	if (online)
		strcpy(online + strlen("online"), "\n");
	scr_golden(name, t);
	free(t);
}

Test(activity, goldens_at_three_sizes)
{
	struct pf_opts o = { .rows = 24, .cols = 80, .sandbox_args = demo30 };
	char eid[64], tid[64];
	static const struct { int rows, cols; const char *name; } sizes[] = {
		{ 24, 80, "activity-80x24.txt" },
		{ 40, 120, "activity-120x40.txt" },
		{ 50, 200, "activity-200x50.txt" },
	};

	pf_open(&f, &o);
	find_state("automatic_done", tid, sizeof tid);
	watch_new_export(eid, sizeof eid);
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	pf_keys(&f, "4 R");
	pf_wait_text(&f, " ready ");
	const char *ids[] = { eid, tid };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		pf_resize(&f, sizes[i].rows, sizes[i].cols);
		pf_expect(&f, " ready ");
		activity_golden(sizes[i].name, ids, 2);
	}
}

/* The row of the screen that holds needle (a copy in line), asserting it is there. */
static void row_with(const char *needle, char *line, size_t size)
{
	char *t = scr_text(), *p = strstr(t, needle);

	cr_assert_not_null(p, "no row with %s:\n%s", needle, t);
	while (p > t && p[-1] != '\n')
		p--;
	size_t n = strcspn(p, "\n");
	snprintf(line, size, "%.*s", (int)n, p);
	free(t);
}

/* At 160 columns and more, details and activity show together: the activity under the list
 * and the details, which keep their columns (Name, Tags, Created where they were), so its
 * own columns are not cramped into the details' width. Narrower, one of them at a time, the
 * focused one. */
Test(activity, details_and_activity_together_at_160_columns)
{
	struct pf_opts o = { .rows = 40, .cols = 160, .sandbox_args = demo30 };
	char eid[64], before[1024], after[1024];

	pf_open(&f, &o);
	pf_expect(&f, "Details");
	row_with("Created", before, sizeof before);
	watch_new_export(eid, sizeof eid);
	pf_settle(&f);
	pf_expect(&f, "Activity 1");
	pf_expect(&f, "Details");
	row_with("Created", after, sizeof after);
	const char *cols[] = { "Name", "Created", "Tags" };
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(scr_cell_col(after, cols[i]), scr_cell_col(before, cols[i]),
			     "%s moved:\n%s\n%s", cols[i], before, after);
	pf_keys(&f, "3");
	pf_expect(&f, "Activity 1");
	pf_resize(&f, 40, 120);
	pf_reject(&f, "Activity 1");   /* details focused: the activity steps aside */
	pf_expect(&f, "Details");
	pf_keys(&f, "4");
	pf_expect(&f, "Activity 1");
	pf_reject(&f, "Details");
	pf_resize(&f, 40, 200);
	pf_expect(&f, "Activity 1");
	pf_expect(&f, "Details");
}
