#ifndef STENO_API_HTTP_H
#define STENO_API_HTTP_H

/* The HTTP engine: one curl multi handle for the program's life, no threads. Submitting a
 * request returns at once; the caller's loop blocks in steno_http_poll (which can also watch
 * other fds, e.g. stdin) and calls steno_http_perform, which runs transfers and calls the
 * completion callbacks. Retries of idempotent requests (and of any request answered 429),
 * the client rate gate and redirects are timers inside the engine: steno_http_timeout_ms
 * says when to come back. A server's Retry-After is honoured up to retry_max_wait; when it
 * asks for more, an API request does not wait past its own timeout counted from its
 * submission: it fails at once with the server's 429 (or, never started, STENO_ERR_TIMEOUT
 * naming the wait).
 *
 * Security rules kept here:
 * - the API key goes only to URLs of base_url's origin (scheme, host, port); redirects are
 *   followed by the engine itself and carry the key only when they stay on that origin;
 * - upload (signedUrl) and download (download_link) requests never carry the key;
 * - TLS verification is always on; there is no way to turn it off.
 *
 * The program's main must ignore SIGPIPE (signal(SIGPIPE, SIG_IGN)) before using the engine:
 * the engine sets CURLOPT_NOSIGNAL, so nothing else protects against a peer closing a socket.
 * Not thread-safe: use one engine from one thread. */

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "api/retry.h"

struct steno_http; /* opaque; created by steno_http_new, freed by steno_http_free */

struct steno_http_config {
	const char *base_url;       /* required: the API's base, e.g. http://127.0.0.1:8080/api/v1 */
	const char *api_key;        /* may be NULL: then no Authorization header at all */
	long timeout_ms;            /* total per API request try; 0: 30000 */
	long request_deadline_ms;   /* an API request, all its tries and waits between them,
				     * from its first try; 0: twice timeout_ms, 60 s at least */
	long connect_timeout_ms;    /* 0: 10000 */
	long low_speed_bytes;       /* uploads/downloads: abort when slower than this ... (0: 1024) */
	long low_speed_time_s;      /* ... for this many seconds (0: 30); a download also fails when
				     * it takes longer than this plus its size at that speed */
	long long download_max_bytes; /* a bigger download fails (0: 4 GiB) */
	long download_min_rate;     /* downloads: after low_speed_time_s, one that averages more
				     * than low_speed_bytes but less than this (B/s) fails: a
				     * drip above the low-speed limit is bounded too (0: 16384) */
	long max_host_connections;  /* 0: 6 */
	long retry_max_wait_ms;     /* longest wait a Retry-After obtains (gate and retries); 0: 30000 */
	struct steno_retry_policy retry; /* max_tries 0: steno_retry_policy_default */
	const char *trace_path;     /* NULL: no trace */
};

/* What arrived. Everything is owned by the engine and valid only during the callback. */
struct steno_http_response {
	long status;              /* 0 when no answer arrived */
	const char *body;         /* NUL-terminated (the NUL is not counted in body_len) */
	size_t body_len;
	const char *content_type; /* NULL when absent */
	double retry_after_s;     /* Retry-After header or body retry_in_seconds, capped at the
				   * configured retry_max_wait; < 0 if neither */
	double retry_after_asked_s; /* the same as the server said it, uncapped */
	int tries;                /* tries made, >= 1 */
	long ms;                  /* from submission to completion */
	const char *url;          /* the URL of the last try (after redirects) */
};

/* Completion callback. `err` is NULL exactly when the answer is a 2xx; otherwise it describes
 * the failure (kind STENO_ERR_HTTP with http_status and retry_after_s for 4xx/5xx, whose body
 * is still in `resp`). `resp` is never NULL. Callbacks may submit and cancel requests, but
 * must not call steno_http_free. A cancelled request's callback is never called. */
typedef void (*steno_http_done_fn)(void *ud, const struct steno_http_response *resp,
				   const struct steno_error *err);

struct steno_http_request {
	const char *method;      /* "GET", "POST", "DELETE", "PUT" */
	const char *url;         /* absolute URL (see steno_http_base_url / api/url.h builder) */
	const char *body;        /* JSON body or NULL; copied */
	size_t body_len;
	const void *owner;       /* tag for steno_http_cancel_owner; may be NULL */
	long timeout_ms;         /* 0: the configured default */
	steno_http_done_fn done; /* required */
	void *ud;
	/* Called instead of `done` when the request is cancelled or dropped by steno_http_free,
	 * so that `ud` can be freed; may be NULL. */
	void (*drop)(void *ud);
};

