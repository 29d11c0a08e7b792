/* tui/core/store_db + store_cache: the store written through to the local store on disk and
 * fed from it: a view's rows and order, details, activity; cached rows dropped only where a
 * read proves it (page 1's range; a read of every page). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/localdb.h"
#include "core/store.h"
#include "core_helpers.h"
#include "store_db_helpers.h"

#define ORG "6411621"
#define NEXT "http://127.0.0.1:1/api/v1/transcriptions?organization_id=" ORG "&page="

static char *dir;
static char cache[512];
static struct steno_error err;
static int64_t wall = 1700000000000;

static int64_t fake_wall(void *ud)
{
	(void)ud;
	return wall;
}

static struct steno_store *store_open(void)
{
	return store_db_open_at(cache, fake_wall, &err);
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

TestSuite(store_db, .init = setup, .fini = teardown);

/* A page of items "id:state" separated by spaces. */
static void page(struct steno_store *st, struct store_view *v, const char *items, int next,
		 bool first, bool live)
{
	static char body[65536];
	strcpy(body, "{\"results\":[");
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", items);
	bool comma = false;
	for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(tok, ':');
		*colon = '\0';
		char one[512];
		snprintf(one, sizeof one,
			 "%s{\"id\":\"%s\",\"name\":\"Interview %s\",\"state\":\"%s\","
			 "\"language\":\"en\",\"tags\":[\"a\",\"b\"],\"costInCents\":12,"
			 "\"createdAt\":\"2024-05-01T12:00:00Z\","
			 "\"_links\":{\"self\":{\"editorUrl\":\"https://e/%s\"}}}",
			 comma ? "," : "", tok, tok, colon + 1, tok);
		strcat(body, one);
		comma = true;
	}
	strcat(body, "]");
	if (next) {
		char link[256];
		snprintf(link, sizeof link, ",\"_links\":{\"next\":{\"url\":\"%s%d\"}}", NEXT,
			 next);
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

static void assert_ids(struct steno_store *st, const struct store_view *v, const char *want)
{
	char got[1024] = "";
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			strcat(got, " ");
		strcat(got, v->ids[i]);
		cr_assert_not_null(store_view_item(st, v, i), "record of %s", v->ids[i]);
	}
	cr_assert_str_eq(got, want);
}

static struct store_view *view(struct steno_store *st)
{
	struct store_view *v = store_view_get(st, ORG, NULL, NULL, true);
	cr_assert_not_null(v);
	return v;
}

Test(store_db, rows_come_back_in_order_with_their_fields)
{
	struct steno_store *a = store_open();
	struct store_view *v = view(a);
	page(a, v, "1:automatic_done 2:failed 3:ingesting", 2, true, false);
	page(a, v, "4:automatic_done 5:automatic_done", false, false, false);
	cr_assert(v->end);
	store_free(a);

	wall += 180000;   /* three minutes later, another process */
	struct steno_store *b = store_open();
	struct store_view *w = view(b);
	cr_assert_eq(store_view_load_cached(b, w, 5000), 5);
	assert_ids(b, w, "1 2 3 4 5");
	cr_assert(w->cached);
	cr_assert_eq(w->cached_wall_ms, wall - 180000, "when the rows were read");
	cr_assert_eq(w->pages, 0, "no live page yet");
	const struct store_transcription *r = store_view_item(b, w, 1);
	cr_assert_str_eq(r->t.name, "Interview 2");
	cr_assert_str_eq(r->t.state, "failed");
	cr_assert_eq(r->t.tags.n, 2);
	cr_assert_eq(r->t.cost_cents.v, 12);
	cr_assert_str_eq(r->t.editor_url, "https://e/2");
	cr_assert(r->cached);
	cr_assert_eq(r->state_changed_ms, 5000 - 180000, "times turned into the caller's clock");
	/* loading twice, or a view already read, fills nothing */
	cr_assert_eq(store_view_load_cached(b, w, 5000), 0);
	store_free(b);
}

