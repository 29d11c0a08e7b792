#include "config.h"

/* Fuzzes what the client reads from a response besides the body, and the URL policy that
 * guards the key and the download directory. Byte 0 picks the part, the rest is its input:
 *   0 retry:  a Retry-After value through both readers (api/retry.c, api/error_body.c),
 *             then the value through the retry delay and the rate gate, as the engine does
 *   1 name:   a server-supplied file name through steno_url_safe_basename
 *   2 redact: a URL through steno_url_redact
 *   3 origin: "URL\nURL" through steno_url_same_origin, and the URL builder
 * Invariants: delays are within [0, cap]; a gate wait is never negative; a safe basename has
 * no separator, no control, no leading dot, at most 200 bytes; a redacted URL has no fragment
 * and no password; same-origin is symmetric and reflexive on URLs it accepts. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/error_body.h"
#include "api/ratelimit.h"
#include "api/retry.h"
#include "api/url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW_S 1700000000LL

static void use_retry_after(double secs)
{
	struct steno_retry_policy p;
	steno_retry_policy_default(&p);
	long d = steno_retry_delay_ms(&p, 1, 0.5, secs);
	if (d < 0 || d > p.max_delay_ms)
		abort();
	struct steno_rate_gate g;
	double now = 5000.0;
	steno_rate_gate_init(&g);
	for (int i = 0; i < 4; i++)
		steno_rate_gate_start(&g, now);
	steno_rate_gate_on_429(&g, now, secs);
	if (steno_rate_gate_wait_ms(&g, now) < 0 || steno_rate_gate_wait_ms(&g, now + 1e9) < 0)
		abort();
	steno_rate_gate_on_success(&g);
}

static void fuzz_retry(const char *s)
{
	double secs = -1;
	if (steno_retry_parse_after(s, (time_t)NOW_S, &secs) == 0) {
		if (!(secs >= 0))
			abort();
		use_retry_after(secs);
	}
	double alt = steno_retry_after_parse(s, NOW_S);
	if (alt != -1) {
		if (!(alt >= 0))
			abort();
		use_retry_after(alt);
	}
}

static void fuzz_name(const char *s)
{
	char out[256];
	struct steno_error err;
	if (steno_url_safe_basename(s, "download", out, sizeof out, &err) != 0)
		abort(); /* the fallback is never empty */
	size_t n = strlen(out);
	if (n == 0 || n > 200 || out[0] == '.' || strpbrk(out, "/\\"))
		abort();
	for (const unsigned char *p = (const unsigned char *)out; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

static void fuzz_redact(const char *s)
{
	char out[512];
	int rc = steno_url_redact(s, out, sizeof out);
	if (!memchr(out, '\0', sizeof out))
		abort();
	if (rc != 0)
		return;
	if (strchr(out, '#'))
		abort(); /* the fragment is dropped */
	const char *host = strstr(out, "://");
	if (!host)
		return;
	host += 3;
	size_t auth_len = strcspn(host, "/?#");
	const char *at = memchr(host, '@', auth_len);
	if (at && memchr(host, ':', (size_t)(at - host)))
		abort(); /* user:password@ is removed */
}

static void fuzz_origin(char *s)
{
	char *b = strchr(s, '\n');
	if (!b)
		return;
	*b++ = '\0';
	int ab = steno_url_same_origin(s, b), ba = steno_url_same_origin(b, s);
	if (ab != ba)
		abort();
	if (ab && (!steno_url_same_origin(s, s) || !steno_url_same_origin(b, b)))
		abort();
	struct steno_url_builder ub;
	steno_url_builder_init(&ub, s, "/transcriptions");
	steno_url_builder_segment(&ub, b);
	steno_url_builder_param(&ub, "organization_id", b);
	char *url = steno_url_builder_take(&ub);
	if (url && steno_url_same_origin(s, s) && !steno_url_same_origin(s, url))
		abort(); /* what the builder adds never changes the origin */
	free(url);
	steno_url_builder_free(&ub);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 4) {
	case 0: fuzz_retry(s); break;
	case 1: fuzz_name(s); break;
	case 2: fuzz_redact(s); break;
	default: fuzz_origin(s); break;
	}
	free(s);
	return 0;
}
