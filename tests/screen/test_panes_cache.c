/* Screen tests of the local store (core/localdb.h): a restarted browser draws the rows of
 * its last run at once, says they are cached and how old, before the server answers; the
 * live read then replaces them, and a row the server deleted meanwhile goes. */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/localdb.h"
#include "panes_fixture.h"
#include "ui/app_internal.h"

static struct pf f;
static const struct pf_opts opts = {
	.rows = 30, .cols = 140,
	.sandbox_args = (const char *const[]){ "--seed-demo", "12", "--page-size", "5", NULL },
};

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(cache, .fini = teardown, .timeout = 90);

/* The name and id of row i of the organization's list. */
static void row_of(size_t i, char *name, size_t nsize, char *id, size_t isize)
{
	struct store_view *v = store_view_get(app_store(f.app), f.sbx.org_id, NULL, NULL, false);
	cr_assert_not_null(v);
	cr_assert_gt(v->n, i);
	const struct store_transcription *r = store_view_item(app_store(f.app), v, i);
	snprintf(name, nsize, "%s", r->t.name);
	snprintf(id, isize, "%s", r->t.id);
}

/* The browser again, on the same sandbox, state and cache; one pass only: what it draws
 * before any answer. */
static void start_new(int offline, const char *org_id)
{
	struct ui_options uo = {
		.base_url = f.sbx.base_url, .api_key = f.sbx.api_key, .org_id = org_id,
		.profile = "test", .term = "xterm-256color", .in = f.in, .out = f.out,
		.config = &f.config, .offline = offline,
	};
	char msg[640];
	f.app = app_new(&uo, msg, sizeof msg);
	cr_assert_not_null(f.app, "%s", msg);
	f.quit |= app_step(f.app, 0);
}

static void start_with(int offline, const char *org_id)
{
	app_destroy(f.app);
	start_new(offline, org_id);
}

static void start_as(int offline)
{
	start_with(offline, f.sbx.org_id);
}

static void start_again(void)
{
	start_as(0);
}

/* Runs the loop until the screen no longer holds `needle` (fails after 15 s): with every
 * answer slowed, polls keep a request in flight and the app never settles. */
static void wait_gone(const char *needle)
{
	for (int i = 0; i < 300; i++) {
		char *t = scr_text();
		bool there = strstr(t, needle) != NULL;
		free(t);
		if (!there)
			return;
		f.quit |= app_step(f.app, 50);
	}
	cr_assert_fail("still on screen after 15 s: %s", needle);
}

Test(cache, rows_shown_before_the_first_answer)
{
	pf_open(&f, &opts);
	char name[256], id[64];
	row_of(1, name, sizeof name, id, sizeof id);
	pf_expect(&f, name);
	pf_reject(&f, "cached");
	/* every answer now takes 3 s */
	cr_assert_eq(sbx_set_faults(&f.sbx, "latency=1:3000ms"), 0);
	start_again();
	cr_assert(app_busy(f.app), "the first read is still on its way");
	pf_expect(&f, name);
	pf_expect(&f, ", refreshing");
	pf_expect(&f, "cached ");
	wait_gone("cached ");   /* the live page 1 came */
	cr_assert_eq(sbx_set_faults(&f.sbx, ""), 0);
	pf_settle(&f);
	pf_expect(&f, name);
}

/* No organization configured: the one the store keeps is taken at once, with its name and
 * its cached rows; no "no organization configured" while GET /organizations is on its way. */
Test(cache, stored_organization_before_the_first_answer)
{
	pf_open(&f, &opts);
	char name[256], id[64];
	row_of(1, name, sizeof name, id, sizeof id);
	pf_expect(&f, "Demo Organization");   /* read once: the store keeps it */
	cr_assert_eq(sbx_set_faults(&f.sbx, "latency=1:3000ms"), 0);
	start_with(0, NULL);
	cr_assert(app_busy(f.app), "the first read is still on its way");
	pf_expect(&f, name);
	pf_expect(&f, "cached ");
	pf_expect(&f, "Demo Organization");
	pf_reject(&f, "organization configured");
	pf_reject(&f, "None known");
	cr_assert_eq(sbx_set_faults(&f.sbx, ""), 0);
}

