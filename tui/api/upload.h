#ifndef STENO_API_UPLOAD_H
#define STENO_API_UPLOAD_H

/* GET /uploads/new response (spec 2.2): { signedUrl }. */

#include <stddef.h>

#include "api/error.h"

/* Ownership: signed_url is malloc'd, freed by steno_upload_free. */
struct steno_upload {
	char *signed_url;   /* never NULL after a successful parse */
};

/* Fails (STENO_ERR_PARSE) when signedUrl is missing, not a string or not http(s). */
int steno_upload_parse(const char *body, size_t len, struct steno_upload *out,
		       struct steno_error *err);
void steno_upload_free(struct steno_upload *u);

#endif
