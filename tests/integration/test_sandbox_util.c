/* Shared setup of the test_sandbox_* suites (see test_sandbox_util.h). */
#include "config.h"

#include "test_sandbox_util.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <unistd.h>

void sbt_start(struct sbx *s, const char *const *extra)
{
	cr_assert_eq(sbx_start(s, extra), 0, "the sandbox did not start");
}

void sbt_stop(struct sbx *s, struct sbx_receiver **r)
{
	if (s->pid > 0) {
		int st = sbx_stop(s);
		cr_expect_eq(st, 0, "steno-sandbox exited with status %d", st);
	}
	if (r) {
		sbx_receiver_stop(*r);
		*r = NULL;
	}
}

bool sbt_wait(bool (*cond)(const void *arg), const void *arg, int tries, unsigned pause_us)
{
	for (int i = 0; i < tries; i++) {
		if (cond(arg))
			return true;
		usleep(pause_us);
	}
	return false;
}

void sbt_upload_wav(const struct sbx *s, const char *name, double seconds, char *url, size_t n)
{
	size_t len;
	void *wav = sbx_make_wav(seconds, &len);
	cr_assert_eq(sbx_upload(s, name, wav, len, url, n), 0);
	free(wav);
}
