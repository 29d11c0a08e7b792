#include "config.h"
#include "api/order.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"

#define IS_OBJECT(o) ((o) && json_object_is_type((o), json_type_object))

static void operation_free(struct steno_operation *op)
{
	free(op->name);
	free(op->type);
	free(op->language);
	free(op->target_language);
	steno_ints_free(&op->glossary_ids);
	memset(op, 0, sizeof(*op));
}

static void item_free(struct steno_order_item *it)
{
	free(it->filename);
	free(it->pricing_unit_name);
	operation_free(&it->service);
	free(it->addon_name);
}

static void details_free(struct steno_order_details *d)
{
	for (size_t i = 0; i < d->n_items; i++)
		item_free(&d->items[i]);
	free(d->items);
	free(d->pricing_unit_name);
	free(d->currency);
	free(d->currency_symbol);
	for (size_t i = 0; i < d->n_addons_total; i++)
		free(d->addons_total[i].name);
	free(d->addons_total);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void steno_order_free(struct steno_order *o)
{
	if (!o)
		return;
	free(o->id);
	free(o->state);
	for (size_t i = 0; i < o->n_operations; i++)
		operation_free(&o->operations[i]);
	free(o->operations);
	details_free(&o->details);
	free_names(o->addons, o->n_addons);
	free_names(o->inputs, o->n_inputs);
	steno_strings_free(&o->outputs_ids);
	for (size_t i = 0; i < o->n_transcriptions; i++) {
		struct steno_order_transcription *t = &o->transcriptions[i];
		free(t->uuid);
		free(t->name);
		free(t->state);
		free(t->language);
	}
	free(o->transcriptions);
	for (size_t i = 0; i < o->n_ingestions; i++) {
		free(o->ingestions[i].name);
		free(o->ingestions[i].state);
	}
	free(o->ingestions);
	memset(o, 0, sizeof(*o));
}

static int operation_read(const struct json_object *j, struct steno_operation *op,
			  struct steno_error *err)
{
	if (jget_opt_string(j, "name", &op->name, err) < 0 ||
	    jget_opt_string(j, "type", &op->type, err) < 0 ||
	    jget_opt_string(j, "language", &op->language, err) < 0 ||
	    jget_opt_string(j, "target_language", &op->target_language, err) < 0)
		return -1;
	jget_opt_ints(j, "glossary_ids", &op->glossary_ids);
	jget_opt_int_id(j, "style_guide_id", &op->style_guide_id);
	jget_opt_bool(j, "use_vocab", &op->use_vocab);
	return 0;
}

static int item_read(struct json_object *j, struct steno_order_item *it, struct steno_error *err)
{
	struct json_object *svc = jget_path(j, "service", NULL);

	jget_opt_int_id(j, "input_id", &it->input_id);
	if (jget_opt_string(j, "filename", &it->filename, err) < 0 ||
	    jget_opt_string(j, "pricing_unit_name", &it->pricing_unit_name, err) < 0 ||
	    jget_opt_string(j, "addon_name", &it->addon_name, err) < 0)
		return -1;
	jget_opt_num(j, "pricing_unit_count", &it->pricing_unit_count);
	if (IS_OBJECT(svc)) {
		it->has_service = true;
		if (operation_read(svc, &it->service, err) < 0)
			return -1;
	}
	jget_opt_int_id(j, "addon_id", &it->addon_id);
	jget_opt_int(j, "turnaround_minutes", &it->turnaround_minutes);
	jget_opt_int(j, "cents_per_unit", &it->cents_per_unit);
	jget_opt_int(j, "cents", &it->cents);
	jget_opt_num(j, "credits", &it->credits);
	return 0;
}

static int addons_total_read(struct json_object *map, struct steno_order_details *d,
			     struct steno_error *err)
{
	if (!IS_OBJECT(map))
		return 0;
	size_t n = (size_t)json_object_object_length(map);
	if (jget_alloc_array(n, sizeof(*d->addons_total), (void **)&d->addons_total, err) < 0)
		return -1;
	json_object_object_foreach(map, key, val) {
		struct steno_addon_total *a = &d->addons_total[d->n_addons_total];
		(void)val;
		if (!(a->name = jget_utf8_repair(key, strlen(key))))
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory reading an order");
		jget_opt_int(map, key, &a->cents);
		d->n_addons_total++;
	}
	return 0;
}

static int details_read(struct json_object *j, struct steno_order_details *d,
			struct steno_error *err)
{
	size_t n;
	struct json_object *items = jget_array(j, "items", &n);

	if (!IS_OBJECT(j))
		return 0;
	d->present = true;
	if (jget_opt_string(j, "pricing_unit_name", &d->pricing_unit_name, err) < 0 ||
	    jget_opt_string(j, "currency", &d->currency, err) < 0 ||
	    jget_opt_string(j, "currency_symbol", &d->currency_symbol, err) < 0)
		return -1;
	jget_opt_num(j, "pricing_unit_total_count", &d->pricing_unit_total_count);
	jget_opt_int(j, "total_cents", &d->total_cents);
	jget_opt_num(j, "total_credits", &d->total_credits);
	jget_opt_num(j, "minimum_charge", &d->minimum_charge);
	if (jget_alloc_array(n, sizeof(*d->items), (void **)&d->items, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *it = json_object_array_get_idx(items, i);
		if (!IS_OBJECT(it))
			continue;
		d->n_items++;   /* counted first so that free sees a half-read item */
		if (item_read(it, &d->items[d->n_items - 1], err) < 0)
			return -1;
	}
	return addons_total_read(jget_path(j, "addons_total_cents", NULL), d, err);
}

static int operations_read(struct json_object *root, struct steno_order *o,
			   struct steno_error *err)
{
	size_t n;
	struct json_object *arr = jget_array(root, "operations", &n);
	if (jget_alloc_array(n, sizeof(*o->operations), (void **)&o->operations, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		if (!IS_OBJECT(j))
			continue;
		o->n_operations++;
		if (operation_read(j, &o->operations[o->n_operations - 1], err) < 0)
			return -1;
	}
	return 0;
}

/* addons[].name and inputs[].transcription_id: arrays of objects reduced to one string. */
static int names_read(struct json_object *root, const char *key, const char *member, bool is_id,
		      char ***out, size_t *n_out, struct steno_error *err)
{
	size_t n;
	struct json_object *arr = jget_array(root, key, &n);
	if (jget_alloc_array(n, sizeof(char *), (void **)out, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *s = NULL;
		struct json_object *j = json_object_array_get_idx(arr, i);
		if ((is_id ? jget_opt_id(j, member, &s, err) : jget_opt_string(j, member, &s, err)) < 0)
			return -1;
		if (s)
			(*out)[(*n_out)++] = s;
	}
	return 0;
}

static int transcriptions_read(struct json_object *root, struct steno_order *o,
			       struct steno_error *err)
{
	size_t n;
	struct json_object *arr = jget_array(root, "transcriptions", &n);
	if (jget_alloc_array(n, sizeof(*o->transcriptions), (void **)&o->transcriptions, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		if (!IS_OBJECT(j))
			continue;
		struct steno_order_transcription *t = &o->transcriptions[o->n_transcriptions++];
		jget_opt_int_id(j, "id", &t->id);
		jget_opt_time(j, "estimated_at", &t->estimated_at);
		if (jget_opt_id(j, "uuid", &t->uuid, err) < 0 ||
		    jget_opt_string(j, "name", &t->name, err) < 0 ||
		    jget_opt_string(j, "state", &t->state, err) < 0 ||
		    jget_opt_string(j, "language", &t->language, err) < 0)
			return -1;
	}
	return 0;
}

static int ingestions_read(struct json_object *root, struct steno_order *o,
			   struct steno_error *err)
{
	size_t n;
	struct json_object *arr = jget_array(root, "ingestions", &n);
	if (jget_alloc_array(n, sizeof(*o->ingestions), (void **)&o->ingestions, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		if (!IS_OBJECT(j))
			continue;
		struct steno_ingestion *g = &o->ingestions[o->n_ingestions++];
		jget_opt_int_id(j, "id", &g->id);
		if (jget_opt_string(j, "name", &g->name, err) < 0 ||
		    jget_opt_string(j, "state", &g->state, err) < 0)
			return -1;
	}
	return 0;
}

static int order_read(struct json_object *root, struct steno_order *o, struct steno_error *err)
{
	if (jget_opt_id(root, "id", &o->id, err) < 0 ||
	    jget_opt_string(root, "state", &o->state, err) < 0 ||
	    jget_opt_strings(root, "outputsIds", &o->outputs_ids, err) < 0)
		return -1;
	jget_opt_int_id(root, "folder_id", &o->folder_id);
	jget_opt_bool(root, "canBeSubmitted", &o->can_be_submitted);
	if (operations_read(root, o, err) < 0 ||
	    details_read(jget_path(root, "details", NULL), &o->details, err) < 0 ||
	    names_read(root, "addons", "name", false, &o->addons, &o->n_addons, err) < 0 ||
	    names_read(root, "inputs", "transcription_id", true, &o->inputs, &o->n_inputs, err) < 0 ||
	    transcriptions_read(root, o, err) < 0 || ingestions_read(root, o, err) < 0)
		return -1;
	return 0;
}

int steno_order_from_json(const struct json_object *obj, struct steno_order *out,
			  struct steno_error *err)
{
	struct json_object *root = (struct json_object *)(uintptr_t)obj;
	memset(out, 0, sizeof(*out));
	if (!IS_OBJECT(root))
		return steno_error_set(err, STENO_ERR_PARSE, "an order is not a JSON object");
	/* Tolerate an {"order":{...}} wrapper (webhook payloads carry one). */
	struct json_object *inner = jget_path(root, "order", NULL);
	if (IS_OBJECT(inner))
		root = inner;
	if (order_read(root, out, err) < 0) {
		steno_order_free(out);
		return -1;
	}
	return 0;
}

int steno_order_parse(const char *body, size_t len, struct steno_order *out,
		      struct steno_error *err)
{
	struct json_object *root;
	memset(out, 0, sizeof(*out));
	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	int rc = steno_order_from_json(root, out, err);
	json_object_put(root);
	return rc;
}
