/* test_sandbox_util: what the test_sandbox_* suites share on top of sandbox_fixture, with
 * Criterion assertions: starting and stopping the one sandbox (and receiver) of a test. */
#ifndef STENO_TESTS_TEST_SANDBOX_UTIL_H
#define STENO_TESTS_TEST_SANDBOX_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "sandbox_fixture.h"

/* sbx_start with extra (may be NULL); the test fails when it does not start. */
void sbt_start(struct sbx *s, const char *const *extra);
/* For a test's .fini: stops s when running and expects a clean exit (0: also no sanitizer
 * report in the sanitizer build), then stops *r (r may be NULL) and clears it. */
void sbt_stop(struct sbx *s, struct sbx_receiver **r);
/* Real time: asks cond(arg) up to `tries` times, pause_us apart; whether it held. */
bool sbt_wait(bool (*cond)(const void *arg), const void *arg, int tries, unsigned pause_us);
/* Uploads a WAV of `seconds` named name through s; its signed URL into url (size n). */
void sbt_upload_wav(const struct sbx *s, const char *name, double seconds, char *url, size_t n);

#endif
