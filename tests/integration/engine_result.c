/* See engine_result.h. */
#include "config.h"

#include "engine_result.h"

void engine_result_note(struct engine_result *r, const struct steno_http_response *resp,
			const struct steno_error *err)
{
	r->calls++;
	r->status = resp->status;
	r->failed = err != NULL;
	if (err)
		r->err = *err;
}

void engine_result_done(void *ud, const struct steno_http_response *resp,
			const struct steno_error *err)
{
	engine_result_note(ud, resp, err);
}
