#ifndef STENO_API_TIMESTAMP_H
#define STENO_API_TIMESTAMP_H

/* ISO 8601 timestamps of the API: "2024-05-01T12:30:45Z", "2024-05-01T12:30:45.123456Z",
 * "2024-05-01T14:30:45+02:00", "+0200", "+02", a space instead of 'T', lowercase 't'/'z'.
 * A date-only "2024-05-01" is midnight UTC; a time without a zone is taken as UTC.
 * Fractional seconds are kept to the millisecond (truncated). Leap second 60 is accepted
 * as 59.999. Everything else (bad fields, out-of-range months/days/hours, trailing text)
 * is rejected, never guessed. */

#include <stddef.h>
#include <stdint.h>

/* Parses s into milliseconds since the epoch (UTC). Returns 0, or -1 when s is not a
 * valid timestamp (*ms_out untouched). NULL s is invalid. */
int steno_timestamp_parse(const char *s, int64_t *ms_out);

/* Same for a buffer that need not be NUL-terminated. */
int steno_timestamp_parse_n(const char *s, size_t len, int64_t *ms_out);

/* Writes "YYYY-MM-DDTHH:MM:SS.mmmZ" (24 chars + NUL) into buf. Returns 0, or -1 when
 * size is too small or the year is outside 0..9999. */
int steno_timestamp_format(int64_t ms, char *buf, size_t size);

#endif
