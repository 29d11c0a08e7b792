/* Issue 24, the sandbox as a server: slow sockets from the address every local client shares
 * (127.0.0.1), a file-size limit, strings that are not text, bodies not declared JSON, bodies
 * over the cap. All on loopback, bounded in time. */
#include "config.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "test_sandbox_util.h"

TestSuite(sandbox_hostile3, .timeout = 60);

static struct sbx S;

static void stop_all(void)
{
	sbt_stop(&S, NULL);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define LORIS_SOCKETS 600

/* Item 3: 600 connections from 127.0.0.1 — where steno and every local client also are —
 * each with a request line and part of its headers. Ten requests from 127.0.0.1 during the
 * attack are each answered at once (the per-address limit refused them all before). */
Test(sandbox_hostile3, slow_sockets_from_the_shared_loopback_lock_nobody_out, .fini = stop_all)
{
	static int fds[LORIS_SOCKETS];
	int port = 0, open_fds = 0;
	sbt_start(&S, NULL);
	cr_assert_eq(sscanf(S.origin, "http://127.0.0.1:%d", &port), 1, "%s", S.origin);
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
	static const char head[] = "GET /api/v1/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ";
	for (int i = 0; i < LORIS_SOCKETS; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		cr_assert_geq(fds[i], 0, "socket: %s", strerror(errno));
		if (connect(fds[i], (struct sockaddr *)&to, sizeof to) == 0 &&
		    send(fds[i], head, sizeof head - 1, MSG_NOSIGNAL) > 0)
			open_fds++;
	}
	cr_assert_gt(open_fds, 0);
	usleep(200000);
	int served = 0;
	double worst = 0;
	for (int i = 0; i < 10; i++) {
		double t0 = now_s();
		struct sbx_resp r;
		sbx_request(&S, "GET", "/teapot", NULL, NULL, NULL, &r);
		double waited = now_s() - t0;
		served += r.status == 418;
		worst = waited > worst ? waited : worst;
		sbx_resp_free(&r);
	}
	for (int i = 0; i < LORIS_SOCKETS; i++)
		close(fds[i]);
	cr_expect_eq(served, 10, "%d of 10 requests from 127.0.0.1 answered during the attack", served);
	cr_expect_lt(worst, 3.0, "a request waited %.1f s", worst);
}