int steno_http_new(const struct steno_http_config *cfg, struct steno_http **out,
		   struct steno_error *err);
/* Drops every pending request without calling its callback (partial downloads removed). */
void steno_http_free(struct steno_http *http);

const char *steno_http_base_url(const struct steno_http *http);

/* Queues a request; it starts on the next steno_http_perform. *id (may be NULL) gets a
 * handle for steno_http_cancel, never 0. */
int steno_http_submit(struct steno_http *http, const struct steno_http_request *req,
		      uint64_t *id, struct steno_error *err);

/* Blocks until a transfer can progress, one of `fds` is ready (revents are filled in, with
 * POLLIN/POLLOUT/POLLPRI), steno_http_wakeup is called, or `max_ms` passes (-1: no limit but
 * the engine's own timers). At most 16 fds are watched. Returns the number of ready `fds`,
 * or -1 on failure. Never sleeps longer than steno_http_timeout_ms. */
int steno_http_poll(struct steno_http *http, struct pollfd *fds, unsigned nfds, long max_ms);

/* Runs transfers, starts due requests, and calls the callbacks of finished ones.
 * Returns the number of requests still pending (running, waiting for a retry or the gate). */
unsigned steno_http_perform(struct steno_http *http);

/* Milliseconds until the engine needs steno_http_perform again: 0 now, -1 nothing pending. */
long steno_http_timeout_ms(struct steno_http *http);

/* Requests submitted and not yet completed or cancelled. */
unsigned steno_http_pending(const struct steno_http *http);

/* Cancels one request (0 when found, -1 when unknown or already complete). Safe from any
 * callback, including a transfer's progress callback. */
int steno_http_cancel(struct steno_http *http, uint64_t id);
/* Cancels every pending request submitted with `owner`; returns how many. */
unsigned steno_http_cancel_owner(struct steno_http *http, const void *owner);

/* Called each time a request is scheduled for another try (for a status line such as
 * "retrying in 2 s", and for tests): `resp` describes the try that failed, `delay_ms` is the
 * wait before the next one. NULL fn removes the listener. */
typedef void (*steno_http_retry_fn)(void *ud, const struct steno_http_response *resp,
				    long delay_ms);
void steno_http_set_retry_listener(struct steno_http *http, steno_http_retry_fn fn, void *ud);

/* Milliseconds left before the rate gate lets requests start again after a 429 (0: not
 * blocked); *asked_s (may be NULL) gets what the server asked for, uncapped (< 0: nothing
 * said). For a status bar that counts down. */
long steno_http_rate_wait_ms(struct steno_http *http, double *asked_s);
/* Ends the rate gate's block and makes every request waiting for a retry or the gate due now
 * (the user's "retry now"). */
void steno_http_retry_now(struct steno_http *http);
/* Called once for every completed request, whoever submitted it, with the same text as a
 * trace file line without its timestamp: method, redacted URL, status or error, bytes, ms,
 * retries. The key is never in it. For a log pane. NULL fn removes the listener. */
typedef void (*steno_http_trace_fn)(void *ud, const char *line);
void steno_http_set_trace_listener(struct steno_http *http, steno_http_trace_fn fn, void *ud);

/* True when the URL's host is loopback (localhost, 127.0.0.0/8, [::1]): such a URL never goes
 * through a proxy of the environment (http_proxy, ALL_PROXY...). */
int steno_url_is_loopback(const char *url);
/* 1 with a message in out when `base_url` is plain http:// to another host than loopback and a
 * proxy variable that applies to it is set (the key would go in clear through the proxy): for
 * the caller to warn once. 0 otherwise. */
int steno_http_proxy_warning(const char *base_url, char *out, size_t n);

/* Makes a steno_http_poll in progress (or the next one) return at once. */
void steno_http_wakeup(struct steno_http *http);

/* Convenience for headless use and tests: poll + perform until nothing is pending or
 * `max_ms` passes. Returns 0 when idle, -1 on timeout (requests are left pending). */
int steno_http_run(struct steno_http *http, long max_ms);

#endif
