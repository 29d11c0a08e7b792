#ifndef STENO_TESTS_KEEPALIVE_SERVER_H
#define STENO_TESTS_KEEPALIVE_SERVER_H

/* A stand-in HTTP/1.1 server on raw sockets, for what libmicrohttpd will not do on purpose:
 * keep a connection alive across a GET, then read a whole POST, act on it and close the
 * connection without a byte of reply — the case where libcurl, on a reused connection,
 * would send the request again by itself. It counts every request it reads, per
 * "METHOD path", on its own side of the wire.
 *
 * Behaviour, per request read (bodies by Content-Length):
 *   GET, DELETE, PUT  200 {"ok":true} (or the canned GET answer), keep-alive
 *   POST              drop_posts > 0: counted, then the connection is closed with no reply
 *                     (drop_posts is decremented); else 201 with the canned POST answer.
 * Binds 127.0.0.1 on a free port; one thread per connection. Ownership: the caller owns the
 * struct; keepalive_server_stop joins the threads and closes every socket. */

#include <pthread.h>

#define KEEPALIVE_SERVER_PATHS 32

struct keepalive_server {
	int port;
	char base[96];              /* http://127.0.0.1:PORT/api/v1 */
	int listen_fd;
	pthread_t acceptor;
	pthread_mutex_t mu;
	volatile int stopping;
	int connections;            /* TCP connections accepted */
	int drop_posts;             /* how many POSTs to drop after reading them */
	struct {
		char path[128];         /* a GET of this path (without query) answers body */
		char body[4096];
	} gets[4];                  /* other GETs, and DELETE and PUT: {"ok":true} */
	char canned_post[4096];     /* "" means {"id":"0123456789abcdef0123456789abcdef"} */
	struct {
		char key[160];          /* "METHOD path" (path without the query) */
		int hits;
	} paths[KEEPALIVE_SERVER_PATHS];
	char last_post_body[4096];
};

int keepalive_server_start(struct keepalive_server *s);
void keepalive_server_stop(struct keepalive_server *s);
/* Requests read so far for "METHOD /api/v1/..." (the path as sent, without the query). */
/* Sets the answer to GETs of path (up to 4 paths). */
void keepalive_server_route(struct keepalive_server *s, const char *path, const char *body);
int keepalive_server_hits(struct keepalive_server *s, const char *method, const char *path);

#endif
