/* tui/core store: merges, listeners, views and paging, filtering and sorting, activity. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store.h"
#include "store_select.h"

static struct steno_store *st;
static struct steno_error err;

/* What the listeners saw. */
static struct {
	int list, trans, act, failed, state_changed, finished, failure, keys_changed;
	char last_id[80];
} seen;

static void on_changed(void *user, const struct store_event *ev)
{
	(void)user;
	seen.list += !!(ev->what & STORE_WHAT_LIST);
	seen.trans += !!(ev->what & STORE_WHAT_TRANSCRIPTION);
	seen.act += !!(ev->what & STORE_WHAT_ACTIVITY);
	seen.state_changed += ev->state_changed;
	seen.finished += ev->finished;
	seen.failure += ev->failure;
	seen.keys_changed += ev->keys_changed;
	snprintf(seen.last_id, sizeof(seen.last_id), "%s", ev->id ? ev->id : "");
}

static void on_failed(void *user, const struct store_event *ev)
{
	(void)user;
	cr_assert_not_null(ev->error);
	seen.failed++;
}

static void setup(void)
{
	st = store_new();
	cr_assert_not_null(st);
	cr_assert_gt(store_listen(st, on_changed, on_failed, NULL), 0);
	steno_error_clear(&err);
	memset(&seen, 0, sizeof(seen));
}

static void teardown(void)
{
	store_free(st);
}

TestSuite(store, .init = setup, .fini = teardown);

static const char *item(char *buf, size_t n, const char *id, const char *name, const char *state,
			const char *lang, int len, const char *created, const char *tags)
{
	snprintf(buf, n,
		 "{\"id\":\"%s\",\"name\":\"%s\",\"state\":\"%s\",\"language\":\"%s\","
		 "\"audioLengthInSeconds\":%d,\"createdAt\":\"%s\",\"updatedAt\":\"%s\","
		 "\"tags\":[%s],\"costInCents\":10,\"refunded\":false,\"sharingEnabled\":false,"
		 "\"_links\":{\"self\":{\"editorUrl\":\"https://e/%s\"}}}",
		 id, name, state, lang, len, created, created, tags, id);
	return buf;
}

static void add_page(struct store_view *v, const char *items, const char *next, bool first,
		     int64_t now, int expect)
{
	char body[8192];
	if (next)
		snprintf(body, sizeof(body),
			 "{\"results\":[%s],\"_links\":{\"next\":{\"url\":\"%s\"}}}", items, next);
	else
		snprintf(body, sizeof(body), "{\"results\":[%s]}", items);
	struct steno_transcription_page p;
	cr_assert_eq(steno_transcription_page_parse(body, strlen(body), &p, &err), 0, "%s",
		     err.message);
	cr_assert_eq(store_view_add_page(st, v, &p, first, now, &err), expect);
	cr_assert_null(p.items, "page not taken");
	cr_assert_null(p.next_url);
}

static char b1[600], b2[600], b3[600], b4[600];

static struct store_view *three_items(void)
{
	struct store_view *v = store_view_get(st, "6411621", "12", NULL, true);
	cr_assert_not_null(v);
	char items[2000];
	snprintf(items, sizeof(items), "%s,%s",
		 item(b1, 600, "aa", "Zebra talk", "automatic_done", "en-US", 300,
		      "2024-01-02T00:00:00Z", "\"work\",\"x\""),
		 item(b2, 600, "bb", "apple pie", "ingesting", "fr-FR", 60, "2024-03-01T00:00:00Z",
		      "\"home\""));
	add_page(v, items, "http://127.0.0.1/next", true, 1000, 1);
	cr_assert_not(v->end);
	item(b3, 600, "cc", "Mango", "failed", "de-DE", 0, "2023-12-31T00:00:00Z", "\"work\"");
	add_page(v, b3, NULL, false, 2000, 1);
	cr_assert(v->end);
	cr_assert_eq(v->pages, 2);
	return v;
}

