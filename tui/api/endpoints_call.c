#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api/endpoints_internal.h"
#include "api/error_body.h"

/* One call in flight; owned by the engine request's ud, freed in call_done, or in call_drop
 * when the engine cancels or drops the request (then the caller's drop hook runs first). */
struct ep_call {
	struct steno_http *http;
	const struct ep_type *type;
	ep_any_cb cb;
	void *ud;
	const void *owner;
	void (*drop)(void *ud);
	char *reread_url;
};

static void call_free(struct ep_call *c)
{
	free(c->reread_url);
	free(c);
}

static void call_fail(struct ep_call *c, const struct steno_http_response *resp,
		      const struct steno_error *herr)
{
	struct steno_error e = *herr;
	if (herr->kind == STENO_ERR_HTTP && resp->status > 0) {
		steno_error_clear(&e);
		steno_error_from_http(resp, &e);
	}
	c->type->deliver(c->cb, c->ud, NULL, &e);
}

static int body_is_empty(const char *b, size_t len)
{
	size_t i = 0, j = len;
	while (i < j && strchr(" \t\r\n", b[i]))
		i++;
	while (j > i && strchr(" \t\r\n", b[j - 1]))
		j--;
	if (i == j)
		return 1;
	if (b[i] != '{' || b[j - 1] != '}')
		return 0;
	for (i++, j--; i < j; i++)
		if (!strchr(" \t\r\n", b[i]))
			return 0;
	return 1;
}

static void call_done(void *p, const struct steno_http_response *resp,
		      const struct steno_error *herr);

static void call_drop(void *p)
{
	struct ep_call *c = p;
	if (c->drop)
		c->drop(c->ud);
	call_free(c);
}

static int call_submit(struct ep_call *c, const char *method, const char *url, const char *body,
		       struct steno_error *err)
{
	struct steno_http_request req = {
		.method = method, .url = url, .body = body, .body_len = body ? strlen(body) : 0,
		.owner = c->owner, .done = call_done, .ud = c, .drop = call_drop,
	};
	return steno_http_submit(c->http, &req, NULL, err);
}

static void call_reread(struct ep_call *c)
{
	struct steno_error e;
	char *url = c->reread_url;
	c->reread_url = NULL;
	steno_error_clear(&e);
	if (call_submit(c, "GET", url, NULL, &e) != 0) {
		c->type->deliver(c->cb, c->ud, NULL, &e);
		call_free(c);
	}
	free(url);
}

static void call_parse_deliver(struct ep_call *c, const struct steno_http_response *resp)
{
	struct steno_error e;
	steno_error_clear(&e);
	if (!c->type->size) {
		c->type->deliver(c->cb, c->ud, NULL, NULL);
		return;
	}
	void *res = calloc(1, c->type->size);
	if (!res) {
		steno_error_set(&e, STENO_ERR_NOMEM, "out of memory");
		c->type->deliver(c->cb, c->ud, NULL, &e);
		return;
	}
	if (c->type->parse(resp->body, resp->body_len, res, &e) != 0) {
		c->type->deliver(c->cb, c->ud, NULL, &e);
	} else {
		c->type->deliver(c->cb, c->ud, res, NULL);
		c->type->free(res);
	}
	free(res);
}

static void call_done(void *p, const struct steno_http_response *resp,
		      const struct steno_error *herr)
{
	struct ep_call *c = p;
	if (herr) {
		call_fail(c, resp, herr);
	} else if (c->reread_url && body_is_empty(resp->body, resp->body_len)) {
		call_reread(c); /* c lives on with the new request */
		return;
	} else {
		call_parse_deliver(c, resp);
	}
	call_free(c);
}

int ep_submit(struct steno_http *http, const char *method, const char *url, const char *body,
	      const char *reread_url, const struct ep_type *type, ep_any_cb cb, void *ud,
	      struct steno_error *err)
{
	struct steno_api_call call = { .ud = ud, .owner = ud, .drop = NULL };
	return ep_submit_call(http, method, url, body, reread_url, type, cb, &call, err);
}

int ep_submit_call(struct steno_http *http, const char *method, const char *url, const char *body,
		   const char *reread_url, const struct ep_type *type, ep_any_cb cb,
		   const struct steno_api_call *call, struct steno_error *err)
{
	if (!cb)
		return steno_error_invalid(err, "callback", "a callback is required");
	if (!url)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	struct ep_call *c = calloc(1, sizeof(*c));
	if (!c || (reread_url && !(c->reread_url = strdup(reread_url)))) {
		free(c);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	c->http = http;
	c->type = type;
	c->cb = cb;
	c->ud = call->ud;
	c->owner = call->owner;
	c->drop = call->drop;
	if (call_submit(c, method, url, body, err) != 0) {
		call_free(c);
		return -1;
	}
	return 0;
}
