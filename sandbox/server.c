/* server: libmicrohttpd daemon with a thread pool; routing, Accept/auth/rate/fault checks,
 * body collection with caps, response helpers. */
#include "config.h"

#include "server.h"

#include "auth.h"
#include "conn_guard.h"
#include "req_check.h"
#include "counters.h"
#include "db.h"
#include "faults.h"
#include "http.h"
#include "ratelimit.h"
#include "routes.h"
#include "sandbox.h"
#include "stopping.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define SB_POOL_THREADS 8
#define SB_CONN_TIMEOUT 15     /* idle seconds; headers also have GUARD_HEADER_SECONDS */
#define SB_CONN_LIMIT 512
/* per address: conn_guard.c (GUARD_PER_ADDRESS), which drops the oldest slow connection of the
 * address instead of refusing newcomers: every local client shares 127.0.0.1 */

static struct MHD_Daemon *server_daemon;

struct req_state {
	struct sb_req req;
	struct fault_roll fault;
	int prechecked;
	int handled; /* the route's handler ran */
	int cut;     /* its injected delay was cut short by the stop: no answer, no handler */
};

/* ---- request helpers --------------------------------------------------- */

const char *req_query(struct sb_req *r, const char *name)
{
	return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *req_header(struct sb_req *r, const char *name)
{
	return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

json_object *req_json_object(struct sb_req *r)
{
	if (!r->body || r->body_len == 0) {
		reply_error(r, 400, "invalid_json", "the request body must be a JSON object");
		return NULL;
	}
	struct json_tokener *tok = json_tokener_new();
	if (!tok) {
		reply_error(r, 500, "internal_error", "out of memory");
		return NULL;
	}
	json_object *obj = json_tokener_parse_ex(tok, r->body, (int)r->body_len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t used = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_success)
		while (used < r->body_len && strchr(" \t\r\n", r->body[used]))
			used++;
	if (!obj || jerr != json_tokener_success || used != r->body_len ||
	    !json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		reply_error(r, 400, "invalid_json", "the request body is not a JSON object");
		return NULL;
	}
	char field[128];
	const char *bad = req_json_text_problem(obj, field, sizeof field);
	if (bad) {
		json_object_put(obj);
		reply_invalid(r, field, "%s", bad);
		return NULL;
	}
	return obj;
}

int req_org_ok(const struct sb_req *r, int64_t org)
{
	return r->is_admin || r->org_id == org;
}

static void reply_set(struct sb_req *r, int status, const char *ctype, char *data, size_t len)
{
	free(r->resp);
	r->status = status;
	r->resp = data;
	r->resp_len = len;
	r->ctype = ctype;
	r->is_json = ctype && strncmp(ctype, "application/json", 16) == 0;
}

void reply_json(struct sb_req *r, int status, json_object *obj)
{
	if (!obj) {
		reply_error(r, 500, "internal_error", "out of memory");
		return;
	}
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *copy = s ? strdup(s) : NULL;
	json_object_put(obj);
	if (!copy) {
		reply_set(r, 500, "application/json", NULL, 0);
		return;
	}
	reply_set(r, status, "application/json; charset=utf-8", copy, strlen(copy));
}

__attribute__((format(printf, 2, 0))) static json_object *error_body(const char *code, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "error", json_object_new_string(code));
	json_object_object_add(o, "message", json_object_new_string(msg));
	return o;
}

void reply_error(struct sb_req *r, int status, const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	json_object *o = error_body(code, fmt, ap);
	va_end(ap);
	reply_json(r, status, o);
}

void reply_invalid(struct sb_req *r, const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	json_object *o = error_body("validation_failed", fmt, ap);
	va_end(ap);
	char problem[512];
	va_start(ap, fmt);
	vsnprintf(problem, sizeof problem, fmt, ap);
	va_end(ap);
	if (o) {
		json_object *errs = json_object_new_object();
		json_object *arr = json_object_new_array();
		json_object_array_add(arr, json_object_new_string(problem));
		json_object_object_add(errs, field, arr);
		json_object_object_add(o, "errors", errs);
	}
	reply_json(r, 422, o);
}

void reply_storage_full(struct sb_req *r)
{
	reply_error(r, 507, "insufficient_storage", "the sandbox's disk is full: nothing was stored");
}

void reply_bytes(struct sb_req *r, int status, const char *ctype, char *data, size_t len)
{
	reply_set(r, status, ctype, data, len);
}

void reply_status(struct sb_req *r, int status)
{
	reply_set(r, status, NULL, NULL, 0);
}

void reply_header(struct sb_req *r, const char *name, const char *value)
{
	if (r->nhdrs >= SB_MAX_HDRS)
		return;
	snprintf(r->hdr_name[r->nhdrs], sizeof r->hdr_name[0], "%s", name);
	snprintf(r->hdr_value[r->nhdrs], sizeof r->hdr_value[0], "%s", value);
	r->nhdrs++;
}

json_object *json_str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

int json_get_typed(json_object *obj, const char *key, json_type type, json_object **out)
{
	json_object *v = NULL;
	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, type))
		return -1;
	*out = v;
	return 0;
}

