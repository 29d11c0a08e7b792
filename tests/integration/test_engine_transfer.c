/* Uploads to a signed URL and downloads of a download_link, against engine_server.c. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/http.h"
#include "api/transfer.h"
#include "engine_result.h"
#include "engine_server.h"

#define KEY "sk_test_TRANSFER_abcdef"

static struct engine_server srv;
static char dir[64];

static void rm_dir(const char *d)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", d);
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(engine_server_start(&srv), 0);
	snprintf(dir, sizeof(dir), "/tmp/steno-xfer-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	engine_server_stop(&srv);
	rm_dir(dir);
}

TestSuite(engine_transfer, .init = setup, .fini = teardown, .timeout = 30);

static struct steno_http *engine(long low_bytes, long low_time)
{
	struct steno_http_config cfg = {
		.base_url = srv.base, .api_key = KEY,
		.low_speed_bytes = low_bytes, .low_speed_time_s = low_time,
	};
	struct steno_http *h = NULL;
	cr_assert_eq(steno_http_new(&cfg, &h, NULL), 0);
	return h;
}

struct result {
	struct engine_result done;   /* the done callback */
	char path[512];
	int progress_calls;
	uint64_t progress_now;
};

static void on_progress(void *ud, uint64_t now, uint64_t total)
{
	struct result *r = ud;
	r->progress_calls++;
	r->progress_now = now;
}

static void on_upload(void *ud, const struct steno_http_response *resp, const struct steno_error *err)
{
	struct result *r = ud;
	engine_result_note(&r->done, resp, err);
}

static void on_download(void *ud, const char *path, const struct steno_http_response *resp,
			const struct steno_error *err)
{
	struct result *r = ud;
	engine_result_note(&r->done, resp, err);
	snprintf(r->path, sizeof(r->path), "%s", path ? path : "");
}

static int download(struct steno_http *h, const char *path, const char *name, int overwrite,
		    struct result *r, struct steno_error *err)
{
	memset(r, 0, sizeof(*r));
	char url[256];
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", srv.port, path);
	struct steno_download_request req = {
		.url = url, .dir = dir, .name = name, .overwrite = overwrite,
		.progress = on_progress, .done = on_download, .ud = r,
	};
	if (steno_http_download(h, &req, NULL, err) != 0)
		return -1;
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert_eq(r->done.calls, 1);
	return 0;
}

