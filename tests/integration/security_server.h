/* security_server: a small hostile HTTP server on 127.0.0.1 for the security tests. It plays
 * an API that answers whatever the test put in its route table (crafted names, download links
 * and signed URLs pointing at another origin, redirects), and records every request it gets:
 * method, URL and the whole header block, so that a test can prove which requests carried the
 * API key. Two of them on two ports make "the base URL's origin" and "another origin".
 * Ownership: the caller owns the struct; sec_server_stop frees what sec_server_start made. */
#ifndef STENO_TESTS_SECURITY_SERVER_H
#define STENO_TESTS_SECURITY_SERVER_H

#include <pthread.h>
#include <stddef.h>

#define SEC_ROUTES 32
#define SEC_LOG 16384

struct sec_route {
	char method[8];       /* "GET", "PUT"...; "*" any */
	char path[256];       /* exact path, query excluded; a trailing '*' matches a prefix */
	unsigned status;
	char location[512];   /* a Location header when not empty */
	char *body;           /* malloc'ed copy, freed by sec_server_stop */
	char header[256];     /* one more "Name: value" header when not empty */
	int times;            /* > 0: answers that many requests, then lets later routes match */
};

struct sec_server {
	struct MHD_Daemon *daemon;
	int port;
	char origin[64];      /* http://127.0.0.1:PORT */
	pthread_mutex_t mu;
	struct sec_route routes[SEC_ROUTES];
	int nroutes;
	int requests;
	char log[SEC_LOG];    /* "METHOD URL\nName: value\n...\n\n" per request, truncated at SEC_LOG */
	size_t loglen;
};

int sec_server_start(struct sec_server *s);
void sec_server_stop(struct sec_server *s);
/* Adds a route; body is copied (printf-style format). Unmatched requests get 404 {}. */
void sec_server_route(struct sec_server *s, const char *method, const char *path, unsigned status,
		      const char *location, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The route added last also sends `header` ("Name: value", may be NULL) and answers only
 * `times` requests (0: all); later routes of the same path answer the following ones. */
void sec_server_route_limit(struct sec_server *s, const char *header, int times);
/* Requests seen so far, and whether the recorded log contains needle. */
int sec_server_requests(struct sec_server *s);
int sec_server_log_has(struct sec_server *s, const char *needle);

#endif
