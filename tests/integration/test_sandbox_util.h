/* test_sandbox_util: what the test_sandbox_* suites share on top of sandbox_fixture, with
 * Criterion assertions: starting and stopping the one sandbox (and receiver) of a test, and
 * the pieces of the hostile suites (a clock, slow sockets, an upload of n bytes). */
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

/* The monotonic clock in seconds. */
double sbt_now_s(void);
/* Slowloris: opens n connections to s from the address `from` (NULL: any), each sending a
 * request line and part of its headers, fds into fds (each valid, else the test fails).
 * Returns how many connected and sent. */
int sbt_slow_sockets(const struct sbx *s, const char *from, int *fds, int n);
/* GET /uploads/new?filename=name, then a PUT of n bytes to its signedUrl: the first status
 * that is not 200 (or the PUT's); the JSON error code of that answer into code. */
long sbt_put_upload(const struct sbx *s, const char *name, size_t n, char *code, size_t codelen);

#endif
