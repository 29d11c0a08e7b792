/* The sandbox as a server under abuse (issue 13 item 8): proxy variables in its environment
 * do not carry its fetches beyond loopback; slow-header connections (slowloris) from one
 * address neither starve other clients nor live past the header deadline; a full disk is
 * answered 507 insufficient_storage, not 500. All on loopback, bounded in time. */
#include "config.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "test_sandbox_util.h"

/* One timeout for the suite: per-test timeouts of two tests running at once make Criterion's
 * runner leak (seen under LeakSanitizer). */
TestSuite(sandbox_hostile, .timeout = 60);

static struct sbx S;
static char full_dir[64];

static void stop_all(void)
{
	unsetenv("http_proxy");
	unsetenv("HTTP_PROXY");
	unsetenv("https_proxy");
	unsetenv("ALL_PROXY");
	unsetenv("no_proxy");
	sbt_stop(&S, NULL);
	if (full_dir[0]) {
		umount2(full_dir, MNT_DETACH);
		rmdir(full_dir);
		full_dir[0] = '\0';
	}
}

/* A loopback listener that counts the connections it accepts and closes them. */
struct counter_srv {
	int fd, port, stop;
	long accepted;
	pthread_t th;
};

static void *counter_loop(void *arg)
{
	struct counter_srv *c = arg;
	while (!__atomic_load_n(&c->stop, __ATOMIC_SEQ_CST)) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		if (poll(&p, 1, 50) <= 0)
			continue;
		int fd = accept(c->fd, NULL, NULL);
		if (fd < 0)
			continue;
		__atomic_add_fetch(&c->accepted, 1, __ATOMIC_SEQ_CST);
		close(fd);
	}
	return NULL;
}

/* A TCP socket bound to ip:0 (and listening when listen_too); its port into *port. */
static int tcp_socket(const char *ip, int listen_too, int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof a;
	inet_pton(AF_INET, ip, &a.sin_addr);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || (listen_too && listen(fd, 16) != 0) ||
	    getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (port)
		*port = ntohs(a.sin_port);
	return fd;
}

static json_object *create(const char *tmp_url, long *status)
{
	char body[1024];
	snprintf(body, sizeof body,
		 "{\"transcription\":{\"name\":\"p\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}",
		 tmp_url, S.org_id);
	return sbx_call(&S, "POST", "transcriptions", body, status);
}

/* The transcription's failureMessage once ingestion has failed (real time, bounded). */
static char *failure_of(const char *id)
{
	char path[128];
	snprintf(path, sizeof path, "transcriptions/%s", id);
	for (int i = 0; i < 150; i++) {
		long st = 0;
		json_object *o = sbx_call(&S, "GET", path, NULL, &st);
		const char *msg = sbx_str(o, "failureMessage");
		char *copy = msg ? strdup(msg) : NULL;
		json_object_put(o);
		if (copy)
			return copy;
		usleep(100000);
	}
	return NULL;
}

