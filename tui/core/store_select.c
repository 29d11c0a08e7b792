/* A view's rows filtered and sorted in memory (core/store.h store_view_select): the way of
 * short lists and of `cache = off` (core/store_list.c runs long ones in SQL). */
#include "config.h"
#include "core/store.h"

#include <stdlib.h>
#include <string.h>

#include "core/natsort.h"
#include "core/query.h"

/* ---- filtering and sorting ---- */

const char *store_sort_name(enum store_sort s)
{
	switch (s) {
	case STORE_SORT_SERVER: return "server";
	case STORE_SORT_NAME: return "name";
	case STORE_SORT_CREATED: return "created";
	case STORE_SORT_STATE: return "state";
	case STORE_SORT_LANGUAGE: return "language";
	case STORE_SORT_LENGTH: return "length";
	case STORE_SORT_COST: return "cost";
	case STORE_SORT_TAGS: return "tags";
	}
	return "?";
}

void store_query_item(const struct steno_transcription *t, struct query_item *out)
{
	*out = (struct query_item){
		.id = t->id, .name = t->name, .state = t->state, .language = t->language,
		.tags = (const char *const *)t->tags.v, .n_tags = t->tags.n,
		.has_cost = steno_known(t->cost_cents.st), .cost_cents = t->cost_cents.v,
	};
}

static bool matches(const struct steno_transcription *t, const struct store_query *q)
{
	struct query_item it;

	if (!q->where)
		return true;
	store_query_item(t, &it);
	return query_match(q->where, &it);
}

struct sort_ctx {
	const struct steno_store *st;
	const struct store_view *v;
	enum store_sort key;
	bool desc;
};

/* Unknown (NULL) values last whatever the direction; else natural order. */
static int cmp_str(const char *a, const char *b, bool desc)
{
	if (!a || !b)
		return (a ? -1 : 0) + (b ? 1 : 0);
	int c = natsort_cmp(a, b);
	return desc ? -c : c;
}

static int cmp_num(bool ka, int64_t a, bool kb, int64_t b, bool desc)
{
	if (!ka || !kb)
		return (ka ? -1 : 0) + (kb ? 1 : 0);
	int c = (a > b) - (a < b);
	return desc ? -c : c;
}

/* Tag lists tag by tag; a list that is the start of the other comes first; no tags is
 * unknown (last). */
static int tags_cmp(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	int c = 0;
	for (size_t i = 0; !c && i < na && i < nb; i++)
		c = natsort_cmp(a[i], b[i]);
	return c ? c : (na > nb) - (na < nb);
}

static int cmp_tags(const struct steno_strings *a, const struct steno_strings *b, bool desc)
{
	if (!a->n || !b->n)
		return (a->n ? -1 : 0) + (b->n ? 1 : 0);
	int c = tags_cmp((const char *const *)a->v, a->n, (const char *const *)b->v, b->n);
	return desc ? -c : c;
}

static int cmp_items(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct steno_transcription *a = &store_view_item(c->st, c->v, ia)->t;
	const struct steno_transcription *b = &store_view_item(c->st, c->v, ib)->t;
	int r = 0;
	switch (c->key) {
	case STORE_SORT_SERVER: break;
	case STORE_SORT_NAME: r = cmp_str(a->name, b->name, c->desc); break;
	case STORE_SORT_STATE: r = cmp_str(a->state, b->state, c->desc); break;
	case STORE_SORT_LANGUAGE: r = cmp_str(a->language, b->language, c->desc); break;
	case STORE_SORT_CREATED:
		r = cmp_num(steno_known(a->created_at.st), a->created_at.ms,
			    steno_known(b->created_at.st), b->created_at.ms, c->desc);
		break;
	case STORE_SORT_LENGTH:
		r = cmp_num(steno_known(a->audio_length_s.st), a->audio_length_s.v,
			    steno_known(b->audio_length_s.st), b->audio_length_s.v, c->desc);
		break;
	case STORE_SORT_COST:
		r = cmp_num(steno_known(a->cost_cents.st), a->cost_cents.v,
			    steno_known(b->cost_cents.st), b->cost_cents.v, c->desc);
		break;
	case STORE_SORT_TAGS: r = cmp_tags(&a->tags, &b->tags, c->desc); break;
	}
	if (r == 0 && c->key == STORE_SORT_SERVER && c->desc)
		return (ia < ib) - (ia > ib);
	return r ? r : (ia > ib) - (ia < ib);
}

long store_view_select(const struct steno_store *st, const struct store_view *v,
		       const struct store_query *q, size_t **out)
{
	static const struct store_query all = { 0 };
	if (!q)
		q = &all;
	*out = malloc((v->n ? v->n : 1) * sizeof(**out));
	if (!*out)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct store_transcription *r = store_view_item(st, v, i);
		if (r && matches(&r->t, q))
			(*out)[n++] = i;
	}
	struct sort_ctx c = { st, v, q->sort, q->descending };
	if (q->sort != STORE_SORT_SERVER || q->descending)
		qsort_r(*out, n, sizeof(**out), cmp_items, &c);
	return (long)n;
}
