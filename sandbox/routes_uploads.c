/* routes_uploads: GET /uploads/new hands out a signedUrl; PUT on it stores the file
 * (streamed to disk, capped). */
#include "config.h"

#include "routes.h"

#include "clock.h"
#include "db.h"
#include "routes_util.h"
#include "sandbox.h"
#include "signed_url.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The filename as a URL path segment: [A-Za-z0-9._-], others become '_'. */
static void safe_segment(const char *in, char *out, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; in[i] && j + 1 < n; i++) {
		unsigned char ch = (unsigned char)in[i];
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
			 ch == '-' || ch == '_';
		out[j++] = ok ? (char)ch : '_';
	}
	out[j] = '\0';
	if (j == 0 || strcmp(out, ".") == 0 || strcmp(out, "..") == 0)
		snprintf(out, n, "upload");
}

void uploads_new(struct sb_req *r)
{
	const char *filename = req_query(r, "filename");
	if (!filename || !*filename) {
		reply_invalid(r, "filename", "is required");
		return;
	}
	if (strlen(filename) > 255) {
		reply_invalid(r, "filename", "is longer than 255 bytes");
		return;
	}
	int64_t org = r->org_id;
	if (org <= 0) {
		const char *q = req_query(r, "organization_id");
		org = parse_digits(q);
		if (org <= 0) {
			reply_invalid(r, "organization_id", "is required with the admin key");
			return;
		}
	}
	char token[33], seg[128], path[256];
	util_random_hex(token, 16);
	safe_segment(filename, seg, sizeof seg);
	snprintf(path, sizeof path, "/storage/%s/%s", token, seg);
	sqlite3_stmt *st = db_prep("INSERT INTO uploads(token, org_id, filename, created_at) VALUES(?,?,?,?)");
	if (!st) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_text(st, 3, filename, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, clock_now());
	if (db_step_done(st) != 0) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	char *url = signed_url_make(path);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "signedUrl", json_object_new_string(url ? url : ""));
	free(url);
	reply_json(r, 200, o);
}

/* Before the body: check the signature, then stream the body into a temp file. */
void uploads_put_begin(struct sb_req *r)
{
	int rc = signed_url_check(r->path, req_query(r, "expires"), req_query(r, "signature"));
	if (rc == -1) {
		reply_error(r, 401, "invalid_signature", "the signature of this URL is not valid");
		return;
	}
	if (rc == -2) {
		reply_error(r, 403, "url_expired", "this signed URL has expired");
		return;
	}
	char *tmp = util_printf("%s/uploads/%s.part", sb_cfg.data_dir, r->params[0]);
	if (!tmp) {
		reply_error(r, 500, "internal_error", "out of memory");
		return;
	}
	r->sink = fopen(tmp, "wb");
	if (!r->sink) {
		int err = errno;
		free(tmp);
		if (err == ENOSPC || err == EDQUOT || err == EFBIG)
			reply_storage_full(r);
		else
			reply_error(r, 500, "internal_error", "cannot store the file");
		return;
	}
	r->sink_ctx = tmp;
}

void uploads_put(struct sb_req *r)
{
	char *tmp = r->sink_ctx;
	int err = r->sink_error;
	if (!err && (fflush(r->sink) != 0 || fsync(fileno(r->sink)) != 0))
		err = errno ? errno : EIO;
	if (fclose(r->sink) != 0 && !err)
		err = errno ? errno : EIO;
	r->sink = NULL;
	char *final = util_printf("%s/uploads/%s", sb_cfg.data_dir, r->params[0]);
	if (err || !final || rename(tmp, final) != 0) {
		unlink(tmp);
		free(final);
		if (err == ENOSPC || err == EDQUOT || err == EFBIG)
			reply_storage_full(r);
		else
			reply_error(r, 500, "internal_error", "cannot store the file");
		return;
	}
	sqlite3_stmt *st = db_prep("UPDATE uploads SET stored=1, size=? WHERE token=?");
	if (st) {
		sqlite3_bind_int64(st, 1, (int64_t)r->sink_len);
		sqlite3_bind_text(st, 2, r->params[0], -1, SQLITE_STATIC);
	}
	if (db_step_done(st) != 0) {
		unlink(final); /* not recorded: not usable (a full disk is answered 507 by server.c) */
		free(final);
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	free(final);
	reply_status(r, 200);
}

/* GET on a signedUrl reads the stored object back, as object storage does; this is what a
 * fetch of the URL under another host name (localhost ...) ends up calling. */
void uploads_get(struct sb_req *r)
{
	int rc = signed_url_check(r->path, req_query(r, "expires"), req_query(r, "signature"));
	if (rc != 0) {
		reply_error(r, rc == -1 ? 401 : 403, rc == -1 ? "invalid_signature" : "url_expired",
			    "this signed URL is not valid");
		return;
	}
	sqlite3_stmt *st = db_prep("SELECT stored FROM uploads WHERE token=?");
	int stored = 0;
	if (st) {
		sqlite3_bind_text(st, 1, r->params[0], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			stored = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	char *path = stored ? util_printf("%s/uploads/%s", sb_cfg.data_dir, r->params[0]) : NULL;
	size_t len = 0;
	char *data = path ? util_read_file(path, &len) : NULL;
	free(path);
	if (!data) {
		reply_error(r, 404, "not_found", "nothing was uploaded to this URL");
		return;
	}
	reply_bytes(r, 200, "application/octet-stream", data, len);
}
