/* Screen tests of the activity pane, notifications and state changes as the sandbox's
 * clock moves. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "panes_fixture.h"
#include "ui/app_internal.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(activity, .fini = teardown);

/* The id of the first transcription of the demo organization in `state`. */
static void find_state(const char *state, char *id, size_t n)
{
	char path[256];
	long status = 0;

	snprintf(path, sizeof path, "transcriptions?organization_id=%s", f.sbx.org_id);
	json_object *o = sbx_call(&f.sbx, "GET", path, NULL, &status);
	cr_assert_eq(status, 200);
	json_object *res = sbx_get(o, "results");
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		json_object *t = json_object_array_get_idx(res, i);
		if (!strcmp(sbx_str(t, "state"), state)) {
			snprintf(id, n, "%s", sbx_str(t, "id"));
			json_object_put(o);
			return;
		}
	}
	cr_assert_fail("no transcription in state %s", state);
}

/* A new export (txt) of a finished transcription of the demo, made through the API and
 * watched in the activity pane; its id into eid. */
static void watch_new_export(char *eid, size_t n)
{
	char tid[64], body[256];
	long status = 0;

	find_state("automatic_done", tid, sizeof tid);
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}", tid);
	json_object *e = sbx_call(&f.sbx, "POST", "exports", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(eid, n, "%s", sbx_str(e, "id"));
	json_object_put(e);
	cr_assert_eq(app_watch(f.app, STORE_ACT_EXPORT, eid), 0);
}

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

/* Closes the app (which saves the state file) and starts it again on the same sandbox and
 * state dir, as a restart of steno would. */
static void restart(void)
{
	app_destroy(f.app);
	struct ui_options uo = {
		.base_url = f.sbx.base_url, .api_key = f.sbx.api_key, .org_id = f.sbx.org_id,
		.profile = "test", .term = "xterm-256color", .in = f.in, .out = f.out,
	};
	char msg[640];
	f.app = app_new(&uo, msg, sizeof msg);
	cr_assert_not_null(f.app, "%s", msg);
	pf_settle(&f);
}

static char *new_export(char *eid, size_t n)
{
	char tid[64], body[256];
	long status = 0;

	find_state("automatic_done", tid, sizeof tid);
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}", tid);
	json_object *e = sbx_call(&f.sbx, "POST", "exports", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(eid, n, "%s", sbx_str(e, "id"));
	json_object_put(e);
	return eid;
}

Test(activity, watched_items_come_back_after_a_restart_refreshed)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char eid[64];

	pf_open(&f, &o);
	cr_assert_eq(app_watch(f.app, STORE_ACT_EXPORT, new_export(eid, sizeof eid)), 0);
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

/* Steps the app until the job reaches step (asserting within 10 s). */
static void step_until(int job, enum job_step step)
{
	for (int i = 0; i < 200; i++) {
		const struct steno_job *j = jobs_get(app_jobs(f.app), job);
		cr_assert_not_null(j);
		if (j->step == step)
			return;
		f.quit |= app_step(f.app, 50);
	}
	cr_assert_fail("job %d never reached %s", job, jobs_step_name(step));
}

/* Cancelling an export's wait leaves nothing stuck: the job's row says what happened, the
 * export stays followed as an activity, `r` reads its true state, and once it is ready `d`
 * downloads it. */
Test(activity, a_cancelled_export_wait_stays_refreshable)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	char tid[64];
	const char *ids[1] = { tid };
	struct steno_error err;

	pf_open(&f, &o);
	find_state("automatic_done", tid, sizeof tid);
	struct steno_export_create_req req = { .format = "txt", .transcription_ids = ids,
					       .n_transcription_ids = 1 };
	steno_error_clear(&err);
	int job = jobs_export(app_jobs(f.app), &req, f.dir, NULL, false, &err);
	cr_assert_gt(job, 0, "%s", err.message);
	cr_assert_eq(app_watch_job(f.app, job), 0);
	step_until(job, JOB_STEP_WAITING);
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

/* The only file in dir (none may be left as NAME.part) into path; its bytes into a new string. */
static char *only_file(const char *dir, char *path, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			cr_assert_null(strstr(e->d_name, ".part"), "left behind: %s", e->d_name);
			snprintf(path, n, "%s/%s", dir, e->d_name);
			files++;
		}
	closedir(d);
	cr_assert_eq(files, 1, "%d files in %s", files, dir);
	FILE *fp = fopen(path, "rb");
	cr_assert_not_null(fp);
	char *buf = calloc(1, 1 << 16);
	size_t got = fread(buf, 1, (1 << 16) - 1, fp);
	cr_assert(got > 0 && feof(fp));
	fclose(fp);
	return buf;
}

