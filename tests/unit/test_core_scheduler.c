/* tui/core poll scheduler: pure policy driven by a hand-held clock. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "core/scheduler.h"

static struct scheduler *s;
static struct sched_policy pol;

static void setup(void)
{
	scheduler_policy_default(&pol);
	pol.requests_per_second = 100;
	s = scheduler_new(&pol, 0);
	cr_assert_not_null(s);
}

static void teardown(void)
{
	scheduler_free(s);
}

TestSuite(sched, .init = setup, .fini = teardown);

/* Takes everything due at `now`; returns the count and the first id. */
static size_t take(int64_t now, struct sched_ref *out, size_t max)
{
	return scheduler_take_due(s, now, max, out, max);
}

Test(sched, idle_is_minus_one)
{
	cr_assert_eq(scheduler_next_due(s, 0), -1);
	cr_assert_eq(scheduler_track(s, SCHED_TRANSCRIPTION, "t1", "automatic_done", 0), 0);
	cr_assert_eq(scheduler_track(s, SCHED_EXPORT, "e1", "ready", 0), 0);
	cr_assert_eq(scheduler_next_due(s, 0), -1);
	cr_assert_eq(scheduler_count(s), 0);
}

Test(sched, first_poll_after_min)
{
	cr_assert_eq(scheduler_track(s, SCHED_TRANSCRIPTION, "t1", "ingesting", 1000), 1);
	scheduler_set_visible(s, SCHED_TRANSCRIPTION, "t1", true);
	cr_assert_eq(scheduler_next_due(s, 1000), 2000);
	struct sched_ref out[4];
	cr_assert_eq(take(2999, out, 4), 0);
	cr_assert_eq(take(3000, out, 4), 1);
	cr_assert_str_eq(out[0].id, "t1");
	cr_assert_eq(out[0].kind, SCHED_TRANSCRIPTION);
	/* in flight: not handed out again */
	cr_assert_eq(take(3000, out, 4), 0);
}

Test(sched, intervals_grow_while_stable_and_reset_on_change)
{
	scheduler_track(s, SCHED_ORDER, "o1", "submitted", 0);
	scheduler_set_watched(s, SCHED_ORDER, "o1", true);
	struct sched_ref out[2];
	int64_t now = 2000, expect[] = { 4000, 8000, 16000, 32000, 60000, 60000 };
	for (size_t i = 0; i < sizeof(expect) / sizeof(*expect); i++) {
		cr_assert_eq(take(now, out, 2), 1, "round %zu", i);
		scheduler_report_ok(s, SCHED_ORDER, "o1", "submitted", now);
		cr_assert_eq(scheduler_interval(s, SCHED_ORDER, "o1"), expect[i]);
		cr_assert_eq(scheduler_next_due(s, now), expect[i]);
		now += expect[i];
	}
	cr_assert_eq(take(now, out, 2), 1);
	scheduler_report_ok(s, SCHED_ORDER, "o1", "locked", now);
	cr_assert_eq(scheduler_interval(s, SCHED_ORDER, "o1"), 2000);
	/* a state change seen elsewhere (a list page) also resets */
	now += 2000;
	cr_assert_eq(take(now, out, 2), 1);
	scheduler_report_ok(s, SCHED_ORDER, "o1", "locked", now);
	cr_assert_eq(scheduler_interval(s, SCHED_ORDER, "o1"), 4000);
	scheduler_track(s, SCHED_ORDER, "o1", "submitted", now + 100);
	cr_assert_eq(scheduler_interval(s, SCHED_ORDER, "o1"), 2000);
	cr_assert_eq(scheduler_next_due(s, now + 100), 2000);
}

Test(sched, kind_caps_and_needs_action)
{
	scheduler_track(s, SCHED_EXPORT, "e1", "processing", 0);
	scheduler_track(s, SCHED_ORDER, "o2", "incomplete", 0);
	scheduler_set_visible(s, SCHED_EXPORT, "e1", true);
	scheduler_set_visible(s, SCHED_ORDER, "o2", true);
	for (int i = 0; i < 12; i++) {
		scheduler_report_ok(s, SCHED_EXPORT, "e1", "processing", 0);
		scheduler_report_ok(s, SCHED_ORDER, "o2", "incomplete", 0);
	}
	cr_assert_eq(scheduler_interval(s, SCHED_EXPORT, "e1"), 10000);
	cr_assert_eq(scheduler_interval(s, SCHED_ORDER, "o2"), 300000);
}

Test(sched, background_items_are_slower)
{
	scheduler_track(s, SCHED_TRANSCRIPTION, "bg", "automatic_transcribing", 0);
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "bg", "automatic_transcribing", 0);
	cr_assert_eq(scheduler_interval(s, SCHED_TRANSCRIPTION, "bg"), 4000);
	cr_assert_eq(scheduler_next_due(s, 0), 16000);
}

