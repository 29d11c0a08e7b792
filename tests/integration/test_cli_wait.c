/* cli_wait (tui/cli/wait.c), the one wait of every command: SIGINT/SIGTERM end it at once even
 * when no timer is near, both when the signal came just before the wait (after the loop looked
 * at the flag: the race a flag alone loses) and when another thread took it (its poll sees no
 * EINTR). A wait of 60 s must end within 10 s; Criterion runs each test in its own process,
 * so each starts with the flag down. */
#include "config.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "cli/ctx.h"

static struct cli_ctx c;

static void setup(void)
{
	struct steno_error err;
	/* nothing is ever sent: no request is submitted */
	struct steno_http_config hc = { .base_url = "http://127.0.0.1:9/api/v1", .api_key = "k" };

	memset(&c, 0, sizeof c);
	steno_error_clear(&err);
	cr_assert_eq(steno_http_new(&hc, &c.http, &err), 0, "%s", err.message);
	cli_signals_install();
}

static void teardown(void)
{
	steno_http_free(c.http);
}

TestSuite(cli_wait, .init = setup, .fini = teardown, .timeout = 60);

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

Test(cli_wait, a_signal_between_the_check_and_the_wait_still_ends_it)
{
	cr_assert(!cli_interrupted());
	raise(SIGINT);   /* the loop has looked at the flag; the signal comes before it waits */
	double t0 = mono_s();
	cli_wait(&c, 60000);
	cr_expect_lt(mono_s() - t0, 10.0, "the wait slept through the signal");
	cr_expect(cli_interrupted());
	/* the pipe is drained: a wait after it sleeps again (the flag stays up for the loops) */
	t0 = mono_s();
	cli_wait(&c, 300);
	cr_expect_geq(mono_s() - t0, 0.25, "the wait did not sleep");
}

static void *signal_later(void *arg)
{
	(void)arg;
	nanosleep(&(struct timespec){0, 300 * 1000000}, NULL);
	/* the handler runs on this thread: the waiting one's poll is not interrupted */
	pthread_kill(pthread_self(), SIGTERM);
	return NULL;
}

Test(cli_wait, a_signal_taken_by_another_thread_ends_it)
{
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, signal_later, NULL), 0);
	double t0 = mono_s();
	cli_wait(&c, 60000);
	double took = mono_s() - t0;
	pthread_join(th, NULL);
	cr_expect_lt(took, 10.0, "the wait slept through the signal");
	cr_expect(cli_interrupted());
}

Test(cli_wait, cli_sleep_ends_at_a_signal_with_cancelled)
{
	struct steno_error err;
	pthread_t th;

	steno_error_clear(&err);
	cr_assert_eq(pthread_create(&th, NULL, signal_later, NULL), 0);
	double t0 = mono_s();
	int rc = cli_sleep(&c, 60000, &err);
	double took = mono_s() - t0;
	pthread_join(th, NULL);
	cr_expect_eq(rc, -1);
	cr_expect_eq(err.kind, STENO_ERR_CANCELLED);
	cr_expect_lt(took, 10.0, "cli_sleep slept through the signal");
	t0 = mono_s();
	steno_error_clear(&err);
	cr_expect_eq(cli_sleep(&c, 0, &err), -1, "the flag stays up");
}