Test(store, pages_and_listeners)
{
	struct store_view *v = three_items();
	cr_assert_eq(v->n, 3);
	cr_assert_eq(seen.list, 2);
	cr_assert_eq(seen.trans, 3);
	const struct store_transcription *r = store_view_item(st, v, 1);
	cr_assert_str_eq(r->t.name, "apple pie");
	cr_assert(r->changing);
	cr_assert_not(store_view_item(st, v, 0)->changing);
	cr_assert_null(store_view_item(st, v, 3));
	/* the same page again: nothing changed, nobody is told */
	memset(&seen, 0, sizeof(seen));
	add_page(v, b3, NULL, false, 3000, 0);
	cr_assert_eq(seen.list + seen.trans, 0);
	cr_assert_eq(v->n, 3);
	/* an empty page ends the list even with a next link */
	struct store_view *w = store_view_get(st, "1", NULL, "a,b", true);
	add_page(w, "", "http://127.0.0.1/more", true, 0, 1);
	cr_assert(w->end);
	cr_assert_str_eq(w->key, "1/?a,b");
	cr_assert_eq(store_view_get(st, "1", NULL, "a,b", false), w);
	cr_assert_null(store_view_get(st, "2", NULL, NULL, false));
}

Test(store, state_change_is_marked)
{
	struct store_view *v = three_items();
	memset(&seen, 0, sizeof(seen));
	item(b4, 600, "bb", "apple pie", "automatic_transcribing", "fr-FR", 60,
	     "2024-03-01T00:00:00Z", "\"home\"");
	add_page(v, b4, NULL, false, 5000, 0); /* list itself unchanged */
	cr_assert_eq(seen.trans, 1);
	cr_assert_eq(seen.state_changed, 1);
	cr_assert_str_eq(seen.last_id, "bb");
	const struct store_transcription *r = store_transcription_get(st, "bb");
	cr_assert_str_eq(r->t.state, "automatic_transcribing");
	cr_assert_eq(r->state_changed_ms, 5000);
	cr_assert_eq(r->updated_ms, 5000);
	cr_assert(r->changing);
}

Test(store, details_merge_keeps_known_fields)
{
	three_items();
	const char *detail = "{\"id\":\"cc\",\"state\":\"failed\",\"failureReason\":\"download_failed\","
			     "\"failureMessage\":\"404 from source\",\"_links\":{\"self\":"
			     "{\"editorUrl\":\"https://e/cc\",\"downloadUrl\":\"https://d/cc\"}}}";
	struct steno_transcription t;
	cr_assert_eq(steno_transcription_parse(detail, strlen(detail), &t, &err), 0);
	memset(&seen, 0, sizeof(seen));
	cr_assert_eq(store_transcription_put(st, &t, true, 7000, &err), 1);
	cr_assert_null(t.id, "struct not taken");
	cr_assert_eq(seen.trans, 1);
	cr_assert_eq(seen.state_changed, 0);
	const struct store_transcription *r = store_transcription_get(st, "cc");
	cr_assert(r->detailed);
	cr_assert_str_eq(r->t.failure_reason, "download_failed");
	cr_assert_str_eq(r->t.download_url, "https://d/cc");
	cr_assert_str_eq(r->t.name, "Mango"); /* kept from the list item */
	cr_assert_eq(r->t.audio_length_s.v, 0);
	/* the same details again: no change */
	cr_assert_eq(steno_transcription_parse(detail, strlen(detail), &t, &err), 0);
	cr_assert_eq(store_transcription_put(st, &t, true, 8000, &err), 0);
	cr_assert_eq(seen.trans, 1);
	/* a list item in another state makes the failure reason stale */
	item(b4, 600, "cc", "Mango", "ingesting", "de-DE", 0, "2023-12-31T00:00:00Z", "\"work\"");
	cr_assert_eq(steno_transcription_parse(b4, strlen(b4), &t, &err), 0);
	cr_assert_eq(store_transcription_put(st, &t, false, 9000, &err), 1);
	cr_assert_null(r->t.failure_reason);
	cr_assert_eq(seen.state_changed, 1);
	/* and its details are to be read again: the new state's reason, links, are not known */
	cr_assert_not(r->detailed);
}

