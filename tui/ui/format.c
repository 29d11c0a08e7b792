/* Formatting of durations, money, times, sizes and progress for display. */
#include "config.h"

#include "ui/format.h"

#include "api/error.h"
#include "ui/text.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* snprintf that reports what was written, never more than fits. */
static int put(char *buf, size_t size, int n)
{
	if (n < 0) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return (size_t)n >= size ? (int)(size ? size - 1 : 0) : n;
}

int fmt_duration(char *buf, size_t size, double seconds)
{
	long long s;

	if (isnan(seconds) || seconds < 0 || seconds > 1e12)
		return put(buf, size, snprintf(buf, size, "-"));
	s = (long long)(seconds + 0.5);
	if (s >= 3600)
		return put(buf, size, snprintf(buf, size, "%lld:%02lld:%02lld",
			s / 3600, s / 60 % 60, s % 60));
	return put(buf, size, snprintf(buf, size, "%lld:%02lld", s / 60, s % 60));
}

int fmt_money(char *buf, size_t size, long long cents, const char *symbol)
{
	unsigned long long a = cents < 0 ? 0ull - (unsigned long long)cents : (unsigned long long)cents;

	return put(buf, size, snprintf(buf, size, "%s%s%llu.%02llu", cents < 0 ? "-" : "",
		symbol ? symbol : "", a / 100, a % 100));
}

int fmt_span(char *buf, size_t size, long long seconds)
{
	unsigned long long s = seconds < 0 ? 0ull - (unsigned long long)seconds : (unsigned long long)seconds;

	if (s < 60)
		return put(buf, size, snprintf(buf, size, "%llus", s));
	if (s < 3600)
		return put(buf, size, snprintf(buf, size, "%llum", s / 60));
	if (s < 86400)
		return put(buf, size, snprintf(buf, size, "%lluh %02llum", s / 3600, s / 60 % 60));
	return put(buf, size, snprintf(buf, size, "%llud %02lluh", s / 86400, s / 3600 % 24));
}

long fmt_span_tick_ms(long long ahead)
{
	unsigned long long a = ahead < 0 ? 0ull - (unsigned long long)ahead : (unsigned long long)ahead;
	/* fmt_span's unit: seconds under a minute, minutes under a day, then hours */
	unsigned long long unit = a < 60 ? 1 : a < 86400 ? 60 : 3600, floor = unit == 3600 ? 86400 : 60;

	/* shrinking, it reaches the finer unit in a - floor + 1 seconds */
	if (ahead > 0 && unit > 1 && a - floor + 1 < unit)
		return (long)(a - floor + 1) * 1000;
	return (long)unit * 1000;
}

int fmt_relative(char *buf, size_t size, time_t when, time_t now)
{
	long long d = (long long)when - (long long)now;
	char span[32];

	if (d > -5 && d < 5)
		return put(buf, size, snprintf(buf, size, "just now"));
	fmt_span(span, sizeof span, d);
	if (d > 0)
		return put(buf, size, snprintf(buf, size, "in %s", span));
	return put(buf, size, snprintf(buf, size, "%s ago", span));
}

int fmt_countdown(char *buf, size_t size, time_t deadline, time_t now)
{
	long long d = (long long)deadline - (long long)now;
	char span[32];

	fmt_span(span, sizeof span, d);
	if (d >= 0)
		return put(buf, size, snprintf(buf, size, "in %s", span));
	return put(buf, size, snprintf(buf, size, "overdue %s", span));
}

static int fmt_scaled(char *buf, size_t size, double v, const char *suffix)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	size_t u = 0;

	if (isnan(v) || v < 0)
		return put(buf, size, snprintf(buf, size, "-"));
	if (v < 1024)
		return put(buf, size, snprintf(buf, size, "%.0f B%s", v, suffix));
	v /= 1024;
	/* 1023.96 KiB would print as "1024.0 KiB": move up before rounding does. */
	while (v >= 1023.95 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024;
		u++;
	}
	return put(buf, size, snprintf(buf, size, "%.1f %s%s", v, units[u], suffix));
}

int fmt_bytes(char *buf, size_t size, uint64_t bytes)
{
	return fmt_scaled(buf, size, (double)bytes, "");
}

int fmt_speed(char *buf, size_t size, double bytes_per_second)
{
	return fmt_scaled(buf, size, bytes_per_second, "/s");
}

int fmt_percent(char *buf, size_t size, double fraction)
{
	int pct;

	if (isnan(fraction))
		return put(buf, size, snprintf(buf, size, "?%%"));
	if (fraction < 0)
		fraction = 0;
	pct = fraction >= 1 ? 100 : (int)floor(fraction * 100);
	return put(buf, size, snprintf(buf, size, "%d%%", pct));
}

int fmt_progress(char *buf, size_t size, double fraction, int cols, int ascii)
{
	static const char *const eighths[] = { "", "\u258F", "\u258E", "\u258D",
		"\u258C", "\u258B", "\u258A", "\u2589" };
	size_t n = 0;
	long total, full;

	if (!size)
		return 0;
	if (isnan(fraction) || fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	if (cols < 0)
		cols = 0;
	total = lround(fraction * cols * 8);
	full = total / 8;
	for (int c = 0; c < cols; c++) {
		const char *cell;
		if (c < full)
			cell = ascii ? "#" : "\u2588";
		else if (c == full && !ascii && total % 8)
			cell = eighths[total % 8];
		else
			cell = ascii ? "." : " ";
		if (n + strlen(cell) + 1 > size)
			break;
		memcpy(buf + n, cell, strlen(cell));
		n += strlen(cell);
	}
	buf[n] = '\0';
	return (int)n;
}

/* The server's message, at most 200 bytes of it, cut between characters. */
static const char *err_words(const struct steno_error *err, char *buf, size_t size)
{
	text_copy(buf, size < 201 ? size : 201, err->message);
	return buf;
}

int fmt_error_text(char *out, size_t size, const struct steno_error *err)
{
	char m[201];

	if (!err)
		return text_format(out, size, "%s", "");
	if (err->kind == STENO_ERR_HTTP && err->http_status == 401)
		return text_format(out, size, "the API key was refused (401): check the profile's key");
	if (err->kind == STENO_ERR_HTTP && err->http_status == 403)
		return text_format(out, size, "not allowed (403): %s", err_words(err, m, sizeof m));
	if (err->kind == STENO_ERR_HTTP && err->http_status == 429)
		return text_format(out, size, "rate-limited: %s", err_words(err, m, sizeof m));
	if (err->kind == STENO_ERR_NETWORK || err->kind == STENO_ERR_TIMEOUT)
		return text_format(out, size, "cannot reach the server: %s", err_words(err, m, sizeof m));
	if (err->kind == STENO_ERR_HTTP)
		return text_format(out, size, "HTTP %ld: %s", err->http_status, err_words(err, m, sizeof m));
	return text_format(out, size, "%s: %s", steno_error_kind_name(err->kind),
			   err_words(err, m, sizeof m));
}

int fmt_count(char *buf, size_t size, double n, const char *unit)
{
	size_t len = unit ? strlen(unit) : 0;
	bool plural = n != 1 && len && unit[len - 1] != 's';

	return text_format(buf, size, "%g%s%s%s", n, len ? " " : "", len ? unit : "",
			   plural ? "s" : "");
}