Test(sched, final_states_stop_polling)
{
	scheduler_track(s, SCHED_TRANSLATION_TASK, "k1", "working", 0);
	struct sched_ref out[2];
	cr_assert_eq(take(2000, out, 2), 1);
	scheduler_report_ok(s, SCHED_TRANSLATION_TASK, "k1", "done", 2000);
	cr_assert_eq(scheduler_count(s), 0);
	cr_assert_eq(scheduler_next_due(s, 2000), -1);
	/* a list page showing it final drops it too */
	scheduler_track(s, SCHED_TRANSCRIPTION, "t", "ingesting", 0);
	scheduler_track(s, SCHED_TRANSCRIPTION, "t", "failed", 10);
	cr_assert_eq(scheduler_next_due(s, 10), -1);
	/* unknown states keep polling (the client is tolerant) */
	cr_assert_eq(scheduler_track(s, SCHED_EXPORT, "x", "brand_new_state", 0), 1);
}

Test(sched, budget_and_rate)
{
	scheduler_free(s);
	pol.requests_per_second = 2;
	s = scheduler_new(&pol, 0);
	char id[8];
	for (int i = 0; i < 10; i++) {
		snprintf(id, sizeof(id), "t%d", i);
		scheduler_track(s, SCHED_TRANSCRIPTION, id, "ingesting", 0);
	}
	struct sched_ref out[10];
	/* caller's budget */
	cr_assert_eq(scheduler_take_due(s, 10000, 1, out, 10), 1);
	/* the bucket holds 2 per second: one left */
	cr_assert_eq(scheduler_take_due(s, 10000, 10, out, 10), 1);
	cr_assert_eq(scheduler_take_due(s, 10000, 10, out, 10), 0);
	cr_assert_eq(scheduler_next_due(s, 10000), 500);
	cr_assert_eq(scheduler_take_due(s, 10500, 10, out, 10), 1);
	cr_assert_eq(scheduler_take_due(s, 11500, 10, out, 10), 2);
	/* never more than rps over a long run */
	size_t total = 0;
	for (int64_t t = 12000; t < 22000; t += 100)
		total += scheduler_take_due(s, t, 10, out, 10);
	cr_assert_eq(total, 5, "%zu", total); /* the 5 items left */
	/* with plenty due, 10 s at 2 req/s hand out about 20, never more than 2 + 20 */
	for (int i = 0; i < 50; i++) {
		snprintf(id, sizeof(id), "u%d", i);
		scheduler_track(s, SCHED_TRANSCRIPTION, id, "ingesting", 20000);
	}
	total = 0;
	for (int64_t t = 30000; t < 40000; t += 50)
		total += scheduler_take_due(s, t, 10, out, 10);
	cr_assert_geq(total, 18, "%zu", total);
	cr_assert_leq(total, 22, "%zu", total);
}

Test(sched, rate_gate)
{
	scheduler_track(s, SCHED_TRANSCRIPTION, "t", "ingesting", 0);
	scheduler_rate_gate(s, 9000);
	struct sched_ref out[1];
	cr_assert_eq(take(5000, out, 1), 0);
	cr_assert_eq(scheduler_next_due(s, 5000), 4000);
	cr_assert_eq(take(9000, out, 1), 1);
}

Test(sched, visible_and_watched_first)
{
	scheduler_track(s, SCHED_TRANSCRIPTION, "plain", "ingesting", 0);
	scheduler_track(s, SCHED_TRANSCRIPTION, "seen", "ingesting", 0);
	scheduler_track(s, SCHED_ORDER, "watched", "submitted", 0);
	scheduler_set_visible(s, SCHED_TRANSCRIPTION, "seen", true);
	scheduler_set_watched(s, SCHED_ORDER, "watched", true);
	struct sched_ref out[3];
	cr_assert_eq(take(10000, out, 1), 1);
	cr_assert_str_eq(out[0].id, "seen");
	cr_assert_eq(take(10000, out, 1), 1);
	cr_assert_str_eq(out[0].id, "watched");
	cr_assert_eq(take(10000, out, 1), 1);
	cr_assert_str_eq(out[0].id, "plain");
	scheduler_clear_visible(s);
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "seen", "ingesting", 10000);
	cr_assert_eq(scheduler_interval(s, SCHED_TRANSCRIPTION, "seen"), 4000);
}

Test(sched, error_backoff)
{
	scheduler_track(s, SCHED_EXPORT, "e", "pending", 0);
	scheduler_set_watched(s, SCHED_EXPORT, "e", true);
	struct sched_ref out[1];
	int64_t now = 2000, prev = 0;
	for (int i = 0; i < 10; i++) {
		cr_assert_eq(take(now, out, 1), 1);
		scheduler_report_error(s, SCHED_EXPORT, "e", -1, now);
		int64_t wait = scheduler_next_due(s, now);
		cr_assert_geq(wait, prev);
		cr_assert_leq(wait, 300000);
		prev = wait;
		now += wait;
	}
	cr_assert_eq(prev, 300000);
	/* Retry-After beats a shorter backoff; success resets */
	cr_assert_eq(take(now, out, 1), 1);
	scheduler_report_ok(s, SCHED_EXPORT, "e", "processing", now);
	cr_assert_eq(scheduler_next_due(s, now), 2000);
	now += 2000;
	cr_assert_eq(take(now, out, 1), 1);
	scheduler_report_error(s, SCHED_EXPORT, "e", 30000, now);
	cr_assert_eq(scheduler_next_due(s, now), 30000);
}

