#include "config.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "security_server.h"

static void log_append(struct sec_server *s, const char *a, const char *b, const char *c)
{
	int n = snprintf(s->log + s->loglen, SEC_LOG - s->loglen, "%s%s%s\n", a, b, c);

	if (n > 0)
		s->loglen = s->loglen + (size_t)n < SEC_LOG ? s->loglen + (size_t)n : SEC_LOG - 1;
}

static enum MHD_Result log_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind;
	log_append(cls, key, ": ", value ? value : "");
	return MHD_YES;
}

static void record(struct sec_server *s, struct MHD_Connection *c, const char *method, const char *url)
{
	pthread_mutex_lock(&s->mu);
	s->requests++;
	log_append(s, method, " ", url);
	MHD_get_connection_values(c, MHD_HEADER_KIND, log_header, s);
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, log_header, s);
	log_append(s, "", "", "");
	pthread_mutex_unlock(&s->mu);
}

static int route_matches(const struct sec_route *r, const char *method, const char *url)
{
	size_t n = strlen(r->path);

	if (strcmp(r->method, "*") != 0 && strcmp(r->method, method) != 0)
		return 0;
	if (n && r->path[n - 1] == '*')
		return strncmp(url, r->path, n - 1) == 0;
	return strcmp(url, r->path) == 0;
}

static enum MHD_Result answer(struct sec_server *s, struct MHD_Connection *c, const char *method,
			      const char *url)
{
	unsigned status = 404;
	const char *body = "{}";
	char location[512] = "", header[256] = "";

	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < s->nroutes; i++) {
		struct sec_route *rt = &s->routes[i];
		if (route_matches(rt, method, url) && rt->times >= 0) {
			status = rt->status;
			body = rt->body;
			snprintf(location, sizeof location, "%s", rt->location);
			snprintf(header, sizeof header, "%s", rt->header);
			if (rt->times > 0 && --rt->times == 0)
				rt->times = -1; /* used up */
			break;
		}
	}
	/* Routes are only added before the requests that use them: the body stays valid. */
	pthread_mutex_unlock(&s->mu);
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)(uintptr_t)body,
								 MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	if (location[0])
		MHD_add_response_header(r, "Location", location);
	char *colon = strchr(header, ':');
	if (colon) {
		*colon = '\0';
		MHD_add_response_header(r, header, colon + 1 + strspn(colon + 1, " "));
	}
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			       const char *version, const char *data, size_t *data_size, void **con_cls)
{
	static int started;

	(void)version;
	(void)data;
	if (!*con_cls) {
		*con_cls = &started;
		record(cls, c, method, url);
		return MHD_YES;
	}
	if (*data_size) {
		*data_size = 0; /* bodies are not kept: only the headers matter here */
		return MHD_YES;
	}
	return answer(cls, c, method, url);
}

int sec_server_start(struct sec_server *s)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};

	memset(s, 0, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL,
				     NULL, handler, s, MHD_OPTION_SOCK_ADDR, &sa,
				     MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	if (!s->daemon)
		return -1;
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
	s->port = i ? i->port : 0;
	snprintf(s->origin, sizeof s->origin, "http://127.0.0.1:%d", s->port);
	return s->port ? 0 : -1;
}

void sec_server_stop(struct sec_server *s)
{
	if (s->daemon)
		MHD_stop_daemon(s->daemon);
	s->daemon = NULL;
	for (int i = 0; i < s->nroutes; i++)
		free(s->routes[i].body);
	s->nroutes = 0;
	pthread_mutex_destroy(&s->mu);
}

void sec_server_route(struct sec_server *s, const char *method, const char *path, unsigned status,
		      const char *location, const char *fmt, ...)
{
	va_list ap;
	char *body = NULL;

	va_start(ap, fmt);
	if (vasprintf(&body, fmt, ap) < 0)
		body = NULL;
	va_end(ap);
	pthread_mutex_lock(&s->mu);
	if (body && s->nroutes < SEC_ROUTES) {
		struct sec_route *r = &s->routes[s->nroutes++];
		snprintf(r->method, sizeof r->method, "%s", method);
		snprintf(r->path, sizeof r->path, "%s", path);
		snprintf(r->location, sizeof r->location, "%s", location ? location : "");
		r->status = status;
		r->body = body;
		body = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	free(body);
}

int sec_server_requests(struct sec_server *s)
{
	pthread_mutex_lock(&s->mu);
	int n = s->requests;
	pthread_mutex_unlock(&s->mu);
	return n;
}

int sec_server_log_has(struct sec_server *s, const char *needle)
{
	pthread_mutex_lock(&s->mu);
	int has = strstr(s->log, needle) != NULL;
	pthread_mutex_unlock(&s->mu);
	return has;
}

void sec_server_route_limit(struct sec_server *s, const char *header, int times)
{
	pthread_mutex_lock(&s->mu);
	if (s->nroutes > 0) {
		struct sec_route *r = &s->routes[s->nroutes - 1];
		snprintf(r->header, sizeof r->header, "%s", header ? header : "");
		r->times = times;
	}
	pthread_mutex_unlock(&s->mu);
}
