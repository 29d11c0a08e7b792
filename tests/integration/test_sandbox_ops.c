/* steno-sandbox process behaviour: flags, clean exit, persistence across restarts (also after
 * kill -9), every fault kind, rate limiting, seed content. */
#include "config.h"

#include <criterion/criterion.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox_fixture.h"

static struct sbx S;
static char keep_dir[512];
static struct sbx_receiver *R;

static void stop_all(void)
{
	sbx_stop(&S);
	sbx_receiver_stop(R);
	R = NULL;
	if (keep_dir[0]) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", keep_dir);
		if (system(cmd) != 0)
			keep_dir[0] = '\0';
	}
}

static int run_flags(const char *a, const char *b)
{
	const char *bin = getenv("STENO_SANDBOX_BIN");
	pid_t pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execl(bin, bin, a, b, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(sandbox_ops, flags)
{
	cr_assert_eq(run_flags("--help", NULL), 0);
	cr_assert_eq(run_flags("--version", NULL), 0);
	cr_assert_eq(run_flags("--bogus", NULL), 2);
	cr_assert_eq(run_flags("--port", "abc"), 2);
	cr_assert_eq(run_flags("--port", "70000"), 2);
	cr_assert_eq(run_flags("--api-form", "old"), 2);
	cr_assert_eq(run_flags("--rate-limit", "fast"), 2);
	cr_assert_eq(run_flags("--faults", "500=2"), 2);
	cr_assert_eq(run_flags("--faults", "boom=0.1"), 2);
	cr_assert_eq(run_flags("--clock-speed", "0"), 2);
	cr_assert_eq(run_flags("--page-size", "0"), 2);
	cr_assert_eq(run_flags("--seed-demo", "-1"), 2);
	cr_assert_eq(run_flags("--port", NULL), 2);
	cr_assert_eq(run_flags("--bind", "example.org"), 2);
	cr_assert_eq(run_flags("stray", NULL), 2);
}

Test(sandbox_ops, clean_exit_removes_temp_dir)
{
	/* Without --data the sandbox makes its own dir and removes it on SIGTERM. */
	const char *bin = getenv("STENO_SANDBOX_BIN");
	int pfd[2];
	cr_assert_eq(pipe(pfd), 0);
	char tmp[] = "/tmp/sbx-ops-XXXXXX";
	cr_assert(mkdtemp(tmp));
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		setenv("TMPDIR", tmp, 1);
		execl(bin, bin, "--port", "0", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	char buf[2048];
	size_t len = 0;
	while (len < sizeof buf - 1) {
		ssize_t r = read(pfd[0], buf + len, sizeof buf - 1 - len);
		if (r <= 0)
			break;
		len += (size_t)r;
		buf[len] = '\0';
		if (strstr(buf, "STENO_ORG_ID="))
			break;
	}
	close(pfd[0]);
	cr_assert(strstr(buf, "STENO_BASE_URL=http://127.0.0.1:"), "%s", buf);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "ls %s | grep -q steno-sandbox", tmp);
	cr_assert_eq(system(cmd), 0, "no data dir under TMPDIR");
	kill(pid, SIGTERM);
	int st;
	waitpid(pid, &st, 0);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	cr_assert_neq(system(cmd), 0, "the temp data dir was left behind");
	rmdir(tmp);
}

static void make_keep_dir(void)
{
	snprintf(keep_dir, sizeof keep_dir, "/tmp/sbx-keep-XXXXXX");
	cr_assert(mkdtemp(keep_dir));
}

static const char *create_one(void)
{
	static char id[40];
	char body[512];
	long status;
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"keep\",\"language\":\"en-US\",\"tmp_url\":"
		 "\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", S.org_id);
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(id, sizeof id, "%s", sbx_str(o, "id"));
	json_object_put(o);
	return id;
}

Test(sandbox_ops, restart_keeps_everything, .fini = stop_all)
{
	make_keep_dir();
	cr_assert_eq(sbx_start_dir(&S, keep_dir, NULL), 0);
	char key[128], admin[128], org[32], id[40], path[128];
	snprintf(key, sizeof key, "%s", S.api_key);
	snprintf(admin, sizeof admin, "%s", S.admin_key);
	snprintf(org, sizeof org, "%s", S.org_id);
	snprintf(id, sizeof id, "%s", create_one());
	cr_assert_eq(sbx_advance(&S, 100), 0);
	long status;
	snprintf(path, sizeof path, "transcriptions/%s", id);
	/* its media fetch has failed before the stop (a fetch in flight at a stop is taken up
	 * again at the next start, which would race with the read below) */
	for (int i = 0;; i++) {
		json_object *t = sbx_call(&S, "GET", path, NULL, &status);
		const char *state = status == 200 ? sbx_str(t, "state") : NULL;
		bool failed = state && !strcmp(state, "failed");
		json_object_put(t);
		if (failed)
			break;
		cr_assert_lt(i, 400, "the fetch of an unreachable URL did not fail in 20 s");
		usleep(50000);
	}
	cr_assert_eq(sbx_stop_keep(&S), 0);
	cr_assert_eq(sbx_start_dir(&S, keep_dir, NULL), 0);
	cr_assert_str_eq(S.api_key, key);
	cr_assert_str_eq(S.admin_key, admin);
	cr_assert_str_eq(S.org_id, org);
	json_object *o = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_eq(status, 200);
	/* The clock offset survived too: the failed download is already past its ingest time. */
	cr_assert_str_eq(sbx_str(o, "state"), "failed", "%s", json_object_to_json_string(o));
	json_object_put(o);
}

Test(sandbox_ops, kill9_loses_no_acknowledged_write, .fini = stop_all)
{
	make_keep_dir();
	cr_assert_eq(sbx_start_dir(&S, keep_dir, NULL), 0);
	char ids[20][40];
	for (int i = 0; i < 20; i++)
		snprintf(ids[i], sizeof ids[i], "%s", create_one());
	sbx_kill9(&S);
	cr_assert_eq(sbx_start_dir(&S, keep_dir, NULL), 0);
	for (int i = 0; i < 20; i++) {
		char path[1024];
		long status;
		snprintf(path, sizeof path, "transcriptions/%s", ids[i]);
		json_object_put(sbx_call(&S, "GET", path, NULL, &status));
		cr_assert_eq(status, 200, "transcription %d lost", i);
	}
}

static void set_faults(const char *spec)
{
	cr_assert_eq(sbx_set_faults(&S, spec), 0, "%s", spec);
}

static void glossaries(struct sbx_resp *r)
{
	char path[128];
	snprintf(path, sizeof path, "glossaries?organization_id=%s", S.org_id);
	sbx_request(&S, "GET", path, S.api_key, NULL, NULL, r);
}

Test(sandbox_ops, every_fault_kind, .fini = stop_all)
{
	const char *args[] = {"--faults", "500=1", NULL};
	cr_assert_eq(sbx_start(&S, args), 0);
	struct sbx_resp r;
	char buf[32];
	glossaries(&r);
	cr_assert_eq(r.status, 500);
	cr_assert(strstr(r.body, "internal_error"));
	sbx_resp_free(&r);
	/* Admin routes are never faulted (set_faults itself proves it). */
	set_faults("503=1");
	glossaries(&r);
	cr_assert_eq(r.status, 503);
	sbx_resp_free(&r);
	set_faults("429=1");
	glossaries(&r);
	cr_assert_eq(r.status, 429);
	cr_assert(sbx_resp_header(&r, "Retry-After", buf, sizeof buf));
	cr_assert(strstr(r.body, "retry_in_seconds"));
	sbx_resp_free(&r);
	set_faults("drop=1");
	glossaries(&r);
	cr_assert_eq(r.curl_code, CURLE_GOT_NOTHING, "curl code %d", r.curl_code);
	sbx_resp_free(&r);
	set_faults("truncate=1");
	glossaries(&r);
	cr_assert_eq(r.curl_code, CURLE_PARTIAL_FILE, "curl code %d", r.curl_code);
	sbx_resp_free(&r);
	set_faults("malformed=1");
	glossaries(&r);
	cr_assert_eq(r.status, 200);
	json_object *o = sbx_json(&r);
	cr_assert_null(o, "malformed body parsed: %s", r.body);
	sbx_resp_free(&r);
	set_faults("latency=1:300ms");
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	glossaries(&r);
	clock_gettime(CLOCK_MONOTONIC, &b);
	cr_assert_eq(r.status, 200);
	double ms = (double)(b.tv_sec - a.tv_sec) * 1000 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	cr_assert_geq(ms, 290, "latency %.0f ms", ms);
	sbx_resp_free(&r);
	set_faults("none");
	glossaries(&r);
	cr_assert_eq(r.status, 200);
	sbx_resp_free(&r);
	sbx_request(&S, "PUT", "/_sandbox/faults", S.admin_key, "{\"spec\":\"500=7\"}", NULL, &r);
	cr_assert_eq(r.status, 422);
	sbx_resp_free(&r);
}

Test(sandbox_ops, rate_limit, .fini = stop_all)
{
	const char *args[] = {"--rate-limit", "1/3", NULL};
	cr_assert_eq(sbx_start(&S, args), 0);
	struct sbx_resp r;
	for (int i = 0; i < 3; i++) {
		glossaries(&r);
		cr_assert_eq(r.status, 200, "request %d", i);
		sbx_resp_free(&r);
	}
	glossaries(&r);
	cr_assert_eq(r.status, 429);
	char buf[32];
	cr_assert(sbx_resp_header(&r, "Retry-After", buf, sizeof buf));
	cr_assert_geq(atoi(buf), 1);
	json_object *o = sbx_json(&r);
	cr_assert_geq(json_object_get_int(sbx_get(o, "retry_in_seconds")), 1);
	cr_assert_str_eq(sbx_str(o, "error"), "rate_limited");
	json_object_put(o);
	sbx_resp_free(&r);
	/* Another key has its own bucket. */
	sbx_request(&S, "GET", "teapot", S.admin_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 418);
	sbx_resp_free(&r);
}

Test(sandbox_ops, seed_covers_every_state, .fini = stop_all)
{
	const char *args[] = {"--seed-demo", "24", NULL};
	cr_assert_eq(sbx_start(&S, args), 0);
	char url[512];
	snprintf(url, sizeof url, "transcriptions?organization_id=%s", S.org_id);
	const char *want[] = {"initial", "ingesting", "automatic_transcribing", "automatic_done", "aligning", "locked",
			      "failed", "demo"};
	int seen[8] = {0}, escape = 0, cjk = 0;
	for (;;) {
		long status;
		json_object *p = sbx_call(&S, "GET", url, NULL, &status);
		json_object *res = sbx_get(p, "results");
		for (size_t i = 0; i < json_object_array_length(res); i++) {
			json_object *t = json_object_array_get_idx(res, i);
			for (int k = 0; k < 8; k++)
				seen[k] |= strcmp(sbx_str(t, "state"), want[k]) == 0;
			escape |= strchr(sbx_str(t, "name"), 0x1b) != NULL;
			cjk |= strstr(sbx_str(t, "name"), "会議") != NULL;
		}
		const char *n = sbx_str(p, "_links.next.url");
		if (n)
			snprintf(url, sizeof url, "%s", n);
		json_object_put(p);
		if (!n)
			break;
	}
	for (int k = 0; k < 8; k++)
		cr_assert(seen[k], "no transcription in state %s", want[k]);
	cr_assert(escape && cjk);
	struct sbx_resp r;
	sbx_request(&S, "GET", "/_sandbox/state", S.admin_key, NULL, NULL, &r);
	json_object *o = sbx_json(&r);
	cr_assert_geq(json_object_get_int(sbx_get(o, "counts.orders")), 11);
	cr_assert_geq(json_object_get_int(sbx_get(o, "counts.exports")), 5);
	json_object_put(o);
	sbx_resp_free(&r);
}

Test(sandbox_ops, clock_speed, .fini = stop_all)
{
	const char *args[] = {"--clock-speed", "200", NULL};
	cr_assert_eq(sbx_start(&S, args), 0);
	size_t len;
	void *wav = sbx_make_wav(10, &len);
	char url[1024], body[2048], path[128];
	cr_assert_eq(sbx_upload(&S, "fast.wav", wav, len, url, sizeof url), 0);
	free(wav);
	long status;
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"fast\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\",\"is_subtitle\":true}}", url, S.org_id);
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(path, sizeof path, "transcriptions/%s", sbx_str(o, "id"));
	json_object_put(o);
	/* 5 sandbox seconds of work take 25 ms of real time at 200x; allow up to 2 s. */
	for (int i = 0; i < 100; i++) {
		o = sbx_call(&S, "GET", path, NULL, &status);
		int done = strcmp(sbx_str(o, "state"), "automatic_done") == 0;
		if (done) {
			/* Subtitles get a soundwave once done. */
			const char *sw = sbx_str(o, "soundwaveUrl");
			cr_assert(sw);
			struct sbx_resp r;
			sbx_request(&S, "GET", sw, NULL, NULL, NULL, &r);
			cr_assert_eq(r.status, 200);
			json_object *w = sbx_json(&r);
			cr_assert_eq(json_object_array_length(sbx_get(w, "peaks")), 100);
			json_object_put(w);
			sbx_resp_free(&r);
		}
		json_object_put(o);
		if (done)
			return;
		usleep(20000);
	}
	cr_assert_fail("not done after 2 s of real time at --clock-speed 200");
}

