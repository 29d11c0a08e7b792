#include "config.h"
#include "api/transfer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/error_body.h"
#include "api/http_internal.h"
#include "api/url.h"

#define ERROR_BODY_MAX 65536

/* State of one transfer; owned by its request (r->xfer), freed by xfer_destroy. */
struct xfer {
	FILE *fp;
	char *final_path;   /* downloads */
	char *part_path;    /* downloads: removed unless renamed */
	int overwrite;
	int write_errno;    /* downloads: why writing the .part failed, else 0 */
	uint64_t bytes;
	double start_ms;
	const char *stopped; /* why the download was stopped by its limits, else NULL */
	double stopped_s;    /* when, in seconds from its start */
	uint64_t announced;  /* the size the server announced, 0 if none */
	steno_progress_fn progress;
	steno_http_done_fn upload_done;
	steno_download_done_fn download_done;
	void (*drop)(void *ud);
	void *ud;
};

static void xfer_destroy(void *p, int completed)
{
	struct xfer *x = p;
	if (!x)
		return;
	if (x->fp)
		fclose(x->fp);
	if (x->part_path)
		unlink(x->part_path); /* after a successful rename it no longer exists */
	if (!completed && x->drop)
		x->drop(x->ud);
	free(x->part_path);
	free(x->final_path);
	free(x);
}

static size_t xfer_bytes(const void *p)
{
	return (size_t)((const struct xfer *)p)->bytes;
}

/* A hostile or broken server must not hang a download or fill the disk: it fails when it
 * announces or sends more than download_max_bytes, or when it takes longer than the stall
 * time plus its size at the minimum speed. A drip above the low-speed limit (which curl
 * enforces, and which a download below it meets first) is bounded by download_min_rate: past
 * the stall time, a download must have averaged that much since its start — so one of an
 * announced size ends by the stall time plus that size at that rate, and one without a size
 * keeps at least that pace. */
static int download_over_limits(struct steno_req *r, struct xfer *x, curl_off_t dltotal)
{
	struct steno_http *h = r->http;
	double now = steno_http_now_ms();
	if (x->start_ms == 0)
		x->start_ms = now; /* from the first progress: not the queue */
	double size = dltotal > 0 ? (double)dltotal : (double)x->bytes;
	double s = (now - x->start_ms) / 1000.0, grace = (double)h->low_speed_time_s;
	x->announced = dltotal > 0 ? (uint64_t)dltotal : 0;
	if ((dltotal > 0 && dltotal > h->download_max_bytes) ||
	    (long long)x->bytes > h->download_max_bytes)
		x->stopped = "larger than download_max_size";
	else if (s > grace + size / (double)h->low_speed_bytes)
		x->stopped = "too slow";
	else if (s > grace && (double)x->bytes >= (double)h->low_speed_bytes * s &&
		 (double)x->bytes < (double)h->download_min_rate * (s - grace))
		x->stopped = "below download_min_rate";
	if (x->stopped)
		x->stopped_s = s;
	return x->stopped != NULL;
}

static int xfer_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
			 curl_off_t ulnow)
{
	struct steno_req *r = ud;
	struct xfer *x = r->xfer;
	if (steno_http_req_cancelled(r))
		return 1;
	if (!x->download_done)
		x->bytes = (uint64_t)ulnow;
	else if (download_over_limits(r, x, dltotal))
		return 1;
	if (x->progress) {
		if (x->download_done)
			x->progress(x->ud, (uint64_t)dlnow, (uint64_t)dltotal);
		else
			x->progress(x->ud, (uint64_t)ulnow, (uint64_t)ultotal);
	}
	return steno_http_req_cancelled(r); /* the callback may have cancelled it */
}

static size_t xfer_write_error_body(struct steno_req *r, const char *ptr, size_t n)
{
	if (r->resp.len + n <= ERROR_BODY_MAX && steno_buf_append(&r->resp, ptr, n) != 0)
		return 0;
	return n; /* the rest of a huge error body is not needed */
}