/* ---- routing ------------------------------------------------------------- */

/* Matches path against a pattern; fills params. 1 on match. */
static int route_match(const char *pattern, const char *path, struct sb_req *r)
{
	const char *p = pattern, *s = path;
	int n = 0;
	while (*p && *s) {
		if (*p == ':') {
			while (*p && *p != '/')
				p++;
			const char *end = strchr(s, '/');
			size_t len = end ? (size_t)(end - s) : strlen(s);
			if (len == 0 || len >= sizeof r->params[0] || n >= SB_MAX_PARAMS)
				return 0;
			memcpy(r->params[n], s, len);
			r->params[n][len] = '\0';
			n++;
			s += len;
			continue;
		}
		if (*p != *s)
			return 0;
		p++;
		s++;
	}
	if (*p || *s)
		return 0;
	r->nparams = n;
	return 1;
}

/* Finds the route; on a miss replies 404 or 405 (with Allow). */
static const struct sb_route *route_find(struct sb_req *r)
{
	char allow[128] = "";
	for (size_t i = 0; i < sb_nroutes; i++) {
		if (!route_match(sb_routes[i].pattern, r->path, r))
			continue;
		if (strcmp(sb_routes[i].method, r->method) == 0)
			return &sb_routes[i];
		if (!strstr(allow, sb_routes[i].method)) {
			size_t len = strlen(allow);
			snprintf(allow + len, sizeof allow - len, "%s%s", len ? ", " : "", sb_routes[i].method);
		}
	}
	if (allow[0]) {
		reply_error(r, 405, "method_not_allowed", "%s is not allowed on %s", r->method, r->path);
		reply_header(r, "Allow", allow);
	} else {
		reply_error(r, 404, "not_found", "no such resource: %s", r->path);
	}
	return NULL;
}

static int accept_ok(struct sb_req *r)
{
	const char *acc = req_header(r, "Accept");
	if (!acc || !*acc)
		return 1;
	return strcasestr(acc, "application/json") || strstr(acc, "*/*") || strcasestr(acc, "application/*") ||
	       strcasestr(acc, "+json");
}

static int auth_check(struct sb_req *r)
{
	const char *h = req_header(r, "Authorization");
	if (!h || strncasecmp(h, "Bearer ", 7) != 0 || strlen(h + 7) >= sizeof r->key) {
		reply_error(r, 401, "unauthorized", "missing or malformed Authorization: Bearer header");
		return -1;
	}
	snprintf(r->key, sizeof r->key, "%s", h + 7);
	if (auth_lookup(r->key, &r->org_id, &r->is_admin) != 0) {
		reply_error(r, 401, "unauthorized", "the API key is not valid");
		return -1;
	}
	if ((r->route->flags & R_ADMIN) && !r->is_admin) {
		reply_error(r, 403, "forbidden", "this route is restricted to the sandbox administrator");
		return -1;
	}
	return 0;
}

