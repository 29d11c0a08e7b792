#include "config.h"
#include "api/timestamp.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A cursor over a length-bounded string. */
struct cur {
	const char *s;
	size_t len, i;
};

static bool digits(struct cur *c, int n, int *out)
{
	int v = 0;
	for (int k = 0; k < n; k++) {
		if (c->i >= c->len || c->s[c->i] < '0' || c->s[c->i] > '9')
			return false;
		v = v * 10 + (c->s[c->i++] - '0');
	}
	*out = v;
	return true;
}

static bool accept(struct cur *c, char ch)
{
	if (c->i < c->len && c->s[c->i] == ch) {
		c->i++;
		return true;
	}
	return false;
}

static bool is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm): no timegm, no TZ. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool parse_fraction(struct cur *c, int *ms)
{
	int n = 0;
	*ms = 0;
	if (!accept(c, '.') && !accept(c, ','))
		return true;
	while (c->i < c->len && c->s[c->i] >= '0' && c->s[c->i] <= '9') {
		if (n < 3)
			*ms = *ms * 10 + (c->s[c->i] - '0');
		n++;
		c->i++;
	}
	if (n == 0)
		return false;
	for (; n < 3; n++)
		*ms *= 10;
	return true;
}

/* Zone: Z, +hh:mm, +hhmm, +hh (or -). *offset_min is east of UTC. */
static bool parse_zone(struct cur *c, int *offset_min)
{
	int hh, mm = 0, sign;
	*offset_min = 0;
	if (c->i == c->len)
		return true;          /* no zone: UTC */
	if (accept(c, 'Z') || accept(c, 'z'))
		return true;
	if (accept(c, '+'))
		sign = 1;
	else if (accept(c, '-'))
		sign = -1;
	else
		return false;
	if (!digits(c, 2, &hh) || hh > 23)
		return false;
	if (c->i < c->len) {
		accept(c, ':');
		if (!digits(c, 2, &mm) || mm > 59)
			return false;
	}
	*offset_min = sign * (hh * 60 + mm);
	return true;
}

static bool parse_time(struct cur *c, int *h, int *mi, int *sec, int *ms)
{
	if (!digits(c, 2, h) || !accept(c, ':') || !digits(c, 2, mi))
		return false;
	*sec = 0;
	*ms = 0;
	if (accept(c, ':') && (!digits(c, 2, sec) || !parse_fraction(c, ms)))
		return false;
	if (*h > 23 || *mi > 59 || *sec > 60)
		return false;
	if (*sec == 60) {         /* leap second: keep it inside the same minute */
		*sec = 59;
		*ms = 999;
	}
	return true;
}

int steno_timestamp_parse_n(const char *s, size_t len, int64_t *ms_out)
{
	struct cur c = {s, len, 0};
	int y, mo, d, h = 0, mi = 0, sec = 0, ms = 0, off = 0;

	if (!s)
		return -1;
	if (!digits(&c, 4, &y) || !accept(&c, '-') || !digits(&c, 2, &mo) || !accept(&c, '-') ||
	    !digits(&c, 2, &d))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	if (c.i < c.len) {
		if (!accept(&c, 'T') && !accept(&c, 't') && !accept(&c, ' '))
			return -1;
		if (!parse_time(&c, &h, &mi, &sec, &ms) || !parse_zone(&c, &off))
			return -1;
	}
	if (c.i != c.len)
		return -1;
	int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off * 60;
	*ms_out = secs * 1000 + ms;
	return 0;
}

int steno_timestamp_parse(const char *s, int64_t *ms_out)
{
	return s ? steno_timestamp_parse_n(s, strlen(s), ms_out) : -1;
}

int steno_timestamp_format(int64_t ms, char *buf, size_t size)
{
	/* 0000-01-01 .. 9999-12-31: also keeps the arithmetic below from overflowing. */
	if (ms < -62167219200000LL || ms > 253402300799999LL)
		return -1;
	int64_t secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
	int64_t msr = ms - secs * 1000;
	int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
	int64_t rem = secs - days * 86400;
	/* civil_from_days (Howard Hinnant) */
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int64_t d = doy - (153 * mp + 2) / 5 + 1;
	int64_t m = mp < 10 ? mp + 3 : mp - 9;
	int64_t y = yoe + era * 400 + (m <= 2);

	if (size < 25 || y < 0 || y > 9999)
		return -1;
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (int)y, (int)m, (int)d,
		 (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60), (int)msr);
	return 0;
}
