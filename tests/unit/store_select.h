#ifndef STENO_TEST_STORE_SELECT_H
#define STENO_TEST_STORE_SELECT_H

/* The store's filter and sort as text, for the store unit tests: the ids store_view_select
 * gives, in order, each followed by a space. */

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/query.h"
#include "core/store.h"

static inline long store_select_ids(struct steno_store *st, struct store_view *v,
				    const struct store_query *q, char *out, size_t n)
{
	size_t *idx;
	long c = store_view_select(st, v, q, &idx);
	cr_assert_geq(c, 0);
	out[0] = '\0';
	for (long i = 0; i < c; i++) {
		strncat(out, store_view_item(st, v, idx[i])->t.id, n - strlen(out) - 1);
		strncat(out, " ", n - strlen(out) - 1);
	}
	free(idx);
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
