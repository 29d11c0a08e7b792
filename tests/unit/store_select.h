#ifndef STENO_TEST_STORE_SELECT_H
#define STENO_TEST_STORE_SELECT_H

/* The store's filter and sort as text, for the store unit tests: the ids a store_list
 * (core/store_list.h) gives, in order, each followed by a space. */

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/query.h"
#include "core/store.h"
#include "core/store_list.h"

/* Set by a test binary whose store has a db and store_list_set_sql_min(0): every sorted or
 * filtered selection must then have run in SQL. */
static bool store_select_want_sql;

static inline long store_select_ids(struct steno_store *st, struct store_view *v,
				    const struct store_query *q, char *out, size_t n)
{
	struct store_list *l = store_list_new();
	cr_assert_not_null(l);
	long c = store_list_update(st, l, v, q);
	cr_assert_geq(c, 0);
	if (store_select_want_sql && q && (q->where || q->sort != STORE_SORT_SERVER))
		cr_assert(store_list_in_sql(l), "the selection ran in memory");
	out[0] = '\0';
	for (long i = 0; i < c; i++) {
		const struct store_transcription *t = store_list_item(st, l, i);
		cr_assert_not_null(t, "row %ld of %ld", i, c);
		strncat(out, t->t.id, n - strlen(out) - 1);
		strncat(out, " ", n - strlen(out) - 1);
	}
	cr_assert_eq(c > 0 ? store_list_find(st, l, store_list_item(st, l, c - 1)->t.id) : c - 1,
		     c - 1);
	store_list_free(st, l);
	return c;
}

/* store_select_ids with the filter `where` parsed into q->where. */
static inline long store_select_where(struct steno_store *st, struct store_view *v,
				      const char *where, struct store_query *q, char *out,
				      size_t n)
{
	struct query parsed;
	char why[128];
	cr_assert_eq(query_parse(&parsed, where, why, sizeof why), 0, "%s", why);
	q->where = &parsed;
	long c = store_select_ids(st, v, q, out, n);
	q->where = NULL;
	query_free(&parsed);
	return c;
}

#endif
