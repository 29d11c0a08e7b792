#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/http_internal.h"
#include "api/url.h"
#include "api/version.h"

int steno_buf_append(struct steno_buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

void steno_buf_reset(struct steno_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void steno_buf_free(struct steno_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static size_t easy_write_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
	struct steno_req *r = ud;
	size_t n = size * nmemb;
	if (r->resp.len + n > STENO_HTTP_MAX_BODY) {
		r->over_cap = 1;   /* steno_http_easy_transport_error says so */
		return 0;
	}
	if (steno_buf_append(&r->resp, ptr, n) != 0)
		return 0; /* curl ends the transfer with CURLE_WRITE_ERROR */
	return n;
}

int steno_http_easy_common(struct steno_req *r)
{
	CURL *e = r->easy;
	struct steno_http *h = r->http;
	static char ua[64];
	if (!ua[0])
		snprintf(ua, sizeof(ua), "steno/%s", steno_version());
	int bad = 0;
	bad |= curl_easy_setopt(e, CURLOPT_PRIVATE, r) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_USERAGENT, ua) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, h->connect_timeout_ms) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L) != CURLE_OK;
	/* HTTP/2 over TLS when offered; plain http stays HTTP/1.1. */
	curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
	curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
	bad |= curl_easy_setopt(e, CURLOPT_ERRORBUFFER, r->errbuf) != CURLE_OK;
	bad |= steno_http_easy_proxy(r, r->url) != 0;
	return bad ? -1 : 0;
}

static int easy_headers(struct steno_req *r)
{
	struct curl_slist *l = NULL, *t;
	char auth[1024];
	curl_slist_free_all(r->headers);
	r->headers = NULL;
#define ADD(s)                            \
	do {                              \
		t = curl_slist_append(l, s); \
		if (!t)                   \
			goto fail;        \
		l = t;                    \
	} while (0)
	ADD("Accept: application/json");
	ADD("Expect:");
	if (r->body)
		ADD("Content-Type: application/json");
	if (r->may_carry_key && r->http->api_key &&
	    steno_url_same_origin(r->http->base_url, r->url)) {
		int n = snprintf(auth, sizeof(auth), "Authorization: Bearer %s", r->http->api_key);
		if (n < 0 || (size_t)n >= sizeof(auth))
			goto fail;
		ADD(auth);
	}
#undef ADD
	r->headers = l;
	memset(auth, 0, sizeof(auth));
	return 0;
fail:
	memset(auth, 0, sizeof(auth));
	curl_slist_free_all(l);
	return -1;
}

int steno_http_easy_setup(struct steno_req *r, struct steno_error *err)
{
	CURL *e = r->easy;
	if (easy_headers(r) != 0)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory (headers)");
	int bad = 0;
	bad |= curl_easy_setopt(e, CURLOPT_URL, r->url) != CURLE_OK;
	bad |= steno_http_easy_proxy(r, r->url) != 0;
	bad |= curl_easy_setopt(e, CURLOPT_HTTPHEADER, r->headers) != CURLE_OK;
	/* Redirects are followed by the engine, which decides whether the key may go along. */
	bad |= curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_UNRESTRICTED_AUTH, 0L) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_TIMEOUT_MS,
				r->timeout_ms ? r->timeout_ms : r->http->timeout_ms) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, easy_write_body) != CURLE_OK;
	bad |= curl_easy_setopt(e, CURLOPT_WRITEDATA, r) != CURLE_OK;
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	/* libcurl resends a request by itself when a reused connection dies before any byte of
	 * the answer (up to 5 times), POSTs included. A request that must not be repeated
	 * therefore never rides a pooled connection (nor an HTTP/2 stream on one): on a fresh
	 * connection a lost answer is reported, never resent. */
	bad |= curl_easy_setopt(e, CURLOPT_FRESH_CONNECT,
				steno_retry_method_idempotent(r->method) ? 0L : 1L) != CURLE_OK;
	if (strcmp(r->method, "GET") == 0) {
		bad |= curl_easy_setopt(e, CURLOPT_HTTPGET, 1L) != CURLE_OK;
		curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, NULL);
	} else {
		if (strcmp(r->method, "POST") != 0 || r->body) {
			curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
			curl_easy_setopt(e, CURLOPT_POSTFIELDS, r->body ? r->body : "");
		} else {
			curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
			curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
		}
		if (strcmp(r->method, "DELETE") == 0 && !r->body)
			curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
		bad |= curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST,
					strcmp(r->method, "POST") == 0 ? NULL : r->method) != CURLE_OK;
	}
	return bad ? steno_error_set(err, STENO_ERR_INVALID, "libcurl refused the request options")
		   : 0;
}

