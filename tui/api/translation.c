#include "config.h"
#include "api/translation.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"

void steno_translation_task_free(struct steno_translation_task *t)
{
	if (!t)
		return;
	free(t->id);
	free(t->state);
	free(t->failure_reason);
	free(t->target_language);
	free(t->translated_transcription_id);
	memset(t, 0, sizeof(*t));
}

static int task_from_json(const struct json_object *o, struct steno_translation_task *t,
			  struct steno_error *err)
{
	if (!o || !json_object_is_type((struct json_object *)(uintptr_t)o, json_type_object))
		return steno_error_set(err, STENO_ERR_PARSE, "a translation task is not a JSON object");
	if (jget_opt_id(o, "id", &t->id, err) < 0 ||
	    jget_opt_string(o, "state", &t->state, err) < 0 ||
	    jget_opt_string(o, "failureReason", &t->failure_reason, err) < 0 ||
	    jget_opt_string(o, "targetLanguage", &t->target_language, err) < 0 ||
	    jget_opt_id(o, "translatedTranscriptionId", &t->translated_transcription_id, err) < 0)
		return -1;
	jget_opt_num(o, "progressPercent", &t->progress_percent);
	return 0;
}

int steno_translation_task_parse(const char *body, size_t len, struct steno_translation_task *out,
				 struct steno_error *err)
{
	struct json_object *root;
	memset(out, 0, sizeof(*out));
	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	int rc = task_from_json(root, out, err);
	json_object_put(root);
	if (rc < 0)
		steno_translation_task_free(out);
	return rc;
}
