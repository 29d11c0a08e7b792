#ifndef STENO_TESTS_ENGINE_RESULT_H
#define STENO_TESTS_ENGINE_RESULT_H

/* The engine tests' stand-in for a caller of steno_http: what a request's done callback was
 * told, counted. Shared by test_engine_hostile, test_engine_post_once and
 * test_engine_transfer. */

#include "api/http.h"

struct engine_result {
	int calls;               /* done callbacks so far (a request must have exactly one) */
	int failed;              /* the last one carried an error */
	long status;             /* its HTTP status */
	struct steno_error err;  /* its error, when failed */
};

/* Records one done callback into r. */
void engine_result_note(struct engine_result *r, const struct steno_http_response *resp,
			const struct steno_error *err);
/* A steno_http_request .done for .ud = a struct engine_result. */
void engine_result_done(void *ud, const struct steno_http_response *resp,
			const struct steno_error *err);

#endif
