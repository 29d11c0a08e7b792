#ifndef STENO_API_ENDPOINTS_INTERNAL_H
#define STENO_API_ENDPOINTS_INTERNAL_H

/* Shared by endpoints.c and endpoints_call.c only: one generic call (submit, parse,
 * deliver to a typed callback, free). */

#include <stddef.h>

#include "api/error.h"
#include "api/endpoints.h"
#include "api/http.h"

typedef void (*ep_any_cb)(void);

/* How one result type is parsed, freed and handed to its typed callback. */
struct ep_type {
	size_t size;  /* 0: no result (delete) */
	int (*parse)(const char *body, size_t len, void *out, struct steno_error *err);
	void (*free)(void *res);
	void (*deliver)(ep_any_cb cb, void *ud, void *res, const struct steno_error *err);
};

/* Submits METHOD url with the caller's link (ud, owner tag, drop hook: api/endpoints.h
 * struct steno_api_call); ep_submit is ep_submit_call with ud as the owner and no drop. */
int ep_submit_call(struct steno_http *http, const char *method, const char *url, const char *body,
		   const char *reread_url, const struct ep_type *type, ep_any_cb cb,
		   const struct steno_api_call *call, struct steno_error *err);

/* Submits METHOD url with an optional JSON body (both only borrowed). When reread_url is
 * non-NULL, a 2xx with an empty or `{}` body is followed by GET reread_url. */
int ep_submit(struct steno_http *http, const char *method, const char *url, const char *body,
	      const char *reread_url, const struct ep_type *type, ep_any_cb cb, void *ud,
	      struct steno_error *err);

#endif
