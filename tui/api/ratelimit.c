#include "config.h"
#include "api/ratelimit.h"

#include <string.h>

#define RATE_MIN 0.5
#define RATE_MAX 1000.0
#define RATE_FIRST_MIN 2.0
/* A server's Retry-After blocks at most max_block_ms: the value is untrusted (one 429 asking
 * for an hour stopped all traffic for an hour), and the wait has to fit in a long (found by
 * fuzzing: "Retry-After: 6666...6" overflowed the conversion). */
#define BLOCK_DEFAULT_MS (30.0 * 1000.0)

void steno_rate_gate_init(struct steno_rate_gate *g)
{
	memset(g, 0, sizeof(*g));
	g->max_block_ms = BLOCK_DEFAULT_MS;
	g->asked_s = -1;
}

long steno_rate_gate_blocked_ms(const struct steno_rate_gate *g, double now_ms)
{
	return g->active && now_ms < g->blocked_until_ms ? (long)(g->blocked_until_ms - now_ms) + 1
							 : 0;
}

void steno_rate_gate_lift(struct steno_rate_gate *g, double now_ms)
{
	g->blocked_until_ms = 0;
	g->asked_s = -1;
	/* the bucket fills from now on, and the next request goes at once */
	if (g->last_ms > now_ms)
		g->last_ms = now_ms;
	if (g->tokens < 1)
		g->tokens = 1;
}

static double gate_burst(const struct steno_rate_gate *g)
{
	/* One second's worth, at least one token. */
	return g->rate < 1 ? 1 : g->rate;
}

static void gate_refill(struct steno_rate_gate *g, double now_ms)
{
	if (now_ms > g->last_ms) {
		g->tokens += (now_ms - g->last_ms) / 1000.0 * g->rate;
		g->last_ms = now_ms;
	}
	if (g->tokens > gate_burst(g))
		g->tokens = gate_burst(g);
}

long steno_rate_gate_wait_ms(struct steno_rate_gate *g, double now_ms)
{
	if (!g->active)
		return 0;
	if (now_ms < g->blocked_until_ms)
		return (long)(g->blocked_until_ms - now_ms) + 1;
	gate_refill(g, now_ms);
	if (g->tokens >= 1)
		return 0;
	return (long)((1 - g->tokens) / g->rate * 1000.0) + 1;
}

void steno_rate_gate_start(struct steno_rate_gate *g, double now_ms)
{
	g->starts[g->nstarts++ % STENO_RATE_RING] = now_ms;
	if (g->active) {
		gate_refill(g, now_ms);
		g->tokens -= 1;
	}
}

double steno_rate_gate_observed(const struct steno_rate_gate *g, double now_ms)
{
	unsigned n = g->nstarts < STENO_RATE_RING ? g->nstarts : STENO_RATE_RING;
	unsigned count = 0;
	for (unsigned i = 0; i < n; i++)
		if (g->starts[i] > now_ms - 1000.0)
			count++;
	return count;
}

void steno_rate_gate_on_429(struct steno_rate_gate *g, double now_ms, double retry_after_s)
{
	if (!g->active) {
		g->active = 1;
		g->rate = steno_rate_gate_observed(g, now_ms) / 2;
		if (g->rate < RATE_FIRST_MIN)
			g->rate = RATE_FIRST_MIN; /* one 429 after few requests: others drained it */
	} else {
		g->rate /= 2;
	}
	if (g->rate < RATE_MIN)
		g->rate = RATE_MIN;
	g->tokens = 0;
	g->last_ms = now_ms;
	g->asked_s = retry_after_s;
	double wait_ms = retry_after_s >= 0 ? retry_after_s * 1000.0 : 1000.0 / g->rate;
	if (!(wait_ms <= g->max_block_ms))
		wait_ms = g->max_block_ms;
	if (now_ms + wait_ms > g->blocked_until_ms)
		g->blocked_until_ms = now_ms + wait_ms;
	/* No tokens pile up while blocked: the bucket starts filling when the block ends. */
	g->last_ms = g->blocked_until_ms;
}

void steno_rate_gate_on_success(struct steno_rate_gate *g)
{
	if (!g->active)
		return;
	/* About +1 request/s per second of traffic at the current rate. */
	g->rate += 1.0 / g->rate;
	if (g->rate > RATE_MAX)
		g->rate = RATE_MAX;
}