Test(store, put_without_id_fails_and_frees)
{
	struct steno_transcription t;
	const char *body = "{\"name\":\"no id\"}";
	cr_assert_eq(steno_transcription_parse(body, strlen(body), &t, &err), 0);
	cr_assert_eq(store_transcription_put(st, &t, false, 0, &err), -1);
	cr_assert_null(t.name);
	cr_assert_eq(seen.trans, 0);
}

Test(store, filter_and_sort)
{
	struct store_view *v = three_items();
	char got[200];
	cr_assert_eq(store_select_ids(st, v, NULL, got, sizeof(got)), 3);
	cr_assert_str_eq(got, "aa bb cc ");
	struct store_query q = { .sort = STORE_SORT_NAME };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "bb cc aa ");
	q.descending = true;
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "aa cc bb ");
	q = (struct store_query){ .sort = STORE_SORT_CREATED };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "cc aa bb ");
	q = (struct store_query){ .sort = STORE_SORT_LENGTH, .descending = true };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "aa bb cc ");
	q = (struct store_query){ .sort = STORE_SORT_STATE };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "aa cc bb ");
	q = (struct store_query){ .sort = STORE_SORT_LANGUAGE };
	store_select_ids(st, v, &q, got, sizeof(got));
	cr_assert_str_eq(got, "cc aa bb ");
	cr_assert_eq(store_select_where(st, v, "APPLE", &q, got, sizeof(got)), 1);
	cr_assert_str_eq(got, "bb ");
	q.sort = STORE_SORT_NAME;
	store_select_where(st, v, "tag:work", &q, got, sizeof(got));
	cr_assert_str_eq(got, "cc aa ");
	cr_assert_eq(store_select_where(st, v, "lang:fr", &q, got, sizeof(got)), 1);
	cr_assert_eq(store_select_where(st, v, "nothing matches", &q, got, sizeof(got)), 0);
	cr_assert_str_eq(store_sort_name(STORE_SORT_LENGTH), "length");
}

Test(store, remove_and_fail)
{
	struct store_view *v = three_items();
	memset(&seen, 0, sizeof(seen));
	store_transcription_remove(st, "bb");
	cr_assert_eq(v->n, 2);
	cr_assert_null(store_transcription_get(st, "bb"));
	cr_assert_eq(seen.list, 1);
	cr_assert_eq(seen.trans, 1);
	struct steno_error e;
	steno_error_set(&e, STENO_ERR_HTTP, "boom");
	store_view_failed(st, v, &e);
	cr_assert(v->has_error);
	cr_assert_str_eq(v->error.message, "boom");
	store_transcription_failed(st, "aa", &e);
	cr_assert_eq(seen.failed, 2);
	/* a fresh first page clears the error and restarts the list */
	add_page(v, b1, NULL, true, 9000, 1);
	cr_assert_eq(v->n, 1);
	cr_assert_not(v->has_error);
}

Test(store, many_items_stay_findable)
{
	struct store_view *v = store_view_get(st, "o", NULL, NULL, true);
	char items[8000], one[600];
	for (int p = 0; p < 50; p++) {
		items[0] = '\0';
		for (int i = 0; i < 10; i++) {
			char id[16];
			snprintf(id, sizeof(id), "id%03d", p * 10 + i);
			item(one, sizeof(one), id, id, "ingesting", "en", i, "2024-01-01T00:00:00Z", "");
			if (i)
				strcat(items, ",");
			strcat(items, one);
		}
		char next[64]; /* each page its own link: a repeated one is a loop */
		snprintf(next, sizeof next, "http://127.0.0.1/n?p=%d", p + 1);
		add_page(v, items, next, p == 0, p, 1);
	}
	cr_assert_eq(v->n, 500);
	for (int i = 0; i < 500; i += 7) {
		char id[16];
		snprintf(id, sizeof(id), "id%03d", i);
		cr_assert_not_null(store_transcription_get(st, id), "%s", id);
		store_transcription_remove(st, id);
		cr_assert_null(store_transcription_get(st, id));
	}
	cr_assert_not_null(store_transcription_get(st, "id499"));
	cr_assert_not_null(store_transcription_get(st, "id001"));
}