/* The download directory is empty (no .part, no file): removed and made again. */
static void expect_nothing_left(const char *dl)
{
	cr_assert_eq(rmdir(dl), 0, "the download left a file in %s", dl);
	cr_assert_eq(mkdir(dl, 0700), 0);
}

/* The only file in dl is export eid's, whole: the bytes the server serves now. */
static void expect_downloaded(const char *dl, const char *eid)
{
	char path[600], url[1024];
	long status = 0;
	char *got = only_file(dl, path, sizeof path);

	snprintf(url, sizeof url, "exports/%s", eid);
	json_object *e = sbx_call(&f.sbx, "GET", url, NULL, &status);
	cr_assert_eq(status, 200);
	snprintf(url, sizeof url, "%s", sbx_str(e, "download_link"));
	json_object_put(e);
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&f.sbx, "GET", url, NULL, NULL, NULL, &r), 0);
	cr_assert_eq(r.status, 200);
	cr_assert_str_eq(got, r.body, "the file is not what the server serves");
	sbx_resp_free(&r);
	free(got);
}

/* Cancelling an export's download while it runs (the sandbox's latency slows /files) leaves
 * nothing behind and nothing stuck: the row says what happened, no .part stays, `r` reads the
 * export's state, and `d` downloads the same bytes the server serves. */
Test(activity, a_cancelled_download_leaves_no_part_and_downloads_again)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	char tid[64], dl[300];
	const char *ids[1] = { tid };
	struct steno_error err;

	pf_open(&f, &o);
	snprintf(dl, sizeof dl, "%s/dl", f.dir);
	cr_assert_eq(mkdir(dl, 0700), 0);
	free(f.config.download_dir);
	f.config.download_dir = strdup(dl);
	find_state("automatic_done", tid, sizeof tid);
	struct steno_export_create_req req = { .format = "txt", .transcription_ids = ids,
					       .n_transcription_ids = 1 };
	steno_error_clear(&err);
	int job = jobs_export(app_jobs(f.app), &req, dl, NULL, false, &err);
	cr_assert_gt(job, 0, "%s", err.message);
	cr_assert_eq(app_watch_job(f.app, job), 0);
	step_until(job, JOB_STEP_WAITING);
	cr_assert_eq(sbx_set_faults(&f.sbx, "latency=1:3000ms"), 0);
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	scr_push_key('4');
	pf_wait_text(&f, "downloa");   /* the State column cuts the rest */
	scr_push_key('x');
	f.quit |= app_step(f.app, 0);
	cr_assert_eq(jobs_get(app_jobs(f.app), job)->step, JOB_STEP_CANCELLED);
	cr_assert_eq(sbx_set_faults(&f.sbx, "none"), 0);
	pf_settle(&f);
	pf_expect(&f, " download cancel");   /* the Info column cuts the rest */
	expect_nothing_left(dl);
	pf_keys(&f, "r");
	pf_expect(&f, "refreshing ");
	pf_expect(&f, " ready ");
	pf_keys(&f, "d");
	pf_expect(&f, "Download export");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "Saved ");
	pf_keys(&f, "<Esc>");

	expect_downloaded(dl, jobs_get(app_jobs(f.app), job)->resource_id);
}

/* Downloads go to DIR/dl (made here; its path into dl), and export eid is ready in the
 * activity pane. */
static void ready_export_to(char *eid, size_t n, char *dl, size_t dl_size)
{
	snprintf(dl, dl_size, "%s/dl", f.dir);
	cr_assert_eq(mkdir(dl, 0700), 0);
	free(f.config.download_dir);
	f.config.download_dir = strdup(dl);
	watch_new_export(eid, n);
	pf_settle(&f);
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
	pf_keys(&f, "R");
	pf_wait_text(&f, "finished (");   /* "(ready)" is cut at 80 columns */
}

/* The keys of a script, each with one pass of the loop that does not wait for requests
 * (a download held by the sandbox's latency stays running). */
static void push_keys(const char *script)
{
	ui_key keys[16];
	int n = scr_parse_script(script, keys, 16);

	for (int i = 0; i < n; i++) {
		scr_push_key(keys[i]);
		f.quit |= app_step(f.app, 0);
	}
}

/* One line of the terminal holds both texts (the export's row: its state and what happened
 * to it; or the status line). */