Test(store_db, page1_drops_only_within_its_range)
{
	struct steno_store *a = store_open();
	struct store_view *v = view(a);
	page(a, v, "1:x 2:x 3:x", 2, true, false);
	page(a, v, "4:x 5:x 6:x", 3, false, false);
	store_free(a);

	struct steno_store *b = store_open();
	struct store_view *w = view(b);
	cr_assert_eq(store_view_load_cached(b, w, 0), 6);
	/* the server deleted 2 and 5, and has a new 0: page 1 is 0 1 3 (next link). 2 stood
	 * within page 1's range: gone; 4 5 6 lie beyond it: kept until proven */
	page(b, w, "0:x 1:x 3:x", 2, true, false);
	assert_ids(b, w, "0 1 3 4 5 6");
	cr_assert(w->cached, "the tail is not proven yet");
	cr_assert_str_eq(w->next_url, NEXT "2");
	/* page 2 (the last): the read of every page proves 5 gone */
	page(b, w, "4:x 6:x", false, false, false);
	assert_ids(b, w, "0 1 3 4 6");
	cr_assert_not(w->cached);
	store_free(b);

	/* and the db says so for the next start */
	struct steno_store *c = store_open();
	struct store_view *x = view(c);
	cr_assert_eq(store_view_load_cached(c, x, 0), 5);
	assert_ids(c, x, "0 1 3 4 6");
	store_free(c);
}

Test(store_db, page1_without_next_is_the_whole_list)
{
	struct steno_store *a = store_open();
	struct store_view *v = view(a);
	page(a, v, "1:x 2:x 3:x 4:x", false, true, false);
	store_free(a);
	struct steno_store *b = store_open();
	struct store_view *w = view(b);
	cr_assert_eq(store_view_load_cached(b, w, 0), 4);
	page(b, w, "1:x 3:x", false, true, false);
	assert_ids(b, w, "1 3");
	cr_assert_not(w->cached);
	cr_assert(w->end);
	store_free(b);
}

Test(store_db, live_merge_and_removal_written_through)
{
	struct steno_store *a = store_open();
	struct store_view *v = view(a);
	page(a, v, "1:x 2:x 3:x", false, true, false);
	page(a, v, "9:x 1:x 2:x 3:x", false, false, true);  /* a live re-read: 9 is new */
	store_transcription_remove(a, "2");                  /* answered 404 */
	assert_ids(a, v, "9 1 3");
	store_free(a);
	struct steno_store *b = store_open();
	struct store_view *w = view(b);
	cr_assert_eq(store_view_load_cached(b, w, 0), 3);
	assert_ids(b, w, "9 1 3");
	cr_assert_eq(store_transcription_load_cached(b, "2", 0), 0, "removed from the db");
	store_free(b);
}

Test(store_db, details_and_activity_come_back)
{
	struct steno_store *a = store_open();
	const char *body = "{\"id\":\"77\",\"name\":\"Detailed\",\"state\":\"failed\","
			   "\"failureReason\":\"no_audio\",\"failureMessage\":\"silent\","
			   "\"_links\":{\"self\":{\"editorUrl\":\"https://e/77\","
			   "\"downloadUrl\":\"https://d/77\"}}}";
	struct steno_transcription t;
	cr_assert_eq(steno_transcription_parse(body, strlen(body), &t, &err), 0);
	cr_assert_eq(store_transcription_put(a, &t, true, 0, &err), 1);
	struct steno_export e = {.id = strdup("e1"), .state = strdup("ready"),
				 .format = strdup("srt"), .download_link = strdup("https://d/e1")};
	cr_assert_eq(store_export_put(a, &e, true, 0, &err), 1);
	store_free(a);

	struct steno_store *b = store_open();
	cr_assert_eq(store_transcription_load_cached(b, "77", 0), 1);
	const struct store_transcription *r = store_transcription_get(b, "77");
	cr_assert(r->detailed);
	cr_assert(r->cached, "details from the db are read again");
	cr_assert_str_eq(r->t.failure_reason, "no_audio");
	cr_assert_str_eq(r->t.failure_message, "silent");
	cr_assert_str_eq(r->t.download_url, "https://d/77");
	cr_assert_eq(store_activity_load_cached(b, STORE_ACT_EXPORT, "e1", 0), 1);
	const struct store_activity *x = store_activity_find(b, STORE_ACT_EXPORT, "e1");
	cr_assert_not_null(x);
	cr_assert_str_eq(x->state, "ready");
	cr_assert_str_eq(x->export_.format, "srt");
	cr_assert_str_eq(x->export_.download_link, "https://d/e1");
	cr_assert(x->watched);
	/* a live answer clears the cached mark */
	cr_assert_eq(steno_transcription_parse(body, strlen(body), &t, &err), 0);
	store_transcription_put(b, &t, true, 0, &err);
	cr_assert_not(store_transcription_get(b, "77")->cached);
	cr_assert_null(store_db_error(b));
	store_free(b);
}