static void put_export(const char *state, const char *link, int expect, int64_t now)
{
	char body[400];
	snprintf(body, sizeof(body), "{\"id\":\"e1\",\"state\":\"%s\",\"format\":\"txt\"%s%s%s}", state,
		 link ? ",\"download_link\":\"" : "", link ? link : "", link ? "\"" : "");
	struct steno_export e;
	cr_assert_eq(steno_export_parse(body, strlen(body), &e, &err), 0, "%s", err.message);
	cr_assert_eq(store_export_put(st, &e, true, now, &err), expect);
	cr_assert_null(e.id);
}

Test(store, activity_export_finishes)
{
	put_export("pending", NULL, 1, 0);
	cr_assert_eq(store_activity_count(st), 1);
	const struct store_activity *a = store_activity_find(st, STORE_ACT_EXPORT, "e1");
	cr_assert_not_null(a);
	cr_assert_str_eq(a->state, "pending");
	cr_assert(a->watched);
	cr_assert_not(a->finished);
	memset(&seen, 0, sizeof(seen));
	put_export("pending", NULL, 0, 1000);
	cr_assert_eq(seen.act, 0);
	put_export("processing", NULL, 1, 2000);
	cr_assert_eq(a->state_changed_ms, 2000);
	cr_assert_eq(seen.finished, 0);
	put_export("ready", "https://dl/e1", 1, 3000);
	cr_assert_eq(seen.finished, 1);
	cr_assert_eq(seen.failure, 0);
	cr_assert(a->finished);
	cr_assert_str_eq(a->export_.download_link, "https://dl/e1");
	store_activity_remove(st, STORE_ACT_EXPORT, "e1");
	cr_assert_eq(store_activity_count(st), 0);
}

/* How the last job on an item ended stays on it (a refresh that brings the same state keeps
 * it) until another job ends on it or its state moves on; each change is an event. */
Test(store, activity_keeps_a_job_end_until_its_state_moves)
{
	put_export("ready", "https://dl/e1", 1, 0);
	const struct store_activity *a = store_activity_find(st, STORE_ACT_EXPORT, "e1");
	cr_assert_null(a->job_end);
	memset(&seen, 0, sizeof(seen));
	store_activity_job_end(st, STORE_ACT_EXPORT, "e1", "download failed: HTTP 403", true);
	cr_assert_eq(seen.act, 1);
	cr_assert_str_eq(a->job_end, "download failed: HTTP 403");
	cr_assert(a->job_end_failed);
	store_activity_job_end(st, STORE_ACT_EXPORT, "e1", "download cancelled", false);
	cr_assert_str_eq(a->job_end, "download cancelled");
	cr_assert_not(a->job_end_failed);
	put_export("ready", "https://dl/e1?fresh", 1, 1000);
	cr_assert_str_eq(a->job_end, "download cancelled", "a refresh in the same state keeps it");
	put_export("expired", NULL, 1, 2000);
	cr_assert_null(a->job_end, "it spoke of the state before");
	memset(&seen, 0, sizeof(seen));
	store_activity_job_end(st, STORE_ACT_EXPORT, "e1", NULL, false);
	cr_assert_eq(seen.act, 0, "nothing to clear: no event");
	store_activity_job_end(st, STORE_ACT_EXPORT, "nope", "download cancelled", false);
	cr_assert_eq(seen.act, 0);
	cr_assert_eq(store_activity_count(st), 1);
}

/* An export put back after a restart: in the store by its id alone (as sync_restore_watched
 * puts it) with the end recorded in the state file. */
static const struct store_activity *restored_export(const char *end, const char *end_state)
{
	struct steno_export e = { .id = strdup("e1") };
	cr_assert_eq(store_export_put(st, &e, true, 0, &err), 1);
	store_activity_job_end_restore(st, STORE_ACT_EXPORT, "e1", end, false, end_state);
	return store_activity_find(st, STORE_ACT_EXPORT, "e1");
}

