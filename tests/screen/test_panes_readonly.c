/* --read-only means one thing: every action of the browser is pressed (by its key, in the
 * transcriptions and in the activity pane, and by name from `:`) and the sandbox's own
 * database must not change: no transcription, order, export, task or upload made, nothing
 * deleted, confirmed or charged. The help and the status bar say what is refused and why;
 * a ready export still downloads (a local write), the preview still reads the transcript. */
#include "config.h"

#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"
#include "ui/actions.h"
#include "ui/app_internal.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", NULL };

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(readonly, .fini = teardown);

/* Everything a write could leave in the sandbox's database, as one string (caller frees):
 * the rows of transcriptions (deleted, name, tags), orders (submitted), exports, tasks,
 * uploads and the organizations' credit. */
static char *server_snapshot(void)
{
	static const char sql[] =
		"SELECT group_concat(x, ';') FROM ("
		" SELECT 't:' || id || ':' || deleted || ':' || name || ':' || tags AS x FROM transcriptions"
		" UNION ALL SELECT 'o:' || id || ':' || coalesce(submitted_at, '-') FROM orders"
		" UNION ALL SELECT 'e:' || id FROM exports"
		" UNION ALL SELECT 'k:' || id FROM tasks"
		" UNION ALL SELECT 'u:' || token FROM uploads"
		" UNION ALL SELECT 'c:' || id || ':' || credit_cents FROM orgs ORDER BY 1)";
	char path[600];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	snprintf(path, sizeof path, "%s/sandbox.db", f.sbx.dir);
	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK, "%s", path);
	sqlite3_busy_timeout(db, 5000);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	const unsigned char *text = sqlite3_column_text(st, 0);
	char *copy = strdup(text ? (const char *)text : "");
	cr_assert_not_null(copy);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return copy;
}

/* The first default key of an action, as a key script. */
static void first_key(enum action_id id, char *buf, size_t size)
{
	const char *keys = action_info(id)->keys;
	size_t n = strcspn(keys, " ");
	snprintf(buf, size, "%.*s", (int)n, keys);
}

/* Closes whatever the key opened and puts the focus back on the list (2) or activity (4). */
static void back_to(const char *pane)
{
	pf_keys(&f, "<Esc>");
	pf_keys(&f, "<Esc>");
	pf_keys(&f, pane);
}

/* Presses the key of every action but quit, each followed by Esc. */
static void press_every_action(const char *pane)
{
	for (int id = ACT_NONE + 1; id < ACT_COUNT; id++) {
		char key[32];
		if (id == ACT_QUIT || id == ACT_CANCEL)
			continue;
		first_key((enum action_id)id, key, sizeof key);
		pf_keys(&f, key);
		pf_settle(&f);
		back_to(pane);
	}
}

/* Runs every action by name from the `:` prompt. */
static void run_every_action_by_name(const char *pane)
{
	for (int id = ACT_NONE + 1; id < ACT_COUNT; id++) {
		if (id == ACT_QUIT)
			continue;
		pf_keys(&f, ":");
		for (const char *c = action_info((enum action_id)id)->name; *c; c++) {
			char k[4] = { *c, 0 };
			pf_keys(&f, k);
		}
		pf_keys(&f, "<Enter>");
		back_to(pane);
	}
}

/* A ready export of a finished transcription, made by the test (before the snapshot). */
static void make_ready_export(char *eid, size_t n)
{
	char path[256], body[256], tid[64] = "";
	long status = 0;

	snprintf(path, sizeof path, "transcriptions?organization_id=%s", f.sbx.org_id);
	json_object *o = sbx_call(&f.sbx, "GET", path, NULL, &status);
	json_object *res = sbx_get(o, "results");
	for (size_t i = 0; !tid[0] && i < json_object_array_length(res); i++) {
		json_object *t = json_object_array_get_idx(res, i);
		if (!strcmp(sbx_str(t, "state"), "automatic_done"))
			snprintf(tid, sizeof tid, "%s", sbx_str(t, "id"));
	}
	json_object_put(o);
	cr_assert(tid[0]);
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}", tid);
	json_object *e = sbx_call(&f.sbx, "POST", "exports", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(eid, n, "%s", sbx_str(e, "id"));
	json_object_put(e);
	cr_assert_eq(sbx_advance(&f.sbx, 60), 0);
}

/* The browser in --read-only, with a ready export watched in the activity pane; returns the
 * server's snapshot from then (caller frees). */
static char *open_read_only(void)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30, .read_only = 1 };
	char eid[64];

	pf_open(&f, &o);
	make_ready_export(eid, sizeof eid);
	cr_assert_eq(app_watch(f.app, STORE_ACT_EXPORT, eid), 0);
	pf_settle(&f);
	return server_snapshot();
}

Test(readonly, every_action_leaves_the_server_unchanged)
{
	char *before = open_read_only();

	/* the list, with the cursor on the third row (a finished transcription) */
	pf_keys(&f, "2 j j");
	press_every_action("2");
	run_every_action_by_name("2");
	/* the activity pane, on the ready export */
	pf_keys(&f, "4");
	press_every_action("4");
	run_every_action_by_name("4");

	char *after = server_snapshot();
	cr_assert_str_eq(after, before, "a write reached the server under --read-only");
	free(before);
	free(after);
}

Test(readonly, refusals_say_why_and_reads_still_work)
{
	char *before = open_read_only();

	pf_keys(&f, "2 j j e");
	pf_expect(&f, "read-only: export is refused: it creates an export");
	pf_keys(&f, ": d e l e t e <Enter>");
	pf_expect(&f, "read-only: delete is refused: it deletes on the server");
	pf_keys(&f, "d");
	pf_expect(&f, "read-only: a transcription needs a new export; see activity (4)");
	/* the help says what read-only means, and each refusal's reason */
	pf_keys(&f, "?");
	pf_expect(&f, "--read-only: nothing that changes or spends anything on the server");
	pf_keys(&f, "<Esc>");
	/* the preview reads the transcript through its downloadUrl */
	pf_keys(&f, "p");
	pf_wait_text(&f, "Speaker");
	pf_keys(&f, "q");
	/* a ready export downloads from the activity pane: the dialog opens, not refused */
	pf_keys(&f, "4 d");
	pf_expect(&f, "Download export");
	pf_keys(&f, "<Esc>");

	char *after = server_snapshot();
	cr_assert_str_eq(after, before, "a write reached the server under --read-only");
	free(before);
	free(after);
}

/* At 80 columns a refusal is read whole: the status bar's left part gives way to it. */
Test(readonly, a_refusal_is_whole_at_80_columns)
{
	struct pf_opts o = { .rows = 24, .cols = 80, .sandbox_args = demo30, .read_only = 1 };

	pf_open(&f, &o);
	pf_keys(&f, "2 a");
	pf_expect(&f, "read-only: new-transcription is refused: it spends credit");
	pf_keys(&f, "j e");
	pf_expect(&f, "read-only: export is refused: it creates an export");
	pf_keys(&f, "j d");
	pf_expect(&f, "read-only: a transcription needs a new export; see activity (4)");
}
