/* Marks: translating several transcriptions into several languages at once (orders and the
 * superseded tasks) until the translated transcriptions exist, and deleting with a
 * confirmation that says what is lost. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_dialog_fixture.h"
#include "ui/dialog_delete.h"
#include "ui/dialog_translate.h"

/* Two done transcriptions of the demo data, in the store. */
static void two_done(struct dfx *x, char a[64], char b[64])
{
	struct store_view *v = store_view_get(x->store, x->sb.org_id, NULL, NULL, false);
	cr_assert_not_null(v);
	a[0] = b[0] = '\0';
	for (size_t i = 0; i < v->n && !b[0]; i++) {
		const struct store_transcription *t = store_view_item(x->store, v, i);
		if (!t->t.state || strcmp(t->t.state, "automatic_done") != 0 || !t->t.language ||
		    strncmp(t->t.language, "en", 2) != 0)
			continue;
		snprintf(a[0] ? b : a, 64, "%s", t->t.id);
	}
	cr_assert(b[0], "two done English transcriptions expected in the demo data");
}

/* Opens the fixture (rows x cols) on the demo data with n (1 or 2) done transcriptions as
 * the dialog's ids (kept in a and b). */
static void open_marked(struct dfx *x, int rows, int cols, size_t n, char a[64], char b[64])
{
	dfx_open(x, rows, cols, 12);
	dfx_load(x);
	two_done(x, a, b);
	const char *ids[2] = { a, b };
	cr_assert_eq(dialog_env_set_ids(&x->env, ids, n), 0);
}

/* The screen shows the text `arg` exactly twice: once for each of the two sources. */
static bool shows_twice(struct dfx *x, const void *arg)
{
	const char *needle = arg;
	char *t = dfx_text();
	int n = 0;
	for (char *p = t; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	free(t);
	return n == 2;
}

Test(dialog_marks, translate_two_into_two_languages)
{
	struct dfx x;
	char a[64], b[64];
	open_marked(&x, 24, 90, 2, a, b);
	long orders = dfx_count(&x, "orders");
	dfx_dialog(&x, &dialog_translate_ops);
	/* nothing chosen: refused next to the field, nothing sent */
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_shows(&x, "! choose at least one language"));
	/* the picker: type to search, Space toggles, Enter closes */
	dfx_type(&x, "fr");
	dfx_keys(&x, "<Space> <BS> <BS>");
	dfx_type(&x, "de");
	dfx_keys(&x, "<Space> <Enter>");
	char *t = dfx_text();
	cr_assert(strstr(t, "fr, de"), "%s", t);
	free(t);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, shows_twice, "waiting", 5000), "orders not created");
	cr_assert_eq(dfx_count(&x, "orders"), orders + 2, "one order per source, both languages");
	cr_assert_eq(x.unmarks, 1);
	cr_assert_eq(sbx_advance(&x.sb, 30), 0);
	cr_assert(dfx_pump(&x, shows_twice, "done / fulfilled -> ", 8000), "no translated transcriptions");
	cr_assert_eq(x.reloads, 1, "the list is reloaded once everything is over");
	dfx_close(&x);
}

Test(dialog_marks, translate_with_tasks)
{
	struct dfx x;
	char a[64], b[64];
	open_marked(&x, 24, 90, 1, a, b);
	long tasks = dfx_count(&x, "tasks");
	dfx_dialog(&x, &dialog_translate_ops);
	dfx_type(&x, "es");
	dfx_keys(&x, "<Space> <Enter> <S-Tab> <Right>");   /* method: tasks */
	char *t = dfx_text();
	cr_assert(!strstr(t, "Webhook") && !strstr(t, "Confirm"), "order-only fields hidden:\n%s", t);
	free(t);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "waiting", 5000));
	t = dfx_text();
	cr_assert_eq(dfx_count(&x, "tasks"), tasks + 1, "%s", t);
	free(t);
	cr_assert_eq(sbx_advance(&x.sb, 200), 0);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "done -> ", 8000), "no translated transcription");
	dfx_close(&x);
}

static long status_of(struct dfx *x, const char *id)
{
	char target[128];
	long status = 0;
	snprintf(target, sizeof target, "transcriptions/%s", id);
	json_object *o = sbx_call(&x->sb, "GET", target, NULL, &status);
	json_object_put(o);
	return status;
}

Test(dialog_marks, delete_says_what_is_lost)
{
	struct dfx x;
	char a[64], b[64];
	open_marked(&x, 24, 80, 2, a, b);
	dfx_dialog(&x, &dialog_delete_ops);
	dfx_golden("dialog_delete_trash");
	/* Cancel has the focus: Enter leaves, nothing deleted */
	dfx_keys(&x, "<Enter>");
	cr_assert_null(x.scr.ui.frame.overlay);
	cr_assert_eq(status_of(&x, a), 200);
	dfx_dialog(&x, &dialog_delete_ops);
	dfx_keys(&x, "<Tab> <Right>");   /* from Cancel round to "How": permanently */
	dfx_golden("dialog_delete_permanent");
	dfx_keys(&x, "<Tab> <Enter>");         /* the Delete button */
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Deleted 2 of 2", 5000), "not deleted");
	cr_assert_eq(status_of(&x, a), 410);
	cr_assert_eq(status_of(&x, b), 410);
	cr_assert_null(store_transcription_get(x.store, a), "the store forgot it");
	cr_assert_eq(x.reloads, 1);
	dfx_close(&x);
}
