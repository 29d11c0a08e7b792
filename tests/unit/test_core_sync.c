/* tui/core sync engine against a real steno-sandbox: the live list picks up what another
 * client created, its interval slows when idle and after a 429, watched items are polled and
 * remembered, nothing wakes an idle engine. The engine's clock is driven by hand. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../integration/sandbox_fixture.h"
#include "api/http.h"
#include "core/state.h"
#include "core/store.h"
#include "core/sync.h"
#include "core/sync_internal.h"

static struct sbx sb;
static struct steno_http *http;
static struct steno_store *store;
static struct steno_state state;
static struct steno_sync *sy;
static struct steno_error err;
static int64_t now_ms = 1000000;
static int errors;

static int64_t fake_clock(void *ud)
{
	(void)ud;
	return now_ms;
}

static void on_error(void *ud, const struct steno_error *e)
{
	(void)ud;
	(void)e;
	errors++;
}

static void open_sync(int64_t live_ms)
{
	struct sync_config sc = { .http = http, .store = store, .state = &state,
		.base_url = sb.base_url, .org_id = sb.org_id, .live_ms = live_ms,
		.clock_ms = fake_clock, .listener = { .error = on_error } };

	scheduler_policy_default(&sc.policy);
	sc.policy.requests_per_second = 50;
	sy = sync_new(&sc, &err);
	cr_assert_not_null(sy, "%s", err.message);
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(sbx_start(&sb, NULL), 0, "sandbox did not start");
	steno_error_clear(&err);
	struct steno_http_config hc = { .base_url = sb.base_url, .api_key = sb.api_key };
	cr_assert_eq(steno_http_new(&hc, &http, &err), 0, "%s", err.message);
	store = store_new();
	cr_assert_not_null(store);
	state_init(&state);
	errors = 0;
}

static void teardown(void)
{
	steno_http_free(http);
	sync_free(sy);
	sy = NULL;
	store_free(store);
	state_free(&state);
	sbx_stop(&sb);
}

TestSuite(sync, .init = setup, .fini = teardown, .timeout = 30);

/* Runs the engine until none of its reads is in flight (the fake clock stands still). */
static void spin(void)
{
	for (int i = 0; i < 1000; i++) {
		sync_run(sy);
		if (!sync_in_flight(sy) && !steno_http_pending(http))
			return;
		steno_http_poll(http, NULL, 0, 20);
		steno_http_perform(http);
	}
	cr_assert_fail("reads still in flight");
}

static void create_transcription(const char *name)
{
	char body[512];
	long status = 0;

	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"%s\",\"language\":\"en-US\","
		 "\"tmp_url\":\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}",
		 name, sb.org_id);
	json_object *o = sbx_call(&sb, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	json_object_put(o);
}

Test(sync, live_list_picks_up_what_another_client_created)
{
	open_sync(5000);
	cr_assert_eq(sync_load_view(sy, sb.org_id, NULL, NULL, true, false), 0);
	cr_assert_eq(sync_set_live_view(sy, sb.org_id, NULL, NULL), 0);
	spin();
	struct store_view *v = sync_view(sy, sb.org_id, NULL, NULL);
	cr_assert_eq(v->n, 0);
	long t = sync_timeout_ms(sy);
	cr_assert(t > 0 && t <= 5000, "the live re-read is the only timer: %ld", t);

	create_transcription("made elsewhere");
	spin();
	cr_assert_eq(v->n, 0, "not due yet: nothing read");
	now_ms += 5000;
	cr_assert_eq(sync_timeout_ms(sy), 0);
	spin();
	cr_assert_eq(v->n, 1, "the new item is listed");
	const struct store_transcription *r = store_view_item(store, v, 0);
	cr_assert_str_eq(r->t.name, "made elsewhere");
	cr_assert_eq(r->live_ms, now_ms, "marked as new");
	cr_assert_eq(errors, 0);
	t = sync_timeout_ms(sy);
	cr_assert(t > 0 && t <= 5000, "next re-read scheduled: %ld", t);
}

