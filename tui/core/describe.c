/* The describe views' data: one GET, its body kept as pretty JSON text and flattened into
 * fields. */
#include "config.h"

#include "core/describe.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/http.h"
#include "api/url.h"

static const char *const kind_names[] = { "transcription", "order", "export", "translation" };
static const char *const kind_paths[] = { "transcriptions", "orders", "exports",
	"task/transcription_translation" };

const char *describe_kind_name(enum describe_kind k)
{
	return kind_names[k];
}

static void fields_free(struct steno_describe *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->fields[i].key);
		free(d->fields[i].value);
	}
	free(d->fields);
	d->fields = NULL;
	d->n = 0;
}

struct flat {
	struct describe_field *v;
	size_t n, cap;
	bool failed;
};

static void flat_add(struct flat *f, const char *key, const char *value)
{
	if (f->failed)
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 32;
		struct describe_field *v = realloc(f->v, cap * sizeof *v);
		if (!v) {
			f->failed = true;
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n].key = strdup(key);
	f->v[f->n].value = strdup(value);
	if (!f->v[f->n].key || !f->v[f->n].value) {
		free(f->v[f->n].key);
		free(f->v[f->n].value);
		f->failed = true;
		return;
	}
	f->n++;
}

/* Depth-first, in the answer's order; containers with nothing inside are listed as such. */
static void flatten(struct flat *f, const char *prefix, json_object *o, int depth)
{
	char key[512];

	if (depth > 32) {
		flat_add(f, prefix, "(nested too deep)");
		return;
	}
	if (json_object_is_type(o, json_type_object)) {
		if (!json_object_object_length(o))
			flat_add(f, prefix, "{}");
		json_object_object_foreach(o, k, v) {
			snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", k);
			flatten(f, key, v, depth + 1);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);
		if (!n)
			flat_add(f, prefix, "[]");
		for (size_t i = 0; i < n; i++) {
			snprintf(key, sizeof key, "%s[%zu]", prefix, i);
			flatten(f, key, json_object_array_get_idx(o, i), depth + 1);
		}
	} else if (json_object_is_type(o, json_type_string)) {
		flat_add(f, prefix, json_object_get_string(o));
	} else {
		flat_add(f, prefix, o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)
			 : "null");
	}
}

/* An order's answer as a struct too; an error's body or an answer that is not an order
 * keeps the last one. */
static void describe_parse_order(struct steno_describe *d, json_object *o, bool failed)
{
	struct steno_order ord;
	struct steno_error e;

	if (d->kind != DESCRIBE_ORDER || failed || steno_order_from_json(o, &ord, &e) != 0)
		return;
	if (d->has_order)
		steno_order_free(&d->order);
	d->order = ord;
	d->has_order = true;
}

static void on_answer(void *ud, const struct steno_http_response *resp,
		      const struct steno_error *err)
{
	struct steno_describe *d = ud;

	d->req = 0;
	d->loading = false;
	d->has_error = err != NULL;
	if (err)
		d->error = *err;
	/* an error's body is shown too: it says why */
	json_object *o = resp->body && resp->body_len ? json_tokener_parse(resp->body) : NULL;
	if (o) {
		struct flat f = { 0 };
		flatten(&f, "", o, 0);
		if (!f.failed) {
			fields_free(d);
			d->fields = f.v;
			d->n = f.n;
		} else {
			for (size_t i = 0; i < f.n; i++) {
				free(f.v[i].key);
				free(f.v[i].value);
			}
			free(f.v);
		}
		describe_parse_order(d, o, err != NULL);
		char *raw = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE));
		if (raw) {
			free(d->raw);
			d->raw = raw;
		}
		json_object_put(o);
	} else if (!err) {
		d->has_error = true;
		steno_error_set(&d->error, STENO_ERR_PARSE, "the answer is not JSON");
	}
	if (d->changed)
		d->changed(d->ud);
}

int describe_refresh(struct steno_describe *d, struct steno_error *err)
{
	if (d->req)
		return 0;
	char *id = steno_url_escape(d->id);
	const char *base = steno_http_base_url(d->http);
	size_t len = strlen(base) + strlen(kind_paths[d->kind]) + (id ? strlen(id) : 0) + 3;
	char *url = id ? malloc(len) : NULL;
	if (!url) {
		free(id);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	snprintf(url, len, "%s/%s/%s", base, kind_paths[d->kind], id);
	free(id);
	struct steno_http_request req = { .method = "GET", .url = url, .done = on_answer,
		.ud = d, .owner = d };
	int rc = steno_http_submit(d->http, &req, &d->req, err);
	free(url);
	if (rc == 0)
		d->loading = true;
	return rc;
}

int describe_open(struct steno_describe *d, struct steno_http *http, enum describe_kind kind,
		  const char *id, void (*changed)(void *ud), void *ud, struct steno_error *err)
{
	memset(d, 0, sizeof *d);
	if (!id || !*id)
		return steno_error_set(err, STENO_ERR_INVALID, "no id");
	d->kind = kind;
	d->http = http;
	d->changed = changed;
	d->ud = ud;
	if (!(d->id = strdup(id)))
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	return describe_refresh(d, err);
}

void describe_close(struct steno_describe *d)
{
	if (d->req)
		steno_http_cancel(d->http, d->req);
	fields_free(d);
	if (d->has_order)
		steno_order_free(&d->order);
	free(d->raw);
	free(d->id);
	memset(d, 0, sizeof *d);
}
