/* A download job whose link the file server refuses reads the export again, once, and goes
 * on with the fresh link; a fresh link refused too ends the job (never a loop). Against
 * engine_server.c, a stand-in that can refuse every link and counts what it receives. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../integration/engine_server.h"
#include "core/jobs.h"
#include "core/store.h"

static struct engine_server srv;
static struct steno_http *http;
static struct steno_store *store;
static struct steno_jobs *jm;
static struct steno_error err;
static char dir[64];

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(engine_server_start(&srv), 0);
	snprintf(dir, sizeof dir, "/tmp/steno-jobs-link-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	steno_error_clear(&err);
	struct steno_http_config hc = { .base_url = srv.base, .api_key = "k" };
	cr_assert_eq(steno_http_new(&hc, &http, &err), 0, "%s", err.message);
	store = store_new();
	struct jobs_config jc = { .http = http, .store = store };
	jm = jobs_new(&jc, &err);
	cr_assert_not_null(jm, "%s", err.message);
}

static void teardown(void)
{
	jobs_free(jm);
	store_free(store);
	steno_http_free(http);
	engine_server_stop(&srv);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", dir);
}

TestSuite(jobs_link, .init = setup, .fini = teardown, .timeout = 30);

/* Export e1 as the server answers a read of it: ready, its link on path. */
static void export_read_gives(const char *path)
{
	srv.canned_get_status = 200;
	snprintf(srv.canned_get, sizeof srv.canned_get,
		 "{\"id\":\"e1\",\"state\":\"ready\",\"format\":\"txt\",\"transcription_ids\":[\"t1\"],"
		 "\"download_link\":\"http://127.0.0.1:%d%s\"}", srv.port, path);
}

/* Downloads export e1 whose kept link is /dl-expired (refused: 403) as talk.txt. */
static const struct steno_job *download_refused_link(void)
{
	char link[128], id[] = "e1", ready[] = "ready";
	snprintf(link, sizeof link, "http://127.0.0.1:%d/dl-expired", srv.port);
	struct steno_export e = { .id = id, .state = ready, .download_link = link };
	int job = jobs_download(jm, &e, dir, "talk.txt", false, &err);
	cr_assert_gt(job, 0, "%s", err.message);
	cr_assert_eq(jobs_run(jm, 20000), 0, "the job did not end");
	return jobs_get(jm, job);
}

Test(jobs_link, a_refused_link_is_read_again_once_then_downloads)
{
	export_read_gives("/dl/talk.txt");
	const struct steno_job *j = download_refused_link();
	cr_assert_eq(j->step, JOB_STEP_DONE, "%s", j->error.message);
	cr_assert_eq(engine_server_hits(&srv, "GET", "/api/v1/exports/e1"), 1);
	cr_assert_eq(engine_server_hits(&srv, "GET", "/dl-expired"), 1);
	cr_assert_eq(engine_server_hits(&srv, "GET", "/dl/talk.txt"), 1);
	struct stat st;
	cr_assert_eq(stat(j->file, &st), 0);
	cr_assert_eq(st.st_size, 15);
}

Test(jobs_link, a_fresh_link_refused_too_fails_the_job_once)
{
	export_read_gives("/dl-expired");
	const struct steno_job *j = download_refused_link();
	cr_assert_eq(j->step, JOB_STEP_FAILED);
	cr_assert_eq(j->error.http_status, 403, "%s", j->error.message);
	cr_assert_eq(engine_server_hits(&srv, "GET", "/api/v1/exports/e1"), 1);
	cr_assert_eq(engine_server_hits(&srv, "GET", "/dl-expired"), 2);
	const struct store_activity *a = store_activity_find(store, STORE_ACT_EXPORT, "e1");
	cr_assert(a && a->job_end_failed);
	cr_assert_eq(strncmp(a->job_end, "download failed: ", 17), 0, "%s", a->job_end);
	char path[128];
	snprintf(path, sizeof path, "%s/talk.txt.part", dir);
	cr_assert_neq(access(path, F_OK), 0, "a .part is left");
}

Test(jobs_link, an_export_that_cannot_be_read_again_fails_the_job)
{
	srv.canned_get_status = 404;
	snprintf(srv.canned_get, sizeof srv.canned_get,
		 "{\"error\":\"not_found\",\"message\":\"no export e1\"}");
	const struct steno_job *j = download_refused_link();
	cr_assert_eq(j->step, JOB_STEP_FAILED);
	cr_assert_eq(j->error.http_status, 404, "%s", j->error.message);
	cr_assert(strstr(j->error.message, "the link was refused"), "%s", j->error.message);
	cr_assert_eq(engine_server_hits(&srv, "GET", "/dl-expired"), 1);
}
