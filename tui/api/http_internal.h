#ifndef STENO_API_HTTP_INTERNAL_H
#define STENO_API_HTTP_INTERNAL_H

/* Inside the engine: shared by http.c, http_easy.c and transfer.c only. */

#include <curl/curl.h>

#include "api/http.h"
#include "api/ratelimit.h"
#include "api/trace.h"

#define STENO_HTTP_MAX_BODY (64u * 1024 * 1024)
#define STENO_HTTP_MAX_REDIRECTS 5

struct steno_buf {
	char *data; /* NUL-terminated when non-NULL; owned, freed by steno_buf_free */
	size_t len;
	size_t cap;
};

int steno_buf_append(struct steno_buf *b, const void *p, size_t n);
void steno_buf_reset(struct steno_buf *b);
void steno_buf_free(struct steno_buf *b);

struct steno_req;

/* Hooks of a file transfer (upload/download). Transfers never carry the key, never retry,
 * follow redirects through curl (no key to leak) and use low-speed limits, not a total timeout. */
struct steno_req_ops {
	/* Called once at completion instead of the request's callback; owns nothing afterwards. */
	void (*complete)(struct steno_req *r, const struct steno_http_response *resp,
			 const struct steno_error *err);
	/* Frees r->xfer; `completed` is 0 when the request was cancelled or dropped. */
	void (*destroy)(void *xfer, int completed);
	/* Bytes moved so far, for the trace. */
	size_t (*bytes)(const void *xfer);
};

enum steno_req_state { REQ_QUEUED, REQ_ACTIVE, REQ_DONE };

/* One request. Owned by the engine (http->reqs list) from submission until completion or
 * cancel; freed by req_free in http.c. */
struct steno_req {
	struct steno_http *http;
	struct steno_req *prev, *next;
	uint64_t id;
	enum steno_req_state state;
	CURL *easy;
	char *method;
	char *url;
	char *body;              /* NULL or owned copy */
	size_t body_len;
	struct curl_slist *headers;
	int may_carry_key;       /* 0 for transfers: never add Authorization */
	int limited;             /* an API call (its URL under the base URL): the rate gate's */
	const void *owner;
	long timeout_ms;
	steno_http_done_fn done;
	void *ud;
	void (*drop)(void *ud);
	struct steno_buf resp;
	int tries;
	int redirects;
	int linked;              /* in http->reqs (pending, findable by id/owner) */
	int cancelled;           /* cancelled from inside curl_multi_perform: freed when curl
				  * reports it done, without callback */
	double submit_ms;
	double first_try_ms;     /* API requests: start of the first try (request_deadline) */
	int deadline_hit;        /* a retry was not made: it would pass request_deadline */
	int over_cap;            /* this try's answer passed STENO_HTTP_MAX_BODY */
	double due_ms;           /* queued: earliest start */
	char errbuf[CURL_ERROR_SIZE];
	const struct steno_req_ops *ops; /* NULL for API requests */
	void *xfer;
};

struct steno_http {
	CURLM *multi;
	int offline;
	char *base_url;
	char *api_key;
	long timeout_ms;
	long request_deadline_ms;
	long connect_timeout_ms;
	long low_speed_bytes;
	long low_speed_time_s;
	long long download_max_bytes;
	long download_min_rate;
	struct steno_retry_policy retry;
	struct steno_rate_gate gate;
	struct steno_trace *trace;
	struct steno_req *head, *tail;
	unsigned pending;
	uint64_t next_id;
	uint64_t rng;
	unsigned active;         /* requests in the multi handle */
	unsigned max_active;     /* = max_host_connections: more would wait inside curl with
				  * their timeout already running */
	struct steno_req *doomed; /* cancelled in perform, still in the multi (via next) */
	int in_perform;          /* inside curl_multi_perform: handles must not be removed */
	steno_http_retry_fn on_retry;
	void *on_retry_ud;
	steno_http_trace_fn on_trace;
	void *on_trace_ud;
};

double steno_http_now_ms(void);

/* Creates a request in the queue (due now) with its own easy handle; NULL + err on failure. */
struct steno_req *steno_http_req_new(struct steno_http *http, const char *method, const char *url,
				     struct steno_error *err);
/* Removes a request that has not been started yet (setup failed) and frees it. */
void steno_http_req_discard(struct steno_req *r);

/* True when the request was cancelled during curl_multi_perform (transfers then abort). */
int steno_http_req_cancelled(const struct steno_req *r);

/* http_easy.c: per-try options of an API request; 0 or -1 + err. */
int steno_http_easy_setup(struct steno_req *r, struct steno_error *err);
/* http_easy.c: the common options of every easy handle (timeouts, TLS, protocols, UA). */
int steno_http_easy_common(struct steno_req *r);
/* http_proxy.c: no proxy from the environment for a loopback `url` (CURLOPT_NOPROXY "*");
 * 0 or -1. */
int steno_http_easy_proxy(struct steno_req *r, const char *url);
/* http_easy.c: fills `resp` from a finished try. */
void steno_http_easy_response(struct steno_req *r, struct steno_http_response *resp);
/* http_easy.c: turns a transport error into err (what is known about whether it was sent). */
void steno_http_easy_transport_error(struct steno_req *r, CURLcode rc, struct steno_error *err);
/* http_easy.c: error of a non-2xx answer. */
void steno_http_easy_status_error(const struct steno_http_response *resp, struct steno_error *err);

#endif
