/* steno-sandbox stops promptly on SIGTERM whatever its threads are waiting for: a request
 * held by a latency fault ends (its connection closed, its route never run) instead of
 * holding the stop for the whole delay; a download or a webhook call that the server does
 * not answer ends too, and is taken up again at the next start. The exit is still the clean one (status 0,
 * the database closed: its write-ahead log checkpointed and removed). */
#include "config.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_sandbox_util.h"

/* Far below the 30 s delay held, generous for a loaded machine. */
#define STOP_BOUND_MS 10000

static struct sbx S;

static void stop_all(void)
{
	sbt_stop(&S, NULL);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sends one raw HTTP request to the sandbox and returns the socket, left unread. */
static int send_raw(const char *method, const char *path, const char *body)
{
	const char *colon = strrchr(S.origin, ':');
	cr_assert_not_null(colon);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	char req[2048];
	int n = snprintf(req, sizeof req,
			 "%s /api/v1/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
			 "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
			 method, path, S.api_key, strlen(body), body);
	cr_assert_eq(write(fd, req, (size_t)n), n);
	return fd;
}

/* The latency faults the sandbox counted; -1 when it did not answer (a connection accepted by
 * the worker thread the delay holds waits there until the header watchdog closes it). */
static long latency_faults(void)
{
	struct sbx_resp r;
	int rc = sbx_request(&S, "GET", "/_sandbox/counters", S.admin_key, NULL, NULL, &r);
	json_object *o = rc == 0 ? sbx_json(&r) : NULL;
	sbx_resp_free(&r);
	json_object *v = sbx_get(o, "faults.latency");
	long n = rc != 0 ? -1 : v ? (long)json_object_get_int64(v) : 0;
	json_object_put(o);
	return n;
}

/* The POST /transcriptions entry of the counters, {"received","processed"}; caller puts. */
static json_object *create_counted(json_object **counters)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", "/_sandbox/counters", S.admin_key, NULL, NULL, &r), 0);
	*counters = sbx_json(&r);
	sbx_resp_free(&r);
	json_object *arr = sbx_get(*counters, "requests");
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		if (strcmp(sbx_str(e, "method"), "POST") == 0 && strcmp(sbx_str(e, "route"), "/api/v1/transcriptions") == 0)
			return e;
	}
	return NULL;
}

static bool delay_started(const void *arg)
{
	(void)arg;
	return latency_faults() >= 1;
}

/* SIGTERM, then the exit status within bound_ms (-1: still running, killed). */
static int term_within(long long bound_ms, long long *took_ms)
{
	long long start = now_ms();
	kill(S.pid, SIGTERM);
	int st = 0;
	pid_t got = 0;
	while ((got = waitpid(S.pid, &st, WNOHANG)) == 0 && now_ms() - start < bound_ms)
		usleep(20 * 1000);
	*took_ms = now_ms() - start;
	if (got == 0) {
		kill(S.pid, SIGKILL);
		waitpid(S.pid, NULL, 0);
	}
	S.pid = 0;
	return got == 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* SIGTERM: a clean exit within STOP_BOUND_MS, which closes the database (its write-ahead log
 * checkpointed and removed). */
static void stop_cleanly(void)
{
	long long took = 0;
	int status = term_within(STOP_BOUND_MS, &took);
	cr_assert_neq(status, -1, "steno-sandbox still ran %lld ms after SIGTERM", took);
	cr_assert_eq(status, 0, "steno-sandbox exited with status %d", status);
	char wal[600];
	struct stat sb;
	snprintf(wal, sizeof wal, "%s/sandbox.db-wal", S.dir);
	cr_assert_neq(stat(wal, &sb), 0, "%s is left: the database was not closed", wal);
}

/* The sandbox started again on the data of the one stop_cleanly stopped. */
static void restart(void)
{
	char dir[sizeof S.dir];
	snprintf(dir, sizeof dir, "%s", S.dir);
	cr_assert_eq(sbx_start_dir(&S, dir, NULL), 0);
	S.own_dir = 1;
}

Test(sandbox_stop, latency_fault_does_not_hold_the_stop, .fini = stop_all)
{
	const char *args[] = {"--faults", "latency=1:30000ms", NULL};
	sbt_start(&S, args);
	char body[512];
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"held\",\"language\":\"en-US\",\"tmp_url\":"
		 "\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", S.org_id);
	int fd = send_raw("POST", "transcriptions", body);
	/* Not needed, but faster: a poll sent at once may reach the worker that then takes the
	 * POST, and wait there the watchdog's 5 s. */
	usleep(300 * 1000);
	cr_assert(sbt_wait(delay_started, NULL, 400, 25 * 1000), "the request never reached its delay");
	stop_cleanly();
	/* The held request got no answer: its connection was closed. */
	char buf[256];
	cr_assert_leq(read(fd, buf, sizeof buf), 0, "the held request was answered");
	close(fd);
	/* Started again on its data: the request was received, not acted on. */
	restart();
	long st = 0;
	char path[160];
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", S.org_id);
	json_object *list = sbx_call(&S, "GET", path, NULL, &st);
	cr_assert_eq(st, 200);
	cr_assert_eq(json_object_array_length(sbx_get(list, "results")), 0, "%s", json_object_to_json_string(list));
	json_object_put(list);
	json_object *counters = NULL;
	json_object *e = create_counted(&counters);
	cr_assert_not_null(e, "%s", json_object_to_json_string(counters));
	cr_assert_eq(json_object_get_int(sbx_get(e, "received")), 1);
	cr_assert_eq(json_object_get_int(sbx_get(e, "processed")), 0);
	json_object_put(counters);
}

