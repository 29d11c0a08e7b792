#include "config.h"
#include "engine_server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define API "/api/v1"

/* Per-connection upload state (PUT bodies). Freed in the completion callback. */
struct conn {
	size_t bytes;
	char body[8192];
};

static void copy_header(struct MHD_Connection *c, const char *name, char *out, size_t size)
{
	const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
	snprintf(out, size, "%s", v ? v : "");
}

static int count_hit(struct engine_server *s, const char *method, const char *url)
{
	char key[160];
	snprintf(key, sizeof(key), "%s %s", method, url);
	int hits = 0;
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < ENGINE_SERVER_PATHS; i++) {
		if (s->paths[i].key[0] == '\0')
			snprintf(s->paths[i].key, sizeof(s->paths[i].key), "%s", key);
		if (strcmp(s->paths[i].key, key) == 0) {
			hits = ++s->paths[i].hits;
			break;
		}
	}
	pthread_mutex_unlock(&s->mu);
	return hits;
}

static void record_request(struct engine_server *s, struct MHD_Connection *c)
{
	pthread_mutex_lock(&s->mu);
	s->requests++;
	const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
	if (auth) {
		s->auth_seen++;
		snprintf(s->last_auth, sizeof(s->last_auth), "%s", auth);
	}
	copy_header(c, "Content-Length", s->last_content_length, sizeof(s->last_content_length));
	copy_header(c, "Transfer-Encoding", s->last_transfer_encoding, sizeof(s->last_transfer_encoding));
	copy_header(c, "Expect", s->last_expect, sizeof(s->last_expect));
	copy_header(c, "User-Agent", s->last_user_agent, sizeof(s->last_user_agent));
	copy_header(c, "Accept", s->last_accept, sizeof(s->last_accept));
	pthread_mutex_unlock(&s->mu);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *body,
			     const char *h1, const char *v1)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)(uintptr_t)body,
								 MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", body[0] == '<' ? "application/xml" : "application/json");
	if (h1)
		MHD_add_response_header(r, h1, v1);
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static void nap_ms(struct engine_server *s, long ms)
{
	for (long t = 0; t < ms && !s->stopping; t += 20)
		usleep(20000);
}

static ssize_t trickle_cb(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct engine_server *s = cls;
	nap_ms(s, 300);
	if (s->stopping || max < 1)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	buf[0] = 'x';
	return 1;
}

/* /drip/MS/SIZE[/CHUNK]: one byte (or CHUNK bytes) every MS milliseconds */
struct drip {
	struct engine_server *s;
	long ms, chunk;
	uint64_t size;
};

static ssize_t drip_cb(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct drip *d = cls;
	nap_ms(d->s, d->ms);
	if (d->s->stopping || max < 1)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	size_t n = (size_t)d->chunk < max ? (size_t)d->chunk : max;
	if (n > d->size - pos)
		n = (size_t)(d->size - pos);
	memset(buf, 'd', n);
	return (ssize_t)n;
}

/* /big/SIZE[/chunked]: SIZE bytes of 'x' as fast as the socket takes them */
static ssize_t big_cb(void *cls, uint64_t pos, char *buf, size_t max)
{
	uint64_t size = (uint64_t)(uintptr_t)cls;
	if (pos >= size)
		return MHD_CONTENT_READER_END_OF_STREAM;
	size_t n = size - pos < max ? (size_t)(size - pos) : max;
	memset(buf, 'x', n);
	return (ssize_t)n;
}

static enum MHD_Result reply_hostile(struct MHD_Connection *c, struct engine_server *s,
				     const char *url)
{
	long ms = 0, size = 0;
	char mode[16] = "";
	struct MHD_Response *r = NULL;
	long chunk = 1;
	if (sscanf(url, API "/drip/%ld/%ld/%ld", &ms, &size, &chunk) >= 2 && chunk > 0) {
		struct drip *d = malloc(sizeof *d);
		if (!d)
			return MHD_NO;
		d->s = s;
		d->ms = ms;
		d->chunk = chunk;
		d->size = (uint64_t)size;
		r = MHD_create_response_from_callback((uint64_t)size, (size_t)chunk, drip_cb, d, free);
	} else if (sscanf(url, API "/big/%ld/%15s", &size, mode) >= 1) {
		r = MHD_create_response_from_callback(strcmp(mode, "chunked") ? (uint64_t)size
									: MHD_SIZE_UNKNOWN,
						      65536, big_cb, (void *)(uintptr_t)size, NULL);
	}
	if (!r)
		return MHD_NO;
	enum MHD_Result ret = MHD_queue_response(c, 200, r);
	MHD_destroy_response(r);
	return ret;
}

