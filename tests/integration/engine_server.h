#ifndef STENO_TESTS_ENGINE_SERVER_H
#define STENO_TESTS_ENGINE_SERVER_H

/* A tiny libmicrohttpd server inside an engine test binary, for what steno-sandbox cannot
 * make on purpose: a redirect to another origin, a body that trickles or stops halfway,
 * Retry-After as an HTTP-date, an expired signed URL. Binds 127.0.0.1 on a free port.
 * Routes (below /api/v1 unless said):
 *   GET  /ok                     200 {"ok":true}
 *   ANY  /flaky/STATUS/N[/MODE]  the first N hits answer STATUS, then 200 {"ok":true};
 *                                MODE for 429/503: secs (Retry-After: 1), date (Retry-After:
 *                                HTTP-date 2 s ahead), body (retry_in_seconds: 1), hour
 *                                (Retry-After: 3600), huge (retry_in_seconds: 1e300), none
 *   POST /post500                500 always
 *   ANY  /redirect-to/PORT/REST  302 to http://127.0.0.1:PORT/api/v1/REST
 *   ANY  /redirect-same          302 to /api/v1/ok (relative)
 *   GET  /slow/MS                answers after MS milliseconds
 *   GET  /trickle                1 byte every 300 ms, 100 bytes announced
 *   GET  /drip/MS/SIZE[/CHUNK]   SIZE bytes announced, one (CHUNK) every MS milliseconds
 *   GET  /big/SIZE[/chunked]     SIZE bytes at full speed (chunked: no length announced)
 *   GET  /truncated              announces 100 bytes, sends 10, closes
 *   GET  /malformed              200 "{not json"
 *   GET  /dl/NAME                200 "hello download\n"
 *   GET  /dl-expired             403 XML error
 *   PUT  /up                     records the body length, 200
 *   PUT  /up-expired             403 XML "Request has expired"
 * Every request's Authorization header is recorded. Ownership: the caller owns the struct;
 * engine_server_stop frees what start allocated. */

#include <pthread.h>
#include <stddef.h>

#define ENGINE_SERVER_PATHS 64

struct engine_server {
	struct MHD_Daemon *daemon;
	int port;
	char base[96];            /* http://127.0.0.1:PORT/api/v1 */
	pthread_mutex_t mu;
	volatile int stopping;
	struct {
		char key[160];        /* "METHOD path" */
		int hits;
	} paths[ENGINE_SERVER_PATHS];
	int requests;
	int connections;          /* TCP connections accepted so far */
	int open_connections;
	int max_open_connections;
	int auth_seen;            /* requests that carried Authorization */
	char last_auth[256];
	char last_content_length[32];
	char last_transfer_encoding[32];
	char last_expect[32];
	char last_user_agent[64];
	char last_accept[64];
	size_t last_put_bytes;
	/* Canned answers for every other path under /api/v1 (set by the test before a call):
	 * GET and DELETE get canned_get, POST/PUT canned_post; status 0 means 404. */
	unsigned canned_get_status;
	char canned_get[8192];
	unsigned canned_post_status;
	char canned_post[8192];
	/* The last request that reached a canned answer. */
	char last_method[16];
	char last_path[256];
	char last_query[512];     /* decoded, "k=v&k=v" in arrival order */
	char last_body[8192];
	char last_content_type[64];
};

int engine_server_start(struct engine_server *s);
void engine_server_stop(struct engine_server *s);
/* Hits of "METHOD /api/v1/path" so far. */
int engine_server_hits(struct engine_server *s, const char *method, const char *path);
int engine_server_auth_seen(struct engine_server *s);

#endif
