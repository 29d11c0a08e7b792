/* Screen tests of downloads from the activity pane and the export dialog: cancelled, their
 * link expired, the export expired, and their end on the export's row, after a restart too. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "activity_fixture.h"

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
	expect_line_with(" ready ", "download can");   /* Progress cut: ID and Age fit first */
	expect_nothing_left(dl);
	pf_keys(&f, "r");
	pf_expect(&f, "refreshing ");
	expect_line_with(" ready ", "download can");
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

/* The download-only dialog's footer says what its keys do: Enter starts it (it spends
 * nothing), and so does F2, as in the other forms; F2 does start it. */
Test(activity, the_download_dialogs_footer_names_enter_and_f2)
{
	struct pf_opts o = { .rows = 30, .cols = 140, .sandbox_args = demo30 };
	char eid[64], dl[300];

	pf_open(&f, &o);
	ready_export_to(eid, sizeof eid, dl, sizeof dl);
	pf_keys(&f, "4 d");
	pf_expect(&f, "Download export");
	pf_expect(&f, "Tab: next  Enter/F2: start  Esc: cancel");
	pf_keys(&f, "<F2>");
	pf_wait_text(&f, "Saved ");
	pf_keys(&f, "<Esc>");
	expect_downloaded(dl, eid);
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
	expect_line_with(" download ", " download can");   /* the job's row (Kind whole now) */
	expect_line_with(" ready ", " download");   /* the export's (Progress cut at 80) */
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

/* The end is in the state file as soon as the job ends, not only when steno quits: a
 * browser killed after a download still leaves it to the next one. */
Test(activity, a_downloads_end_is_in_the_state_file_at_once)
{
	char eid[64], dl[300];

	ready_export_aged(0, eid, sizeof eid, dl, sizeof dl);
	press_download();
	pf_wait_text(&f, "Saved ");
	FILE *in = fopen(f.app->state_path, "r");
	cr_assert_not_null(in, "no state file at %s", f.app->state_path);
	char text[65536];
	size_t n = fread(text, 1, sizeof text - 1, in);
	fclose(in);
	text[n] = '\0';
	cr_assert(strstr(text, eid) && strstr(text, "downloaded to "), "%s", text);
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
