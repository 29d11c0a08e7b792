#include "config.h"
#include "api/export.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"

void steno_export_free(struct steno_export *e)
{
	if (!e)
		return;
	free(e->id);
	free(e->state);
	free(e->format);
	free(e->timestamps_frequency);
	steno_strings_free(&e->transcription_ids);
	free(e->download_link);
	memset(e, 0, sizeof(*e));
}

static int export_from_json(const struct json_object *o, struct steno_export *e,
			    struct steno_error *err)
{
	if (!o || !json_object_is_type((struct json_object *)(uintptr_t)o, json_type_object))
		return steno_error_set(err, STENO_ERR_PARSE, "an export is not a JSON object");
	if (jget_opt_id(o, "id", &e->id, err) < 0 ||
	    jget_opt_string(o, "state", &e->state, err) < 0 ||
	    jget_opt_string(o, "format", &e->format, err) < 0 ||
	    jget_opt_string(o, "timestamps_frequency", &e->timestamps_frequency, err) < 0 ||
	    jget_opt_strings(o, "transcription_ids", &e->transcription_ids, err) < 0 ||
	    jget_opt_string(o, "download_link", &e->download_link, err) < 0)
		return -1;
	jget_opt_bool(o, "show_timestamps", &e->show_timestamps);
	jget_opt_bool(o, "show_speakers", &e->show_speakers);
	jget_opt_bool(o, "show_comments", &e->show_comments);
	jget_opt_bool(o, "show_highlights", &e->show_highlights);
	jget_opt_bool(o, "show_highlights_only", &e->show_highlights_only);
	jget_opt_time(o, "created_at", &e->created_at);
	return 0;
}

int steno_export_parse(const char *body, size_t len, struct steno_export *out,
		       struct steno_error *err)
{
	struct json_object *root;
	memset(out, 0, sizeof(*out));
	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	/* Tolerate an {"export":{...}} wrapper as well as the bare object. */
	struct json_object *inner = jget_path(root, "export", NULL);
	int rc = export_from_json(inner && json_object_is_type(inner, json_type_object) ? inner : root,
				  out, err);
	json_object_put(root);
	if (rc < 0)
		steno_export_free(out);
	return rc;
}