/* A loopback port that takes connections and never answers; its number into *port. */
static int silent_listener(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_geq(fd, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t len = sizeof sa;
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	cr_assert_eq(listen(fd, 8), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	*port = ntohs(sa.sin_port);
	return fd;
}

/* The next connection to the listener within 10 s (-1: none). */
static int next_connection(int listener)
{
	struct pollfd p = {.fd = listener, .events = POLLIN};
	return poll(&p, 1, 10000) == 1 ? accept(listener, NULL, NULL) : -1;
}

/* POSTs body to path (201), waits for the sandbox's call to the silent listener, stops the
 * sandbox cleanly and starts it again: what it was calling ("the download") must be called
 * again. Returns that second connection. */
static int cut_and_called_again(int listener, const char *path, const char *body, const char *what)
{
	long st = 0;
	json_object_put(sbx_call(&S, "POST", path, body, &st));
	cr_assert_eq(st, 201);
	int conn = next_connection(listener);
	cr_assert_geq(conn, 0, "the sandbox never started %s", what);
	stop_cleanly();
	close(conn);
	restart();
	conn = next_connection(listener);
	cr_assert_geq(conn, 0, "%s was not taken up again after the restart", what);
	return conn;
}

Test(sandbox_stop, download_does_not_hold_the_stop, .fini = stop_all)
{
	int port = 0;
	int listener = silent_listener(&port);
	sbt_start(&S, NULL);
	char body[512];
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"slow\",\"language\":\"en-US\",\"tmp_url\":"
		 "\"http://127.0.0.1:%d/a.wav\",\"organization_id\":\"%s\"}}", port, S.org_id);
	/* Not failed by the stop: downloaded again as soon as the sandbox is back. */
	close(cut_and_called_again(listener, "transcriptions", body, "the download"));
	close(listener);
}

/* Attempts the sandbox counted on its first webhook delivery (the log lists the newest first). */
static int first_webhook_attempts(void)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", "/_sandbox/webhooks", S.admin_key, NULL, NULL, &r), 0);
	json_object *log = sbx_json(&r);
	sbx_resp_free(&r);
	json_object *all = sbx_get(log, "deliveries");
	size_t n = all ? json_object_array_length(all) : 0;
	cr_assert_gt(n, 0, "no webhook delivery");
	int attempts = json_object_get_int(sbx_get(json_object_array_get_idx(all, n - 1), "attempts"));
	json_object_put(log);
	return attempts;
}

Test(sandbox_stop, webhook_call_does_not_hold_the_stop, .fini = stop_all)
{
	int port = 0;
	int listener = silent_listener(&port);
	sbt_start(&S, NULL);
	char url[1024], body[2048];
	sbt_upload_wav(&S, "talk.wav", 20, url, sizeof url);
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"%s\",\"language\":\"en-US\",\"organization_id\":%s,"
		 "\"confirm\":true,\"webhook_url\":\"http://127.0.0.1:%d/hook\"}}", url, S.org_id, port);
	/* The call the stop cut is not an attempt: the same delivery is made again. */
	int conn = cut_and_called_again(listener, "orders", body, "the webhook call");
	cr_assert_eq(first_webhook_attempts(), 0);
	close(conn);
	close(listener);
}