Test(sandbox_ops, bind_other_loopback_address, .fini = stop_all)
{
	const char *args[] = {"--bind", "127.0.0.2", NULL};
	cr_assert_eq(sbx_start(&S, args), 0);
	cr_assert(strncmp(S.base_url, "http://127.0.0.2:", 17) == 0, "%s", S.base_url);
	struct sbx_resp r;
	sbx_request(&S, "GET", "teapot", NULL, NULL, NULL, &r);
	cr_assert_eq(r.status, 418);
	sbx_resp_free(&r);
}

Test(sandbox_ops, pending_ingestion_resumes_after_kill9, .fini = stop_all)
{
	make_keep_dir();
	R = sbx_receiver_start(12, NULL, NULL, 0);
	cr_assert(R);
	cr_assert_eq(sbx_start_dir(&S, keep_dir, NULL), 0);
	char body[1024], path[128];
	long status;
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"slow\",\"language\":\"en-US\",\"tmp_url\":"
		 "\"%s/slow.wav\",\"organization_id\":\"%s\"}}", sbx_receiver_origin(R), S.org_id);
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(path, sizeof path, "transcriptions/%s", sbx_str(o, "id"));
	json_object_put(o);
	/* Killed while the worker is still downloading: the row says "not fetched yet". */
	sbx_kill9(&S);
	cr_assert_eq(sbx_start_dir(&S, keep_dir, NULL), 0);
	for (int i = 0; i < 200; i++) {
		o = sbx_call(&S, "GET", path, NULL, &status);
		int len = json_object_get_int(sbx_get(o, "audioLengthInSeconds"));
		json_object_put(o);
		if (len == 12)
			return;
		usleep(30000);
	}
	cr_assert_fail("the ingestion was not resumed after the restart");
}