static void reply_rate_limited(struct sb_req *r, int retry)
{
	char buf[16];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "error", json_object_new_string("rate_limited"));
	json_object_object_add(o, "message", json_object_new_string("too many requests; retry later"));
	json_object_object_add(o, "retry_in_seconds", json_object_new_int(retry));
	reply_json(r, 429, o);
	snprintf(buf, sizeof buf, "%d", retry);
	reply_header(r, "Retry-After", buf);
}

/* The latency fault: holds this worker thread ms milliseconds, unless the server stops
 * meanwhile (server_stop wakes it before it waits for its threads). 0, or -1 when cut short. */
static int fault_delay(int ms)
{
	if (ms <= 0)
		return 0;
	counters_fault("latency");
	return stopping_sleep_ms(ms);
}

/* Everything decided before the body arrives. Replies on failure. */
static void request_precheck(struct req_state *rs)
{
	struct sb_req *r = &rs->req;
	r->route = route_find(r);
	if (!r->route)
		return;
	r->body_limit = r->route->body_limit ? (size_t)r->route->body_limit : (size_t)SB_JSON_MAX;
	if (r->route->flags & R_OPEN) {
		if ((r->route->flags & R_LATENCY) && fault_delay(faults_roll_latency()) != 0) {
			rs->cut = 1;
			return;
		}
		if (r->route->begin)
			r->route->begin(r);
		return;
	}
	if (!accept_ok(r)) {
		reply_error(r, 406, "not_acceptable", "responses are application/json only");
		return;
	}
	if (auth_check(r) != 0)
		return;
	if (r->route->flags & R_ADMIN)
		return;
	int retry = 0;
	if (!ratelimit_take(r->key, &retry)) {
		reply_rate_limited(r, retry);
		return;
	}
	faults_roll(&rs->fault, strcmp(r->method, "POST") == 0);
	if (rs->fault.kind != FAULT_NONE)
		counters_fault(faults_kind_name(rs->fault.kind));
	if (fault_delay(rs->fault.latency_ms) != 0) {
		rs->cut = 1;
		return;
	}
	switch (rs->fault.kind) {
	case FAULT_500:
		reply_error(r, 500, "internal_error", "injected fault: internal server error");
		break;
	case FAULT_503:
		reply_error(r, 503, "service_unavailable", "injected fault: temporary maintenance");
		break;
	case FAULT_429:
		reply_rate_limited(r, 1);
		break;
	default:
		break;
	}
}

/* ---- MHD glue ------------------------------------------------------------ */

struct trunc_ctx {
	char *data;
	size_t len, cut;
};

static ssize_t trunc_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct trunc_ctx *t = cls;
	if (pos >= t->cut)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	size_t n = t->cut - (size_t)pos;
	if (n > max)
		n = max;
	memcpy(buf, t->data + pos, n);
	return (ssize_t)n;
}

static void trunc_free(void *cls)
{
	struct trunc_ctx *t = cls;
	free(t->data);
	free(t);
}