/* Two processes (a browser and a command) write the same store at once: no write fails,
 * every page of each arrives. */
static void writer(int who)
{
	struct steno_store *st = store_open();
	struct store_view *v = store_view_get(st, who ? "B" : "A", NULL, NULL, true);
	for (int p = 0; p < 30; p++) {
		char items[512] = "";
		for (int i = 0; i < 10; i++) {
			char one[32];
			snprintf(one, sizeof one, "%s%c%d:x", i ? " " : "", 'a' + who, p * 10 + i);
			strcat(items, one);
		}
		page(st, v, items, p < 29 ? p + 2 : 0, p == 0, false);
	}
	int bad = store_db_error(st) != NULL;
	store_free(st);
	_exit(bad);
}

Test(store_db, two_processes_write_at_once)
{
	core_race(2, writer);
	struct steno_store *st = store_open();
	for (int who = 0; who < 2; who++) {
		struct store_view *v = store_view_get(st, who ? "B" : "A", NULL, NULL, true);
		cr_assert_eq(store_view_load_cached(st, v, 0), 300);
	}
	store_free(st);
}

/* "p0:x p1:x ..." of ids from..to-1 */
static const char *ids(int from, int to)
{
	static char buf[4096];
	buf[0] = '\0';
	for (int i = from; i < to; i++) {
		char one[32];
		snprintf(one, sizeof one, "%sr%d:x", i > from ? " " : "", i);
		strcat(buf, one);
	}
	return buf;
}

/* A large cached list comes in chunks: the first rows at once, the rest by
 * store_views_load_more, in order, none twice, also when a live page 1 came between. */
Test(store_db, large_list_loads_in_chunks)
{
	struct steno_store *a = store_open();
	struct store_view *v = view(a);
	int total = STORE_CACHE_FIRST + 700;
	for (int p = 0; p * 100 < total; p++)
		page(a, v, ids(p * 100, p * 100 + 100 < total ? p * 100 + 100 : total),
		     p * 100 + 100 < total ? p + 2 : 0, p == 0, false);
	cr_assert_eq(v->n, (size_t)total);
	store_free(a);

	struct steno_store *b = store_open();
	struct store_view *w = view(b);
	cr_assert_eq(store_view_load_cached(b, w, 0), STORE_CACHE_FIRST);
	cr_assert(store_views_cache_pending(b));
	/* page 1 arrives first: a new row, and r0..r99 but r50 (deleted: within its range) */
	char first[4096] = "rnew:x ";
	strcat(first, ids(0, 50));
	strcat(first, " ");
	strcat(first, ids(51, 100));
	page(b, w, first, 2, true, false);
	cr_assert_eq(w->n, (size_t)STORE_CACHE_FIRST, "rnew in, r50 out");
	long more = 0;
	while (store_views_cache_pending(b))
		more += store_views_load_more(b, 0, 300);
	cr_assert_eq(more, total - STORE_CACHE_FIRST);
	cr_assert_eq(w->n, (size_t)total);
	cr_assert_str_eq(w->ids[0], "rnew");
	cr_assert_str_eq(w->ids[51], "r51");
	cr_assert_str_eq(w->ids[100], "r100");
	char last[32];
	snprintf(last, sizeof last, "r%d", total - 1);
	cr_assert_str_eq(w->ids[total - 1], last);
	for (size_t i = 1; i < w->n; i++)
		cr_assert_str_neq(w->ids[i], w->ids[i - 1]);
	store_free(b);
}
