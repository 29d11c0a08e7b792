/* ui/format: values as display strings. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "ui/app_internal.h"
#include "ui/format.h"

static char buf[128];

Test(format, durations)
{
	fmt_duration(buf, sizeof buf, 3723);
	cr_assert_str_eq(buf, "1:02:03");
	fmt_duration(buf, sizeof buf, 123);
	cr_assert_str_eq(buf, "2:03");
	fmt_duration(buf, sizeof buf, 0);
	cr_assert_str_eq(buf, "0:00");
	fmt_duration(buf, sizeof buf, 59.6);
	cr_assert_str_eq(buf, "1:00");
	fmt_duration(buf, sizeof buf, 36000 * 3);
	cr_assert_str_eq(buf, "30:00:00");
	fmt_duration(buf, sizeof buf, -1);
	cr_assert_str_eq(buf, "-");
	fmt_duration(buf, sizeof buf, NAN);
	cr_assert_str_eq(buf, "-");
}

Test(format, money)
{
	fmt_money(buf, sizeof buf, 1234, "€");
	cr_assert_str_eq(buf, "€12.34");
	fmt_money(buf, sizeof buf, 5, "$");
	cr_assert_str_eq(buf, "$0.05");
	fmt_money(buf, sizeof buf, -50, "€");
	cr_assert_str_eq(buf, "-€0.50");
	fmt_money(buf, sizeof buf, 100000, NULL);
	cr_assert_str_eq(buf, "1000.00");
	fmt_money(buf, sizeof buf, LLONG_MIN, "");
	cr_assert_str_eq(buf, "-92233720368547758.08");
}

Test(format, spans_and_relative_times)
{
	fmt_span(buf, sizeof buf, 45);
	cr_assert_str_eq(buf, "45s");
	fmt_span(buf, sizeof buf, 3 * 60 + 59);
	cr_assert_str_eq(buf, "3m");
	fmt_span(buf, sizeof buf, 2 * 3600 + 5 * 60 + 9);
	cr_assert_str_eq(buf, "2h 05m");
	fmt_span(buf, sizeof buf, 3 * 86400 + 4 * 3600);
	cr_assert_str_eq(buf, "3d 04h");
	fmt_relative(buf, sizeof buf, 1000, 1000 + 180);
	cr_assert_str_eq(buf, "3m ago");
	fmt_relative(buf, sizeof buf, 1000 + 7500, 1000);
	cr_assert_str_eq(buf, "in 2h 05m");
	fmt_relative(buf, sizeof buf, 1003, 1000);
	cr_assert_str_eq(buf, "just now");
	fmt_countdown(buf, sizeof buf, 1000 + 7500, 1000);
	cr_assert_str_eq(buf, "in 2h 05m");
	fmt_countdown(buf, sizeof buf, 1000, 1000 + 200);
	cr_assert_str_eq(buf, "overdue 3m");
}

/* The relative and countdown texts of a time `ahead` s from now, once now moved by k s. */
static void span_texts(char *rel, char *cd, long long ahead, long long k)
{
	const time_t now = 1000000000;

	fmt_relative(rel, 64, (time_t)(now + ahead), (time_t)(now + k));
	fmt_countdown(cd, 64, (time_t)(now + ahead), (time_t)(now + k));
}

/* The loop sleeps until a shown time changes: every text stays the same until the second
 * fmt_span_next_change_ms names, and (past a minute, where the loop sleeps more than a
 * second) one of them changes right then, in both directions, across the minute, hour and
 * day units. */
