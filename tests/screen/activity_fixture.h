#ifndef STENO_TESTS_SCREEN_ACTIVITY_FIXTURE_H
#define STENO_TESTS_SCREEN_ACTIVITY_FIXTURE_H

/* The fixture of the activity pane's screen tests (test_panes_activity.c, and the downloads'
 * test_panes_downloads.c): the browser on a demo sandbox, a finished transcription to
 * export, an export watched, a job stepped to a step, and a restart on the same state. */

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

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

#endif
