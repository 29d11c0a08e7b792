#ifndef STENO_API_RATELIMIT_H
#define STENO_API_RATELIMIT_H

/* Client rate gate. Idle (every request passes) until the server answers 429; from then on a
 * token bucket keeps steno under the limit the server showed: the rate starts at half the rate
 * that provoked the 429 and halves on every further 429 (multiplicative decrease), and grows by
 * about one request per second for each second of 429-free traffic (additive increase).
 * Requests that find no token wait (queued by the engine), they are never dropped.
 * Pure arithmetic on a caller-supplied monotonic clock in milliseconds.
 * Ownership: a plain struct, nothing to free. */

#define STENO_RATE_RING 64

struct steno_rate_gate {
	int active;              /* a 429 has been seen */
	double rate;             /* tokens per second when active */
	double tokens;
	double last_ms;          /* time of the last refill */
	double blocked_until_ms; /* nothing starts before this (Retry-After) */
	double max_block_ms;     /* longest block a Retry-After obtains (init: 30 s) */
	double asked_s;          /* what the last 429 asked for, uncapped; < 0 when nothing */
	double starts[STENO_RATE_RING]; /* recent start times, to measure the offered rate */
	unsigned nstarts;
};

void steno_rate_gate_init(struct steno_rate_gate *g);

/* Milliseconds until a request may start (0: now). Does not consume a token. */
long steno_rate_gate_wait_ms(struct steno_rate_gate *g, double now_ms);

/* Records a request start; consumes a token when the gate is active.
 * Call only when steno_rate_gate_wait_ms returned 0. */
void steno_rate_gate_start(struct steno_rate_gate *g, double now_ms);

/* The server answered 429; `retry_after_s` < 0 when it did not say how long to wait. */
void steno_rate_gate_on_429(struct steno_rate_gate *g, double now_ms, double retry_after_s);

/* Milliseconds left of the block a 429 set (0: none). */
long steno_rate_gate_blocked_ms(const struct steno_rate_gate *g, double now_ms);

/* Ends the block now (the user asked to retry): one request may start at once, then the
 * bucket fills at the current rate. */
void steno_rate_gate_lift(struct steno_rate_gate *g, double now_ms);

/* The server answered something other than 429. */
void steno_rate_gate_on_success(struct steno_rate_gate *g);

/* Requests started in the last second (the offered rate). */
double steno_rate_gate_observed(const struct steno_rate_gate *g, double now_ms);

#endif
