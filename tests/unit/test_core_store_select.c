/* tui/core store: the sort keys (natural names, cost, tags; unknown values last both ways)
 * and store_view_select with a query (core/query.h). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store.h"
#include "store_select.h"

static struct steno_store *st;
static struct steno_error err;

#ifdef STORE_SELECT_SQL
/* The same tests with the store on disk and every list selected in SQL (core/store_list.c):
 * the same rows in the same order as in memory. */
#include "core/localdb.h"
#include "core_helpers.h"
#include "store_db_helpers.h"

static char *dir;

static void setup(void)
{
	char cache[512];
	dir = core_tmpdir();
	snprintf(cache, sizeof cache, "%s/cache", dir);
	steno_error_clear(&err);
	st = store_db_open_at(cache, NULL, &err);
	store_list_set_sql_min(0);
	store_select_want_sql = true;
}

static void teardown(void)
{
	store_free(st);
	core_rm_rf(dir);
}
#else
static void setup(void)
{
	st = store_new();
	cr_assert_not_null(st);
	steno_error_clear(&err);
}

static void teardown(void)
{
	store_free(st);
}
#endif

TestSuite(store_select, .init = setup, .fini = teardown);

/* A page of items {id, name, cost (-1: none), tags JSON} for the sort tests. */
static struct store_view *sort_items(const char *const (*rows)[4], size_t n)
{
	struct store_view *v = store_view_get(st, "1", NULL, NULL, true);
	char items[4000] = "", one[400];
	for (size_t i = 0; i < n; i++) {
		char cost[40] = "";
		if (strcmp(rows[i][2], "-1"))
			snprintf(cost, sizeof cost, ",\"costInCents\":%s", rows[i][2]);
		snprintf(one, sizeof one, "%s{\"id\":\"%s\",\"name\":\"%s\",\"state\":\"%s\","
			 "\"language\":\"%s\",\"tags\":[%s]%s}", i ? "," : "", rows[i][0], rows[i][1],
			 i % 2 ? "failed" : "automatic_done", i % 3 ? "fr-FR" : "en-US", rows[i][3], cost);
		strncat(items, one, sizeof items - strlen(items) - 1);
	}
	char body[4200];
	struct steno_transcription_page p;
	snprintf(body, sizeof body, "{\"results\":[%s]}", items);
	cr_assert_eq(steno_transcription_page_parse(body, strlen(body), &p, &err), 0, "%s",
		     err.message);
	cr_assert_eq(store_view_add_page(st, v, &p, true, 1000, &err), 1);
	return v;
}

static const char *const sort_rows[][4] = {
	{ "c10", "Commande n°10", "250", "\"urgent\",\"b\"" },
	{ "c2", "Commande n°2", "-1", "" },
	{ "c1", "commande n°1", "1200", "\"draft\"" },
	{ "c9", "Commande n°9", "90", "\"urgent\"" },
	{ "cx", "Commande", "90", "\"Urgent\",\"a\"" },
};

Test(store_select, name_sort_is_natural)
{
	struct store_view *v = sort_items(sort_rows, 5);
	char got[200];
	struct store_query q = { .sort = STORE_SORT_NAME };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "cx c1 c2 c9 c10 ");
	q.descending = true;
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "c10 c9 c2 c1 cx ");
}

Test(store_select, cost_sort_puts_unknown_last_both_ways)
{
	struct store_view *v = sort_items(sort_rows, 5);
	char got[200];
	struct store_query q = { .sort = STORE_SORT_COST };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "c9 cx c10 c1 c2 ");   /* ties keep server order */
	q.descending = true;
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "c1 c10 c9 cx c2 ");
	cr_assert_str_eq(store_sort_name(STORE_SORT_COST), "cost");
}

Test(store_select, tags_sort_tag_by_tag_untagged_last)
{
	struct store_view *v = sort_items(sort_rows, 5);
	char got[200];
	struct store_query q = { .sort = STORE_SORT_TAGS };
	store_select_ids(st, v, &q, got, sizeof(got));
	/* draft < Urgent < urgent (case folded, then byte order), a list before the longer
	 * list it starts; no tags last */
	cr_assert_str_eq(got, "c1 cx c9 c10 c2 ", "%s", got);
	q.descending = true;
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "c10 c9 cx c1 c2 ", "%s", got);
	cr_assert_str_eq(store_sort_name(STORE_SORT_TAGS), "tags");
}

Test(store_select, select_with_a_query)
{
	struct store_view *v = sort_items(sort_rows, 5);
	char got[200];
	struct store_query q = { .sort = STORE_SORT_NAME };
	cr_assert_eq(store_select_where(st, v, "state:failed", &q, got, sizeof(got)), 2);
	cr_assert_str_eq(got, "c2 c9 ");
	cr_assert_eq(store_select_where(st, v, "-draft lang:fr", &q, got, sizeof(got)), 2);
	cr_assert_str_eq(got, "cx c2 ");
	cr_assert_eq(store_select_where(st, v, "cost>2 urgent", &q, got, sizeof(got)), 1);
	cr_assert_str_eq(got, "c10 ");
	cr_assert_eq(store_select_where(st, v, "n°1", &q, got, sizeof(got)), 2);   /* n°1 and n°10 */
	cr_assert_eq(store_select_where(st, v, "", &q, got, sizeof(got)), 5);
}
