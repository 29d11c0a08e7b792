/* tui/core/store + store_db + store_list: with a local store attached, the list's records
 * live in the db and the store keeps a bounded cache of them in memory (store_records_held
 * <= STORE_RECS_MAX after each page), while every row stays reachable, sorted, filtered and
 * found, a live re-read merges against what is known, and rows removed on the server go
 * away on the first read of every page. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/localdb.h"
#include "core/query.h"
#include "core/store.h"
#include "core/store_list.h"
#include "core_helpers.h"
#include "store_db_helpers.h"

#define ORG "6411621"
#define NEXT "http://127.0.0.1:1/api/v1/transcriptions?organization_id=" ORG "&page="
#define ROWS 3000
#define PAGE 100
/* what a page may add over the bound before the next page trims */
#define HELD_MAX (STORE_RECS_MAX + PAGE)

static char *dir;
static char cache[512];
static struct steno_error err;

static struct steno_store *store_open(void)
{
	return store_db_open_at(cache, NULL, &err);
}

static void setup(void)
{
	dir = core_tmpdir();
	snprintf(cache, sizeof cache, "%s/cache", dir);
	steno_error_clear(&err);
}

static void teardown(void)
{
	core_rm_rf(dir);
}

TestSuite(store_window, .init = setup, .fini = teardown);

/* Row k: id "t%05d", name "Interview n°k", French every third row, else English. */
static void item(char *buf, size_t n, int k, const char *state)
{
	snprintf(buf, n,
		 "{\"id\":\"t%05d\",\"name\":\"Interview n°%d\",\"state\":\"%s\","
		 "\"language\":\"%s\",\"tags\":[\"a\"],\"costInCents\":%d,"
		 "\"createdAt\":\"2024-05-01T12:00:00Z\","
		 "\"_links\":{\"self\":{\"editorUrl\":\"https://e/%d\"}}}",
		 k, k, state, k % 3 == 0 ? "fr" : "en", k, k);
}

/* Page p (0-based) of rows [from, to), skipping those for which skip(k) holds; `live`: a
 * re-read of page 1 merged into what is known. */
static void page(struct steno_store *st, struct store_view *v, int from, int to, bool more,
		 bool first, bool live, bool (*skip)(int), const char *state)
{
	static char body[PAGE * 400 + 512];
	char one[400];
	strcpy(body, "{\"results\":[");
	bool comma = false;
	for (int k = from; k < to; k++) {
		if (skip && skip(k))
			continue;
		if (comma)
			strcat(body, ",");
		item(one, sizeof one, k, state);
		strcat(body, one);
		comma = true;
	}
	strcat(body, "]");
	if (more) {
		char link[256];
		snprintf(link, sizeof link, ",\"_links\":{\"next\":{\"url\":\"%s%d\"}}", NEXT,
			 to / PAGE + 1);
		strcat(body, link);
	}
	strcat(body, "}");
	struct steno_transcription_page p;
	cr_assert_eq(steno_transcription_page_parse(body, strlen(body), &p, &err), 0, "%s",
		     err.message);
	int rc = live ? store_view_merge_head(st, v, &p, 1000, &err)
		      : store_view_add_page(st, v, &p, first, 1000, &err);
	cr_assert_geq(rc, 0, "%s", err.message);
}

static void load_all(struct steno_store *st, struct store_view *v, bool (*skip)(int))
{
	for (int from = 0; from < ROWS; from += PAGE) {
		page(st, v, from, from + PAGE, from + PAGE < ROWS, from == 0, false, skip, "done");
		cr_assert_leq(store_records_held(st), HELD_MAX, "%zu records held after row %d",
			      store_records_held(st), from + PAGE);
	}
	cr_assert(v->end);
}

static struct store_view *view(struct steno_store *st)
{
	struct store_view *v = store_view_get(st, ORG, NULL, NULL, true);
	cr_assert_not_null(v);
	return v;
}