static int exists(const char *name)
{
	char p[256];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

static const char *content(const char *name)
{
	static char buf[256];
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	if (!f)
		return "";
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

Test(engine_transfer, download_part_rename_no_overwrite)
{
	struct steno_http *h = engine(0, 0);
	struct result r;
	struct steno_error err;
	cr_assert_eq(download(h, "/dl/report.txt", NULL, 0, &r, &err), 0);
	cr_assert_not(r.done.failed, "%s", r.done.err.message);
	cr_assert_str_eq(content("report.txt"), "hello download\n");
	cr_assert_not(exists("report.txt.part"));
	cr_assert(strstr(r.path, "/report.txt"));
	cr_assert_gt(r.progress_calls, 0);
	/* the download_link is on the API's origin here, and still gets no key */
	cr_assert_eq(engine_server_auth_seen(&srv), 0);

	/* an existing file is not overwritten: refused before any request */
	FILE *f = fopen(r.path, "w");
	fputs("mine", f);
	fclose(f);
	steno_error_clear(&err);
	cr_assert_eq(download(h, "/dl/report.txt", NULL, 0, &r, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_IO);
	cr_assert_str_eq(err.code, "exists");
	cr_assert_str_eq(content("report.txt"), "mine");
	cr_assert_eq(engine_server_hits(&srv, "GET", "/dl/report.txt"), 1);

	/* unless asked */
	cr_assert_eq(download(h, "/dl/report.txt", NULL, 1, &r, &err), 0);
	cr_assert_not(r.done.failed);
	cr_assert_str_eq(content("report.txt"), "hello download\n");
	steno_http_free(h);
}

Test(engine_transfer, download_names_are_safe)
{
	struct steno_http *h = engine(0, 0);
	struct result r;
	struct steno_error err;
	cr_assert_eq(download(h, "/dl/x", "../../evil.txt", 0, &r, &err), 0);
	cr_assert_not(r.done.failed);
	cr_assert(exists("evil.txt"));
	cr_assert_eq(download(h, "/dl/x", "/etc/.hidden", 0, &r, &err), 0);
	cr_assert(exists("_hidden"));
	cr_assert_eq(download(h, "/dl/", NULL, 0, &r, &err), 0);
	cr_assert(exists("download"), "%s", r.path);
	steno_http_free(h);
}

Test(engine_transfer, download_appears_meanwhile_not_replaced)
{
	struct steno_http *h = engine(0, 0);
	struct result r = {0};
	char url[256];
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/dl/late.txt", srv.port);
	struct steno_download_request req = { .url = url, .dir = dir, .done = on_download, .ud = &r };
	cr_assert_eq(steno_http_download(h, &req, NULL, NULL), 0);
	char p[256];
	snprintf(p, sizeof(p), "%s/late.txt", dir);
	FILE *f = fopen(p, "w");
	fputs("theirs", f);
	fclose(f);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert(r.done.failed);
	cr_assert_str_eq(r.done.err.code, "exists");
	cr_assert_str_eq(content("late.txt"), "theirs");
	cr_assert_not(exists("late.txt.part"));
	steno_http_free(h);
}

Test(engine_transfer, download_expired_link)
{
	struct steno_http *h = engine(0, 0);
	struct result r;
	cr_assert_eq(download(h, "/dl-expired", "x.pdf", 0, &r, NULL), 0);
	cr_assert(r.done.failed);
	cr_assert_eq(r.done.err.kind, STENO_ERR_HTTP);
	cr_assert_eq(r.done.err.http_status, 403);
	cr_assert_not(exists("x.pdf"));
	cr_assert_not(exists("x.pdf.part"));
	steno_http_free(h);
}

Test(engine_transfer, download_low_speed_aborts)
{
	struct steno_http *h = engine(1000, 1);
	struct result r;
	cr_assert_eq(download(h, "/api/v1/trickle", "slow.bin", 0, &r, NULL), 0);
	cr_assert(r.done.failed);
	cr_assert_eq(r.done.err.kind, STENO_ERR_TIMEOUT, "%s", r.done.err.message);
	cr_assert_not(exists("slow.bin.part"));
	cr_assert_not(exists("slow.bin"));
	steno_http_free(h);
}

/* Issue 13: a drip of 1 byte per second sat exactly at the old limit (1 B/s) and never ended.
 * With the default minimum speed (1 KiB/s) it fails after the stall time, .part removed. */
Test(engine_transfer, download_drip_fails_after_stall_time)
{
	struct steno_http *h = engine(0, 2);
	struct result r;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	cr_assert_eq(download(h, "/api/v1/drip/1000/100", "drip.bin", 0, &r, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	cr_assert(r.done.failed);
	cr_assert(strstr(r.done.err.message, "slower than 1024 B/s"), "%s", r.done.err.message);
	cr_assert(strstr(r.done.err.message, "partial file was removed"), "%s", r.done.err.message);
	cr_assert_lt(b.tv_sec - a.tv_sec, 10);
	cr_assert_not(exists("drip.bin.part"));
	cr_assert_not(exists("drip.bin"));
	steno_http_free(h);
}

/* A server announcing (or streaming without a length) more than download_max_size. */
Test(engine_transfer, download_over_max_size_fails)
{
	struct steno_http_config cfg = {
		.base_url = srv.base, .api_key = KEY, .download_max_bytes = 65536,
	};
	struct steno_http *h = NULL;
	cr_assert_eq(steno_http_new(&cfg, &h, NULL), 0);
	static const char *const paths[] = {"/api/v1/big/1048576", "/api/v1/big/1048576/chunked"};
	for (size_t i = 0; i < 2; i++) {
		struct result r;
		cr_assert_eq(download(h, paths[i], "big.bin", 0, &r, NULL), 0);
		cr_assert(r.done.failed, "%s", paths[i]);
		cr_assert(strstr(r.done.err.message, "larger than download_max_size"), "%s", r.done.err.message);
		cr_assert_leq(r.progress_now, 65536 + 65536);
		cr_assert_not(exists("big.bin.part"));
		cr_assert_not(exists("big.bin"));
	}
	/* under the limit it still works */
	struct result ok;
	cr_assert_eq(download(h, "/api/v1/big/60000", "small.bin", 0, &ok, NULL), 0);
	cr_assert_not(ok.done.failed, "%s", ok.done.err.message);
	cr_assert(exists("small.bin"));
	steno_http_free(h);
}

Test(engine_transfer, download_cancel_removes_part)
{
	struct steno_http *h = engine(0, 0);
	struct result r = {0};
	char url[256];
	uint64_t id;
	snprintf(url, sizeof(url), "%s/trickle", srv.base);
	struct steno_download_request req = { .url = url, .dir = dir, .name = "c.bin", .done = on_download, .ud = &r };
	cr_assert_eq(steno_http_download(h, &req, &id, NULL), 0);
	cr_assert(exists("c.bin.part"));
	steno_http_perform(h);
	cr_assert_eq(steno_http_cancel(h, id), 0);
	cr_assert_not(exists("c.bin.part"));
	cr_assert_eq(r.done.calls, 0);
	steno_http_free(h);
}

static void make_file(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	fclose(f);
}

Test(engine_transfer, upload_put_has_length_and_no_key)
{
	struct steno_http *h = engine(0, 0);
	char file[128], url[256];
	snprintf(file, sizeof(file), "%s/media.mp3", dir);
	make_file(file, 300000);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/up?X-Amz-Signature=s", srv.port);
	struct result r = {0};
	struct steno_upload_request req = {
		.signed_url = url, .path = file, .content_type = "audio/mpeg",
		.progress = on_progress, .done = on_upload, .ud = &r,
	};
	cr_assert_eq(steno_http_upload(h, &req, NULL, NULL), 0);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert_eq(r.done.calls, 1);
	cr_assert_not(r.done.failed, "%s", r.done.err.message);
	cr_assert_eq(srv.last_put_bytes, 300000);
	cr_assert_str_eq(srv.last_content_length, "300000");
	cr_assert_str_eq(srv.last_transfer_encoding, "");
	cr_assert_str_eq(srv.last_expect, "");
	cr_assert_eq(engine_server_auth_seen(&srv), 0);
	cr_assert_gt(r.progress_calls, 0);
	cr_assert_eq(r.progress_now, 300000);
	steno_http_free(h);
}

Test(engine_transfer, upload_expired_and_missing_file)
{
	struct steno_http *h = engine(0, 0);
	char file[128], url[256];
	snprintf(file, sizeof(file), "%s/m.wav", dir);
	make_file(file, 1000);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/up-expired", srv.port);
	struct result r = {0};
	struct steno_upload_request req = { .signed_url = url, .path = file, .done = on_upload, .ud = &r };
	cr_assert_eq(steno_http_upload(h, &req, NULL, NULL), 0);
	cr_assert_eq(steno_http_run(h, 20000), 0);
	cr_assert(r.done.failed);
	cr_assert_eq(r.done.err.http_status, 403);
	cr_assert_eq(engine_server_hits(&srv, "PUT", "/up-expired"), 1);
	struct steno_error err;
	steno_error_clear(&err);
	req.path = "/nonexistent/file.mp3";
	cr_assert_eq(steno_http_upload(h, &req, NULL, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_IO);
	cr_assert_eq(steno_http_pending(h), 0);
	steno_http_free(h);
}

struct cancel_ctx {
	struct steno_http *h;
	uint64_t id;
	int progress_calls;
	int done_calls;
	int dropped;
};

static void cancel_from_progress(void *ud, uint64_t now, uint64_t total)
{
	struct cancel_ctx *c = ud;
	if (c->progress_calls++ == 0)
		cr_assert_eq(steno_http_cancel(c->h, c->id), 0);
}

static void cancel_done(void *ud, const char *path, const struct steno_http_response *resp,
			const struct steno_error *err)
{
	((struct cancel_ctx *)ud)->done_calls++;
}

static void cancel_drop(void *ud)
{
	((struct cancel_ctx *)ud)->dropped++;
}

Test(engine_transfer, cancel_from_inside_progress_callback)
{
	struct steno_http *h = engine(0, 0);
	struct cancel_ctx c = { .h = h };
	char url[256];
	snprintf(url, sizeof(url), "%s/trickle", srv.base);
	struct steno_download_request req = { .url = url, .dir = dir, .name = "p.bin",
		.progress = cancel_from_progress, .done = cancel_done, .drop = cancel_drop, .ud = &c };
	cr_assert_eq(steno_http_download(h, &req, &c.id, NULL), 0);
	cr_assert_eq(steno_http_run(h, 10000), 0);
	cr_assert_eq(c.progress_calls, 1);
	cr_assert_eq(c.done_calls, 0);
	cr_assert_eq(c.dropped, 1);
	cr_assert_eq(steno_http_pending(h), 0);
	cr_assert_not(exists("p.bin.part"));
	cr_assert_not(exists("p.bin"));
	steno_http_free(h);
}

/* Issue 24 item 6: a NAME.part steno did not make (the server chooses NAME, so it chooses
 * which file is hit) is neither truncated nor removed, nor is a symlink of that name or what
 * it points to: the partial file is made exclusively under another name, and only it goes. */
Test(engine_transfer, a_part_file_not_ours_survives)
{
	char p[256], target[256], got[256];
	snprintf(p, sizeof p, "%s/report.txt.part", dir);
	FILE *f = fopen(p, "w");
	cr_assert(f);
	fputs("mine\n", f);
	fclose(f);
	snprintf(target, sizeof target, "%s/precious", dir);
	f = fopen(target, "w");
	cr_assert(f);
	fputs("keep\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/other.txt.part", dir);
	cr_assert_eq(symlink(target, p), 0);

	struct steno_http *h = engine(0, 0);
	struct result r;
	struct steno_error err;
	cr_assert_eq(download(h, "/dl/report.txt", NULL, 0, &r, &err), 0);
	cr_assert_not(r.done.failed, "%s", r.done.err.message);
	cr_assert_str_eq(content("report.txt"), "hello download\n");
	cr_assert_str_eq(content("report.txt.part"), "mine\n");
	/* a failed download (404) removes its own partial file only */
	cr_assert_eq(download(h, "/dl-missing/other.txt", "other.txt", 0, &r, &err), 0);
	cr_assert(r.done.failed);
	cr_assert_eq(download(h, "/dl/report.txt", "other.txt", 0, &r, &err), 0);
	cr_assert_not(r.done.failed, "%s", r.done.err.message);
	ssize_t n = readlink(p, got, sizeof got - 1);
	cr_assert_gt(n, 0, "the symlink was removed");
	got[n] = '\0';
	cr_assert_str_eq(got, target);
	cr_assert_str_eq(content("precious"), "keep\n");
	cr_assert_str_eq(content("other.txt"), "hello download\n");
	/* nothing else is left: the two files found, the two downloads, the target */
	int entries = 0;
	DIR *d = opendir(dir);
	cr_assert(d);
	for (struct dirent *e; (e = readdir(d));)
		entries += e->d_name[0] != '.';
	closedir(d);
	cr_assert_eq(entries, 5);
	steno_http_free(h);
}