/* A restored end stays through the item's first read when that read finds the state the
 * item had when its job ended, and goes with any other state after. */
Test(store, a_restored_job_end_holds_through_the_first_read_in_its_state)
{
	const struct store_activity *a = restored_export("downloaded to /d/e1.txt", "ready");
	cr_assert_str_eq(a->job_end, "downloaded to /d/e1.txt");
	put_export("ready", "https://dl/e1", 1, 1000);
	cr_assert_str_eq(a->job_end, "downloaded to /d/e1.txt", "the first read wiped it");
	put_export("expired", NULL, 1, 2000);
	cr_assert_null(a->job_end);
	/* known now: an end of another state is not put back, nor one over a newer end */
	store_activity_job_end_restore(st, STORE_ACT_EXPORT, "e1", "download cancelled", false,
				       "ready");
	cr_assert_null(a->job_end);
	store_activity_job_end(st, STORE_ACT_EXPORT, "e1", "download failed: gone", true);
	store_activity_job_end_restore(st, STORE_ACT_EXPORT, "e1", "x", false, "expired");
	cr_assert_str_eq(a->job_end, "download failed: gone");
}

/* ... and goes at the first read that finds another state, or when its state was not known. */
Test(store, a_restored_job_end_goes_when_the_first_read_finds_another_state)
{
	const struct store_activity *a = restored_export("downloaded to /d/e1.txt", "ready");
	put_export("expired", NULL, 1, 1000);
	cr_assert_null(a->job_end, "it spoke of the ready export");
	store_activity_remove(st, STORE_ACT_EXPORT, "e1");
	a = restored_export("download cancelled", NULL);
	cr_assert_str_eq(a->job_end, "download cancelled");
	put_export("ready", "https://dl/e1", 1, 1000);
	cr_assert_null(a->job_end, "an end of an unknown state outlived a read");
}

Test(store, activity_order_and_task)
{
	const char *o = "{\"id\":\"0b0b\",\"state\":\"submitted\",\"ingestions\":[{\"id\":1,"
			"\"name\":\"u\",\"state\":\"transferring\"}]}";
	struct steno_order ord;
	cr_assert_eq(steno_order_parse(o, strlen(o), &ord, &err), 0, "%s", err.message);
	cr_assert_eq(store_order_put(st, &ord, false, 0, &err), 1);
	const char *o2 = "{\"id\":\"0b0b\",\"state\":\"submitted\",\"ingestions\":[{\"id\":1,"
			 "\"name\":\"u\",\"state\":\"done\"}]}";
	cr_assert_eq(steno_order_parse(o2, strlen(o2), &ord, &err), 0);
	memset(&seen, 0, sizeof(seen));
	cr_assert_eq(store_order_put(st, &ord, false, 10, &err), 1);
	cr_assert_eq(seen.act, 1);
	cr_assert_eq(seen.state_changed, 0);
	const char *o3 = "{\"id\":\"0b0b\",\"state\":\"failed\"}";
	cr_assert_eq(steno_order_parse(o3, strlen(o3), &ord, &err), 0);
	cr_assert_eq(store_order_put(st, &ord, false, 20, &err), 1);
	cr_assert_eq(seen.finished, 1);
	cr_assert_eq(seen.failure, 1);
	const char *k = "{\"id\":\"t1\",\"state\":\"working\",\"progressPercent\":null}";
	struct steno_translation_task task;
	cr_assert_eq(steno_translation_task_parse(k, strlen(k), &task, &err), 0, "%s", err.message);
	cr_assert_eq(store_task_put(st, &task, true, 0, &err), 1);
	cr_assert_eq(store_activity_count(st), 2);
	struct steno_error e;
	steno_error_set(&e, STENO_ERR_NETWORK, "down");
	store_activity_failed(st, STORE_ACT_TRANSLATION_TASK, "t1", &e);
	cr_assert(store_activity_find(st, STORE_ACT_TRANSLATION_TASK, "t1")->has_error);
	cr_assert_eq(seen.failed, 1);
	store_activity_watch(st, STORE_ACT_ORDER, "0b0b", true);
	cr_assert(store_activity_at(st, 0)->watched);
}

