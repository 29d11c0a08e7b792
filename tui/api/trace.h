#ifndef STENO_API_TRACE_H
#define STENO_API_TRACE_H

/* Opt-in HTTP trace: one line per finished request, appended to a file:
 *   2026-01-02T03:04:05.678Z GET https://host/api/v1/x?sig=REDACTED 200 1234B 56ms retries=0
 * URLs go through steno_url_redact; the API key never reaches the file (headers are never
 * written, and a line that would contain the key has it replaced as a last guard). */

#include <stddef.h>

#include "api/error.h"

struct steno_trace; /* opaque; owned by whoever opened it, freed by steno_trace_close */

/* Opens (creates mode 0600, appends) the trace file. */
int steno_trace_open(const char *path, struct steno_trace **out, struct steno_error *err);
void steno_trace_close(struct steno_trace *t);

/* A secret the trace must never contain (the API key). Copied. 0 or -1 (out of memory). */
int steno_trace_set_secret(struct steno_trace *t, const char *secret);

struct steno_trace_entry {
	const char *method;
	const char *url;
	long status;        /* 0 when no answer arrived */
	const char *error;  /* short error text when no answer arrived, else NULL */
	size_t bytes;       /* body bytes received (or sent, for uploads) */
	long ms;
	int retries;
};

/* Writes one line; NULL t does nothing. */
void steno_trace_write(struct steno_trace *t, const struct steno_trace_entry *e);

/* Formats the line without the timestamp and newline (for tests). */
void steno_trace_format(const struct steno_trace_entry *e, const char *secret, char *out,
			size_t size);

#endif