/* Every row of v in order: row k's record, with its fields. */
static void assert_rows(struct steno_store *st, struct store_view *v, bool (*skip)(int))
{
	size_t i = 0;
	char id[16], name[40];
	for (int k = 0; k < ROWS; k++) {
		if (skip && skip(k))
			continue;
		cr_assert_lt(i, v->n);
		const struct store_transcription *r = store_view_item(st, v, i++);
		snprintf(id, sizeof id, "t%05d", k);
		snprintf(name, sizeof name, "Interview n°%d", k);
		cr_assert_not_null(r, "row %zu", i - 1);
		cr_assert_str_eq(r->t.id, id);
		cr_assert_str_eq(r->t.name, name);
		cr_assert_eq(r->t.cost_cents.v, k);
		if (i % 500 == 0)
			store_trim(st, 1000);
	}
	cr_assert_eq(i, v->n);
	store_trim(st, 1000);
	cr_assert_leq(store_records_held(st), STORE_RECS_MAX);
}

static long select_rows(struct steno_store *st, struct store_view *v, const char *where,
			enum store_sort sort, bool desc, struct store_list *l)
{
	struct query parsed;
	char why[128];
	struct store_query q = { .sort = sort, .descending = desc };
	if (where) {
		cr_assert_eq(query_parse(&parsed, where, why, sizeof why), 0, "%s", why);
		q.where = &parsed;
	}
	long n = store_list_update(st, l, v, &q);
	if (where)
		query_free(&parsed);
	return n;
}

Test(store_window, a_long_list_is_held_bounded_and_read_from_the_db)
{
	struct steno_store *st = store_open();
	struct store_view *v = view(st);
	load_all(st, v, NULL);
	cr_assert_eq(v->n, ROWS);
	assert_rows(st, v, NULL);

	/* sorted by name, descending: natural order, n°2999 first */
	struct store_list *l = store_list_new();
	cr_assert_eq(select_rows(st, v, NULL, STORE_SORT_NAME, true, l), ROWS);
	cr_assert_str_eq(store_list_item(st, l, 0)->t.id, "t02999");
	cr_assert_str_eq(store_list_item(st, l, ROWS - 1)->t.id, "t00000");
	cr_assert_str_eq(store_list_item(st, l, 1500)->t.id, "t01499");
	cr_assert_eq(store_list_find(st, l, "t00010"), ROWS - 11);
	/* filtered: a third is French */
	cr_assert_eq(select_rows(st, v, "lang:fr", STORE_SORT_SERVER, false, l), ROWS / 3);
	cr_assert_str_eq(store_list_item(st, l, 2)->t.id, "t00006");
	cr_assert_eq(store_list_find(st, l, "t00009"), 3);
	cr_assert_eq(store_list_find(st, l, "t00010"), -1);
	/* as listed: found by id without reading every record */
	cr_assert_eq(select_rows(st, v, NULL, STORE_SORT_SERVER, false, l), ROWS);
	store_trim(st, 1000);
	cr_assert_eq(store_list_find(st, l, "t02998"), 2998);
	cr_assert_leq(store_records_held(st), STORE_RECS_MAX, "find read every record");
	/* every row's id (what marking every row needs), listed and sorted, reads no record */
	for (long i = 0; i < ROWS; i++)
		cr_assert_not_null(store_list_id(st, l, i));
	cr_assert_str_eq(store_list_id(st, l, 7), "t00007");
	cr_assert_eq(select_rows(st, v, NULL, STORE_SORT_NAME, false, l), ROWS);
	for (long i = 0; i < ROWS; i++)
		cr_assert_not_null(store_list_id(st, l, i));
	cr_assert_str_eq(store_list_id(st, l, ROWS - 1), "t02999");
	cr_assert_null(store_list_id(st, l, ROWS));
	cr_assert_leq(store_records_held(st), STORE_RECS_MAX, "ids read records");
	/* find by id: a row not held is read again */
	const struct store_transcription *r = store_transcription_get(st, "t00001");
	cr_assert_not_null(r);
	cr_assert_str_eq(r->t.name, "Interview n°1");
	cr_assert_not(r->cached, "read by this process");
	store_list_free(st, l);
	store_free(st);
}

