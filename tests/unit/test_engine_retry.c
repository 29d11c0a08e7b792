#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "api/ratelimit.h"
#include "api/retry.h"
#include "api/trace.h"

static struct steno_retry_policy pol(void)
{
	struct steno_retry_policy p;
	steno_retry_policy_default(&p);
	return p;
}

Test(engine_backoff, bounds_grow_and_cap)
{
	struct steno_retry_policy p = pol();
	for (int t = 1; t <= 12; t++) {
		long window = p.base_ms << (t - 1);
		if (window > p.max_delay_ms || t > 8)
			window = p.max_delay_ms;
		long lo = steno_retry_backoff_ms(&p, t, 0.0);
		long hi = steno_retry_backoff_ms(&p, t, 0.999999);
		cr_assert_eq(lo, window / 2, "try %d", t);
		cr_assert_geq(hi, window - 1, "try %d", t);
		cr_assert_leq(hi, p.max_delay_ms);
	}
}

Test(engine_backoff, jitter_spreads)
{
	struct steno_retry_policy p = pol();
	long a = steno_retry_backoff_ms(&p, 3, 0.1);
	long b = steno_retry_backoff_ms(&p, 3, 0.9);
	cr_assert_lt(a, b);
	/* out-of-range random input is clamped, never a negative or huge delay */
	long c = steno_retry_backoff_ms(&p, 3, -5);
	cr_assert(c >= 0 && c <= p.max_delay_ms);
	cr_assert_eq(steno_retry_backoff_ms(&p, 0, 0.0), p.base_ms / 2);
	cr_assert_eq(steno_retry_backoff_ms(&p, 1000000, 0.0), p.max_delay_ms / 2);
}

Test(engine_backoff, server_delay_wins_but_capped)
{
	struct steno_retry_policy p = pol();
	cr_assert_eq(steno_retry_delay_ms(&p, 1, 0.5, 2.0), 2000);
	cr_assert_eq(steno_retry_delay_ms(&p, 1, 0.5, 0.0), 0);
	cr_assert_eq(steno_retry_delay_ms(&p, 1, 0.5, 3600.0), p.max_delay_ms);
	cr_assert_eq(steno_retry_delay_ms(&p, 1, 0.0, -1), p.base_ms / 2);
}

Test(engine_retry_after, delta_seconds)
{
	double s = -1;
	cr_assert_eq(steno_retry_parse_after("120", 0, &s), 0);
	cr_assert_float_eq(s, 120.0, 1e-9);
	cr_assert_eq(steno_retry_parse_after("  0 ", 0, &s), 0);
	cr_assert_float_eq(s, 0.0, 1e-9);
	cr_assert_eq(steno_retry_parse_after("1.5", 0, &s), 0);
	cr_assert_float_eq(s, 1.5, 1e-9);
}

Test(engine_retry_after, http_dates)
{
	double s = -1;
	time_t now = 784111777 - 10; /* Sun, 06 Nov 1994 08:49:37 GMT minus 10 s */
	cr_assert_eq(steno_retry_parse_after("Sun, 06 Nov 1994 08:49:37 GMT", now, &s), 0);
	cr_assert_float_eq(s, 10.0, 1e-9);
	cr_assert_eq(steno_retry_parse_after("Sunday, 06-Nov-94 08:49:37 GMT", now, &s), 0);
	cr_assert_float_eq(s, 10.0, 1e-9);
	cr_assert_eq(steno_retry_parse_after("Sun Nov  6 08:49:37 1994", now, &s), 0);
	cr_assert_float_eq(s, 10.0, 1e-9);
	/* a date in the past means "now" */
	cr_assert_eq(steno_retry_parse_after("Sun, 06 Nov 1994 08:49:37 GMT", now + 100, &s), 0);
	cr_assert_float_eq(s, 0.0, 1e-9);
}

Test(engine_retry_after, garbage_refused)
{
	double s = 7;
	cr_assert_eq(steno_retry_parse_after(NULL, 0, &s), -1);
	cr_assert_eq(steno_retry_parse_after("", 0, &s), -1);
	cr_assert_eq(steno_retry_parse_after("soon", 0, &s), -1);
	cr_assert_eq(steno_retry_parse_after("-5", 0, &s), -1);
	cr_assert_eq(steno_retry_parse_after("12abc", 0, &s), -1);
	cr_assert_float_eq(s, 7.0, 1e-9);
}