static void expect_line_with(const char *a, const char *b)
{
	char *t = pf_text(&f), *lines = strdup(t), *save = NULL;
	bool found = false;

	cr_assert_not_null(lines);
	for (char *line = strtok_r(lines, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save))
		found = strstr(line, a) && strstr(line, b);
	free(lines);
	cr_assert(found, "no line with '%s' and '%s':\n%s", a, b, t);
	free(t);
}

/* The status line (the last line of the screen) says text. */
static void expect_status(const char *text)
{
	char *t = pf_text(&f);
	char *last = strrchr(t, '\n');

	while (last && last > t && last[1] == '\0') {   /* trailing empty lines */
		*last = '\0';
		last = strrchr(t, '\n');
	}
	cr_assert(strstr(last ? last + 1 : t, text), "the status line does not say '%s':\n%s", text, t);
	free(t);
}

/* `d` on the activity pane downloads export eid whole into dl (the name it had before: no
 * "exists"), and the export's row says where it went. */
static void download_again(const char *dl, const char *eid)
{
	pf_keys(&f, "d");
	pf_expect(&f, "Download export");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "Saved ");
	pf_keys(&f, "<Esc>");
	expect_downloaded(dl, eid);
	expect_line_with(" ready ", "downloaded to ");
}

/* A browser of o's size where export eid (downloads to dl) is ready; its download started
 * from the export dialog is cancelled with Esc while it runs (latency on /files). */
static void cancel_download_in_dialog(const struct pf_opts *o, char *eid, size_t n, char *dl,
				      size_t dl_size)
{
	pf_open(&f, o);
	ready_export_to(eid, n, dl, dl_size);
	pf_keys(&f, "4 d");
	pf_expect(&f, "Download export");
	cr_assert_eq(sbx_set_faults(&f.sbx, "latency=1:3000ms"), 0);
	push_keys("<Enter>");
	pf_wait_text(&f, "Esc: cancel the download");
	push_keys("<Esc>");
	cr_assert_eq(sbx_set_faults(&f.sbx, "none"), 0);
	pf_settle(&f);
}

/* A download started from the export dialog on a ready export, then cancelled with Esc while
 * it runs (latency on /files): the export's row in the activity pane and the status line say
 * so, no .part stays, `r` reads the export (still ready) and `d` downloads it whole to the
 * same name; the row then says where it went. */
Test(activity, a_download_cancelled_in_its_dialog_is_recorded_and_downloads_again)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	char eid[64], dl[300];

	cancel_download_in_dialog(&o, eid, sizeof eid, dl, sizeof dl);
	pf_expect(&f, "download cancelled");   /* the dialog */
	expect_status(": download cancelled");
	pf_keys(&f, "<Esc>");
	expect_line_with(" ready ", "download cancelled");
	expect_nothing_left(dl);
	pf_keys(&f, "r");
	pf_expect(&f, "refreshing ");
	expect_line_with(" ready ", "download cancelled");
	download_again(dl, eid);
}

#define READS(route, what) sbx_reads(&f.sbx, route, what)   /* counted by the sandbox */

/* A browser where export eid (downloads to dl) became ready, then the sandbox's clock moved
 * on by seconds. */
static void ready_export_aged(double seconds, char *eid, size_t n, char *dl, size_t dl_size)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };

	pf_open(&f, &o);
	ready_export_to(eid, n, dl, dl_size);
	cr_assert_eq(sbx_advance(&f.sbx, seconds), 0);
}

/* `d` on the export in the activity pane, and Enter in its dialog. */
static void press_download(void)
{
	pf_keys(&f, "4 d");
	pf_expect(&f, "Download export");
	pf_keys(&f, "<Enter>");
}

/* A download whose link expired meanwhile (the sandbox's clock moved two hours: the file
 * server refuses the link the browser read, 403) reads the export again, once, and downloads
 * with the fresh link: no `r` needed. The sandbox counts one read of the export and two file
 * requests, the first refused; the row says where the file went. */
Test(activity, a_download_with_an_expired_link_reads_the_export_again_and_downloads)
{
	char eid[64], dl[300];

	ready_export_aged(2 * 3600, eid, sizeof eid, dl, sizeof dl);
	long exports = READS("/api/v1/exports/:id", "received");
	long files = READS("/files/exports/:id", "received");
	long refused = READS("/files/exports/:id", "refused");
	cr_assert(exports >= 0 && files >= 0 && refused >= 0, "the sandbox's counters cannot be read");
	press_download();
	pf_wait_text(&f, "Saved ");
	cr_assert_eq(READS("/api/v1/exports/:id", "received") - exports, 1);
	cr_assert_eq(READS("/files/exports/:id", "received") - files, 2);
	cr_assert_eq(READS("/files/exports/:id", "refused") - refused, 1);
	pf_keys(&f, "<Esc>");
	expect_line_with(" ready ", "downloaded to ");
	expect_downloaded(dl, eid);
}