static size_t upload_write(char *ptr, size_t size, size_t nmemb, void *ud)
{
	return xfer_write_error_body(ud, ptr, size * nmemb);
}

static size_t upload_read(char *buf, size_t size, size_t nitems, void *ud)
{
	struct xfer *x = ud;
	size_t n = fread(buf, 1, size * nitems, x->fp);
	if (n == 0 && ferror(x->fp))
		return CURL_READFUNC_ABORT;
	return n;
}

static size_t download_write(char *ptr, size_t size, size_t nmemb, void *ud)
{
	struct steno_req *r = ud;
	struct xfer *x = r->xfer;
	size_t n = size * nmemb;
	long code = 0;
	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &code);
	if (code >= 300 && code <= 399)
		return n; /* body of a redirect curl is following */
	if (code < 200 || code > 299)
		return xfer_write_error_body(r, ptr, n);
	if ((long long)(x->bytes + n) > r->http->download_max_bytes) {
		x->stopped = "larger than download_max_size";
		return 0;
	}
	if (fwrite(ptr, 1, n, x->fp) != n) {
		x->write_errno = errno ? errno : EIO;
		return 0; /* curl ends with CURLE_WRITE_ERROR; download_complete says why */
	}
	x->bytes += n;
	return n;
}

static int xfer_common(struct steno_req *r, struct xfer *x, struct steno_error *err)
{
	CURL *e = r->easy;
	struct steno_http *h = r->http;
	r->xfer = x; /* from here on freed with the request */
	struct curl_slist *l = curl_slist_append(NULL, "Expect:");
	if (!l)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	r->headers = l;
	r->may_carry_key = 0;
	curl_easy_setopt(e, CURLOPT_URL, r->url);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, r->headers);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 0L);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, h->low_speed_bytes);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, h->low_speed_time_s);
	curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, xfer_progress);
	curl_easy_setopt(e, CURLOPT_XFERINFODATA, r);
	curl_easy_setopt(e, CURLOPT_UNRESTRICTED_AUTH, 0L);
	return 0;
}

static void upload_complete(struct steno_req *r, const struct steno_http_response *resp,
			    const struct steno_error *err)
{
	struct xfer *x = r->xfer;
	x->upload_done(x->ud, resp, err);
}

static const struct steno_req_ops upload_ops = {
	.complete = upload_complete,
	.destroy = xfer_destroy,
	.bytes = xfer_bytes,
};

static struct xfer *upload_open(const char *path, curl_off_t *size, struct steno_error *err)
{
	struct xfer *x = calloc(1, sizeof(*x));
	struct stat st;
	if (!x) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	x->fp = fopen(path, "rbe");
	if (!x->fp || fstat(fileno(x->fp), &st) != 0 || !S_ISREG(st.st_mode)) {
		steno_error_set(err, STENO_ERR_IO, "cannot read %s: %s", path,
				x->fp ? "not a regular file" : strerror(errno));
		xfer_destroy(x, 0);
		return NULL;
	}
	*size = (curl_off_t)st.st_size;
	return x;
}

int steno_http_upload(struct steno_http *h, const struct steno_upload_request *req, uint64_t *id,
		      struct steno_error *err)
{
	if (!req || !req->done || !req->path)
		return steno_error_invalid(err, "upload", "path and callback are required");
	curl_off_t size = 0;
	struct xfer *x = upload_open(req->path, &size, err);
	if (!x)
		return -1;
	x->progress = req->progress;
	x->upload_done = req->done;
	x->ud = req->ud;
	struct steno_req *r = steno_http_req_new(h, "PUT", req->signed_url, err);
	if (!r) {
		xfer_destroy(x, 0);
		return -1;
	}
	r->ops = &upload_ops;
	r->owner = req->owner;
	if (xfer_common(r, x, err) != 0) {
		steno_http_req_discard(r);
		return -1;
	}
	char ct[256];
	if (req->content_type && snprintf(ct, sizeof(ct), "Content-Type: %s", req->content_type) <
					 (int)sizeof(ct)) {
		struct curl_slist *l = curl_slist_append(r->headers, ct);
		if (l)
			r->headers = l;
	}
	CURL *e = r->easy;
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, r->headers);
	curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
	/* Always the exact length: without it curl sends chunked, which signed URLs refuse. */
	curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, size);
	curl_easy_setopt(e, CURLOPT_READFUNCTION, upload_read);
	curl_easy_setopt(e, CURLOPT_READDATA, x);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, upload_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	x->drop = req->drop; /* only now: a failed submit never calls it */
	if (id)
		*id = r->id;
	return 0;
}