Test(engine_retry_decision, per_method_and_status)
{
	struct steno_retry_policy p = pol();
	const long retried[] = {429, 500, 502, 503, 504};
	const long final[] = {200, 204, 301, 400, 401, 403, 404, 405, 406, 410, 418, 422};
	for (size_t i = 0; i < sizeof(retried) / sizeof(retried[0]); i++) {
		cr_assert(steno_retry_should(&p, "GET", STENO_OUTCOME_HTTP, retried[i], 1));
		cr_assert(steno_retry_should(&p, "DELETE", STENO_OUTCOME_HTTP, retried[i], 1));
		/* a 429 is the one answer that says the server did not act */
		cr_assert_eq(steno_retry_should(&p, "POST", STENO_OUTCOME_HTTP, retried[i], 1),
			     retried[i] == 429);
		cr_assert_eq(steno_retry_should(&p, "PUT", STENO_OUTCOME_HTTP, retried[i], 1),
			     retried[i] == 429);
	}
	for (size_t i = 0; i < sizeof(final) / sizeof(final[0]); i++)
		cr_assert_not(steno_retry_should(&p, "GET", STENO_OUTCOME_HTTP, final[i], 1));
}

Test(engine_retry_decision, network_and_limits)
{
	struct steno_retry_policy p = pol();
	cr_assert(steno_retry_should(&p, "GET", STENO_OUTCOME_TIMEOUT, 0, 1));
	cr_assert(steno_retry_should(&p, "GET", STENO_OUTCOME_NETWORK, 0, 1));
	cr_assert(steno_retry_should(&p, "DELETE", STENO_OUTCOME_CONNECT, 0, 1));
	cr_assert_not(steno_retry_should(&p, "POST", STENO_OUTCOME_TIMEOUT, 0, 1));
	cr_assert_not(steno_retry_should(&p, "POST", STENO_OUTCOME_CONNECT, 0, 1));
	cr_assert_not(steno_retry_should(&p, "GET", STENO_OUTCOME_OTHER, 0, 1));
	cr_assert(steno_retry_should(&p, "GET", STENO_OUTCOME_HTTP, 503, p.max_tries - 1));
	cr_assert_not(steno_retry_should(&p, "GET", STENO_OUTCOME_HTTP, 503, p.max_tries));
	cr_assert_not(steno_retry_should(&p, NULL, STENO_OUTCOME_HTTP, 503, 1));
	cr_assert_not(steno_retry_should(&p, "get", STENO_OUTCOME_HTTP, 503, 1));
}

Test(engine_gate, idle_until_429)
{
	struct steno_rate_gate g;
	steno_rate_gate_init(&g);
	for (int i = 0; i < 100; i++) {
		cr_assert_eq(steno_rate_gate_wait_ms(&g, i), 0);
		steno_rate_gate_start(&g, i);
	}
}

Test(engine_gate, learns_and_queues_after_429)
{
	struct steno_rate_gate g;
	steno_rate_gate_init(&g);
	double t = 1000;
	for (int i = 0; i < 20; i++) /* 20 requests in 200 ms: 20/s offered */
		steno_rate_gate_start(&g, t + i * 10);
	t += 200;
	steno_rate_gate_on_429(&g, t, 1.0);
	cr_assert(g.active);
	cr_assert_float_eq(g.rate, 10.0, 1e-9);
	/* blocked for the Retry-After second */
	long w = steno_rate_gate_wait_ms(&g, t);
	cr_assert(w >= 1000 && w <= 1001, "%ld", w);
	/* then at most `rate` per second: count starts in the next 2 s */
	int started = 0;
	for (double now = t + 1000; now < t + 3000; now += 1) {
		if (steno_rate_gate_wait_ms(&g, now) == 0) {
			steno_rate_gate_start(&g, now);
			started++;
		}
	}
	cr_assert(started >= 18 && started <= 22, "started %d", started);
	/* a second 429 halves the rate; successes let it grow again */
	steno_rate_gate_on_429(&g, t + 3000, -1);
	cr_assert_float_eq(g.rate, 5.0, 1e-9);
	for (int i = 0; i < 25; i++)
		steno_rate_gate_on_success(&g);
	cr_assert_gt(g.rate, 8.0);
	cr_assert_lt(g.rate, 11.0);
}

Test(engine_gate, floor_rate)
{
	struct steno_rate_gate g;
	steno_rate_gate_init(&g);
	for (int i = 0; i < 10; i++)
		steno_rate_gate_on_429(&g, 0, -1);
	cr_assert_geq(g.rate, 0.5);
	cr_assert_gt(steno_rate_gate_wait_ms(&g, 0), 0);
}

