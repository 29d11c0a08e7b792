#include "config.h"

/* Regressions for what the fuzz targets found in the sandbox (see docs/RELIABILITY.md).
 * Plain Criterion tests, run by `make check` with every compiler, unlike the fuzzers. */

#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/clock.h"
#include "sandbox/ratelimit.h"
#include "sandbox/sandbox.h"
#include "sandbox/signed_url.h"

struct sb_config sb_cfg; /* owned by the sandbox's main.c, which is not linked here */

static void setup(void)
{
	snprintf(sb_cfg.secret, sizeof sb_cfg.secret, "%s", "test-secret-0123456789abcdef");
	snprintf(sb_cfg.origin, sizeof sb_cfg.origin, "%s", "http://127.0.0.1:1");
	clock_init(1.0, 0);
}

/* Splits "ORIGIN/PATH?expires=E&signature=S" into its parts (pointers into url). */
static void url_parts(char *url, char **path, char **exp, char **sig)
{
	*path = url + strlen(sb_cfg.origin);
	char *q = strchr(*path, '?');
	cr_assert_not_null(q);
	*q = '\0';
	*exp = strstr(q + 1, "expires=") + 8;
	char *amp = strchr(*exp, '&');
	cr_assert_not_null(amp);
	*amp = '\0';
	*sig = strstr(amp + 1, "signature=") + 10;
}

Test(fuzz_found, signed_url_round_trip, .init = setup)
{
	char *url = signed_url_make("/files/exports/12");
	cr_assert_not_null(url);
	char *path, *exp, *sig;
	url_parts(url, &path, &exp, &sig);
	cr_assert_eq(signed_url_check(path, exp, sig), 0);
	cr_assert_eq(signed_url_check(path, "1", sig), -1);
	cr_assert_eq(signed_url_check("/files/exports/13", exp, sig), -1);
	free(url);
}

/* fuzz_sb_request: the HMAC message was cut at 1023 bytes, so for a longer path the expiry
 * was not signed: any expiry (even a past one) passed with the same signature. */
Test(fuzz_found, long_path_expiry_is_signed, .init = setup)
{
	char path[1200];
	memset(path, 'a', sizeof path - 1);
	path[0] = '/';
	path[sizeof path - 1] = '\0';
	char *url = signed_url_make(path);
	if (!url)
		return; /* refusing to sign such a path is the fix */
	char *p, *exp, *sig;
	url_parts(url, &p, &exp, &sig);
	cr_expect_eq(signed_url_check(p, "1000", sig), -1, "a past expiry passed with the signature");
	cr_expect_eq(signed_url_check(p, "99999999999", sig), -1, "another expiry passed");
	free(url);
}

Test(fuzz_found, long_path_never_verifies, .init = setup)
{
	char path[1200];
	memset(path, 'b', sizeof path - 1);
	path[0] = '/';
	path[sizeof path - 1] = '\0';
	cr_assert_eq(signed_url_check(path, "99999999999", "00"), -1);
}

/* fuzz_sb_request: with a tiny rate the Retry-After seconds overflowed the int conversion. */
Test(fuzz_found, ratelimit_tiny_rate_retry_fits, .init = setup)
{
	int retry = 0;
	ratelimit_init(1e-300, 1);
	cr_assert_eq(ratelimit_take("k", &retry), 1);
	cr_assert_eq(ratelimit_take("k", &retry), 0);
	cr_assert_eq(retry, 86400, "the wait is capped at a day, not wrapped to 1 s: %d", retry);
	ratelimit_free();
}

/* fuzz_sb_request: "--rate-limit nan/5" was accepted (NaN passes "rate <= 0"). The later bad
 * flag makes the sandbox exit either way; the message tells which flag it refused. */
Test(fuzz_found, rate_limit_flag_refuses_nan)
{
	const char *bin = getenv("STENO_SANDBOX_BIN");
	cr_assert_not_null(bin, "STENO_SANDBOX_BIN is not set");
	const char *const values[] = {"nan/5", "-nan/5", "inf/5", "0x1p2000/5"};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		char cmd[1024], out[512] = "";
		snprintf(cmd, sizeof cmd, "'%s' --rate-limit '%s' --api-form bogus 2>&1", bin, values[i]);
		FILE *p = popen(cmd, "r");
		cr_assert_not_null(p);
		size_t n = fread(out, 1, sizeof out - 1, p);
		out[n] = '\0';
		int st = pclose(p);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: status %d", values[i], st);
		cr_expect(strstr(out, "RATE/BURST") != NULL, "%s was accepted: %s", values[i], out);
	}
}

/* Same family as the rate: a NaN probability or a latency without its delay was taken as 0. */
Test(fuzz_found, faults_flag_refuses_nan_and_missing_delay)
{
	const char *bin = getenv("STENO_SANDBOX_BIN");
	cr_assert_not_null(bin, "STENO_SANDBOX_BIN is not set");
	const char *const values[] = {"500=nan", "429=-nan", "drop=inf", "latency=0.5:", "latency=nan:10ms"};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		char cmd[1024], out[512] = "";
		snprintf(cmd, sizeof cmd, "'%s' --faults '%s' --api-form bogus 2>&1", bin, values[i]);
		FILE *p = popen(cmd, "r");
		cr_assert_not_null(p);
		size_t n = fread(out, 1, sizeof out - 1, p);
		out[n] = '\0';
		int st = pclose(p);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: status %d", values[i], st);
		cr_expect(strstr(out, "fault") != NULL || strstr(out, "latency") != NULL,
			  "%s was accepted: %s", values[i], out);
	}
}