int steno_download_name(const char *url, const char *name, char *out, size_t size,
			struct steno_error *err)
{
	char *path = NULL;
	if (!name || !*name) {
		CURLU *u = curl_url();
		if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK)
			curl_url_get(u, CURLUPART_PATH, &path, CURLU_URLDECODE);
		curl_url_cleanup(u);
	}
	int rc = steno_url_safe_basename(name && *name ? name : path, "download", out, size, err);
	curl_free(path);
	return rc;
}

/* Moves NAME.part to NAME: rename when overwriting, else link + unlink so that a file that
 * appeared meanwhile is never replaced. */
static int download_finish_file(struct xfer *x, struct steno_error *err)
{
	FILE *fp = x->fp;
	x->fp = NULL;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0) {
		int e = errno;
		fclose(fp);
		return steno_error_set(err, STENO_ERR_IO, "cannot write %s: %s", x->part_path,
				       strerror(e));
	}
	fclose(fp);
	int rc = x->overwrite ? rename(x->part_path, x->final_path)
			      : link(x->part_path, x->final_path);
	if (rc != 0) {
		int e = errno;
		if (e == EEXIST)
			snprintf(err->code, sizeof(err->code), "exists");
		return steno_error_set(err, STENO_ERR_IO, "cannot create %s: %s", x->final_path,
				       strerror(e));
	}
	if (!x->overwrite)
		unlink(x->part_path);
	free(x->part_path);
	x->part_path = NULL;
	return 0;
}

static void download_rate_error(struct steno_req *r, struct xfer *x, struct steno_error *ferr)
{
	double rate = x->stopped_s > 0 ? (double)x->bytes / x->stopped_s : 0;
	char eta[96] = "";
	if (x->announced && rate > 0)
		snprintf(eta, sizeof eta, "; the %llu bytes announced would take %.0f s at this pace",
			 (unsigned long long)x->announced, (double)x->announced / rate);
	steno_error_set(ferr, STENO_ERR_TIMEOUT, "download stopped: %llu bytes in %.0f s (%.0f B/s), "
			"below download_min_rate (%ld B/s) after transfer_stall_time (%ld s)%s: the "
			"partial file was removed", (unsigned long long)x->bytes, x->stopped_s, rate,
			r->http->download_min_rate, r->http->low_speed_time_s, eta);
}

static void download_complete(struct steno_req *r, const struct steno_http_response *resp,
			      const struct steno_error *err)
{
	struct xfer *x = r->xfer;
	struct steno_error ferr;
	steno_error_clear(&ferr);
	if (err && x->write_errno) {
		steno_error_set(&ferr, STENO_ERR_IO, "cannot write %s: %s", x->part_path, strerror(x->write_errno));
		x->download_done(x->ud, NULL, resp, &ferr);
		return;
	}
	if (err && (x->stopped || err->kind == STENO_ERR_TIMEOUT)) {
		/* limits, not the network: say which one (the .part goes with the request) */
		int big = x->stopped && strstr(x->stopped, "size");
		if (big)
			steno_error_set(&ferr, STENO_ERR_IO, "download stopped: larger than "
					"download_max_size (%lld bytes): the partial file was removed",
					r->http->download_max_bytes);
		else if (x->stopped && strstr(x->stopped, "min_rate"))
			download_rate_error(r, x, &ferr);
		else
			steno_error_set(&ferr, STENO_ERR_TIMEOUT, "download stopped: slower than "
					"%ld B/s (transfer_min_speed) for %ld s, %llu bytes received: "
					"the partial file was removed", r->http->low_speed_bytes,
					r->http->low_speed_time_s, (unsigned long long)x->bytes);
		snprintf(ferr.code, sizeof ferr.code, "download_limit");
		x->download_done(x->ud, NULL, resp, &ferr);
		return;
	}
	if (err) {   /* a refused link says why in the file server's words ("Request has expired") */
		x->download_done(x->ud, NULL, resp,
				 steno_error_refused("the file server refused the download", resp, err, &ferr));
		return;
	}
	if (download_finish_file(x, &ferr) != 0) {
		x->download_done(x->ud, NULL, resp, &ferr);
		return;
	}
	x->download_done(x->ud, x->final_path, resp, NULL);
}

