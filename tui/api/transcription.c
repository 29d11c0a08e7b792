#include "config.h"
#include "api/transcription.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"

void steno_transcription_free(struct steno_transcription *t)
{
	if (!t)
		return;
	free(t->id);
	free(t->name);
	free(t->state);
	free(t->language);
	steno_strings_free(&t->tags);
	free(t->failure_reason);
	free(t->failure_message);
	free(t->soundwave_url);
	free(t->editor_url);
	free(t->self_url);
	free(t->download_url);
	memset(t, 0, sizeof(*t));
}

/* _links in both forms (spec 9): current `self.editorUrl` (+ `self.downloadUrl`), legacy
 * `self.url` (+ `editor.url` on retrieve). */
static int read_links(const struct json_object *obj, struct steno_transcription *t,
		      struct steno_error *err)
{
	struct json_object *self = jget_path(obj, "_links", "self", NULL);
	struct json_object *editor = jget_path(obj, "_links", "editor", NULL);

	if (jget_opt_string(self, "editorUrl", &t->editor_url, err) < 0 ||
	    jget_opt_string(self, "downloadUrl", &t->download_url, err) < 0 ||
	    jget_opt_string(self, "url", &t->self_url, err) < 0)
		return -1;
	if (t->editor_url) {
		t->form = STENO_FORM_CURRENT;
	} else {
		if (jget_opt_string(editor, "url", &t->editor_url, err) < 0)
			return -1;
		if (t->editor_url || t->self_url)
			t->form = STENO_FORM_LEGACY;
		/* Spec 9: in the earlier form `self.url` replaces `self.editorUrl`. */
		if (!t->editor_url && t->self_url && !(t->editor_url = strdup(t->self_url)))
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory reading a transcription");
	}
	return 0;
}

static int read_strings(const struct json_object *obj, struct steno_transcription *t,
			struct steno_error *err)
{
	if (jget_opt_id(obj, "id", &t->id, err) < 0 ||
	    jget_opt_string(obj, "name", &t->name, err) < 0 ||
	    jget_opt_string(obj, "state", &t->state, err) < 0 ||
	    jget_opt_string(obj, "language", &t->language, err) < 0 ||
	    jget_opt_string(obj, "failureMessage", &t->failure_message, err) < 0 ||
	    jget_opt_string(obj, "soundwaveUrl", &t->soundwave_url, err) < 0 ||
	    jget_opt_strings(obj, "tags", &t->tags, err) < 0)
		return -1;
	switch (jget_string(obj, "failureReason", &t->failure_reason)) {
	case JGET_OK: t->failure_reason_st = STENO_PRESENT; break;
	case JGET_NULL: t->failure_reason_st = STENO_NULL; break;
	case JGET_MISSING: t->failure_reason_st = STENO_MISSING; break;
	case JGET_WRONG_TYPE: t->failure_reason_st = STENO_BAD_TYPE; break;
	case JGET_NOMEM:
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory reading a transcription");
	}
	return 0;
}

int steno_transcription_from_json(const struct json_object *obj, struct steno_transcription *out,
				  struct steno_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!obj || !json_object_is_type((struct json_object *)(uintptr_t)obj, json_type_object))
		return steno_error_set(err, STENO_ERR_PARSE, "a transcription is not a JSON object");
	if (read_strings(obj, out, err) < 0 || read_links(obj, out, err) < 0) {
		steno_transcription_free(out);
		return -1;
	}
	jget_opt_time(obj, "createdAt", &out->created_at);
	jget_opt_time(obj, "updatedAt", &out->updated_at);
	jget_opt_time(obj, "deliveryEstimatedAt", &out->delivery_estimated_at);
	jget_opt_bool(obj, "sharingEnabled", &out->sharing_enabled);
	jget_opt_bool(obj, "is_subtitle", &out->is_subtitle);
	jget_opt_int(obj, "audioLengthInSeconds", &out->audio_length_s);
	jget_opt_int(obj, "costInCents", &out->cost_cents);
	jget_opt_bool(obj, "refunded", &out->refunded);
	return 0;
}

int steno_transcription_parse(const char *body, size_t len, struct steno_transcription *out,
			      struct steno_error *err)
{
	struct json_object *root;
	memset(out, 0, sizeof(*out));
	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	int rc = steno_transcription_from_json(root, out, err);
	json_object_put(root);
	return rc;
}

void steno_transcription_page_free(struct steno_transcription_page *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		steno_transcription_free(&p->items[i]);
	free(p->items);
	free(p->next_url);
	memset(p, 0, sizeof(*p));
}

static int page_from_json(const struct json_object *root, struct steno_transcription_page *p,
			  struct steno_error *err)
{
	size_t n;
	struct json_object *arr = jget_array(root, "results", &n);

	if (!arr)
		return steno_error_set(err, STENO_ERR_PARSE,
				       "a transcription list has no \"results\" array");
	if (jget_opt_string(jget_path(root, "_links", "next", NULL), "url", &p->next_url, err) < 0)
		return -1;
	if (jget_alloc_array(n, sizeof(*p->items), (void **)&p->items, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *item = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(item, json_type_object)) {
			p->skipped++;
			continue;
		}
		if (steno_transcription_from_json(item, &p->items[p->n], err) < 0)
			return -1;
		if (p->form == STENO_FORM_UNKNOWN)
			p->form = p->items[p->n].form;
		p->n++;
	}
	return 0;
}

int steno_transcription_page_parse(const char *body, size_t len,
				   struct steno_transcription_page *out, struct steno_error *err)
{
	struct json_object *root;
	static const struct jget_bounds bounds = JGET_PAGE_BOUNDS;
	memset(out, 0, sizeof(*out));
	if (jget_parse_bounded(body, len, &bounds, &root, err) < 0)
		return -1;
	int rc = page_from_json(root, out, err);
	json_object_put(root);
	if (rc < 0)
		steno_transcription_page_free(out);
	return rc;
}

static int dup_str(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -1;
}

int steno_transcription_copy(struct steno_transcription *dst, const struct steno_transcription *src,
			     struct steno_error *err)
{
	*dst = *src;   /* scalars; every pointer is replaced below */
	int bad = dup_str(&dst->id, src->id) | dup_str(&dst->name, src->name) |
		  dup_str(&dst->state, src->state) | dup_str(&dst->language, src->language) |
		  dup_str(&dst->failure_reason, src->failure_reason) |
		  dup_str(&dst->failure_message, src->failure_message) |
		  dup_str(&dst->soundwave_url, src->soundwave_url) |
		  dup_str(&dst->editor_url, src->editor_url) |
		  dup_str(&dst->self_url, src->self_url) |
		  dup_str(&dst->download_url, src->download_url) |
		  steno_strings_copy(&dst->tags, &src->tags);
	if (bad) {
		steno_transcription_free(dst);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory copying a transcription");
	}
	return 0;
}