Test(format, a_time_shown_wakes_the_loop_when_its_text_moves)
{
	static const long long ranges[][2] = {
		{ -90000, 90000 }, { -2 * 86400 - 4000, -2 * 86400 + 4000 },
		{ 2 * 86400 - 4000, 2 * 86400 + 4000 },
	};
	char r0[64], c0[64], r1[64], c1[64];

	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		for (long long ahead = ranges[i][0]; ahead <= ranges[i][1]; ahead++) {
			long ms = fmt_span_next_change_ms(ahead);
			long long a = ahead < 0 ? -ahead : ahead, next = ms / 1000;
			cr_assert(ms % 1000 == 0 && next >= 1, "%lld: %ld ms", ahead, ms);
			cr_assert_leq(ms, a < 60 ? 1000 : a < 86400 ? 60000 : 3600000, "%lld", ahead);
			span_texts(r0, c0, ahead, 0);
			span_texts(r1, c1, ahead, next - 1);
			cr_assert(!strcmp(r0, r1) && !strcmp(c0, c1), "%lld: %s / %s moved to %s / %s "
				  "%lld s in, before the %ld ms", ahead, r0, c0, r1, c1, next - 1, ms);
			if (a < 60)
				continue;
			span_texts(r1, c1, ahead, next);
			cr_assert(strcmp(r0, r1) || strcmp(c0, c1), "%lld: %s / %s still after %ld ms",
				  ahead, r0, c0, ms);
		}
	/* a minute in the past: the next change comes at 2 minutes, not in a second */
	cr_assert_eq(fmt_span_next_change_ms(-65), 55000);
	cr_assert_eq(fmt_span_next_change_ms(65), 6000);
	cr_assert_eq(fmt_span_next_change_ms(-30), 1000);
	cr_assert_eq(fmt_span_next_change_ms(-3 * 86400 - 10), 3590000);
}

/* What the loop's timer is set to for the times a screen shows (app_time_tick keeps the
 * nearest change): a list whose newest row is 65 s old and whose oldest is days old sleeps
 * 55 s, not a second; time in state (passed as a past time) grows like an age. */
Test(format, the_loop_sleeps_until_the_first_shown_time_moves)
{
	int tick = 0;

	app_time_tick(&tick, -3 * 86400 - 10);
	cr_assert_eq(tick, 3590000);
	app_time_tick(&tick, -65);
	cr_assert_eq(tick, 55000, "a row a minute old wakes the loop at 2 minutes: %d", tick);
	app_time_tick(&tick, -3 * 86400);
	cr_assert_eq(tick, 55000, "the nearest change wins");
	app_time_tick(&tick, 125);   /* a delivery estimate: "in 2m" until 119 s are left */
	cr_assert_eq(tick, 6000);
	app_time_tick(&tick, -12);
	cr_assert_eq(tick, 1000, "seconds shown: every second");
}

Test(format, bytes_and_speeds)
{
	fmt_bytes(buf, sizeof buf, 512);
	cr_assert_str_eq(buf, "512 B");
	fmt_bytes(buf, sizeof buf, 1536);
	cr_assert_str_eq(buf, "1.5 KiB");
	fmt_bytes(buf, sizeof buf, 12897485);
	cr_assert_str_eq(buf, "12.3 MiB");
	fmt_bytes(buf, sizeof buf, 1048575);
	cr_assert_str_eq(buf, "1.0 MiB");
	fmt_bytes(buf, sizeof buf, UINT64_MAX);
	cr_assert_str_eq(buf, "16.0 EiB");
	fmt_speed(buf, sizeof buf, 1.5 * 1024 * 1024);
	cr_assert_str_eq(buf, "1.5 MiB/s");
	fmt_speed(buf, sizeof buf, 10);
	cr_assert_str_eq(buf, "10 B/s");
}

Test(format, percent)
{
	fmt_percent(buf, sizeof buf, 0.429);
	cr_assert_str_eq(buf, "42%");
	fmt_percent(buf, sizeof buf, 0.999);
	cr_assert_str_eq(buf, "99%");
	fmt_percent(buf, sizeof buf, 1.5);
	cr_assert_str_eq(buf, "100%");
	fmt_percent(buf, sizeof buf, NAN);
	cr_assert_str_eq(buf, "?%");
}

Test(format, progress_bars)
{
	fmt_progress(buf, sizeof buf, 0.5, 8, 1);
	cr_assert_str_eq(buf, "####....");
	fmt_progress(buf, sizeof buf, 0, 4, 1);
	cr_assert_str_eq(buf, "....");
	fmt_progress(buf, sizeof buf, 2, 4, 1);
	cr_assert_str_eq(buf, "####");
	fmt_progress(buf, sizeof buf, 0.4375, 4, 0);   /* 14 eighths: 1 full + 6/8 */
	cr_assert_str_eq(buf, "█▊  ");
	fmt_progress(buf, sizeof buf, 1, 3, 0);
	cr_assert_str_eq(buf, "███");
}

Test(format, output_is_cut_to_buffer)
{
	char small[5];
	cr_assert_eq(fmt_money(small, sizeof small, 123456, "$"), 4);
	cr_assert_str_eq(small, "$123");
	cr_assert_eq(fmt_progress(small, sizeof small, 1, 4, 0), 3);
	cr_assert_str_eq(small, "█");
}
