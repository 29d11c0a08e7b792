#include "config.h"
#include "api/upload.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/jget.h"

void steno_upload_free(struct steno_upload *u)
{
	if (!u)
		return;
	free(u->signed_url);
	u->signed_url = NULL;
}

int steno_upload_parse(const char *body, size_t len, struct steno_upload *out,
		       struct steno_error *err)
{
	struct json_object *root;
	out->signed_url = NULL;
	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	enum jget_status st = jget_string(root, "signedUrl", &out->signed_url);
	json_object_put(root);
	if (st == JGET_NOMEM)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory reading an upload");
	if (st != JGET_OK)
		return steno_error_set(err, STENO_ERR_PARSE, "the upload response has no signedUrl");
	/* The file is PUT to this URL: nothing but http(s) may be followed. */
	if (strncasecmp(out->signed_url, "https://", 8) != 0 &&
	    strncasecmp(out->signed_url, "http://", 7) != 0) {
		steno_upload_free(out);
		return steno_error_set(err, STENO_ERR_PARSE, "the upload signedUrl is not an http(s) URL");
	}
	return 0;
}