Test(sandbox_hostile, proxy_variables_do_not_carry_fetches_beyond_loopback, .fini = stop_all)
{
	struct counter_srv proxy = {0};
	char url[64];
	proxy.fd = tcp_socket("127.0.0.1", 1, &proxy.port);
	cr_assert_geq(proxy.fd, 0);
	cr_assert_eq(pthread_create(&proxy.th, NULL, counter_loop, &proxy), 0);
	snprintf(url, sizeof url, "http://127.0.0.1:%d", proxy.port);
	setenv("http_proxy", url, 1);
	setenv("HTTP_PROXY", url, 1);
	setenv("https_proxy", url, 1);
	setenv("ALL_PROXY", url, 1);
	setenv("no_proxy", "127.0.0.1", 1); /* the test's own requests go straight */
	sbt_start(&S, NULL);
	long st = 0;
	/* 192.0.2.0/24 is TEST-NET-1: never loopback. */
	json_object *o = create("http://192.0.2.1/media.wav", &st);
	cr_assert_eq(st, 201, "%s", json_object_to_json_string(o));
	char *msg = failure_of(sbx_str(o, "id"));
	json_object_put(o);
	__atomic_store_n(&proxy.stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(proxy.th, NULL);
	close(proxy.fd);
	cr_assert_not_null(msg, "the fetch did not fail");
	cr_expect(strstr(msg, "only loopback"), "%s", msg);
	free(msg);
	cr_assert_eq(proxy.accepted, 0, "the sandbox fetched through the proxy (%ld connections)", proxy.accepted);
}

#define LORIS_SOCKETS 600

/* Whether the server has ended the connection on fd (EOF or reset), without waiting. */
static int peer_closed(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* Slowloris: 600 connections from 127.0.0.2 each send a request line and part of the headers,
 * then a byte every half second. Another client (127.0.0.1) is served at once, and the slow
 * connections are closed by the header deadline although they keep sending. */
Test(sandbox_hostile, slowloris_neither_starves_nor_lasts, .fini = stop_all)
{
	static int fds[LORIS_SOCKETS];
	sbt_start(&S, NULL);
	int open_fds = sbt_slow_sockets(&S, "127.0.0.2", fds, LORIS_SOCKETS);
	cr_assert_gt(open_fds, 0);
	usleep(300000);

	double t0 = sbt_now_s();
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", "/teapot", NULL, NULL, NULL, &r), 0, "no answer (curl code %d)",
		     r.curl_code);
	double waited = sbt_now_s() - t0;
	cr_expect_eq(r.status, 418, "status %ld, curl code %d", r.status, r.curl_code);
	sbx_resp_free(&r);
	cr_expect_lt(waited, 3.0, "the other client waited %.1f s", waited);

	/* Keep sending a byte every 0.5 s for 8 s: an idle timeout never fires, a deadline does. */
	long alive_at_start = 0, still_open = 0;
	for (int i = 0; i < LORIS_SOCKETS; i++)
		alive_at_start += !peer_closed(fds[i]);
	for (int round = 0; round < 16; round++) {
		for (int i = 0; i < LORIS_SOCKETS; i++)
			send(fds[i], "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		usleep(500000);
	}
	for (int i = 0; i < LORIS_SOCKETS; i++) {
		still_open += !peer_closed(fds[i]);
		close(fds[i]);
	}
	cr_assert_gt(alive_at_start, 0);
	cr_assert_eq(still_open, 0, "%ld of %ld slow connections still open after 8 s", still_open, alive_at_start);
}

/* The sandbox's data directory on a 1 MiB tmpfs (a mount namespace of this test process and
 * its children only): uploads fill it, then an upload and a create meet the full disk and are
 * answered 507 insufficient_storage, where the man page keeps 500 for injected faults. */
Test(sandbox_hostile, full_disk_is_507_not_500, .fini = stop_all)
{
	if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
		cr_skip_test("no private mount namespace here (%s): needs root, as in CI", strerror(errno));
	snprintf(full_dir, sizeof full_dir, "/tmp/steno-full-XXXXXX");
	cr_assert_not_null(mkdtemp(full_dir));
	cr_assert_eq(mount("tmpfs", full_dir, "tmpfs", 0, "size=1m"), 0, "mount: %s", strerror(errno));
	cr_assert_eq(sbx_start_dir(&S, full_dir, NULL), 0, "the sandbox did not start on the tmpfs");

	static const size_t sizes[] = {262144, 65536, 16384, 4096, 1024, 256};
	char code[64];
	int full_seen = 0;
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		for (int i = 0; i < 64; i++) {
			long st = sbt_put_upload(&S, "fill.bin", sizes[k], code, sizeof code);
			if (st == 200)
				continue;
			cr_assert_eq(st, 507, "upload on a full disk: HTTP %ld %s", st, code);
			cr_assert_str_eq(code, "insufficient_storage");
			full_seen++;
			break;
		}
	}
	cr_assert_gt(full_seen, 0, "the disk never filled");

	long st = 0;
	for (int i = 0; i < 400 && (st == 0 || st == 201); i++) {
		json_object *o = create("http://127.0.0.1:9/none.wav", &st);
		snprintf(code, sizeof code, "%s", sbx_str(o, "error") ? sbx_str(o, "error") : "");
		json_object_put(o);
	}
	cr_assert_eq(st, 507, "create on a full disk: HTTP %ld %s", st, code);
	cr_assert_str_eq(code, "insufficient_storage");
}
