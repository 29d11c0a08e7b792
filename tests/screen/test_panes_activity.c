/* Screen tests of the activity pane, notifications and state changes as the sandbox's
 * clock moves. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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

Test(activity, watched_export_runs_to_ready_with_a_notice)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };
	char tid[64], body[256];
	long status = 0;

	pf_open(&f, &o);
	find_state("automatic_done", tid, sizeof tid);
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}", tid);
	json_object *e = sbx_call(&f.sbx, "POST", "exports", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	char eid[64];
	snprintf(eid, sizeof eid, "%s", sbx_str(e, "id"));
	json_object_put(e);

	cr_assert_eq(app_watch(f.app, STORE_ACT_EXPORT, eid), 0);
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
	pf_expect(&f, "•Vorlesung Übun… transcrib…");
	cr_assert_eq(sbx_advance(&f.sbx, 8 * 3600), 0);
	pf_keys(&f, "R");
	pf_expect(&f, " Vorlesung Übun… done");
}

Test(activity, an_idle_screen_sets_no_timer)
{
	struct pf_opts o = { .rows = 24, .cols = 100 };   /* no demo data: nothing changes */

	pf_open(&f, &o);
	pf_expect(&f, "No transcriptions here yet.");
	cr_assert_eq(app_wait_timeout(f.app), -1, "the loop would wake up by itself");
}

Test(activity, changing_items_are_polled_on_a_timer)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo30 };

	pf_open(&f, &o);
	long t = app_wait_timeout(f.app);
	cr_assert(t > 0 && t <= 60000, "timeout %ld", t);
}