/* A download that fails for good (a day on the export has expired: its link is refused and
 * the export read again has no file) is recorded on the export's row, which now says
 * expired, and said in the dialog; nothing is left in the directory. */
Test(activity, a_download_of_an_expired_export_is_recorded_as_failed)
{
	char eid[64], dl[300];

	ready_export_aged(25 * 3600, eid, sizeof eid, dl, sizeof dl);
	press_download();
	pf_expect(&f, "is now expired: export again");   /* the dialog */
	pf_keys(&f, "<Esc>");
	expect_line_with(" expired ", "download failed: ");
	expect_nothing_left(dl);
}

/* What the user reads after cancelling a download, at a width where the Progress column cuts
 * them: the download's job row and its export's row in the same plain words, the export's
 * recorded end ("download cancelled"; the job row once said "cancelled while downloading:
 * ID"), and the status line says it whole. */
static void cancel_download_at(int cols)
{
	struct pf_opts o = { .rows = 24, .cols = cols, .sandbox_args = demo30 };
	char eid[64], dl[300];

	cancel_download_in_dialog(&o, eid, sizeof eid, dl, sizeof dl);
	pf_keys(&f, "<Esc>");
	expect_line_with(" downl… ", " download can");   /* the job's row (Kind cut) */
	expect_line_with(" ready ", " download can");        /* the export's */
	pf_reject(&f, "cancelled wh");
	expect_status("job 1: download cancelled");
}

Test(activity, a_cancelled_download_reads_the_same_at_80_columns)
{
	cancel_download_at(80);
}

Test(activity, a_cancelled_download_reads_the_same_at_120_columns)
{
	cancel_download_at(120);
}

/* A download's end is kept in the state file with its export: after quitting and starting
 * again, the export's row (read again from the server, still ready) says where the file
 * went. */
Test(activity, a_downloads_end_is_still_shown_after_a_restart)
{
	char eid[64], dl[300];

	ready_export_aged(0, eid, sizeof eid, dl, sizeof dl);
	press_download();
	pf_wait_text(&f, "Saved ");
	pf_keys(&f, "<Esc>");
	expect_line_with(" ready ", "downloaded to ");
	restart();
	const struct store_activity *a = store_activity_find(app_store(f.app), STORE_ACT_EXPORT, eid);
	cr_assert(a && a->state, "the export was not read again after the restart");
	pf_keys(&f, "4");
	pf_expect(&f, "Activity 1");
	expect_line_with(" ready ", "downloaded to ");
}

/* ... but not when the export moved on meanwhile: it expired while steno was not running,
 * and its row says so, without the download that spoke of the ready export. */
Test(activity, a_restored_end_goes_when_the_export_moved_on)
{
	char eid[64], dl[300];

	ready_export_aged(0, eid, sizeof eid, dl, sizeof dl);
	press_download();
	pf_wait_text(&f, "Saved ");
	pf_keys(&f, "<Esc>");
	cr_assert_eq(sbx_advance(&f.sbx, 25 * 3600), 0);
	restart();
	pf_keys(&f, "4");
	pf_expect(&f, " expired ");
	pf_reject(&f, "downloaded to ");
}

/* A download made by the shell (`steno download`, the same jobs) is recorded in the state
 * file too: the browser started after it says where the file went. */
Test(activity, the_shells_download_shows_on_its_exports_row_after_a_restart)
{
	char eid[64], dl[300], cmd[1024];

	ready_export_aged(0, eid, sizeof eid, dl, sizeof dl);
	const char *bin = getenv("STENO_BIN");
	cr_assert_not_null(bin);
	/* the environment already points XDG_STATE_HOME at the test's dir */
	snprintf(cmd, sizeof cmd,
		 "STENO_BASE_URL='%s' STENO_API_KEY='%s' STENO_ORG_ID='%s' '%s' download -o '%s' '%s' "
		 ">/dev/null 2>&1", f.sbx.base_url, f.sbx.api_key, f.sbx.org_id, bin, dl, eid);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	expect_downloaded(dl, eid);
	restart();
	pf_keys(&f, "4");
	expect_line_with(" ready ", "downloaded to ");
}
