#include "config.h"
#include "api/glossary.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"

#define IS_OBJECT(o) ((o) && json_object_is_type((o), json_type_object))

static void glossary_free(struct steno_glossary *g)
{
	free(g->name);
	free(g->source_language);
	steno_strings_free(&g->target_languages);
}

static void style_guide_free(struct steno_style_guide *s)
{
	free(s->name);
	free(s->operation);
	free(s->speaker_id);
	free(s->notation_tags);
}

void steno_glossary_list_free(struct steno_glossary_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		glossary_free(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void steno_style_guide_list_free(struct steno_style_guide_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		style_guide_free(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void steno_organization_list_free(struct steno_organization_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].name);
		free(l->items[i].role);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int organization_read(struct json_object *j, struct steno_organization *o,
			     struct steno_error *err)
{
	jget_opt_int_id(j, "id", &o->id);
	if (jget_opt_string(j, "name", &o->name, err) < 0 ||
	    jget_opt_string(j, "role", &o->role, err) < 0)
		return -1;
	return 0;
}

static int glossary_read(struct json_object *j, struct steno_glossary *g, struct steno_error *err)
{
	jget_opt_int_id(j, "id", &g->id);
	jget_opt_bool(j, "organization_default", &g->organization_default);
	jget_opt_bool(j, "imported", &g->imported);
	jget_opt_time(j, "created_at", &g->created_at);
	jget_opt_time(j, "updated_at", &g->updated_at);
	if (jget_opt_string(j, "name", &g->name, err) < 0 ||
	    jget_opt_string(j, "source_language", &g->source_language, err) < 0 ||
	    jget_opt_strings(j, "target_languages", &g->target_languages, err) < 0)
		return -1;
	return 0;
}

static int style_guide_read(struct json_object *j, struct steno_style_guide *s,
			    struct steno_error *err)
{
	jget_opt_int_id(j, "id", &s->id);
	jget_opt_bool(j, "organization_default", &s->organization_default);
	jget_opt_bool(j, "verbatim", &s->verbatim);
	jget_opt_bool(j, "fix_grammar", &s->fix_grammar);
	jget_opt_bool(j, "sdh", &s->sdh);
	jget_opt_time(j, "created_at", &s->created_at);
	jget_opt_time(j, "updated_at", &s->updated_at);
	if (jget_opt_string(j, "name", &s->name, err) < 0 ||
	    jget_opt_string(j, "operation", &s->operation, err) < 0 ||
	    jget_opt_string(j, "speaker_id", &s->speaker_id, err) < 0 ||
	    jget_opt_string(j, "notation_tags", &s->notation_tags, err) < 0)
		return -1;
	return 0;
}

/* The shared loop: the array under `key`, one element of `size` bytes per object. */
typedef int (*read_fn)(struct json_object *j, void *item, struct steno_error *err);

static int list_read(const char *body, size_t len, const char *key, size_t size, read_fn read,
		     void **items, size_t *n_out, size_t *skipped, struct steno_error *err)
{
	struct json_object *root;
	size_t n;
	int rc = -1;

	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	struct json_object *arr = jget_array(root, key, &n);
	if (!arr) {
		steno_error_set(err, STENO_ERR_PARSE, "the response has no \"%s\" array", key);
		goto out;
	}
	if (jget_alloc_array(n, size, items, err) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		if (!IS_OBJECT(j)) {
			(*skipped)++;
			continue;
		}
		(*n_out)++;
		if (read(j, (char *)*items + (*n_out - 1) * size, err) < 0)
			goto out;
	}
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

static int glossary_read_any(struct json_object *j, void *item, struct steno_error *err)
{
	return glossary_read(j, item, err);
}

static int organization_read_any(struct json_object *j, void *item, struct steno_error *err)
{
	return organization_read(j, item, err);
}

static int style_guide_read_any(struct json_object *j, void *item, struct steno_error *err)
{
	return style_guide_read(j, item, err);
}

int steno_glossary_list_parse(const char *body, size_t len, struct steno_glossary_list *out,
			      struct steno_error *err)
{
	memset(out, 0, sizeof(*out));
	if (list_read(body, len, "glossaries", sizeof(*out->items), glossary_read_any,
		      (void **)&out->items, &out->n, &out->skipped, err) < 0) {
		steno_glossary_list_free(out);
		return -1;
	}
	return 0;
}

int steno_style_guide_list_parse(const char *body, size_t len, struct steno_style_guide_list *out,
				 struct steno_error *err)
{
	memset(out, 0, sizeof(*out));
	if (list_read(body, len, "style_guides", sizeof(*out->items), style_guide_read_any,
		      (void **)&out->items, &out->n, &out->skipped, err) < 0) {
		steno_style_guide_list_free(out);
		return -1;
	}
	return 0;
}

int steno_organization_list_parse(const char *body, size_t len,
				  struct steno_organization_list *out, struct steno_error *err)
{
	memset(out, 0, sizeof(*out));
	if (list_read(body, len, "organizations", sizeof(*out->items), organization_read_any,
		      (void **)&out->items, &out->n, &out->skipped, err) < 0) {
		steno_organization_list_free(out);
		return -1;
	}
	/* an organization without a usable id cannot be chosen: left out, counted */
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (out->items[i].id.st == STENO_PRESENT && out->items[i].id.v > 0) {
			out->items[k++] = out->items[i];
		} else {
			free(out->items[i].name);
			free(out->items[i].role);
			out->skipped++;
		}
	}
	out->n = k;
	return 0;
}