/* Found by fuzzing (tests/fuzz/fuzz_http_meta): a huge Retry-After overflowed the long wait. */
Test(engine_gate, huge_retry_after_is_capped)
{
	struct steno_rate_gate g;
	steno_rate_gate_init(&g);
	steno_rate_gate_on_429(&g, 1000, 6.67e57);
	long w = steno_rate_gate_wait_ms(&g, 1000);
	cr_assert_gt(w, 0);
	cr_assert_leq(w, 30L * 1000 + 1);
	steno_rate_gate_on_429(&g, 2000, 1e20);
	cr_assert_gt(steno_rate_gate_wait_ms(&g, 2000), 0);
}

/* Issue 13: one 429 asking for an hour must not stop traffic for an hour: the block is
 * capped (30 s by default, configurable), the asked value is kept for messages, and R lifts it. */
Test(engine_gate, retry_after_capped_and_lifted)
{
	struct steno_rate_gate g;
	steno_rate_gate_init(&g);
	steno_rate_gate_on_429(&g, 1000, 3600);
	cr_assert_leq(steno_rate_gate_wait_ms(&g, 1000), 30001);
	cr_assert_gt(steno_rate_gate_wait_ms(&g, 1000), 29000);
	cr_assert_float_eq(g.asked_s, 3600, 1e-9);
	steno_rate_gate_on_429(&g, 2000, 1e300);
	cr_assert_leq(steno_rate_gate_wait_ms(&g, 2000), 30001);
	g.max_block_ms = 5000;
	steno_rate_gate_on_429(&g, 100000, 3600);
	cr_assert_leq(steno_rate_gate_wait_ms(&g, 100000), 5001);
	steno_rate_gate_lift(&g, 100000);
	cr_assert_eq(steno_rate_gate_blocked_ms(&g, 100000), 0);
	cr_assert_eq(steno_rate_gate_wait_ms(&g, 100000), 0);
}

Test(engine_retry, post_retried_only_after_429)
{
	struct steno_retry_policy p;
	steno_retry_policy_default(&p);
	/* a 429 says the server did not act: safe to send again */
	cr_assert(steno_retry_should(&p, "POST", STENO_OUTCOME_HTTP, 429, 1));
	cr_assert_not(steno_retry_should(&p, "POST", STENO_OUTCOME_HTTP, 429, p.max_tries));
	/* anything else may have been acted on */
	cr_assert_not(steno_retry_should(&p, "POST", STENO_OUTCOME_HTTP, 503, 1));
	cr_assert_not(steno_retry_should(&p, "POST", STENO_OUTCOME_NETWORK, 0, 1));
	cr_assert_not(steno_retry_should(&p, "POST", STENO_OUTCOME_TIMEOUT, 0, 1));
	cr_assert_not(steno_retry_should(&p, "PUT", STENO_OUTCOME_HTTP, 500, 1));
}

/* Issue 13: the trace file is cleaned as the log pane is: no raw C1, bidi or invalid bytes. */
Test(engine_trace, line_has_no_controls)
{
	char line[512];
	struct steno_trace_entry e = {
		.method = "GET", .status = 200,
		.url = "http://127.0.0.1:5/x?page=2&a=\xc2\x9b" "31m\xe2\x80\xae" "b\x9b\x7f\x1b[2J",
	};
	steno_trace_format(&e, NULL, line, sizeof(line));
	cr_assert_null(strstr(line, "\xc2\x9b"), "%s", line);
	cr_assert_null(strstr(line, "\xe2\x80\xae"), "%s", line);
	for (const unsigned char *p = (const unsigned char *)line; *p; p++)
		cr_assert(*p >= 0x20 && *p < 0x7f, "byte 0x%02x in %s", *p, line);
}

Test(engine_trace, line_has_no_secret)
{
	char line[512];
	struct steno_trace_entry e = {
		.method = "PUT",
		.url = "http://127.0.0.1:5/up/f.mp3?X-Amz-Signature=deadbeef&name=KEY123",
		.status = 200, .bytes = 42, .ms = 7, .retries = 2,
	};
	steno_trace_format(&e, "KEY123", line, sizeof(line));
	cr_assert_str_eq(line, "PUT http://127.0.0.1:5/up/f.mp3?X-Amz-Signature=REDACTED&name=****** 200 42B 7ms retries=2");
	e.status = 0;
	e.error = "timeout";
	steno_trace_format(&e, NULL, line, sizeof(line));
	cr_assert(strstr(line, " ERR(timeout) "));
}