Test(store_window, live_merge_against_rows_not_held)
{
	struct steno_store *st = store_open();
	struct store_view *v = view(st);
	load_all(st, v, NULL);
	/* page 1 read again: its rows' state changed. The records are read back to be merged
	 * (their other fields kept), marked as changed by the live read */
	page(st, v, 0, PAGE, true, false, true, NULL, "failed");
	cr_assert_eq(v->n, ROWS);
	const struct store_transcription *r = store_view_item(st, v, 5);
	cr_assert_str_eq(r->t.state, "failed");
	cr_assert_str_eq(r->t.editor_url, "https://e/5");
	cr_assert_eq(r->live_ms, 1000);
	r = store_view_item(st, v, PAGE + 5);
	cr_assert_str_eq(r->t.state, "done");
	cr_assert_eq(r->live_ms, 0);
	cr_assert_leq(store_records_held(st), HELD_MAX);
	store_free(st);
}

static int state_news;   /* changes of state told with the state before */

static void on_change(void *ud, const struct store_event *ev)
{
	(void)ud;
	if ((ev->what & STORE_WHAT_TRANSCRIPTION) && ev->state_changed && ev->old_state &&
	    !strcmp(ev->old_state, "done"))
		state_news++;
}

Test(store_window, a_fresh_read_merges_against_rows_not_held)
{
	struct steno_store *st = store_open();
	struct store_view *v = view(st);
	load_all(st, v, NULL);
	cr_assert_null(store_view_item_held(st, v, 5), "row 5 let go of");
	cr_assert_gt(store_listen(st, on_change, NULL, NULL), 0);
	/* R: page 1 read again from the start (not a live merge): the list starts again, and
	 * its rows' records are read back to be merged, so their change of state is told as
	 * one (from "done"), not as new records */
	state_news = 0;
	page(st, v, 0, PAGE, true, true, false, NULL, "failed");
	cr_assert_eq(v->n, PAGE);
	cr_assert_eq(state_news, PAGE);
	cr_assert_str_eq(store_view_item(st, v, 5)->t.state, "failed");
	/* the rest of the read, to its end */
	for (int from = PAGE; from < ROWS; from += PAGE)
		page(st, v, from, from + PAGE, from + PAGE < ROWS, false, false, NULL, "done");
	cr_assert_eq(v->n, ROWS);
	cr_assert_eq(v->prev_n, 0, "the read reached the end");
	cr_assert_eq(state_news, PAGE);
	cr_assert_leq(store_records_held(st), HELD_MAX);
	store_free(st);
}

static bool gone(int k)
{
	return k % 7 == 3;
}

Test(store_window, rows_removed_on_the_server_go_on_the_first_full_read)
{
	struct steno_store *a = store_open();
	load_all(a, view(a), NULL);
	store_free(a);

	/* the next start: the cached rows, then the server's pages without the rows gone */
	struct steno_store *b = store_open();
	struct store_view *w = view(b);
	cr_assert_gt(store_view_load_cached(b, w, 2000), 0);
	while (store_views_cache_pending(b))
		store_views_load_more(b, 2000, STORE_CACHE_CHUNK);
	cr_assert_eq(w->n, ROWS);
	cr_assert(w->cached);
	load_all(b, w, gone);
	cr_assert_not(w->cached, "proven by the read of every page");
	int left = 0, fr = 0;
	for (int k = 0; k < ROWS; k++) {
		left += !gone(k);
		fr += !gone(k) && k % 3 == 0;
	}
	cr_assert_eq(w->n, (size_t)left);
	assert_rows(b, w, gone);
	struct store_list *l = store_list_new();
	cr_assert_eq(select_rows(b, w, NULL, STORE_SORT_NAME, false, l), left);
	cr_assert_eq(store_list_find(b, l, "t00003"), -1);
	cr_assert_eq(select_rows(b, w, "lang:fr", STORE_SORT_SERVER, false, l), fr);
	store_list_free(b, l);
	store_free(b);
}