/* Builds the MHD response, corrupting it when a truncate/malformed fault was rolled. */
static struct MHD_Response *response_build(struct req_state *rs)
{
	struct sb_req *r = &rs->req;
	if (rs->fault.kind == FAULT_TRUNCATE && r->resp_len > 1) {
		struct trunc_ctx *t = malloc(sizeof *t);
		if (t) {
			t->data = r->resp;
			t->len = r->resp_len;
			t->cut = r->resp_len / 2;
			r->resp = NULL;
			return MHD_create_response_from_callback(t->len, 4096, trunc_read, t, trunc_free);
		}
	}
	if (rs->fault.kind == FAULT_MALFORMED && r->is_json && r->resp_len > 1) {
		/* Cut the JSON in half and append junk: valid HTTP, invalid JSON. */
		size_t cut = r->resp_len / 2;
		memcpy(r->resp + cut, "<!--}", r->resp_len - cut < 5 ? r->resp_len - cut : 5);
		r->resp_len = cut + (r->resp_len - cut < 5 ? r->resp_len - cut : 5);
	}
	static char empty[1];
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(r->resp_len, r->resp ? r->resp : empty,
						r->resp ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (resp)
		r->resp = NULL;
	return resp;
}

static enum MHD_Result request_respond(struct MHD_Connection *conn, struct req_state *rs)
{
	struct sb_req *r = &rs->req;
	/* Both drops come after the handler: the request is done and committed, the answer lost. */
	if (rs->fault.kind == FAULT_DROP || rs->fault.kind == FAULT_DROP_POST)
		return MHD_NO;
	if (r->status == 0)
		reply_error(r, 500, "internal_error", "the handler produced no response");
	/* A full disk is not an internal error: say so (500 is left to injected faults). */
	if (db_storage_full_take() && r->status == 500 && rs->fault.kind == FAULT_NONE)
		reply_storage_full(r);
	struct MHD_Response *resp = response_build(rs);
	if (!resp)
		return MHD_NO;
	if (r->ctype)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->ctype);
	for (int i = 0; i < r->nhdrs; i++)
		MHD_add_response_header(resp, r->hdr_name[i], r->hdr_value[i]);
	enum MHD_Result ret = MHD_queue_response(conn, (unsigned int)r->status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static void body_append(struct sb_req *r, const char *data, size_t size)
{
	if (r->too_big)
		return;
	if (r->body_len + size > r->body_limit) {
		r->too_big = 1;
		return;
	}
	if (r->sink) {
		if (fwrite(data, 1, size, r->sink) != size && !r->sink_error)
			r->sink_error = errno ? errno : EIO;
		r->sink_len += size;
		r->body_len += size;
		return;
	}
	if (r->body_len + size + 1 > r->body_cap) {
		size_t cap = r->body_cap ? r->body_cap * 2 : 4096;
		while (cap < r->body_len + size + 1)
			cap *= 2;
		char *nb = realloc(r->body, cap);
		if (!nb) {
			r->too_big = 1;
			return;
		}
		r->body = nb;
		r->body_cap = cap;
	}
	memcpy(r->body + r->body_len, data, size);
	r->body_len += size;
	r->body[r->body_len] = '\0';
}

static int content_length_too_big(struct sb_req *r)
{
	const char *cl = req_header(r, "Content-Length");
	return cl && strtoull(cl, NULL, 10) > r->body_limit;
}

static enum MHD_Result server_access(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				     const char *version, const char *upload_data, size_t *upload_data_size,
				     void **con_cls)
{
	(void)cls;
	(void)version;
	struct req_state *rs = *con_cls;
	if (!rs) {
		rs = calloc(1, sizeof *rs);
		if (!rs)
			return MHD_NO;
		rs->req.conn = conn;
		rs->req.method = method;
		rs->req.path = url;
		rs->req.body_limit = SB_JSON_MAX;
		*con_cls = rs;
		guard_headers_done(conn);
		db_storage_full_take(); /* what an earlier request on this thread left */
		request_precheck(rs);
		if (rs->cut) {
			/* The server is stopping: received, not acted on, the connection closed. */
			counters_request(&rs->req, faults_kind_name(rs->fault.kind), 0);
			return MHD_NO;
		}
		if (rs->req.status == 0 && content_length_too_big(&rs->req)) {
			/* answered before any of the body: libmicrohttpd then reads none of it and
			 * closes the connection after the answer */
			reply_error(&rs->req, 413, "payload_too_large", "the request body exceeds %zu bytes",
				    rs->req.body_limit);
			counters_request(&rs->req, faults_kind_name(rs->fault.kind), 0);
			return request_respond(conn, rs);
		}
		return MHD_YES;
	}
	struct sb_req *r = &rs->req;
	if (*upload_data_size > 0) {
		if (r->status == 0)
			body_append(r, upload_data, *upload_data_size);
		*upload_data_size = 0;
		/* a body without a length (chunked) that passes the cap: the connection is closed
		 * at once (libmicrohttpd takes no answer in the middle of a body), instead of
		 * reading it to its end, if it has one */
		if (r->too_big && r->status == 0) {
			counters_request(r, faults_kind_name(rs->fault.kind), 0);
			return MHD_NO;
		}
		return MHD_YES;
	}
	if (r->status == 0 && r->too_big)
		reply_error(r, 413, "payload_too_large", "the request body exceeds %zu bytes", r->body_limit);
	/* a body to be read as JSON (not one streamed into a file) must say it is JSON */
	if (r->status == 0 && !r->sink_ctx && r->body_len > 0 &&
	    !req_content_type_json(req_header(r, "Content-Type")))
		reply_error(r, 415, "unsupported_media_type",
			    "the request body must be declared Content-Type: application/json");
	if (r->status == 0) {
		r->route->handler(r);
		rs->handled = 1;
	}
	counters_request(r, faults_kind_name(rs->fault.kind), rs->handled);
	return request_respond(conn, rs);
}

static void server_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			     enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
	struct req_state *rs = *con_cls;
	if (!rs)
		return;
	if (rs->req.sink) {
		/* The handler did not take the streamed body (error or size cap): drop it. */
		fclose(rs->req.sink);
		rs->req.sink = NULL;
		if (rs->req.sink_ctx)
			unlink(rs->req.sink_ctx);
	}
	free(rs->req.sink_ctx);
	free(rs->req.body);
	free(rs->req.resp);
	free(rs);
	*con_cls = NULL;
}

static int bind_addr(struct sockaddr_storage *ss, int *ipv6)
{
	memset(ss, 0, sizeof *ss);
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	const char *host = strcmp(sb_cfg.bind, "localhost") == 0 ? "127.0.0.1" : sb_cfg.bind;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)sb_cfg.port);
		*ipv6 = 0;
		return 0;
	}
	if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)sb_cfg.port);
		*ipv6 = 1;
		return 0;
	}
	return -1;
}

