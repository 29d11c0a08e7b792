/* What the local store keeps of a resource: the resource written back in the API's own JSON
 * (current form), read again with the api/ parsers, so that the store and a live answer go
 * through one reader. Unknown (missing) fields stay missing, null stays null. */
#include "config.h"
#include "core/store_codec.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "api/timestamp.h"

static void add_str(json_object *o, const char *k, const char *v)
{
	if (v)
		json_object_object_add(o, k, json_object_new_string(v));
}

static void add_int(json_object *o, const char *k, struct steno_int v)
{
	if (v.st == STENO_PRESENT)
		json_object_object_add(o, k, json_object_new_int64(v.v));
	else if (v.st == STENO_NULL)
		json_object_object_add(o, k, NULL);
}

static void add_num(json_object *o, const char *k, struct steno_num v)
{
	if (v.st == STENO_PRESENT)
		json_object_object_add(o, k, json_object_new_double(v.v));
	else if (v.st == STENO_NULL)
		json_object_object_add(o, k, NULL);
}

static void add_bool(json_object *o, const char *k, struct steno_bool v)
{
	if (v.st == STENO_PRESENT)
		json_object_object_add(o, k, json_object_new_boolean(v.v));
	else if (v.st == STENO_NULL)
		json_object_object_add(o, k, NULL);
}

static void add_time(json_object *o, const char *k, struct steno_time v)
{
	char buf[64];
	if (v.st == STENO_PRESENT && steno_timestamp_format(v.ms, buf, sizeof buf) == 0)
		json_object_object_add(o, k, json_object_new_string(buf));
	else if (v.st == STENO_NULL)
		json_object_object_add(o, k, NULL);
}

static void add_strings(json_object *o, const char *k, const struct steno_strings *s)
{
	if (s->st == STENO_NULL) {
		json_object_object_add(o, k, NULL);
		return;
	}
	if (s->st != STENO_PRESENT)
		return;
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < s->n; i++)
		json_object_array_add(a, json_object_new_string(s->v[i]));
	json_object_object_add(o, k, a);
}

static char *finish(json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	char *r = s ? strdup(s) : NULL;
	json_object_put(o);
	return r;
}

char *store_codec_transcription(const struct steno_transcription *t)
{
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	add_str(o, "id", t->id);
	add_str(o, "name", t->name);
	add_str(o, "state", t->state);
	add_str(o, "language", t->language);
	add_time(o, "createdAt", t->created_at);
	add_time(o, "updatedAt", t->updated_at);
	add_time(o, "deliveryEstimatedAt", t->delivery_estimated_at);
	add_bool(o, "sharingEnabled", t->sharing_enabled);
	add_bool(o, "is_subtitle", t->is_subtitle);
	add_int(o, "audioLengthInSeconds", t->audio_length_s);
	add_int(o, "costInCents", t->cost_cents);
	add_bool(o, "refunded", t->refunded);
	add_strings(o, "tags", &t->tags);
	if (t->failure_reason_st == STENO_PRESENT)
		add_str(o, "failureReason", t->failure_reason);
	else if (t->failure_reason_st == STENO_NULL)
		json_object_object_add(o, "failureReason", NULL);
	add_str(o, "failureMessage", t->failure_message);
	add_str(o, "soundwaveUrl", t->soundwave_url);
	json_object *links = json_object_new_object(), *self = json_object_new_object();
	if (t->form == STENO_FORM_LEGACY) {
		/* the earlier form: self.url, and editor.url when it differs */
		add_str(self, "url", t->self_url);
		if (t->editor_url && (!t->self_url || strcmp(t->editor_url, t->self_url) != 0)) {
			json_object *ed = json_object_new_object();
			add_str(ed, "url", t->editor_url);
			json_object_object_add(links, "editor", ed);
		}
	} else {
		add_str(self, "editorUrl", t->editor_url);
		add_str(self, "url", t->self_url);
	}
	add_str(self, "downloadUrl", t->download_url);
	json_object_object_add(links, "self", self);
	json_object_object_add(o, "_links", links);
	return finish(o);
}

int store_codec_transcription_read(const char *json, struct steno_transcription *out,
				   struct steno_error *err)
{
	return steno_transcription_parse(json, strlen(json), out, err);
}

char *store_codec_export(const struct steno_export *e)
{
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	add_str(o, "id", e->id);
	add_str(o, "state", e->state);
	add_str(o, "format", e->format);
	add_str(o, "timestamps_frequency", e->timestamps_frequency);
	add_strings(o, "transcription_ids", &e->transcription_ids);
	add_str(o, "download_link", e->download_link);
	add_bool(o, "show_timestamps", e->show_timestamps);
	add_bool(o, "show_speakers", e->show_speakers);
	add_bool(o, "show_comments", e->show_comments);
	add_bool(o, "show_highlights", e->show_highlights);
	add_bool(o, "show_highlights_only", e->show_highlights_only);
	add_time(o, "created_at", e->created_at);
	return finish(o);
}

char *store_codec_task(const struct steno_translation_task *t)
{
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	add_str(o, "id", t->id);
	add_str(o, "state", t->state);
	add_str(o, "failureReason", t->failure_reason);
	add_num(o, "progressPercent", t->progress_percent);
	add_str(o, "targetLanguage", t->target_language);
	add_str(o, "translatedTranscriptionId", t->translated_transcription_id);
	return finish(o);
}

/* An order keeps what its activity row shows: id, state, folder, what it made and read. */
char *store_codec_order(const struct steno_order *r)
{
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	add_str(o, "id", r->id);
	add_str(o, "state", r->state);
	add_int(o, "folder_id", r->folder_id);
	add_bool(o, "canBeSubmitted", r->can_be_submitted);
	add_strings(o, "outputsIds", &r->outputs_ids);
	json_object *in = json_object_new_array();
	for (size_t i = 0; i < r->n_inputs; i++) {
		json_object *x = json_object_new_object();
		add_str(x, "transcription_id", r->inputs[i]);
		json_object_array_add(in, x);
	}
	json_object_object_add(o, "inputs", in);
	json_object *tr = json_object_new_array();
	for (size_t i = 0; i < r->n_transcriptions; i++) {
		const struct steno_order_transcription *t = &r->transcriptions[i];
		json_object *x = json_object_new_object();
		add_int(x, "id", t->id);
		add_str(x, "uuid", t->uuid);
		add_str(x, "name", t->name);
		add_str(x, "state", t->state);
		add_str(x, "language", t->language);
		add_time(x, "estimated_at", t->estimated_at);
		json_object_array_add(tr, x);
	}
	json_object_object_add(o, "transcriptions", tr);
	return finish(o);
}

char *store_codec_organizations(const struct steno_organization_list *l)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	if (!o || !a) {
		json_object_put(o);
		json_object_put(a);
		return NULL;
	}
	for (size_t i = 0; i < l->n; i++) {
		json_object *x = json_object_new_object();
		add_int(x, "id", l->items[i].id);
		add_str(x, "name", l->items[i].name);
		add_str(x, "role", l->items[i].role);
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "organizations", a);
	return finish(o);
}
