/* Shared setup of the test_sandbox_* suites (see test_sandbox_util.h). */
#include "config.h"

#include "test_sandbox_util.h"

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

double sbt_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A TCP socket bound to `from` (any port), or an unbound one for NULL; -1 on failure. */
static int socket_from(const char *from)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	if (fd < 0 || !from)
		return fd;
	inet_pton(AF_INET, from, &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int sbt_slow_sockets(const struct sbx *s, const char *from, int *fds, int n)
{
	int port = 0, open_fds = 0;
	cr_assert_eq(sscanf(s->origin, "http://127.0.0.1:%d", &port), 1, "%s", s->origin);
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
	static const char head[] = "GET /api/v1/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ";
	for (int i = 0; i < n; i++) {
		fds[i] = socket_from(from);
		cr_assert_geq(fds[i], 0, "socket: %s", strerror(errno));
		if (connect(fds[i], (struct sockaddr *)&to, sizeof to) == 0 &&
		    send(fds[i], head, sizeof head - 1, MSG_NOSIGNAL) > 0)
			open_fds++;
	}
	return open_fds;
}

/* The "error" member of o, or "". */
static void error_code(json_object *o, char *code, size_t codelen)
{
	snprintf(code, codelen, "%s", sbx_str(o, "error") ? sbx_str(o, "error") : "");
}

long sbt_put_upload(const struct sbx *s, const char *name, size_t n, char *code, size_t codelen)
{
	long st = 0;
	char target[300];
	snprintf(target, sizeof target, "uploads/new?filename=%s", name);
	json_object *o = sbx_call(s, "GET", target, NULL, &st);
	if (st != 200) {
		error_code(o, code, codelen);
		json_object_put(o);
		return st;
	}
	char url[1024];
	snprintf(url, sizeof url, "%s", sbx_str(o, "signedUrl"));
	json_object_put(o);
	char *data = malloc(n + 1);
	cr_assert(data);
	memset(data, 'a', n);
	data[n] = '\0';
	struct sbx_resp r;
	sbx_request(s, "PUT", url, NULL, data, NULL, &r);
	free(data);
	o = sbx_json(&r);
	error_code(o, code, codelen);
	json_object_put(o);
	st = r.status;
	sbx_resp_free(&r);
	return st;
}