static const char *easy_header(CURL *e, const char *name)
{
	struct curl_header *h = NULL;
	if (curl_easy_header(e, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK || !h)
		return NULL;
	return h->value;
}

/* retry_in_seconds from a JSON body, < 0 when absent. */
static double body_retry_in(const char *body, size_t len)
{
	if (!body || len == 0 || len > 65536)
		return -1;
	double v = -1;
	struct json_object *o = json_tokener_parse(body), *f = NULL;
	if (o && json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "retry_in_seconds", &f) &&
	    (json_object_is_type(f, json_type_int) || json_object_is_type(f, json_type_double)))
		v = json_object_get_double(f);
	json_object_put(o);
	return v;
}

void steno_http_easy_response(struct steno_req *r, struct steno_http_response *resp)
{
	memset(resp, 0, sizeof(*resp));
	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &resp->status);
	resp->body = r->resp.data ? r->resp.data : "";
	resp->body_len = r->resp.len;
	resp->retry_after_s = resp->retry_after_asked_s = -1;
	resp->tries = r->tries;
	resp->ms = (long)(steno_http_now_ms() - r->submit_ms);
	resp->url = r->url;
	if (resp->status <= 0)
		return;
	char *ct = NULL;
	if (curl_easy_getinfo(r->easy, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK)
		resp->content_type = ct;
	const char *ra = easy_header(r->easy, "Retry-After");
	double s;
	if (ra && steno_retry_parse_after(ra, time(NULL), &s) == 0)
		resp->retry_after_asked_s = s;
	else if (resp->status == 429 || resp->status >= 500)
		resp->retry_after_asked_s = body_retry_in(r->resp.data, r->resp.len);
	/* untrusted: "Retry-After: 3600" or retry_in_seconds 1e300 obtain at most the cap */
	double cap = (double)r->http->retry.max_delay_ms / 1000.0;
	resp->retry_after_s = resp->retry_after_asked_s > cap ? cap : resp->retry_after_asked_s;
}

/* Whether a failed request may have been acted on by the server: it is not idempotent, it
 * is an API request (transfers report their own fate) and some of it went on the wire. */
static int easy_outcome_unknown(struct steno_req *r, CURLcode rc)
{
	if (steno_retry_method_idempotent(r->method) || r->ops || rc == CURLE_COULDNT_RESOLVE_HOST ||
	    rc == CURLE_COULDNT_CONNECT || rc == CURLE_OUT_OF_MEMORY)
		return 0;
	long sent = 0;
	curl_easy_getinfo(r->easy, CURLINFO_REQUEST_SIZE, &sent);
	return sent > 0;
}

void steno_http_easy_transport_error(struct steno_req *r, CURLcode rc, struct steno_error *err)
{
	const char *detail = r->errbuf[0] ? r->errbuf : curl_easy_strerror(rc);
	if (easy_outcome_unknown(r, rc)) {
		steno_error_set(err, rc == CURLE_OPERATION_TIMEDOUT ? STENO_ERR_TIMEOUT : STENO_ERR_NETWORK,
				"no answer to the %s (%s): the server may have acted on it", r->method,
				detail);
		snprintf(err->code, sizeof(err->code), "%s", STENO_CODE_OUTCOME_UNKNOWN);
		return;
	}
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
		steno_error_set(err, STENO_ERR_NETWORK, "could not connect (%s); the request was not sent",
				detail);
		break;
	case CURLE_OPERATION_TIMEDOUT:
		steno_error_set(err, STENO_ERR_TIMEOUT, "timed out (%s)", detail);
		break;
	case CURLE_WRITE_ERROR:
		if (r->over_cap)
			steno_error_set(err, STENO_ERR_IO, "the answer is larger than %u MiB, the most "
					"one API answer may hold: refused", STENO_HTTP_MAX_BODY >> 20);
		else
			steno_error_set(err, STENO_ERR_IO, "could not store the answer (%s)", detail);
		break;
	case CURLE_ABORTED_BY_CALLBACK:
		steno_error_set(err, STENO_ERR_CANCELLED, "cancelled");
		break;
	case CURLE_OUT_OF_MEMORY:
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		break;
	default:
		steno_error_set(err, STENO_ERR_NETWORK, "network error (%s)", detail);
		break;
	}
}

void steno_http_easy_status_error(const struct steno_http_response *resp, struct steno_error *err)
{
	steno_error_clear(err);
	err->http_status = resp->status;
	err->retry_after_s = resp->retry_after_s;
	steno_error_set(err, STENO_ERR_HTTP, "the server answered HTTP %ld", resp->status);
}