int server_start(void)
{
	struct sockaddr_storage ss;
	int ipv6 = 0;
	if (bind_addr(&ss, &ipv6) != 0) {
		fprintf(stderr, "steno-sandbox: --bind %s is not an IP address\n", sb_cfg.bind);
		return -1;
	}
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG;
	if (ipv6)
		flags |= MHD_USE_IPv6;
	server_daemon = MHD_start_daemon(flags, (uint16_t)sb_cfg.port, NULL, NULL, server_access, NULL,
					 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
					 MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)SB_POOL_THREADS,
					 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SB_CONN_TIMEOUT,
					 MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SB_CONN_LIMIT,
					 MHD_OPTION_NOTIFY_CONNECTION, guard_notify, NULL,
					 MHD_OPTION_URI_LOG_CALLBACK, guard_request_line, NULL,
					 MHD_OPTION_NOTIFY_COMPLETED, server_completed, NULL, MHD_OPTION_END);
	if (!server_daemon) {
		fprintf(stderr, "steno-sandbox: cannot listen on %s:%d\n", sb_cfg.bind, sb_cfg.port);
		return -1;
	}
	if (guard_start() != 0) {
		fprintf(stderr, "steno-sandbox: cannot start the header watchdog\n");
		server_stop();
		return -1;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(server_daemon, MHD_DAEMON_INFO_BIND_PORT);
	if (info)
		sb_cfg.port = info->port;
	snprintf(sb_cfg.origin, sizeof sb_cfg.origin, ipv6 ? "http://[%s]:%d" : "http://%s:%d", sb_cfg.bind,
		 sb_cfg.port);
	return 0;
}

void server_stop(void)
{
	/* First: MHD_stop_daemon joins the worker threads, and a thread held by an injected
	 * delay would hold the stop for as long (up to a minute). */
	stopping_begin();
	if (server_daemon)
		MHD_stop_daemon(server_daemon);
	server_daemon = NULL;
	guard_stop();
}
