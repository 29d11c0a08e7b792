#include "config.h"
#include "api/http.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/http_internal.h"
#include "api/url.h"

double steno_http_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static double http_rand01(struct steno_http *h)
{
	/* xorshift64*: jitter only needs to be different between clients, not secret. */
	h->rng ^= h->rng >> 12;
	h->rng ^= h->rng << 25;
	h->rng ^= h->rng >> 27;
	return (double)((h->rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static void config_defaults(struct steno_http *h, const struct steno_http_config *cfg)
{
	h->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 30000;
	h->offline = cfg->offline;
	/* default: room for a retry after a whole timeout, and for a few quick retries when the
	 * timeout is short */
	h->request_deadline_ms = cfg->request_deadline_ms > 0 ? cfg->request_deadline_ms
			       : 2 * h->timeout_ms > 60000 ? 2 * h->timeout_ms : 60000;
	h->connect_timeout_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : 10000;
	/* 1 B/s never tripped a limit of 1 B/s: a drip must fall below it */
	h->low_speed_bytes = cfg->low_speed_bytes > 0 ? cfg->low_speed_bytes : 1024;
	h->download_max_bytes = cfg->download_max_bytes > 0 ? cfg->download_max_bytes : 4LL << 30;
	h->download_min_rate = cfg->download_min_rate > 0 ? cfg->download_min_rate : 16384;
	h->low_speed_time_s = cfg->low_speed_time_s > 0 ? cfg->low_speed_time_s : 30;
	h->retry = cfg->retry;
	if (h->retry.max_tries <= 0) {
		steno_retry_policy_default(&h->retry);
		if (cfg->retry_max_wait_ms > 0)
			h->retry.max_delay_ms = cfg->retry_max_wait_ms;
	}
	h->rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid() ^
		 (uint64_t)(steno_http_now_ms() * 1000);
	if (!h->rng)
		h->rng = 1;
	steno_rate_gate_init(&h->gate);
	h->gate.max_block_ms = (double)h->retry.max_delay_ms;
}

static int http_open_trace(struct steno_http *h, const char *path, struct steno_error *err)
{
	if (!path)
		return 0;
	if (steno_trace_open(path, &h->trace, err) != 0)
		return -1;
	if (steno_trace_set_secret(h->trace, h->api_key) != 0)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	return 0;
}

int steno_http_new(const struct steno_http_config *cfg, struct steno_http **out,
		   struct steno_error *err)
{
	*out = NULL;
	if (!cfg || !cfg->base_url || !steno_url_same_origin(cfg->base_url, cfg->base_url))
		return steno_error_invalid(err, "base_url", "the base URL must be an http(s) URL");
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return steno_error_set(err, STENO_ERR_NETWORK, "cannot initialise libcurl");
	struct steno_http *h = calloc(1, sizeof(*h));
	if (!h) {
		curl_global_cleanup();
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	config_defaults(h, cfg);
	h->multi = curl_multi_init();
	h->base_url = strdup(cfg->base_url);
	h->api_key = cfg->api_key ? strdup(cfg->api_key) : NULL;
	if (!h->multi || !h->base_url || (cfg->api_key && !h->api_key)) {
		steno_http_free(h);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	if (http_open_trace(h, cfg->trace_path, err) != 0) {
		steno_http_free(h);
		return -1;
	}
	long cap = cfg->max_host_connections > 0 ? cfg->max_host_connections : 6;
	h->max_active = (unsigned)cap;
	curl_multi_setopt(h->multi, CURLMOPT_MAX_HOST_CONNECTIONS, cap);
	curl_multi_setopt(h->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	*out = h;
	return 0;
}

static void req_unlink(struct steno_req *r)
{
	struct steno_http *h = r->http;
	if (!r->linked)
		return;
	r->linked = 0;
	if (r->prev)
		r->prev->next = r->next;
	else if (h->head == r)
		h->head = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else if (h->tail == r)
		h->tail = r->prev;
	r->prev = r->next = NULL;
	if (h->pending)
		h->pending--;
}

/* Takes a running request out of the multi handle. */
static void req_detach(struct steno_req *r)
{
	if (r->state != REQ_ACTIVE)
		return;
	curl_multi_remove_handle(r->http->multi, r->easy);
	r->http->active--;
	r->state = REQ_DONE;
}

/* Frees a request that is already unlinked. `completed` tells the transfer hooks whether it
 * ended normally (keep the file) or was dropped (remove the partial file). */
static void req_free(struct steno_req *r, int completed)
{
	req_detach(r);
	if (r->ops && r->ops->destroy)
		r->ops->destroy(r->xfer, completed);
	else if (!completed && r->drop)
		r->drop(r->ud);
	curl_easy_cleanup(r->easy);
	curl_slist_free_all(r->headers);
	if (r->body)
		memset(r->body, 0, r->body_len);
	free(r->body);
	free(r->method);
	free(r->url);
	steno_buf_free(&r->resp);
	free(r);
}

void steno_http_free(struct steno_http *h)
{
	if (!h)
		return;
	while (h->head) {
		struct steno_req *r = h->head;
		req_unlink(r);
		req_free(r, 0);
	}
	while (h->doomed) {
		struct steno_req *r = h->doomed;
		h->doomed = r->next;
		req_free(r, 0);
	}
	if (h->multi)
		curl_multi_cleanup(h->multi);
	steno_trace_close(h->trace);
	if (h->api_key)
		memset(h->api_key, 0, strlen(h->api_key));
	free(h->api_key);
	free(h->base_url);
	free(h);
	curl_global_cleanup();
}

const char *steno_http_base_url(const struct steno_http *http)
{
	return http->base_url;
}

struct steno_req *steno_http_req_new(struct steno_http *h, const char *method, const char *url,
				     struct steno_error *err)
{
	if (!method || !url || !steno_url_same_origin(url, url)) {
		/* request URLs are built from the checked base URL, or come from the server (next
		 * links, download links): a bad one is the server's failure, not a usage error */
		steno_error_set(err, STENO_ERR_PARSE, "refused a request to a URL that is not a plain "
				"http(s) URL (control characters or another scheme)");
		return NULL;
	}
	if (h->offline) {   /* the one door of every request and transfer: nothing goes out */
		if (err) {
			steno_error_set(err, STENO_ERR_NETWORK,
					"offline: nothing is sent (--offline, or offline in the config)");
			snprintf(err->code, sizeof err->code, "%s", STENO_CODE_OFFLINE);
		}
		return NULL;
	}
	struct steno_req *r = calloc(1, sizeof(*r));
	if (r) {
		r->http = h;
		/* an API call, which the server's rate limit covers (not the signed URLs of
		 * uploads and of transcripts' content): only those wait for the rate gate and
		 * count in it */
		r->limited = steno_url_under(h->base_url, url);
	}
	if (!r || !(r->method = strdup(method)) || !(r->url = strdup(url)) ||
	    !(r->easy = curl_easy_init()) || steno_http_easy_common(r) != 0) {
		if (r) {
			curl_easy_cleanup(r->easy);
			free(r->method);
			free(r->url);
			free(r);
		}
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	r->id = ++h->next_id;
	r->state = REQ_QUEUED;
	r->submit_ms = r->due_ms = steno_http_now_ms();
	r->prev = h->tail;
	if (h->tail)
		h->tail->next = r;
	else
		h->head = r;
	h->tail = r;
	h->pending++;
	r->linked = 1;
	return r;
}

void steno_http_req_discard(struct steno_req *r)
{
	r->drop = NULL; /* the submitter still owns ud: submission failed */
	req_unlink(r);
	req_free(r, 0);
}

int steno_http_submit(struct steno_http *h, const struct steno_http_request *req, uint64_t *id,
		      struct steno_error *err)
{
	if (!req || !req->done)
		return steno_error_invalid(err, "done", "a completion callback is required");
	struct steno_req *r = steno_http_req_new(h, req->method, req->url, err);
	if (!r)
		return -1;
	r->may_carry_key = 1;
	r->owner = req->owner;
	r->timeout_ms = req->timeout_ms;
	r->done = req->done;
	r->ud = req->ud;
	r->drop = req->drop;
	if (req->body) {
		r->body = malloc(req->body_len + 1);
		if (!r->body) {
			steno_http_req_discard(r);
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		}
		memcpy(r->body, req->body, req->body_len);
		r->body[req->body_len] = '\0';
		r->body_len = req->body_len;
	}
	if (steno_http_easy_setup(r, err) != 0) {
		steno_http_req_discard(r);
		return -1;
	}
	if (id)
		*id = r->id;
	return 0;
}

/* The latest moment an API request may still start a try after waiting for the rate limit:
 * its timeout counted from its submission. Transfers have no such deadline. */
static double req_wait_deadline(const struct steno_req *r)
{
	return r->submit_ms + (double)(r->timeout_ms ? r->timeout_ms : r->http->timeout_ms);
}

static void req_give_up_waiting(struct steno_req *r, long wait);

/* An API request's try may last its timeout, but no later than request_deadline from the
 * first try: a silent server costs one deadline, not every try's timeout. */
static void req_try_timeout(struct steno_req *r, double now)
{
	long t = r->timeout_ms ? r->timeout_ms : r->http->timeout_ms;
	if (r->first_try_ms == 0)
		r->first_try_ms = now;
	double left = r->first_try_ms + (double)r->http->request_deadline_ms - now;
	if (left < (double)t) {
		t = left > 1 ? (long)left : 1;
		r->deadline_hit = 1;   /* a timeout of this try is the deadline's */
	}
	curl_easy_setopt(r->easy, CURLOPT_TIMEOUT_MS, t);
}

/* Starts queued requests whose time has come, in submission order, as the gate allows.
 * While a server asks for a longer wait than steno honours, a request that could only
 * start after its deadline fails instead (its callback may change the list: the walk
 * starts again). */
static void http_start_due(struct steno_http *h)
{
	double now = steno_http_now_ms();
again:
	for (struct steno_req *r = h->head; r; r = r->next) {
		if (h->active >= h->max_active)
			return; /* the rest waits for a free slot, in order */
		if (r->state != REQ_QUEUED || r->due_ms > now)
			continue;
		long wait = r->limited ? steno_rate_gate_wait_ms(&h->gate, now) : 0;
		if (wait > 0 && !r->ops && h->gate.asked_s * 1000.0 > h->gate.max_block_ms &&
		    now + (double)wait > req_wait_deadline(r)) {
			req_give_up_waiting(r, wait);
			goto again;
		}
		if (wait > 0) {
			r->due_ms = now + (double)wait;
			continue;
		}
		if (r->limited)
			steno_rate_gate_start(&h->gate, now);
		steno_buf_reset(&r->resp);
		r->errbuf[0] = '\0';
		r->over_cap = 0;
		r->tries++;
		if (!r->ops)
			req_try_timeout(r, now);
		if (curl_multi_add_handle(h->multi, r->easy) == CURLM_OK) {
			r->state = REQ_ACTIVE;
			h->active++;
		} else {
			r->due_ms = now + 100; /* try again shortly rather than lose it */
		}
	}
}

static void http_trace(struct steno_req *r, const struct steno_http_response *resp,
		       const struct steno_error *err)
{
	struct steno_trace_entry e = {
		.method = r->method,
		.url = r->url,
		.status = resp->status,
		.error = err && resp->status == 0 ? steno_error_kind_name(err->kind) : NULL,
		.bytes = r->ops && r->ops->bytes ? r->ops->bytes(r->xfer) : resp->body_len,
		.ms = resp->ms,
		.retries = r->tries > 0 ? r->tries - 1 : 0,
	};
	steno_trace_write(r->http->trace, &e);
	if (r->http->on_trace) {
		char line[1024];
		steno_trace_format(&e, r->http->api_key, line, sizeof line);
		r->http->on_trace(r->http->on_trace_ud, line);
	}
}

void steno_http_set_trace_listener(struct steno_http *h, steno_http_trace_fn fn, void *ud)
{
	h->on_trace = fn;
	h->on_trace_ud = fn ? ud : NULL;
}

static enum steno_retry_outcome outcome_of(CURLcode rc)
{
	switch (rc) {
	case CURLE_OK: return STENO_OUTCOME_HTTP;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT: return STENO_OUTCOME_CONNECT;
	case CURLE_OPERATION_TIMEDOUT: return STENO_OUTCOME_TIMEOUT;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM: return STENO_OUTCOME_NETWORK;
	default: return STENO_OUTCOME_OTHER;
	}
}

/* Follows a 3xx of an API request; returns 1 when the request was re-queued. */
static int req_redirect(struct steno_req *r, long status)
{
	char *loc = NULL;
	if (r->ops || status < 300 || status > 399 || status == 304 ||
	    r->redirects >= STENO_HTTP_MAX_REDIRECTS ||
	    curl_easy_getinfo(r->easy, CURLINFO_REDIRECT_URL, &loc) != CURLE_OK || !loc)
		return 0;
	char *url = strdup(loc);
	if (!url)
		return 0;
	if ((status == 303 || ((status == 301 || status == 302) && strcmp(r->method, "POST") == 0)) &&
	    strcmp(r->method, "GET") != 0) {
		char *get = strdup("GET");
		if (!get) {
			free(url);
			return 0;
		}
		free(r->method);
		r->method = get;
		free(r->body);
		r->body = NULL;
		r->body_len = 0;
	}
	free(r->url);
	r->url = url;
	r->redirects++;
	r->tries--; /* a redirect is not a retry */
	if (steno_http_easy_setup(r, NULL) != 0)
		return 0;
	r->state = REQ_QUEUED;
	r->due_ms = steno_http_now_ms();
	return 1;
}

static int req_maybe_retry(struct steno_req *r, CURLcode rc, const struct steno_http_response *resp)
{
	struct steno_http *h = r->http;
	if (r->ops || !steno_retry_should(&h->retry, r->method, outcome_of(rc), resp->status, r->tries))
		return 0;
	long delay = steno_retry_delay_ms(&h->retry, r->tries, http_rand01(h), resp->retry_after_s);
	double now = steno_http_now_ms();
	/* the server wants longer than steno ever waits, and the capped wait would outlast the
	 * request's own timeout: fail now, with the 429 */
	if (resp->status == 429 && resp->retry_after_asked_s > resp->retry_after_s &&
	    now + (double)delay > req_wait_deadline(r))
		return 0;
	/* no time left for another try within request_deadline */
	if (r->first_try_ms > 0 &&
	    now + (double)delay + 1 >= r->first_try_ms + (double)h->request_deadline_ms) {
		r->deadline_hit = 1;
		return 0;
	}
	r->state = REQ_QUEUED;
	r->due_ms = now + (double)delay;
	if (h->on_retry)
		h->on_retry(h->on_retry_ud, resp, delay);
	return 1;
}

void steno_http_set_retry_listener(struct steno_http *h, steno_http_retry_fn fn, void *ud)
{
	h->on_retry = fn;
	h->on_retry_ud = ud;
}

static void req_complete(struct steno_req *r, const struct steno_http_response *resp,
			 const struct steno_error *e);

/* A try ended: retry, redirect, or complete (callback, trace, free). */
static void req_finished(struct steno_req *r, CURLcode rc)
{
	struct steno_http *h = r->http;
	struct steno_http_response resp;
	struct steno_error err;
	if (r->cancelled) {
		struct steno_req **pp = &h->doomed;
		while (*pp && *pp != r)
			pp = &(*pp)->next;
		if (*pp)
			*pp = r->next;
		req_free(r, 0); /* removes the handle: still REQ_ACTIVE */
		return;
	}
	req_detach(r);
	steno_http_easy_response(r, &resp);
	if (r->limited && rc == CURLE_OK && resp.status == 429)
		steno_rate_gate_on_429(&h->gate, steno_http_now_ms(), resp.retry_after_asked_s);
	else if (r->limited && rc == CURLE_OK)
		steno_rate_gate_on_success(&h->gate);
	if ((rc == CURLE_OK && req_redirect(r, resp.status)) || req_maybe_retry(r, rc, &resp))
		return;
	steno_error_clear(&err);
	if (rc != CURLE_OK)
		steno_http_easy_transport_error(r, rc, &err);
	else if (resp.status < 200 || resp.status > 299)
		steno_http_easy_status_error(&resp, &err);
	if (r->deadline_hit && err.kind != STENO_ERR_NONE) {
		size_t n = strlen(err.message);
		snprintf(err.message + n, sizeof err.message - n, " (gave up after %d tries in %.1f s: "
			 "request_deadline is %.4g s)", r->tries,
			 (steno_http_now_ms() - r->first_try_ms) / 1000.0,
			 (double)r->http->request_deadline_ms / 1000.0);
	}
	req_complete(r, &resp, err.kind == STENO_ERR_NONE ? NULL : &err);
}

/* Trace, callback, free: the end of every request that was not cancelled. */
static void req_complete(struct steno_req *r, const struct steno_http_response *resp,
			 const struct steno_error *e)
{
	http_trace(r, resp, e);
	req_unlink(r); /* callbacks may cancel by id: this one is no longer findable */
	if (r->ops)
		r->ops->complete(r, resp, e);
	else
		r->done(r->ud, resp, e);
	req_free(r, 1);
}

/* A queued API request that the rate limit would keep past its deadline. */
static void req_give_up_waiting(struct steno_req *r, long wait)
{
	struct steno_http_response resp;
	struct steno_error err;
	memset(&resp, 0, sizeof resp);
	resp.body = "";
	resp.retry_after_s = resp.retry_after_asked_s = -1;
	resp.tries = r->tries;
	resp.ms = (long)(steno_http_now_ms() - r->submit_ms);
	resp.url = r->url;
	steno_error_clear(&err);
	double asked = r->http->gate.asked_s;
	long limit = (r->timeout_ms ? r->timeout_ms : r->http->timeout_ms) / 1000;
	steno_error_set(&err, STENO_ERR_TIMEOUT,
			"rate limited by the server: it asked to wait %.0f s (steno waits at most "
			"%ld s, retry_max_wait), more than this request's timeout (%ld s)",
			asked < 1e9 ? asked : 1e9, (long)(r->http->gate.max_block_ms / 1000), limit);
	snprintf(err.code, sizeof err.code, "rate_limited");
	err.retry_after_s = (double)wait / 1000.0;
	req_complete(r, &resp, &err);
}

long steno_http_rate_wait_ms(struct steno_http *h, double *asked_s)
{
	long w = steno_rate_gate_blocked_ms(&h->gate, steno_http_now_ms());
	if (asked_s)
		*asked_s = w > 0 ? h->gate.asked_s : -1;
	return w;
}

void steno_http_retry_now(struct steno_http *h)
{
	double now = steno_http_now_ms();
	steno_rate_gate_lift(&h->gate, now);
	for (struct steno_req *r = h->head; r; r = r->next)
		if (r->state == REQ_QUEUED && r->due_ms > now)
			r->due_ms = now;
}

unsigned steno_http_perform(struct steno_http *h)
{
	int running = 0;
	http_start_due(h);
	h->in_perform = 1;
	curl_multi_perform(h->multi, &running);
	h->in_perform = 0;
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(h->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		struct steno_req *r = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
		if (r)
			req_finished(r, msg->data.result);
	}
	http_start_due(h);
	return h->pending;
}

long steno_http_timeout_ms(struct steno_http *h)
{
	if (!h->pending)
		return -1;
	long t = -1;
	curl_multi_timeout(h->multi, &t);
	double now = steno_http_now_ms();
	/* With every slot taken, queued requests wait for curl's activity, not for a timer. */
	for (struct steno_req *r = h->active < h->max_active ? h->head : NULL; r; r = r->next) {
		if (r->state != REQ_QUEUED)
			continue;
		long d = r->due_ms <= now ? 0 : (long)(r->due_ms - now) + 1;
		if (t < 0 || d < t)
			t = d;
	}
	/* Active transfers with no curl timer still need a wakeup now and then. */
	return t < 0 ? 1000 : t;
}

unsigned steno_http_pending(const struct steno_http *h)
{
	return h->pending;
}

int steno_http_poll(struct steno_http *h, struct pollfd *fds, unsigned nfds, long max_ms)
{
	struct curl_waitfd wfd[16];
	if (nfds > 16)
		nfds = 16;
	for (unsigned i = 0; i < nfds; i++) {
		wfd[i].fd = fds[i].fd;
		wfd[i].events = (short)(((fds[i].events & POLLIN) ? CURL_WAIT_POLLIN : 0) |
					((fds[i].events & POLLPRI) ? CURL_WAIT_POLLPRI : 0) |
					((fds[i].events & POLLOUT) ? CURL_WAIT_POLLOUT : 0));
		wfd[i].revents = 0;
	}
	long t = steno_http_timeout_ms(h);
	if (t < 0 || (max_ms >= 0 && max_ms < t))
		t = max_ms;
	if (t < 0 || t > 1000000)
		t = 1000000;
	if (curl_multi_poll(h->multi, nfds ? wfd : NULL, nfds, (int)t, NULL) != CURLM_OK)
		return -1;
	int ready = 0;
	for (unsigned i = 0; i < nfds; i++) {
		short re = wfd[i].revents;
		fds[i].revents = (short)(((re & CURL_WAIT_POLLIN) ? POLLIN : 0) |
					 ((re & CURL_WAIT_POLLPRI) ? POLLPRI : 0) |
					 ((re & CURL_WAIT_POLLOUT) ? POLLOUT : 0));
		ready += fds[i].revents != 0;
	}
	return ready;
}

/* Cancels a linked request. Inside curl_multi_perform (a progress callback) the handle
 * cannot be removed: the request is only marked, its transfer aborts from the progress
 * callback, and req_finished frees it. */
static void req_cancel(struct steno_req *r)
{
	req_unlink(r);
	if (r->http->in_perform && r->state == REQ_ACTIVE) {
		r->cancelled = 1;
		r->next = r->http->doomed;
		r->http->doomed = r;
		return;
	}
	req_free(r, 0);
}

int steno_http_req_cancelled(const struct steno_req *r)
{
	return r->cancelled;
}

int steno_http_cancel(struct steno_http *h, uint64_t id)
{
	for (struct steno_req *r = h->head; r; r = r->next) {
		if (r->id == id) {
			req_cancel(r);
			return 0;
		}
	}
	return -1;
}

unsigned steno_http_cancel_owner(struct steno_http *h, const void *owner)
{
	unsigned n = 0;
	struct steno_req *r = h->head;
	while (r) {
		struct steno_req *next = r->next;
		if (owner && r->owner == owner) {
			req_cancel(r);
			n++;
		}
		r = next;
	}
	return n;
}

void steno_http_wakeup(struct steno_http *h)
{
	curl_multi_wakeup(h->multi);
}

int steno_http_run(struct steno_http *h, long max_ms)
{
	double end = steno_http_now_ms() + (double)max_ms;
	while (steno_http_perform(h) > 0) {
		double left = end - steno_http_now_ms();
		if (max_ms >= 0 && left <= 0)
			return -1;
		if (steno_http_poll(h, NULL, 0, max_ms >= 0 ? (long)left + 1 : -1) < 0)
			return -1;
	}
	return 0;
}
