#ifndef STENO_UI_WAIT_H
#define STENO_UI_WAIT_H

/* The loop's wait hook on the HTTP engine: blocks in steno_http_poll (curl_multi_poll)
 * with the terminal's input fd as the extra fd, so transfers, timers and keys wake the
 * same single thread. ui/ never calls curl: api/http.h does. */

#include "ui/loop.h"

struct steno_http;

/* Ownership: plain settings, everything borrowed. */
struct ui_engine_wait {
	struct steno_http *http;
	/* ms until the owner has timed work (-1: none); NULL: the timeout_ms given */
	long (*due_ms)(void *ud);
	/* run after every wait (steno_http_perform, scheduler ...); may be NULL */
	void (*after)(void *ud);
	void *ud;
	int input_closed;    /* set once the input hung up */
};

/* A ui_wait_fn: ctx is a struct ui_engine_wait. The wait lasts until input, an
 * engine event, or min(timeout_ms, w->due_ms()) — no timer at all when both are -1. */
int ui_wait_engine(void *ctx, int fd, int timeout_ms);

#endif
