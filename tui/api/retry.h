#ifndef STENO_API_RETRY_H
#define STENO_API_RETRY_H

/* Retry policy: which failures are retried, how long to wait, how to read Retry-After.
 * Pure functions; the engine owns the timers. */

#include <time.h>

/* How a try ended, as far as the retry policy cares. */
enum steno_retry_outcome {
	STENO_OUTCOME_HTTP,          /* an HTTP status arrived (see status) */
	STENO_OUTCOME_CONNECT,       /* no connection made: the request was never sent */
	STENO_OUTCOME_NETWORK,       /* connection dropped or body truncated after sending */
	STENO_OUTCOME_TIMEOUT,
	STENO_OUTCOME_OTHER,         /* local failure (out of memory, file) */
};

struct steno_retry_policy {
	int max_tries;        /* total tries including the first, >= 1 */
	long base_ms;         /* delay before the second try, before jitter */
	long max_delay_ms;    /* cap of every delay, also of Retry-After */
};

/* Defaults: 5 tries, 500 ms base, 30 s cap. */
void steno_retry_policy_default(struct steno_retry_policy *p);

/* True when `method` is idempotent for us: only GET, HEAD and DELETE are retried. */
int steno_retry_method_idempotent(const char *method);

/* True when a try that ended with `outcome`/`status` should be tried again, given that
 * `tries_done` tries have been made. 5xx, 429, network errors and timeouts are retried for
 * idempotent methods; POST/PUT/PATCH only after a 429 (the server did not act on it). */
int steno_retry_should(const struct steno_retry_policy *p, const char *method,
		       enum steno_retry_outcome outcome, long status, int tries_done);

/* Delay before try number tries_done + 1: "full jitter" over an exponential window,
 * base * 2^(tries_done - 1) capped at max_delay_ms; `rand01` in [0, 1) picks the point in
 * [window/2, window] so that retries never come back at once. Always in [0, max_delay_ms]. */
long steno_retry_backoff_ms(const struct steno_retry_policy *p, int tries_done, double rand01);

/* The delay to use when the server said `server_after_s` (< 0: nothing said):
 * the server's value (capped at max_delay_ms) or else the backoff. */
long steno_retry_delay_ms(const struct steno_retry_policy *p, int tries_done, double rand01,
			  double server_after_s);

/* Parses a Retry-After value: delta seconds ("120") or an HTTP-date (all three forms of
 * RFC 9110). A date in the past gives 0. Returns 0 and sets *seconds, or -1 when the value
 * is neither. `now` is the current time (a parameter so tests can fix it). */
int steno_retry_parse_after(const char *value, time_t now, double *seconds);

#endif