/* An organization configured: its name from the store at once, not its bare id. */
Test(cache, stored_organization_name_before_the_first_answer)
{
	pf_open(&f, &opts);
	pf_expect(&f, "Demo Organization");
	cr_assert_eq(sbx_set_faults(&f.sbx, "latency=1:3000ms"), 0);
	start_again();
	cr_assert(app_busy(f.app), "the first read is still on its way");
	cr_assert(strstr(f.app->ses.status.org, "Demo Organization"), "%s", f.app->ses.status.org);
	pf_expect(&f, "Demo Organization");
	cr_assert_eq(sbx_set_faults(&f.sbx, ""), 0);
}

Test(cache, rows_deleted_on_the_server_go_away)
{
	pf_open(&f, &opts);
	char name[256], id[64], last[256], last_id[64];
	row_of(1, name, sizeof name, id, sizeof id);
	row_of(4, last, sizeof last, last_id, sizeof last_id);
	pf_keys(&f, "G");   /* every page: the cache holds the whole list */
	char path[128];
	long status = 0;
	snprintf(path, sizeof path, "transcriptions/%s", id);
	json_object_put(sbx_call(&f.sbx, "DELETE", path, NULL, &status));
	cr_assert(status == 204 || status == 200, "DELETE -> %ld", status);
	cr_assert_eq(sbx_set_faults(&f.sbx, "latency=1:1500ms"), 0);
	start_again();
	pf_expect(&f, name);   /* the cache does not know yet */
	wait_gone("cached ");
	cr_assert_eq(sbx_set_faults(&f.sbx, ""), 0);
	pf_settle(&f);
	/* page 1 no longer lists it, and it stood within page 1's range: gone */
	pf_reject(&f, name);
	pf_expect(&f, last);
}

static long received(void)
{
	return sbx_received_total(&f.sbx);
}

Test(cache, offline_browses_the_store_and_sends_nothing)
{
	pf_open(&f, &opts);
	char name[256], id[64];
	row_of(1, name, sizeof name, id, sizeof id);
	long before = received();
	start_as(1);
	pf_settle(&f);
	pf_expect(&f, name);
	pf_expect(&f, "offline");
	pf_expect(&f, "Demo Organization");   /* the organizations read last time */
	pf_keys(&f, "j j");                   /* the details of another row, from the store */
	pf_keys(&f, "e");
	pf_expect(&f, "offline: export is refused");
	pf_keys(&f, "R");
	pf_settle(&f);
	cr_assert_eq(received(), before, "offline: the sandbox received nothing");
	cr_assert_not(app_busy(f.app));
}

/* A store whose pages are damaged on disk: the browser opens it without checking them first
 * (a large store's check reads the whole file), checks them once the first frame is drawn,
 * says so in the status line, and the next start sets that file aside with the message. */
Test(cache, damaged_store_found_after_the_first_frame_set_aside_next_start)
{
	pf_open(&f, &opts);
	pf_settle(&f);
	char path[1024];
	snprintf(path, sizeof path, "%s", localdb_path(store_localdb(app_store(f.app))));
	app_destroy(f.app);   /* the last connection: the WAL is written back into the file */
	f.app = NULL;
	int fd = open(path, O_WRONLY);
	cr_assert_geq(fd, 0, "%s", path);
	char junk[4096 * 4];
	memset(junk, 0x5a, sizeof junk);
	cr_assert_eq(pwrite(fd, junk, sizeof junk, 4096 * 2), (ssize_t)sizeof junk);
	close(fd);
	start_new(0, f.sbx.org_id);
	cr_assert_null(strstr(f.app->ses.status.error, "set aside"), "%s", f.app->ses.status.error);
	pf_wait_text(&f, "the local store is damaged");
	cr_assert(strstr(f.app->ses.status.error, "quick_check"), "%s", f.app->ses.status.error);
	char mark[1100];
	snprintf(mark, sizeof mark, "%s.damaged", path);
	cr_assert_eq(access(mark, F_OK), 0, "marked: %s", mark);
	start_again();
	cr_assert(strstr(f.app->ses.status.error, "found by an earlier run's check"), "%s",
		  f.app->ses.status.error);
	cr_assert(strstr(f.app->ses.status.error, "set aside as"), "%s", f.app->ses.status.error);
	pf_wait_text(&f, "was unusable");
}