static const struct steno_req_ops download_ops = {
	.complete = download_complete,
	.destroy = xfer_destroy,
	.bytes = xfer_bytes,
};

static char *path_join(const char *dir, const char *name, const char *suffix)
{
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s%s", dir, name, suffix);
	return p;
}

/* Creates the partial file exclusively (never a file or symlink that is there already, which
 * is not ours to truncate or remove): DIR/NAME.part, or when that name is taken
 * DIR/NAME.PID-N.part. The fd, with *path (malloc'd) the name made; -1 with errno and *path
 * the name tried (or NULL on no memory). */
static int part_create(const char *dir, const char *name, char **path)
{
	static unsigned serial;
	*path = NULL;
	for (int i = 0; i < 100; i++) {
		char suffix[64];
		if (i == 0)
			snprintf(suffix, sizeof suffix, ".part");
		else
			snprintf(suffix, sizeof suffix, ".%ld-%u.part", (long)getpid(), ++serial);
		free(*path);
		if (!(*path = path_join(dir, name, suffix))) {
			errno = ENOMEM;
			return -1;
		}
		int fd = open(*path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

static struct xfer *download_open(const struct steno_download_request *req, struct steno_error *err)
{
	char name[256];
	if (steno_download_name(req->url, req->name, name, sizeof(name), err) != 0)
		return NULL;
	struct xfer *x = calloc(1, sizeof(*x));
	const char *dir = req->dir ? req->dir : ".";
	if (!x || !(x->final_path = path_join(dir, name, ""))) {
		xfer_destroy(x, 0);
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	struct stat st;
	if (!req->overwrite && lstat(x->final_path, &st) == 0) {
		if (err)
			snprintf(err->code, sizeof(err->code), "exists");
		steno_error_set(err, STENO_ERR_IO, "%s exists (not overwritten)", x->final_path);
		xfer_destroy(x, 0);
		return NULL;
	}
	int fd = part_create(dir, name, &x->part_path);
	if (fd < 0 || !(x->fp = fdopen(fd, "wb"))) {
		steno_error_set(err, STENO_ERR_IO, "cannot create %s: %s",
				x->part_path ? x->part_path : name, strerror(errno));
		if (fd >= 0)
			close(fd);
		else {
			free(x->part_path);
			x->part_path = NULL; /* not made by us: left alone */
		}
		xfer_destroy(x, 0);
		return NULL;
	}
	x->overwrite = req->overwrite;
	return x;
}

int steno_http_download(struct steno_http *h, const struct steno_download_request *req,
			uint64_t *id, struct steno_error *err)
{
	if (!req || !req->done || !req->url)
		return steno_error_invalid(err, "download", "url and callback are required");
	struct steno_req *r = steno_http_req_new(h, "GET", req->url, err);
	if (!r)
		return -1;
	struct xfer *x = download_open(req, err);
	if (!x) {
		steno_http_req_discard(r);
		return -1;
	}
	x->progress = req->progress;
	x->download_done = req->done;
	x->ud = req->ud;
	r->ops = &download_ops;
	r->owner = req->owner;
	if (xfer_common(r, x, err) != 0) {
		steno_http_req_discard(r);
		return -1;
	}
	CURL *e = r->easy;
	curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, download_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	/* Storage often redirects; there is no key on this handle that could follow. */
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	x->drop = req->drop; /* only now: a failed submit never calls it */
	if (id)
		*id = r->id;
	return 0;
}