Test(store, refresh_in_flight_once)
{
	cr_assert(store_refresh_begin(st, "6411621/12?"));
	cr_assert_not(store_refresh_begin(st, "6411621/12?"));
	cr_assert(store_refresh_running(st, "6411621/12?"));
	cr_assert(store_refresh_begin(st, "order:1"));
	cr_assert_eq(store_refresh_count(st), 2);
	store_refresh_end(st, "6411621/12?");
	cr_assert_not(store_refresh_running(st, "6411621/12?"));
	cr_assert(store_refresh_begin(st, "6411621/12?"));
}

Test(store, unlisten)
{
	int id = store_listen(st, on_changed, NULL, NULL);
	store_unlisten(st, id);
	three_items();
	cr_assert_eq(seen.list, 2); /* only the first listener */
}

/* The store and the scheduler read one state table per kind: an activity is finished exactly
 * when the scheduler would stop polling it. */
Test(store, activity_kinds_follow_the_scheduler)
{
	cr_assert_eq(store_activity_sched_kind(STORE_ACT_ORDER), SCHED_ORDER);
	cr_assert_eq(store_activity_sched_kind(STORE_ACT_EXPORT), SCHED_EXPORT);
	cr_assert_eq(store_activity_sched_kind(STORE_ACT_TRANSLATION_TASK), SCHED_TRANSLATION_TASK);
	static const char *const states[] = { "pending", "processing", "ready", "failed", "done",
					      "completed", "incomplete", "submitted", "canceled" };
	for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
		char body[200];
		snprintf(body, sizeof body, "{\"id\":\"e1\",\"state\":\"%s\",\"format\":\"txt\"}",
			 states[i]);
		struct steno_export e;
		cr_assert_eq(steno_export_parse(body, strlen(body), &e, &err), 0, "%s", err.message);
		cr_assert_geq(store_export_put(st, &e, true, (int64_t)i * 1000, &err), 0);
		steno_export_free(&e);
		const struct store_activity *a = store_activity_find(st, STORE_ACT_EXPORT, "e1");
		cr_assert_not_null(a);
		cr_assert_eq(a->finished,
			     spec_state_is_final(scheduler_spec_kind(SCHED_EXPORT), states[i]),
			     "%s", states[i]);
	}
}

/* A fresh page 1 read by the live list. */
static int merge_head(struct store_view *v, const char *items, const char *next, int64_t now)
{
	char body[8192];
	struct steno_transcription_page p;

	if (next)
		snprintf(body, sizeof(body),
			 "{\"results\":[%s],\"_links\":{\"next\":{\"url\":\"%s\"}}}", items, next);
	else
		snprintf(body, sizeof(body), "{\"results\":[%s]}", items);
	cr_assert_eq(steno_transcription_page_parse(body, strlen(body), &p, &err), 0, "%s",
		     err.message);
	int rc = store_view_merge_head(st, v, &p, now, &err);
	cr_assert_null(p.items, "page not taken");
	return rc;
}

static void view_ids(struct store_view *v, char *out, size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < v->n; i++) {
		strncat(out, v->ids[i], n - strlen(out) - 1);
		strncat(out, " ", n - strlen(out) - 1);
	}
}

