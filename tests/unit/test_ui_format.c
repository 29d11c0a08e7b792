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

/* Text changes of the relative and countdown texts of a time `ahead` s from now while now
 * moves on by 1..next seconds. */
static int span_changes(long long ahead, long long next)
{
	char r0[64], c0[64], r1[64], c1[64];
	int n = 0;

	span_texts(r0, c0, ahead, 0);
	for (long long k = 1; k <= next; k++) {
		span_texts(r1, c1, ahead, k);
		n += strcmp(r0, r1) || strcmp(c0, c1);
		memcpy(r0, r1, sizeof r0);
		memcpy(c0, c1, sizeof c0);
	}
	return n;
}

/* Drawn again once a unit: no text is skipped between two draws (it changes at most once),
 * every past time of a unit has the same period (many on screen wake the loop once), and a
 * time ahead is drawn when its finer unit starts (the last minute's first second). */
Test(format, a_time_shown_is_drawn_again_once_a_unit)
{
	static const long long ranges[][3] = {   /* from, to, step */
		{ -4000, 4000, 1 }, { -90000, 90000, 11 }, { -2 * 86400 - 4000, -2 * 86400 + 4000, 97 },
		{ 86400 - 200, 90000 + 200, 37 },
	};

	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		for (long long ahead = ranges[i][0]; ahead <= ranges[i][1]; ahead += ranges[i][2]) {
			long ms = fmt_span_tick_ms(ahead);
			long long a = ahead < 0 ? -ahead : ahead, next = ms / 1000;
			long unit = a < 60 ? 1000 : a < 86400 ? 60000 : 3600000;
			long long floor = a < 86400 ? 60 : 86400;
			cr_assert(ms % 1000 == 0 && ms >= 1000 && ms <= unit, "%lld: %ld ms", ahead, ms);
			if (ahead < 0)
				cr_assert_eq(ms, unit, "%lld: a past time's period is its unit", ahead);
			cr_assert_leq(span_changes(ahead, next), 1, "%lld: a text skipped in %ld ms",
				      ahead, ms);
			if (ahead > 0 && a >= 60 && ahead - next < floor)
				cr_assert_eq(ahead - next, floor - 1, "%lld: %ld ms", ahead, ms);
		}
	cr_assert_eq(fmt_span_tick_ms(-65), 60000);
	cr_assert_eq(fmt_span_tick_ms(65), 6000, "a minute ahead: drawn when seconds show");
	cr_assert_eq(fmt_span_tick_ms(-30), 1000);
	cr_assert_eq(fmt_span_tick_ms(-3 * 86400 - 10), 3600000);
}

/* What the loop's timer is set to for the times a screen shows (app_time_tick keeps the
 * finest): rows a minute to an hour old, created at every second of a minute, wake it once a
 * minute (one at 65 s woke it every second until two minutes); days-old rows once an hour;
 * a countdown when its seconds start; seconds every second. */
Test(format, the_loop_wakes_once_a_minute_for_times_in_minutes)
{
	int tick = 0;

	app_time_tick(&tick, -3 * 86400 - 10);
	cr_assert_eq(tick, 3600000);
	for (long long age = 65; age < 3600; age += 7)
		app_time_tick(&tick, -age);
	cr_assert_eq(tick, 60000, "rows a minute to an hour old: %d", tick);
	app_time_tick(&tick, 125);   /* a delivery estimate: "in 2m" */
	cr_assert_eq(tick, 60000);
	app_time_tick(&tick, 90);    /* its seconds show in 31 s */
	cr_assert_eq(tick, 31000);
	app_time_tick(&tick, -12);
	cr_assert_eq(tick, 1000, "seconds shown: every second");
}

/* Times are drawn again once their period has passed since the pane's last draw, and not on
 * the passes of the loop before (a key, an answer): the list is not drawn twice for a key. */
Test(format, times_are_due_a_period_after_their_draw)
{
	cr_assert_eq(app_tick_wait_ms(0, 1000, 5000), -1, "no time shown: no timer");
	cr_assert_eq(app_tick_wait_ms(60000, 1000, 1000), 60000);
	cr_assert_eq(app_tick_wait_ms(60000, 1000, 31000), 30000, "30 s after the draw");
	cr_assert_eq(app_tick_wait_ms(60000, 1000, 61000), 0);
	cr_assert_eq(app_tick_wait_ms(1000, 1000, 9000), 0, "late: due now");
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

/* "1 transcriptions", "10 minute": the count says its unit in the right number. */
Test(format, counts_with_their_unit)
{
	fmt_count(buf, sizeof buf, 1, "transcription");
	cr_assert_str_eq(buf, "1 transcription");
	fmt_count(buf, sizeof buf, 0, "transcription");
	cr_assert_str_eq(buf, "0 transcriptions");
	fmt_count(buf, sizeof buf, 10, "minute");
	cr_assert_str_eq(buf, "10 minutes");
	fmt_count(buf, sizeof buf, 1.5, "minute");
	cr_assert_str_eq(buf, "1.5 minutes");
	fmt_count(buf, sizeof buf, 3, "hours");
	cr_assert_str_eq(buf, "3 hours");
	fmt_count(buf, sizeof buf, 2, NULL);
	cr_assert_str_eq(buf, "2");
}