static ssize_t truncated_cb(void *cls, uint64_t pos, char *buf, size_t max)
{
	if (pos >= 10 || max < 10)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	memcpy(buf, "{\"ok\":tru", 10);
	return 10;
}

static enum MHD_Result reply_callback(struct MHD_Connection *c, struct engine_server *s,
				      MHD_ContentReaderCallback cb)
{
	struct MHD_Response *r = MHD_create_response_from_callback(100, 1024, cb, s, NULL);
	if (!r)
		return MHD_NO;
	enum MHD_Result ret = MHD_queue_response(c, 200, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result route_flaky(struct engine_server *s, struct MHD_Connection *c,
				   const char *method, const char *url, const char *rest)
{
	unsigned status = 0, n = 0;
	char mode[16] = "none";
	if (sscanf(rest, "%u/%u/%15s", &status, &n, mode) < 2)
		return reply(c, 400, "{\"error\":\"bad_flaky\"}", NULL, NULL);
	if ((unsigned)count_hit(s, method, url) > n)
		return reply(c, 200, "{\"ok\":true}", NULL, NULL);
	char date[64];
	if (strcmp(mode, "secs") == 0)
		return reply(c, status, "{\"error\":\"slow_down\",\"message\":\"wait\"}", "Retry-After", "1");
	if (strcmp(mode, "date") == 0) {
		time_t t = time(NULL) + 2;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm);
		return reply(c, status, "{\"error\":\"slow_down\"}", "Retry-After", date);
	}
	if (strcmp(mode, "body") == 0)
		return reply(c, status, "{\"error\":\"rate_limited\",\"retry_in_seconds\":1}", NULL, NULL);
	if (strcmp(mode, "hour") == 0)
		return reply(c, status, "{\"error\":\"slow_down\"}", "Retry-After", "3600");
	if (strcmp(mode, "huge") == 0)
		return reply(c, status, "{\"error\":\"rate_limited\",\"retry_in_seconds\":1e300}", NULL, NULL);
	return reply(c, status, "{\"error\":\"flaky\",\"message\":\"try again\"}", NULL, NULL);
}

static enum MHD_Result add_query(void *cls, enum MHD_ValueKind kind, const char *key,
				 const char *value)
{
	char *q = cls;
	size_t n = strlen(q);
	snprintf(q + n, 512 - n, "%s%s=%s", n ? "&" : "", key, value ? value : "");
	return MHD_YES;
}

static enum MHD_Result reply_canned(struct engine_server *s, struct MHD_Connection *c,
				    const char *url, const char *method, struct conn *st)
{
	int get = strcmp(method, "GET") == 0 || strcmp(method, "DELETE") == 0;
	char body[8192];
	unsigned status;
	pthread_mutex_lock(&s->mu);
	snprintf(s->last_method, sizeof(s->last_method), "%s", method);
	snprintf(s->last_path, sizeof(s->last_path), "%s", url);
	s->last_query[0] = '\0';
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_query, s->last_query);
	snprintf(s->last_body, sizeof(s->last_body), "%s", st->body);
	copy_header(c, "Content-Type", s->last_content_type, sizeof(s->last_content_type));
	status = get ? s->canned_get_status : s->canned_post_status;
	snprintf(body, sizeof(body), "%s", get ? s->canned_get : s->canned_post);
	pthread_mutex_unlock(&s->mu);
	if (!status)
		return reply(c, 404, "{\"error\":\"not_found\",\"message\":\"no route\"}", NULL, NULL);
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result route(struct engine_server *s, struct MHD_Connection *c, const char *url,
			     const char *method, struct conn *st)
{
	char loc[256];
	int port = 0;
	if (strcmp(url, API "/ok") == 0 || strncmp(url, API "/capture", strlen(API "/capture")) == 0)
		return reply(c, 200, "{\"ok\":true}", NULL, NULL);
	if (strncmp(url, API "/flaky/", strlen(API "/flaky/")) == 0)
		return route_flaky(s, c, method, url, url + strlen(API "/flaky/"));
	count_hit(s, method, url);
	if (strcmp(url, API "/post500") == 0)
		return reply(c, 500, "{\"error\":\"internal_error\",\"message\":\"boom\"}", NULL, NULL);
	if (sscanf(url, API "/redirect-to/%d/", &port) == 1) {
		const char *rest = strchr(url + strlen(API "/redirect-to/"), '/');
		snprintf(loc, sizeof(loc), "http://127.0.0.1:%d" API "%s", port, rest);
		return reply(c, 302, "{}", "Location", loc);
	}
	if (strcmp(url, API "/redirect-same") == 0)
		return reply(c, 302, "{}", "Location", API "/ok");
	if (strncmp(url, API "/slow/", strlen(API "/slow/")) == 0) {
		nap_ms(s, atol(url + strlen(API "/slow/")));
		return reply(c, 200, "{\"ok\":true}", NULL, NULL);
	}
	if (strcmp(url, API "/trickle") == 0)
		return reply_callback(c, s, trickle_cb);
	if (strcmp(url, API "/truncated") == 0)
		return reply_callback(c, s, truncated_cb);
	if (strncmp(url, API "/drip/", strlen(API "/drip/")) == 0 ||
	    strncmp(url, API "/big/", strlen(API "/big/")) == 0)
		return reply_hostile(c, s, url);
	if (strcmp(url, API "/malformed") == 0)
		return reply(c, 200, "{not json", NULL, NULL);
	if (strncmp(url, "/dl/", 4) == 0)
		return reply(c, 200, "hello download\n", NULL, NULL);
	if (strcmp(url, "/dl-expired") == 0 || strcmp(url, "/up-expired") == 0)
		return reply(c, 403, "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>", NULL, NULL);
	if (strcmp(url, "/up") == 0) {
		pthread_mutex_lock(&s->mu);
		s->last_put_bytes = st->bytes;
		pthread_mutex_unlock(&s->mu);
		return reply(c, 200, "", NULL, NULL);
	}
	if (strncmp(url, API "/", strlen(API "/")) == 0)
		return reply_canned(s, c, url, method, st);
	return reply(c, 404, "{\"error\":\"not_found\",\"message\":\"no route\"}", NULL, NULL);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
			       const char *method, const char *version, const char *data,
			       size_t *data_size, void **con_cls)
{
	struct engine_server *s = cls;
	struct conn *st = *con_cls;
	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return MHD_NO;
		*con_cls = st;
		record_request(s, c);
		return MHD_YES;
	}
	if (*data_size) {
		size_t have = strlen(st->body), room = sizeof(st->body) - 1 - have;
		size_t n = *data_size < room ? *data_size : room;
		memcpy(st->body + have, data, n);
		st->body[have + n] = '\0';
		st->bytes += *data_size;
		*data_size = 0;
		return MHD_YES;
	}
	return route(s, c, url, method, st);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	free(*con_cls);
	*con_cls = NULL;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct engine_server *s = cls;
	pthread_mutex_lock(&s->mu);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		s->connections++;
		if (++s->open_connections > s->max_open_connections)
			s->max_open_connections = s->open_connections;
	} else {
		s->open_connections--;
	}
	pthread_mutex_unlock(&s->mu);
}

