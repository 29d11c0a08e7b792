/* ui/format: values as display strings. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <limits.h>
#include <math.h>

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
