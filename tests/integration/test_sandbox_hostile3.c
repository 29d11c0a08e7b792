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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "test_sandbox_util.h"

TestSuite(sandbox_hostile3, .timeout = 60);

static struct sbx S;

static void stop_all(void)
{
	sbt_stop(&S, NULL);
}

#define LORIS_SOCKETS 600

/* Item 3: 600 connections from 127.0.0.1 — where steno and every local client also are —
 * each with a request line and part of its headers. Ten requests from 127.0.0.1 during the
 * attack are each answered at once (the per-address limit refused them all before). */
Test(sandbox_hostile3, slow_sockets_from_the_shared_loopback_lock_nobody_out, .fini = stop_all)
{
	static int fds[LORIS_SOCKETS];
	sbt_start(&S, NULL);
	int open_fds = sbt_slow_sockets(&S, NULL, fds, LORIS_SOCKETS);
	cr_assert_gt(open_fds, 0);
	usleep(200000);
	int served = 0;
	double worst = 0;
	for (int i = 0; i < 10; i++) {
		double t0 = sbt_now_s();
		struct sbx_resp r;
		sbx_request(&S, "GET", "/teapot", NULL, NULL, NULL, &r);
		double waited = sbt_now_s() - t0;
		served += r.status == 418;
		worst = waited > worst ? waited : worst;
		sbx_resp_free(&r);
	}
	for (int i = 0; i < LORIS_SOCKETS; i++)
		close(fds[i]);
	cr_expect_eq(served, 10, "%d of 10 requests from 127.0.0.1 answered during the attack", served);
	cr_expect_lt(worst, 3.0, "a request waited %.1f s", worst);
}

