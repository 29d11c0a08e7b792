/* tui/core jobs against a real steno-sandbox: upload then create, export then wait then
 * download, translation task and order, confirm then wait, failures and cancel. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../integration/sandbox_fixture.h"
#include "core/jobs.h"
#include "core/jobs_extra.h"
#include "core/state.h"
#include "core/store.h"

static struct sbx sb;
static struct steno_http *http;
static struct steno_store *store;
static struct steno_state state;
static struct steno_jobs *jm;
static struct steno_error err;
static char dir[64];
static int events;

static void on_event(void *ud, const struct steno_job *job)
{
	(void)ud;
	(void)job;
	events++;
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	static const char *const extra[] = { "--clock-speed", "200", NULL };
	cr_assert_eq(sbx_start(&sb, extra), 0, "sandbox did not start");
	snprintf(dir, sizeof(dir), "/tmp/steno-jobs-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	steno_error_clear(&err);
	struct steno_http_config hc = { .base_url = sb.base_url, .api_key = sb.api_key };
	cr_assert_eq(steno_http_new(&hc, &http, &err), 0, "%s", err.message);
	store = store_new();
	state_init(&state);
	struct jobs_config jc = { .http = http, .store = store, .state = &state,
				  .organization_id = sb.org_id, .poll_min_ms = 50,
				  .poll_max_ms = 400, .requests_per_second = 50,
				  .on_event = on_event };
	jm = jobs_new(&jc, &err);
	cr_assert_not_null(jm, "%s", err.message);
	events = 0;
}

static void teardown(void)
{
	jobs_free(jm);
	store_free(store);
	state_free(&state);
	steno_http_free(http);
	sbx_stop(&sb);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", dir);
}

TestSuite(jobs, .init = setup, .fini = teardown, .timeout = 60);

static const struct steno_job *run(int id)
{
	cr_assert_gt(id, 0, "%s", err.message);
	cr_assert_eq(jobs_run(jm, 30000), 0, "jobs did not finish");
	const struct steno_job *j = jobs_get(jm, id);
	cr_assert_not_null(j);
	return j;
}

static char *write_wav(double seconds)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/talk.wav", dir);
	size_t len;
	void *wav = sbx_make_wav(seconds, &len);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(wav, 1, len, f), len);
	fclose(f);
	free(wav);
	return path;
}

/* Uploads a WAV and transcribes it, waiting; returns the transcription id (static). */
static const char *transcribe_one(void)
{
	static char id[64];
	struct steno_transcription_create_req r = { .name = "Talk", .language = "en-US",
						    .organization_id = sb.org_id,
						    .folder = "Interviews/2024" };
	const struct steno_job *j = run(jobs_transcribe(jm, &r, write_wav(2), true, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s: %s", jobs_step_name(j->step), j->error.message);
	cr_assert_str_eq(j->state, "automatic_done");
	cr_assert_eq(j->n_result_ids, 1);
	snprintf(id, sizeof(id), "%s", j->resource_id);
	return id;
}

Test(jobs, upload_then_create_then_wait)
{
	const char *id = transcribe_one();
	cr_assert_gt(events, 3);
	const struct store_transcription *r = store_transcription_get(store, id);
	cr_assert_not_null(r, "not in the store");
	cr_assert_str_eq(r->t.state, "automatic_done");
	cr_assert_eq(state.n_folders, 1);
	cr_assert_str_eq(state.folders[0].path, "/Interviews/2024");
	cr_assert_str_eq(state.folders[0].org_id, sb.org_id);
}

Test(jobs, invalid_request_makes_no_job)
{
	struct steno_transcription_create_req r = { .name = "x", .language = "xx-XX",
						    .organization_id = sb.org_id };
	cr_assert_eq(jobs_transcribe(jm, &r, write_wav(1), true, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_INVALID);
	cr_assert_str_eq(err.field, "language");
	cr_assert_eq(jobs_count(jm), 0);
	r.language = "en-US";
	cr_assert_eq(jobs_transcribe(jm, &r, "/nonexistent/file.wav", true, &err), -1);
	cr_assert_eq(jobs_count(jm), 0);
}

Test(jobs, failed_transcription_fails_the_job)
{
	struct steno_transcription_create_req r = { .name = "gone", .language = "en-US",
						    .organization_id = sb.org_id,
						    .tmp_url = "http://127.0.0.1:9/nothing.wav" };
	const struct steno_job *j = run(jobs_transcribe(jm, &r, NULL, true, &err));
	cr_assert_eq(j->step, JOB_STEP_FAILED);
	cr_assert_eq(j->error.kind, STENO_ERR_JOB);
	cr_assert_str_eq(j->error.code, "download_failed", "%s", j->error.message);
}

Test(jobs, export_wait_download)
{
	const char *id = transcribe_one();
	const char *ids[] = { id };
	struct steno_export_create_req r = { .format = "txt", .transcription_ids = ids,
					     .n_transcription_ids = 1, .show_speakers = true };
	const struct steno_job *j = run(jobs_export(jm, &r, dir, "talk.txt", false, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_not_null(j->file);
	struct stat st;
	cr_assert_eq(stat(j->file, &st), 0);
	cr_assert_gt(st.st_size, 0);
	cr_assert_not_null(store_activity_find(store, STORE_ACT_EXPORT, j->resource_id));
	/* again without overwrite: refused, the file stays */
	j = run(jobs_export(jm, &r, dir, "talk.txt", false, &err));
	cr_assert_eq(j->step, JOB_STEP_FAILED);
	cr_assert_eq(j->error.kind, STENO_ERR_IO, "%s", j->error.message);
}

/* A ready export of a finished transcription (no download); its id into eid. */
static void ready_export(char *eid, size_t n)
{
	const char *id = transcribe_one();
	const char *ids[] = { id };
	struct steno_export_create_req r = { .format = "txt", .transcription_ids = ids,
					     .n_transcription_ids = 1 };
	const struct steno_job *j = run(jobs_export(jm, &r, NULL, NULL, false, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	snprintf(eid, n, "%s", j->resource_id);
}

static const struct store_activity *export_of(const char *eid)
{
	const struct store_activity *a = store_activity_find(store, STORE_ACT_EXPORT, eid);
	cr_assert(a && a->export_.download_link, "export %s is not ready in the store", eid);
	return a;
}

static long reads(const char *route, const char *what)
{
	long n = sbx_reads(&sb, route, what);
	cr_assert_geq(n, 0, "the sandbox's counters cannot be read");
	return n;
}

#define EXPORT_ROUTE "/api/v1/exports/:id"
#define FILE_ROUTE "/files/exports/:id"

/* The download of a ready export is a job of its own, its end recorded on the export in the
 * store in jobs_end_text's words. A file that exists is refused before any job exists. */
Test(jobs, download_records_its_end_on_the_export)
{
	char eid[64], text[STORE_JOB_END_MAX], want[600];
	ready_export(eid, sizeof eid);
	const struct steno_job *j = run(jobs_download(jm, &export_of(eid)->export_, dir, "talk.txt",
						      false, &err));
	cr_assert_eq(j->kind, JOB_DOWNLOAD);
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_str_eq(j->resource_id, eid);
	snprintf(want, sizeof want, "downloaded to %s/talk.txt", dir);
	cr_assert_str_eq(jobs_end_text(j, text, sizeof text), want);
	cr_assert_str_eq(export_of(eid)->job_end, want);
	cr_assert_not(export_of(eid)->job_end_failed);
	cr_assert_eq(jobs_download(jm, &export_of(eid)->export_, dir, "talk.txt", false, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_IO, "%s", err.message);
	cr_assert_eq(jobs_count(jm), 3, "a refused download left a job");
}

/* A link that expired (the sandbox's clock moved two hours: the file server answers 403) is
 * read again once, from the export, and the download goes on with the fresh link: counted by
 * the sandbox, one read of the export and two file requests, the first refused. The store
 * keeps the fresh link. */
Test(jobs, download_with_an_expired_link_reads_the_export_once_and_downloads)
{
	char eid[64], want[600];
	ready_export(eid, sizeof eid);
	char *stale = strdup(export_of(eid)->export_.download_link);
	long exports = reads(EXPORT_ROUTE, "received"), files = reads(FILE_ROUTE, "received");
	cr_assert_eq(sbx_advance(&sb, 2 * 3600), 0);
	const struct steno_job *j = run(jobs_download(jm, &export_of(eid)->export_, dir, "again.txt",
						      false, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	snprintf(want, sizeof want, "downloaded to %s/again.txt", dir);
	cr_assert_str_eq(export_of(eid)->job_end, want);
	cr_assert_eq(reads(EXPORT_ROUTE, "received") - exports, 1);
	cr_assert_eq(reads(FILE_ROUTE, "received") - files, 2);
	cr_assert_eq(reads(FILE_ROUTE, "refused"), 1);
	cr_assert_str_neq(export_of(eid)->export_.download_link, stale);
	free(stale);
}

/* When the export read again has no file any more (a day on: expired), the download fails
 * for good, once, saying why, and is recorded as failed on the export; nothing is left. */
Test(jobs, download_of_an_expired_export_fails_once_and_is_recorded)
{
	char eid[64], path[600];
	struct stat st;
	ready_export(eid, sizeof eid);
	long files = reads(FILE_ROUTE, "received");
	cr_assert_eq(sbx_advance(&sb, 25 * 3600), 0);
	const struct steno_job *j = run(jobs_download(jm, &export_of(eid)->export_, dir, "late.txt",
						      false, &err));
	cr_assert_eq(j->step, JOB_STEP_FAILED);
	cr_assert_eq(j->ended_while, JOB_STEP_DOWNLOADING);
	cr_assert(strstr(j->error.message, "expired"), "%s", j->error.message);
	cr_assert_eq(reads(EXPORT_ROUTE, "refused"), 0);
	cr_assert_eq(reads(FILE_ROUTE, "received") - files, 1, "the expired export's file was asked again");
	const struct store_activity *a = store_activity_find(store, STORE_ACT_EXPORT, eid);
	cr_assert(a && a->job_end_failed);
	cr_assert_eq(strncmp(a->job_end, "download failed: ", 17), 0, "%s", a->job_end);
	cr_assert_str_eq(a->export_.state, "expired");
	snprintf(path, sizeof path, "%s/late.txt.part", dir);
	cr_assert_neq(stat(path, &st), 0, "a .part is left");
}

/* Cancelled while it runs: recorded as such, no .part left, and the same name downloads
 * again whole. */
Test(jobs, cancelled_download_is_recorded_and_leaves_nothing)
{
	char eid[64], path[600];
	struct stat st;
	ready_export(eid, sizeof eid);
	int id = jobs_download(jm, &export_of(eid)->export_, dir, "talk.txt", false, &err);
	cr_assert_gt(id, 0, "%s", err.message);
	cr_assert_eq(jobs_cancel(jm, id), 0);
	const struct steno_job *j = jobs_get(jm, id);
	cr_assert_eq(j->step, JOB_STEP_CANCELLED);
	cr_assert_eq(j->ended_while, JOB_STEP_DOWNLOADING);
	cr_assert_str_eq(export_of(eid)->job_end, "download cancelled");
	cr_assert_eq(steno_http_pending(http), 0);
	snprintf(path, sizeof path, "%s/talk.txt.part", dir);
	cr_assert_neq(stat(path, &st), 0, "a .part is left");
	j = run(jobs_download(jm, &export_of(eid)->export_, dir, "talk.txt", false, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_eq(stat(j->file, &st), 0);
	cr_assert_gt(st.st_size, 0);
}

/* Any job that ends records it on what it follows: an export job cancelled while it waits
 * leaves "cancelled while waiting" on the export (test_core_store: until its state moves). */
Test(jobs, cancelled_wait_is_recorded_until_the_state_moves)
{
	const char *id = transcribe_one();
	const char *ids[] = { id };
	struct steno_export_create_req r = { .format = "txt", .transcription_ids = ids,
					     .n_transcription_ids = 1 };
	int job = jobs_export(jm, &r, NULL, NULL, false, &err);
	cr_assert_gt(job, 0, "%s", err.message);
	for (int i = 0; i < 200 && jobs_get(jm, job)->step != JOB_STEP_WAITING; i++) {
		steno_http_poll(http, NULL, 0, 50);
		steno_http_perform(http);
	}
	const struct steno_job *j = jobs_get(jm, job);
	cr_assert_eq(j->step, JOB_STEP_WAITING, "%s", jobs_step_name(j->step));
	char eid[64];
	snprintf(eid, sizeof eid, "%s", j->resource_id);
	cr_assert_eq(jobs_cancel(jm, job), 0);
	const struct store_activity *a = store_activity_find(store, STORE_ACT_EXPORT, eid);
	cr_assert_not_null(a);
	cr_assert_str_eq(a->job_end, "cancelled while waiting");
	cr_assert_not(a->job_end_failed);
}

/* An export without a link is refused before any job exists. */
Test(jobs, download_needs_a_ready_export)
{
	char id[] = "e1", processing[] = "processing";
	struct steno_export e = { .id = id, .state = processing };
	cr_assert_eq(jobs_download(jm, &e, dir, NULL, false, &err), -1);
	cr_assert_eq(jobs_count(jm), 0);
	cr_assert_eq(steno_http_pending(http), 0);
}

Test(jobs, translation_task_and_order)
{
	const char *id = transcribe_one();
	struct steno_translation_task_req t = { .source_transcription_id = id,
						.target_language = "fr" };
	const struct steno_job *j = run(jobs_translation_task(jm, &t, true, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_str_eq(j->state, "done");
	cr_assert_eq(j->n_result_ids, 1);
	cr_assert_eq(sbx_set_credit(&sb, sb.org_id, 1000000), 0);
	const char *langs[] = { "de", "es" };
	struct steno_translation_order_req o = { .source_transcription_id = id,
						 .target_languages = langs,
						 .n_target_languages = 2, .confirm = true };
	j = run(jobs_translation_order(jm, &o, true, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_str_eq(j->state, "fulfilled");
	cr_assert_geq(j->n_result_ids, 2);
}

Test(jobs, order_unconfirmed_then_confirm_and_wait)
{
	cr_assert_eq(sbx_set_credit(&sb, sb.org_id, 1000000), 0);
	struct steno_order_create_req r = { .language = "en-US", .organization_id = sb.org_id,
					    .name = "Order talk" };
	const struct steno_job *j = run(jobs_order(jm, &r, write_wav(2), true, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_str_eq(j->state, "incomplete");
	char oid[64];
	snprintf(oid, sizeof(oid), "%s", j->resource_id);
	j = run(jobs_confirm(jm, oid, true, &err));
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_str_eq(j->state, "fulfilled");
	const struct store_activity *a = store_activity_find(store, STORE_ACT_ORDER, oid);
	cr_assert_not_null(a);
	cr_assert(a->finished);
	/* confirming again is refused by the server (422): the job fails, nothing repeats */
	j = run(jobs_confirm(jm, oid, true, &err));
	cr_assert_eq(j->step, JOB_STEP_FAILED);
	cr_assert_eq(j->error.http_status, 422);
}

Test(jobs, locked_order_stops_waiting)
{
	cr_assert_eq(sbx_set_credit(&sb, sb.org_id, 0), 0);
	struct steno_order_create_req r = { .language = "en-US", .organization_id = sb.org_id,
					    .confirm = true };
	const struct steno_job *j = run(jobs_order(jm, &r, write_wav(2), true, &err));
	cr_assert_eq(j->step, JOB_STEP_FAILED, "%s", jobs_step_name(j->step));
	cr_assert_str_eq(j->error.code, "locked", "%s", j->error.message);
}

Test(jobs, cancel_and_forget)
{
	struct steno_transcription_create_req r = { .name = "c", .language = "en-US",
						    .organization_id = sb.org_id };
	int id = jobs_transcribe(jm, &r, write_wav(1), true, &err);
	cr_assert_gt(id, 0);
	cr_assert_eq(jobs_active(jm), 1);
	cr_assert_eq(jobs_cancel(jm, id), 0);
	cr_assert_eq(jobs_get(jm, id)->step, JOB_STEP_CANCELLED);
	cr_assert_eq(jobs_active(jm), 0);
	cr_assert_eq(jobs_run(jm, 1000), 0);
	cr_assert_eq(steno_http_pending(http), 0);
	cr_assert_eq(jobs_cancel(jm, id), -1);
	jobs_forget(jm, id);
	cr_assert_null(jobs_get(jm, id));
	cr_assert_eq(jobs_timeout_ms(jm), -1);
}

static void on_delete_done(void *ud, const struct steno_error *e)
{
	(void)e;
	(*(int *)ud)++;
}

/* A delete still in flight when the engine goes: its context is freed with it, by the
 * endpoint call's drop hook (the leak checker of the sanitizer build would report it
 * otherwise; the teardown frees the engine). */
Test(jobs, delete_in_flight_is_dropped_with_the_engine)
{
	int called = 0;
	cr_assert_eq(jobs_extra_delete(http, store, "no-such-id", false, on_delete_done, &called, &err),
		     0, "%s", err.message);
	cr_assert_eq(steno_http_pending(http), 1);
}

/* Cancelled by the caller's tag (a dialog closing): nobody is called back, the request is
 * gone and its context freed. */
Test(jobs, delete_cancelled_by_its_owner)
{
	int called = 0;
	cr_assert_eq(jobs_extra_delete(http, store, "no-such-id", false, on_delete_done, &called, &err),
		     0, "%s", err.message);
	jobs_extra_cancel(http, &called);
	cr_assert_eq(steno_http_pending(http), 0);
	cr_assert_eq(called, 0, "a cancelled request calls nobody");
}