Test(sync, an_idle_engine_sets_no_timer)
{
	open_sync(0);
	cr_assert_eq(sync_load_view(sy, sb.org_id, NULL, NULL, true, false), 0);
	cr_assert_eq(sync_set_live_view(sy, sb.org_id, NULL, NULL), 0);
	spin();
	cr_assert_eq(sync_timeout_ms(sy), -1);
	cr_assert_eq(sync_live_interval(sy), 0);
}

Test(sync, live_interval_slows_when_idle_and_after_429)
{
	open_sync(2000);   /* below the floor: raised */
	cr_assert_eq(sync_live_interval(sy), SYNC_LIVE_FLOOR_MS);
	now_ms += 6 * 60 * 1000;
	cr_assert_eq(sync_live_interval(sy), 2 * SYNC_LIVE_FLOOR_MS, "idle 6 minutes");
	now_ms += 30 * 60 * 1000;
	cr_assert_eq(sync_live_interval(sy), 4 * SYNC_LIVE_FLOOR_MS, "idle 36 minutes");
	sync_user_active(sy);
	cr_assert_eq(sync_live_interval(sy), SYNC_LIVE_FLOOR_MS, "a key: back to normal");
	sync_live_done(sy, LIVE_429);
	cr_assert_eq(sync_live_interval(sy), 2 * SYNC_LIVE_FLOOR_MS);
	sync_live_done(sy, LIVE_429);
	cr_assert_eq(sync_live_interval(sy), 3 * SYNC_LIVE_FLOOR_MS);
	sync_live_done(sy, LIVE_OK);
	cr_assert_eq(sync_live_interval(sy), SYNC_LIVE_FLOOR_MS, "a good answer ends the backoff");
}

Test(sync, a_watched_order_is_read_and_remembered)
{
	char body[400], origin[256];
	long status = 0;

	open_sync(0);
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"http://127.0.0.1:1/b.wav\","
		 "\"language\":\"en-US\",\"organization_id\":\"%s\"}}", sb.org_id);
	json_object *o = sbx_call(&sb, "POST", "orders", body, &status);
	cr_assert_eq(status, 201);
	char id[64];
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	json_object_put(o);

	cr_assert_eq(sync_watch(sy, STORE_ACT_ORDER, id), 0);
	cr_assert_eq(sync_timeout_ms(sy), 0, "read at once");
	spin();
	const struct store_activity *a = store_activity_find(store, STORE_ACT_ORDER, id);
	cr_assert_not_null(a);
	cr_assert(a->watched);
	cr_assert_not_null(a->state, "the order was read");
	size_t *idx;
	cr_assert_not_null(state_origin(sb.base_url, origin, sizeof origin));
	cr_assert_eq(state_watched_of(&state, origin, sb.org_id, &idx), 1);
	cr_assert_str_eq(state.watched[idx[0]].id, id);
	free(idx);
}

/* R (a first-page read) asked while the next page is still being read is not dropped as
 * "already loading": it runs once that read ends, so an item made meanwhile is listed (the
 * soak saw the TUI miss it when R came during a page read). */
Test(sync, a_first_page_asked_while_a_next_page_loads_is_read_after_it)
{
	static const char *const small_pages[] = { "--page-size", "2", NULL };
	steno_http_free(http);
	sbx_stop(&sb);
	cr_assert_eq(sbx_start(&sb, small_pages), 0, "sandbox did not start");
	struct steno_http_config hc = { .base_url = sb.base_url, .api_key = sb.api_key };
	cr_assert_eq(steno_http_new(&hc, &http, &err), 0, "%s", err.message);
	open_sync(0);
	create_transcription("old 1");
	create_transcription("old 2");
	create_transcription("old 3");
	cr_assert_eq(sync_load_view(sy, sb.org_id, NULL, NULL, true, false), 0);
	spin();
	struct store_view *v = sync_view(sy, sb.org_id, NULL, NULL);
	cr_assert_eq(v->n, 2);
	cr_assert_eq(sync_load_view(sy, sb.org_id, NULL, NULL, false, false), 0);  /* page 2 */
	create_transcription("newest");
	cr_assert_eq(sync_load_view(sy, sb.org_id, NULL, NULL, true, false), 0);  /* R */
	spin();
	const struct store_transcription *top = store_view_item(store, v, 0);
	cr_assert_not_null(top);
	cr_assert_str_eq(top->t.name, "newest", "the first page was read again after page 2");
}