Test(sched, force_refresh)
{
	scheduler_track(s, SCHED_TRANSCRIPTION, "t", "ingesting", 0);
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "t", "ingesting", 0);
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "t", "ingesting", 0);
	cr_assert_gt(scheduler_next_due(s, 0), 2000);
	cr_assert_eq(scheduler_force(s, SCHED_TRANSCRIPTION, "t", 100), 0);
	cr_assert_eq(scheduler_next_due(s, 100), 0);
	/* a final item is refreshed once when forced, then dropped */
	cr_assert_eq(scheduler_force(s, SCHED_TRANSCRIPTION, "done", 100), 0);
	struct sched_ref out[4];
	cr_assert_eq(take(100, out, 4), 2);
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "done", "automatic_done", 200);
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "t", "ingesting", 200);
	cr_assert_eq(scheduler_count(s), 1);
	scheduler_force_all(s, 300);
	cr_assert_eq(scheduler_next_due(s, 300), 0);
}

Test(sched, lost_requests_come_back)
{
	scheduler_track(s, SCHED_TRANSCRIPTION, "t", "ingesting", 0);
	struct sched_ref out[1];
	cr_assert_eq(take(2000, out, 1), 1);
	cr_assert_eq(scheduler_next_due(s, 2000), pol.lost_ms);
	cr_assert_eq(take(2000 + pol.lost_ms, out, 1), 1);
}

Test(sched, bad_ids_ignored)
{
	char big[200];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cr_assert_eq(scheduler_track(s, SCHED_ORDER, big, "submitted", 0), 0);
	cr_assert_eq(scheduler_track(s, SCHED_ORDER, "", "submitted", 0), 0);
	cr_assert_eq(scheduler_track(s, SCHED_ORDER, NULL, "submitted", 0), 0);
	cr_assert_eq(scheduler_count(s), 0);
	scheduler_report_ok(s, SCHED_ORDER, "unknown", "submitted", 0);
	scheduler_untrack(s, SCHED_ORDER, "unknown");
}

Test(sched, each_kind_names_its_spec_state_table)
{
	cr_assert_eq(scheduler_spec_kind(SCHED_TRANSCRIPTION), SPEC_STATE_TRANSCRIPTION);
	cr_assert_eq(scheduler_spec_kind(SCHED_ORDER), SPEC_STATE_ORDER);
	cr_assert_eq(scheduler_spec_kind(SCHED_EXPORT), SPEC_STATE_EXPORT);
	cr_assert_eq(scheduler_spec_kind(SCHED_TRANSLATION_TASK), SPEC_STATE_TRANSLATION_TASK);
	/* what jobs decide with it: an order waiting on a person is not final */
	cr_assert(spec_state_is_final(scheduler_spec_kind(SCHED_EXPORT), "ready"));
}

Test(sched, an_unknown_state_is_polled_slowly)
{
	scheduler_track(s, SCHED_TRANSCRIPTION, "t1", "ingesting", 0);
	scheduler_set_visible(s, SCHED_TRANSCRIPTION, "t1", true);
	/* a state this steno does not know: kept, polled at the slow pace at once */
	scheduler_report_ok(s, SCHED_TRANSCRIPTION, "t1", "quantum_entangled", 0);
	cr_assert_eq(scheduler_interval(s, SCHED_TRANSCRIPTION, "t1"), pol.needs_action_ms);
	cr_assert_eq(scheduler_next_due(s, 0), pol.needs_action_ms);
	scheduler_track(s, SCHED_ORDER, "o1", "from_the_future", 0);
	cr_assert_eq(scheduler_interval(s, SCHED_ORDER, "o1"), pol.needs_action_ms);
}

/* Thousands of items tracked, half of them ending, tracked again: each item is found once
 * (no twin, none lost) whatever moved in the table. */
Test(sched, many_items_are_found_once)
{
	char id[32];
	for (int i = 0; i < 3000; i++) {
		snprintf(id, sizeof id, "t%d", i);
		scheduler_track(s, SCHED_TRANSCRIPTION, id, "ingesting", 0);
		scheduler_track(s, SCHED_ORDER, id, "processing", 0);   /* another kind, same id */
	}
	cr_assert_eq(scheduler_count(s), 6000);
	for (int i = 0; i < 3000; i += 2) {
		snprintf(id, sizeof id, "t%d", i);
		scheduler_track(s, SCHED_TRANSCRIPTION, id, "automatic_done", 0);
	}
	cr_assert_eq(scheduler_count(s), 4500);
	for (int i = 0; i < 3000; i++) {
		snprintf(id, sizeof id, "t%d", i);
		scheduler_track(s, SCHED_TRANSCRIPTION, id, "automatic_transcribing", 0);
		scheduler_untrack(s, SCHED_ORDER, id);
	}
	cr_assert_eq(scheduler_count(s), 3000);
}
