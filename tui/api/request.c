#include "config.h"
#include "api/request.h"

#include <json-c/json.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Request bodies (api/request.h): validate, then write JSON with json-c. Every json-c
 * call can fail on allocation: the builder records it in .nomem and the body is dropped. */

struct body {
	struct json_object *obj;
	bool nomem;
};

static void put(struct body *b, const char *key, struct json_object *v)
{
	if (!v || json_object_object_add(b->obj, key, v) != 0) {
		json_object_put(v);
		b->nomem = true;
	}
}

static void put_str(struct body *b, const char *key, const char *s)
{
	if (s)
		put(b, key, json_object_new_string(s));
}

static void put_true(struct body *b, const char *key, bool on)
{
	if (on)
		put(b, key, json_object_new_boolean(1));
}

static void put_strs(struct body *b, const char *key, const char *const *v, size_t n)
{
	if (!n)
		return;
	struct json_object *arr = n <= INT_MAX ? json_object_new_array_ext((int)n) : NULL;
	for (size_t i = 0; arr && i < n; i++) {
		struct json_object *s = json_object_new_string(v[i]);
		if (!s || json_object_array_add(arr, s) != 0) {
			json_object_put(s);
			json_object_put(arr);
			arr = NULL;
		}
	}
	put(b, key, arr);
}

static void put_ints(struct body *b, const char *key, const int64_t *v, size_t n)
{
	if (!n)
		return;
	struct json_object *arr = n <= INT_MAX ? json_object_new_array_ext((int)n) : NULL;
	for (size_t i = 0; arr && i < n; i++) {
		struct json_object *x = json_object_new_int64(v[i]);
		if (!x || json_object_array_add(arr, x) != 0) {
			json_object_put(x);
			json_object_put(arr);
			arr = NULL;
		}
	}
	put(b, key, arr);
}

static int body_start(struct body *b, struct steno_error *err)
{
	b->nomem = false;
	b->obj = json_object_new_object();
	if (!b->obj)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory building a request");
	return 0;
}

/* Wraps b in {"wrapper": b} when wrapper is given, serializes, frees. */
static int body_finish(struct body *b, const char *wrapper, char **json_out,
		       struct steno_error *err)
{
	struct json_object *root = b->obj;
	*json_out = NULL;
	if (wrapper && !b->nomem) {
		root = json_object_new_object();
		if (!root || json_object_object_add(root, wrapper, b->obj) != 0) {
			json_object_put(root);
			root = b->obj;
			b->nomem = true;
		}
	}
	if (!b->nomem) {
		const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE);
		if (s)
			*json_out = strdup(s);
	}
	json_object_put(root);
	if (!*json_out)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory building a request");
	return 0;
}

int steno_build_transcription_create(const struct steno_transcription_create_req *r,
				     char **json_out, struct steno_error *err)
{
	struct body b;
	*json_out = NULL;
	if (steno_validate_transcription_create(r, err) < 0 || body_start(&b, err) < 0)
		return -1;
	put_str(&b, "name", r->name);
	put_str(&b, "language", r->language);
	put_str(&b, "tmp_url", r->tmp_url);
	put_str(&b, "organization_id", r->organization_id);
	put_true(&b, "is_subtitle", r->is_subtitle);
	put_str(&b, "service", r->service);
	put_str(&b, "folder", r->folder);
	put_str(&b, "folder_id", r->folder_id);
	put_str(&b, "document_url", r->document_url);
	put_true(&b, "sharing_enabled", r->sharing_enabled);
	put_strs(&b, "tags", r->tags, r->n_tags);
	put_true(&b, "use_vocabulary", r->use_vocabulary);
	return body_finish(&b, "transcription", json_out, err);
}

int steno_build_export_create(const struct steno_export_create_req *r, char **json_out,
			      struct steno_error *err)
{
	struct body b;
	*json_out = NULL;
	if (steno_validate_export_create(r, err) < 0 || body_start(&b, err) < 0)
		return -1;
	put_str(&b, "format", r->format);
	put_strs(&b, "transcription_ids", r->transcription_ids, r->n_transcription_ids);
	put_true(&b, "show_timestamps", r->show_timestamps);
	put_str(&b, "timestamps_frequency", r->timestamps_frequency);
	put_true(&b, "show_speakers", r->show_speakers);
	put_true(&b, "show_comments", r->show_comments);
	put_true(&b, "show_highlights", r->show_highlights);
	put_true(&b, "show_highlights_only", r->show_highlights_only);
	return body_finish(&b, "export", json_out, err);
}

int steno_build_translation_task(const struct steno_translation_task_req *r, char **json_out,
				 struct steno_error *err)
{
	struct body b;
	*json_out = NULL;
	if (steno_validate_translation_task(r, err) < 0 || body_start(&b, err) < 0)
		return -1;
	put_str(&b, "source_transcription_id", r->source_transcription_id);
	put_str(&b, "target_language", r->target_language);
	return body_finish(&b, NULL, json_out, err);
}

int steno_build_order_create(const struct steno_order_create_req *r, char **json_out,
			     struct steno_error *err)
{
	struct body b;
	*json_out = NULL;
	if (steno_validate_order_create(r, err) < 0 || body_start(&b, err) < 0)
		return -1;
	put_str(&b, "url", r->url);
	put_str(&b, "language", r->language);
	put_str(&b, "organization_id", r->organization_id);
	put_str(&b, "service", r->service);
	put_true(&b, "confirm", r->confirm);
	put_str(&b, "folder_id", r->folder_id);
	put_str(&b, "folder", r->folder);
	put_str(&b, "name", r->name);
	put_true(&b, "boost", r->boost);
	put_true(&b, "is_subtitle", r->is_subtitle);
	put_strs(&b, "tags", r->tags, r->n_tags);
	put_str(&b, "webhook_url", r->webhook_url);
	put_ints(&b, "glossary_ids", r->glossary_ids, r->n_glossary_ids);
	if (r->has_style_guide)
		put(&b, "style_guide_id", json_object_new_int64(r->style_guide_id));
	return body_finish(&b, "order", json_out, err);
}

int steno_build_translation_order(const struct steno_translation_order_req *r, char **json_out,
				  struct steno_error *err)
{
	struct body b;
	*json_out = NULL;
	if (steno_validate_translation_order(r, err) < 0 || body_start(&b, err) < 0)
		return -1;
	put_str(&b, "source_transcription_id", r->source_transcription_id);
	put_strs(&b, "target_languages", r->target_languages, r->n_target_languages);
	put_str(&b, "service", r->service);
	put_true(&b, "confirm", r->confirm);
	put_true(&b, "boost", r->boost);
	put_str(&b, "webhook_url", r->webhook_url);
	put_strs(&b, "tags", r->tags, r->n_tags);
	return body_finish(&b, "order", json_out, err);
}