int engine_server_start(struct engine_server *s)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->mu, NULL);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = 0 };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
				     0, NULL, NULL, handler, s, MHD_OPTION_SOCK_ADDR, &sa,
				     MHD_OPTION_NOTIFY_COMPLETED, completed, s,
				     MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				     MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	if (!s->daemon)
		return -1;
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
	s->port = i ? i->port : 0;
	snprintf(s->base, sizeof(s->base), "http://127.0.0.1:%d" API, s->port);
	return s->port ? 0 : -1;
}

void engine_server_stop(struct engine_server *s)
{
	s->stopping = 1;
	if (s->daemon)
		MHD_stop_daemon(s->daemon);
	s->daemon = NULL;
	pthread_mutex_destroy(&s->mu);
}

int engine_server_hits(struct engine_server *s, const char *method, const char *path)
{
	char key[160];
	snprintf(key, sizeof(key), "%s %s", method, path);
	int hits = 0;
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < ENGINE_SERVER_PATHS; i++)
		if (strcmp(s->paths[i].key, key) == 0)
			hits = s->paths[i].hits;
	pthread_mutex_unlock(&s->mu);
	return hits;
}

int engine_server_auth_seen(struct engine_server *s)
{
	pthread_mutex_lock(&s->mu);
	int n = s->auth_seen;
	pthread_mutex_unlock(&s->mu);
	return n;
}