Test(store, live_head_merge_adds_new_keeps_later_pages_drops_gone)
{
	struct store_view *v = three_items();   /* aa bb | cc (two pages, end) */
	char items[2000], ids[200], n1[600];

	/* a new item on top, "aa" deleted, "bb" unchanged: page 1 is now nn bb */
	snprintf(items, sizeof(items), "%s,%s",
		 item(n1, 600, "nn", "New one", "ingesting", "en-US", 10, "2024-04-01T00:00:00Z",
		      ""), b2);
	memset(&seen, 0, sizeof(seen));
	cr_assert_eq(merge_head(v, items, "http://127.0.0.1/p2", 9000), 1);
	view_ids(v, ids, sizeof ids);
	cr_assert_str_eq(ids, "nn bb cc ", "got %s", ids);
	cr_assert_eq(seen.list, 1);
	cr_assert_eq(store_transcription_get(st, "nn")->live_ms, 9000, "new row marked");
	cr_assert_eq(store_transcription_get(st, "bb")->live_ms, 0, "same row not marked");
	cr_assert(v->end, "the pages already read stay read");
	cr_assert_eq(v->pages, 2);
	/* the same page again: nothing changes, nobody is told */
	memset(&seen, 0, sizeof(seen));
	cr_assert_eq(merge_head(v, items, "http://127.0.0.1/p2", 9500), 0);
	cr_assert_eq(seen.list + seen.trans, 0);
	/* bb changed state: marked, in place */
	item(b4, 600, "bb", "apple pie", "automatic_done", "fr-FR", 60, "2024-03-01T00:00:00Z",
	     "\"home\"");
	snprintf(items, sizeof(items), "%s,%s", n1, b4);
	cr_assert_eq(merge_head(v, items, NULL, 10000), 1);
	cr_assert_eq(store_transcription_get(st, "bb")->live_ms, 10000);
	view_ids(v, ids, sizeof ids);
	cr_assert_str_eq(ids, "nn bb cc ");
	/* an empty page 1: nothing is left */
	cr_assert_eq(merge_head(v, "", NULL, 11000), 1);
	cr_assert_eq(v->n, 0);
	cr_assert(v->end);
}

Test(store, live_head_merge_keeps_items_pushed_down)
{
	struct store_view *v = store_view_get(st, "1", NULL, NULL, true);
	char items[2000], ids[200];

	snprintf(items, sizeof(items), "%s,%s",
		 item(b1, 600, "aa", "A", "ingesting", "en-US", 1, "2024-01-02T00:00:00Z", ""),
		 item(b2, 600, "bb", "B", "ingesting", "en-US", 1, "2024-01-01T00:00:00Z", ""));
	add_page(v, items, "http://127.0.0.1/p2", true, 1000, 1);
	/* two new items pushed aa and bb to page 2: page 1 is n1 n2, none of the old ones */
	snprintf(items, sizeof(items), "%s,%s",
		 item(b3, 600, "n1", "N1", "ingesting", "en-US", 1, "2024-02-02T00:00:00Z", ""),
		 item(b4, 600, "n2", "N2", "ingesting", "en-US", 1, "2024-02-01T00:00:00Z", ""));
	cr_assert_eq(merge_head(v, items, "http://127.0.0.1/p2b", 2000), 1);
	view_ids(v, ids, sizeof ids);
	cr_assert_str_eq(ids, "n1 n2 aa bb ", "got %s", ids);
	cr_assert_str_eq(v->next_url, "http://127.0.0.1/p2b", "one page read: its next link");
}

Test(store, locked_failed_and_unknown_states_are_not_changing)
{
	struct store_view *v = store_view_get(st, "1", NULL, NULL, true);
	char items[2000];

	snprintf(items, sizeof(items), "%s,%s,%s",
		 item(b1, 600, "lk", "L", "locked", "en-US", 1, "2024-01-02T00:00:00Z", ""),
		 item(b2, 600, "fl", "F", "failed", "en-US", 1, "2024-01-01T00:00:00Z", ""),
		 item(b3, 600, "uk", "U", "quantum_entangled", "en-US", 1, "2024-01-01T00:00:00Z",
		      ""));
	add_page(v, items, NULL, true, 1000, 1);
	cr_assert_not(store_transcription_get(st, "lk")->changing, "locked waits for a person");
	cr_assert_not(store_transcription_get(st, "fl")->changing);
	cr_assert_not(store_transcription_get(st, "uk")->changing, "unknown: shown as is");
	cr_assert_str_eq(store_transcription_get(st, "uk")->t.state, "quantum_entangled");
}

