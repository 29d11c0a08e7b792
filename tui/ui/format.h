#ifndef STENO_UI_FORMAT_H
#define STENO_UI_FORMAT_H

/* Formatting of values for display: durations, money, relative times, sizes,
 * speeds and progress bars. Pure functions writing into caller buffers; each
 * returns the length written (like snprintf, output always NUL-terminated and cut
 * to fit) so they can be unit-tested as strings. */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct steno_error;

/* "1:02:03" for one hour or more, else "2:03"; "-" for negative or unknown (NaN). */
int fmt_duration(char *buf, size_t size, double seconds);

/* "€12.34" from 1234 cents and symbol "€"; "-€0.50"; thousands are not grouped.
 * A NULL or empty symbol gives "12.34". */
int fmt_money(char *buf, size_t size, long long cents, const char *symbol);

/* A short span: "45s", "3m", "2h 05m", "3d 04h". Negative spans count as positive. */
int fmt_span(char *buf, size_t size, long long seconds);

/* How often fmt_span, fmt_relative and fmt_countdown of a time `ahead` seconds from now
 * (negative: in the past, its span grows; positive: ahead, it shrinks) are worth drawing
 * again: the unit shown (1000 ms while seconds show, 60000 while minutes do, 3600000 beyond a
 * day), the same period for every time of a unit so that many on screen wake the loop once
 * a unit; a time ahead is drawn again when it comes under its unit, so that the finer one
 * (the last minute's seconds, the last day's minutes) shows from its start. */
long fmt_span_tick_ms(long long ahead);

/* Relative to now: "in 2h 05m", "3m ago", "just now" within 5 s either side. */
int fmt_relative(char *buf, size_t size, time_t when, time_t now);

/* A countdown to a deadline: "in 2h 05m", or "overdue 3m" once it has passed. */
int fmt_countdown(char *buf, size_t size, time_t deadline, time_t now);

/* "512 B", "1.5 KiB", "12.3 MiB", "2.0 GiB" (IEC units, one decimal above bytes). */
int fmt_bytes(char *buf, size_t size, uint64_t bytes);

/* fmt_bytes per second: "1.5 MiB/s". */
int fmt_speed(char *buf, size_t size, double bytes_per_second);

/* "42%" from a fraction 0..1 (clamped); "?%" for NaN. Never shows 100% before done. */
int fmt_percent(char *buf, size_t size, double fraction);

/* A bar exactly `cols` columns wide for a fraction 0..1: Unicode block elements in
 * eighths ("███▌    ") or with ascii != 0 "###.....". UTF-8 output; size must hold
 * 3 bytes per column + 1 or the bar is cut. */
int fmt_progress(char *buf, size_t size, double fraction, int cols, int ascii);

/* A count and its unit, the unit given in the singular: "1 transcription", "2 transcriptions",
 * "10 minutes", "1.5 minutes" (%g); a unit that ends in "s" already stays as it is. */
int fmt_count(char *buf, size_t size, double n, const char *unit);

/* An error for the status line: "HTTP 404: no order bogus1", "cannot reach the server: …";
 * the server's words cut at 200 bytes on whole characters (text_format). */
int fmt_error_text(char *buf, size_t size, const struct steno_error *err);

#endif