/* Files in DIR/uploads whose name ends in .part. */
static int part_files(const char *dir)
{
	char cmd[700];
	snprintf(cmd, sizeof cmd, "ls '%s/uploads' | grep -c '\\.part$'", dir);
	FILE *p = popen(cmd, "r");
	int n = -1;
	cr_assert(p);
	if (fscanf(p, "%d", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

/* Item 5: under a file-size limit (ulimit -f 512: 512 KiB) a 2 MiB upload killed the sandbox
 * with SIGXFSZ; it is answered 507 as on a full disk, the partial file is removed and the
 * sandbox goes on serving. */
Test(sandbox_hostile3, a_file_size_limit_is_507_not_a_crash, .fini = stop_all)
{
	struct rlimit old, lim;
	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 512 * 1024;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	int started = sbx_start(&S, NULL);   /* the sandbox inherits the limit */
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	cr_assert_eq(started, 0, "the sandbox did not start");
	char code[64];
	long st = sbt_put_upload(&S, "big.bin", 2 * 1024 * 1024, code, sizeof code);
	cr_expect_eq(st, 507, "HTTP %ld %s", st, code);
	cr_expect_str_eq(code, "insufficient_storage");
	struct sbx_resp r;
	sbx_request(&S, "GET", "/teapot", NULL, NULL, NULL, &r);
	cr_expect_eq(r.status, 418, "the sandbox is gone (curl code %d)", r.curl_code);
	sbx_resp_free(&r);
	cr_expect_eq(part_files(S.dir), 0, "a partial upload is left");
	cr_expect_eq(sbt_put_upload(&S, "big.bin", 1000, code, sizeof code), 200, "a small upload still works");
}

/* POST /transcriptions with body and extra header; status, error code and the first field of
 * "errors" (or "") into code and field. */
static long create_raw(const char *body, const char *header, char *code, char *field, size_t n)
{
	struct sbx_resp r;
	sbx_request(&S, "POST", "transcriptions", S.api_key, body, header, &r);
	json_object *o = sbx_json(&r);
	snprintf(code, n, "%s", sbx_str(o, "error") ? sbx_str(o, "error") : "");
	field[0] = '\0';
	json_object *errs = sbx_get(o, "errors");
	if (errs && json_object_is_type(errs, json_type_object)) {
		json_object_object_foreach(errs, k, v) {
			(void)v;
			snprintf(field, n, "%s", k);
			break;
		}
	}
	json_object_put(o);
	long st = r.status;
	sbx_resp_free(&r);
	return st;
}

/* Transcriptions listed on page 1 (-1 when the answer does not parse: invalid JSON). */
static long listed(void)
{
	long st = 0;
	char path[96];
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", S.org_id);
	json_object *l = sbx_call(&S, "GET", path, NULL, &st);
	json_object *a = l ? sbx_get(l, "results") : NULL;
	long n = a && json_object_is_type(a, json_type_array) ? (long)json_object_array_length(a) : -1;
	json_object_put(l);
	return n;
}

static char *create_body(const char *name_json)
{
	static char body[512];
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":%s,\"language\":\"en-US\","
		 "\"tmp_url\":\"http://127.0.0.1:9/a.wav\",\"organization_id\":\"%s\"}}", name_json,
		 S.org_id);
	return body;
}

/* Item 8: a name of the bytes FF FE C0 AF was stored and sent back raw (invalid JSON), and
 * "a\u0000b" was stored as "a": both are refused with 422 and a field error, and nothing is
 * stored. */
Test(sandbox_hostile3, strings_that_are_not_text_are_refused, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char code[64], field[64];
	long n0 = listed();
	cr_assert_geq(n0, 0);
	long st = create_raw(create_body("\"\xff\xfe\xc0\xaf\""), NULL, code, field, sizeof code);
	cr_expect_eq(st, 422, "invalid UTF-8: HTTP %ld %s", st, code);
	cr_expect_str_eq(code, "validation_failed");
	cr_expect_str_eq(field, "name");
	st = create_raw(create_body("\"a\\u0000b\""), NULL, code, field, sizeof code);
	cr_expect_eq(st, 422, "NUL: HTTP %ld %s", st, code);
	cr_expect_str_eq(field, "name");
	st = create_raw(create_body("\"caf\xc3\xa9 \\u00e9\""), NULL, code, field, sizeof code);
	cr_expect_eq(st, 201, "valid UTF-8: HTTP %ld %s", st, code);
	cr_expect_eq(listed(), n0 + 1, "only the valid one is stored (and the list is valid JSON)");
}

/* Item 9: the same JSON body declared text/plain, multipart, form-urlencoded or not declared
 * at all was created (201): 415 unsupported_media_type. application/json with a charset
 * still works. */
Test(sandbox_hostile3, a_body_not_declared_json_is_415, .fini = stop_all)
{
	static const char *const bad[] = {
		"Content-Type: text/plain", "Content-Type: multipart/form-data; boundary=x",
		"Content-Type: application/x-www-form-urlencoded", "Content-Type:",
	};
	sbt_start(&S, NULL);
	char code[64], field[64];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		long st = create_raw(create_body("\"t\""), bad[i], code, field, sizeof code);
		cr_expect_eq(st, 415, "%s: HTTP %ld %s", bad[i], st, code);
		cr_expect_str_eq(code, "unsupported_media_type", "%s", bad[i]);
	}
	long st = create_raw(create_body("\"t\""), "Content-Type: application/json; charset=utf-8",
			     code, field, sizeof code);
	cr_expect_eq(st, 201, "HTTP %ld %s", st, code);
}

/* Smaller: sandbox.db holds the keys; in a user's existing 0755 --data directory it was
 * created 0644 (the umask's). It is made 0600, and an existing one is brought to 0600. */
Test(sandbox_hostile3, the_database_is_private_in_an_open_data_dir, .fini = stop_all)
{
	char dir[] = "/tmp/steno-open-XXXXXX", db[64], cmd[96];
	cr_assert(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0755), 0);
	mode_t old = umask(022);
	int rc = sbx_start_dir(&S, dir, NULL);
	umask(old);
	cr_assert_eq(rc, 0, "the sandbox did not start");
	snprintf(db, sizeof db, "%s/sandbox.db", dir);
	struct stat st;
	cr_assert_eq(stat(db, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600, "sandbox.db is %o", (unsigned)(st.st_mode & 0777));
	sbt_stop(&S, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

/* A connection to the sandbox with the head of a request sent (without its body). */
static int raw_request(const char *head)
{
	int port = 0;
	cr_assert_eq(sscanf(S.origin, "http://127.0.0.1:%d", &port), 1);
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(connect(fd, (struct sockaddr *)&to, sizeof to), 0);
	cr_assert_eq(send(fd, head, strlen(head), MSG_NOSIGNAL), (ssize_t)strlen(head));
	struct timeval tv = {.tv_sec = 3};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	return fd;
}

/* Smaller: a body announced over the cap (2 GB for a 1 MiB JSON cap) was read whole before
 * the 413; it is answered at once, before any of the body. */
Test(sandbox_hostile3, an_announced_body_over_the_cap_is_refused_at_once, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char head[512], got[256] = "";
	snprintf(head, sizeof head, "POST /api/v1/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
		 "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
		 "Content-Length: 2000000000\r\n\r\n{\"transcription\":", S.api_key);
	int fd = raw_request(head);
	ssize_t n = recv(fd, got, sizeof got - 1, 0);
	close(fd);
	cr_expect_gt(n, 0, "no answer within 3 s (the sandbox waits for the 2 GB)");
	cr_expect(n > 0 && !strncmp(got, "HTTP/1.1 413", 12), "%s", got);
}

/* ... and a chunked body (no length announced) is refused once what arrived passes the cap:
 * the sandbox stops reading (it read an endless one for as long as it lasted), so of 64 MB
 * sent, far less goes through. */
Test(sandbox_hostile3, a_chunked_body_over_the_cap_stops_being_read, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char head[512];
	snprintf(head, sizeof head, "POST /api/v1/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
		 "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
		 "Transfer-Encoding: chunked\r\n\r\n", S.api_key);
	int fd = raw_request(head);
	struct timeval tv = {.tv_sec = 3};
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	static char chunk[65536 + 16];
	int hl = snprintf(chunk, sizeof chunk, "10000\r\n");
	memset(chunk + hl, ' ', 65536);
	memcpy(chunk + hl + 65536, "\r\n", 2);
	size_t sent = 0, len = (size_t)hl + 65536 + 2;
	while (sent < (64u << 20)) {
		ssize_t k = send(fd, chunk, len, MSG_NOSIGNAL);
		if (k <= 0)
			break;
		sent += (size_t)k;
	}
	close(fd);
	cr_expect_lt(sent, 32u << 20, "%zu bytes went through", sent);
}

/* Smaller: POST /_sandbox/organizations/ID/keys ignored its body (a key was made whatever it
 * said). It takes none: a member is a field error, a body that is not JSON a 400; without
 * a body (or with {}) the key is made. */
Test(sandbox_hostile3, the_key_route_does_not_ignore_its_body, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char path[96];
	snprintf(path, sizeof path, "/_sandbox/organizations/%s/keys", S.org_id);
	static const struct { const char *body; long status; } cases[] = {
		{"{\"admin\":true}", 422}, {"not json", 400}, {"{}", 201}, {NULL, 201},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sbx_resp r;
		sbx_request(&S, "POST", path, S.admin_key, cases[i].body, NULL, &r);
		cr_expect_eq(r.status, cases[i].status, "%s: HTTP %ld %s", cases[i].body ? cases[i].body : "(none)",
			     r.status, r.body ? r.body : "");
		sbx_resp_free(&r);
	}
}