/* Issue 13 item 4 (the browser's G / load-more) and issue 15 (next links without
 * organization_id): the view's walk keeps the org, folder and tags, stops on a link seen
 * before and at the page limit, and says why. */
Test(store, next_links_keep_the_view_and_endless_ones_stop)
{
	store_set_page_limit(st, 3);
	struct store_view *v = store_view_get(st, "6411621", "12", "work", true);
	cr_assert_not_null(v);
	add_page(v, item(b1, 600, "aa", "A", "automatic_done", "en-US", 1, "2024-01-02T00:00:00Z", ""),
		 "http://h/api/v1/transcriptions?cursor=1", true, 1000, 1);
	cr_assert_str_eq(v->next_url, "http://h/api/v1/transcriptions?cursor=1&organization_id=6411621"
				      "&folder_id=12&tags=work");
	add_page(v, item(b2, 600, "bb", "B", "automatic_done", "en-US", 1, "2024-01-02T00:00:00Z", ""),
		 "http://h/api/v1/transcriptions?cursor=2", false, 1000, 1);
	cr_assert_not(v->end);
	/* a third page still linking on: the limit is reached, the list ends and says so */
	add_page(v, item(b3, 600, "cc", "C", "automatic_done", "en-US", 1, "2024-01-02T00:00:00Z", ""),
		 "http://h/api/v1/transcriptions?cursor=3", false, 1000, -1);
	cr_assert(v->end);
	cr_assert_null(v->next_url);
	cr_assert(v->has_error);
	cr_assert(strstr(v->error.message, "3 pages"), "%s", v->error.message);
	cr_assert_eq(v->n, 3, "the pages read are listed");

	/* a link back to an earlier page ends the walk at once */
	add_page(v, b1, "http://h/api/v1/transcriptions?cursor=1", true, 2000, 1);
	add_page(v, b2, "http://h/api/v1/transcriptions?cursor=1", false, 2000, -1);
	cr_assert(v->end);
	cr_assert(strstr(v->error.message, "repeats"), "%s", v->error.message);
}

/* Details read for a listed item (the row under the cursor) tell that nothing a list sorts
 * or filters on moved: a sorted list of 100,000 is not selected again on every cursor move.
 * A new name, tags or state does tell it. */
Test(store, details_that_move_no_row_say_so)
{
	three_items();
	static const char *const detail =
		"{\"id\":\"aa\",\"name\":\"Zebra talk\",\"state\":\"automatic_done\","
		"\"language\":\"en-US\",\"audioLengthInSeconds\":300,\"tags\":[\"work\",\"x\"],"
		"\"costInCents\":10,\"_links\":{\"self\":{\"editorUrl\":\"https://e/aa\"},"
		"\"soundwave\":{\"url\":\"https://w/aa\"}}}";
	struct steno_transcription t;
	memset(&seen, 0, sizeof seen);
	cr_assert_eq(steno_transcription_parse(detail, strlen(detail), &t, &err), 0, "%s",
		     err.message);
	cr_assert_eq(store_transcription_put(st, &t, true, 3000, &err), 1);
	cr_assert_eq(seen.trans, 1);
	cr_assert_eq(seen.keys_changed, 0, "details alone said the rows moved");
	char b[600];
	item(b, sizeof b, "aa", "Aardvark talk", "automatic_done", "en-US", 300,
	     "2024-01-02T00:00:00Z", "\"work\",\"x\"");
	cr_assert_eq(steno_transcription_parse(b, strlen(b), &t, &err), 0, "%s", err.message);
	cr_assert_eq(store_transcription_put(st, &t, false, 4000, &err), 1);
	cr_assert_eq(seen.keys_changed, 1, "a new name did not say the rows moved");
	item(b, sizeof b, "dd", "New", "automatic_done", "en-US", 3, "2024-01-02T00:00:00Z", "");
	cr_assert_eq(steno_transcription_parse(b, strlen(b), &t, &err), 0, "%s", err.message);
	cr_assert_eq(store_transcription_put(st, &t, false, 5000, &err), 1);
	cr_assert_eq(seen.keys_changed, 2, "a new record did not say the rows moved");
}
