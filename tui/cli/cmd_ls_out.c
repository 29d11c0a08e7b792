#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_ls.h"
#include "core/store.h"

/* The output side of `steno ls`: ids already printed (an item seen on an earlier page is not
 * repeated), pages parsed on arrival, and the table, JSON array or NDJSON lines. */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int idset_grow(struct idset *s);

/* 1 when added, 0 when already there, -1 on no memory. */
static int idset_add(struct idset *s, const char *id)
{
	if ((s->n + 1) * 2 > s->cap && idset_grow(s) != 0)
		return -1;
	size_t i = (size_t)(hash_str(id) & (s->cap - 1));
	while (s->slot[i]) {
		if (strcmp(s->slot[i], id) == 0)
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	if (!(s->slot[i] = strdup(id)))
		return -1;
	s->n++;
	return 1;
}

static int idset_grow(struct idset *s)
{
	struct idset b = {.cap = s->cap ? s->cap * 2 : 256};
	if (!(b.slot = calloc(b.cap, sizeof(*b.slot))))
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i]) {
			size_t j = (size_t)(hash_str(s->slot[i]) & (b.cap - 1));
			while (b.slot[j])
				j = (j + 1) & (b.cap - 1);
			b.slot[j] = s->slot[i];
			b.n++;
		}
	free(s->slot);
	*s = b;
	return 0;
}

void idset_free(struct idset *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
}


const char *const ls_heads[6] = {"ID", "STATE", "LANGUAGE", "LENGTH", "CREATED", "NAME"};

/* Whether --where keeps the item (`t`, or in JSON mode the object `raw` read as one). */
static bool ls_where_keeps(const struct ls_out *o, const struct steno_transcription *t,
			   json_object *raw)
{
	struct steno_transcription parsed = {0};
	struct steno_error err;
	if (!o->where)
		return true;
	if (!t) {
		if (steno_transcription_from_json(raw, &parsed, &err) != 0)
			return false;
		t = &parsed;
	}
	struct query_item it;
	store_query_item(t, &it);
	bool keep = query_match(o->where, &it);
	steno_transcription_free(&parsed);
	return keep;
}

/* One item: `t` in table mode, `raw` (the server's object) in JSON mode. */
static int ls_out_item(struct ls_out *o, const char *id, const struct steno_transcription *t,
		       json_object *raw)
{
	if (!ls_where_keeps(o, t, raw))
		return 0;
	if (id) {
		int r = idset_add(&o->seen, id);
		if (r <= 0)
			return r;
	}
	if (o->json) {
		if (!o->ndjson)
			fputs(o->printed ? ",\n  " : "[\n  ", stdout);
		/* out_json_text escapes C1 and bidi controls, which json-c leaves raw. */
		out_json_text(stdout, json_object_to_json_string_ext(raw, JSON_C_TO_STRING_PLAIN |
									     JSON_C_TO_STRING_NOSLASHESCAPE));
		if (o->ndjson)
			fputc('\n', stdout);
		o->printed++;
		return 0;
	}
	char len[32], created[32];
	out_fmt_duration(len, sizeof(len), steno_known(t->audio_length_s.st), t->audio_length_s.v);
	out_fmt_time_ms(created, sizeof(created), steno_known(t->created_at.st), t->created_at.ms);
	const char *cells[] = {t->id, t->state, t->language, len, created, t->name};
	o->printed++;
	return out_table_add(&o->table, cells);
}


void ls_page_free(struct ls_page *p)
{
	steno_transcription_page_free(&p->typed);
	json_object_put(p->root);
	memset(p, 0, sizeof(*p));
}

int ls_page_parse(bool json, const char *body, size_t len, struct ls_page *p,
			 struct steno_error *err)
{
	memset(p, 0, sizeof(*p));
	if (!json) {
		if (steno_transcription_page_parse(body, len, &p->typed, err) != 0)
			return -1;
		p->n = p->typed.n;
		p->has_next = p->typed.next_url != NULL;
		return 0;
	}
	struct json_tokener *tok = json_tokener_new();
	if (!tok)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	p->root = json_tokener_parse_ex(tok, body, (int)len);
	bool ok = json_tokener_get_error(tok) == json_tokener_success;
	for (size_t i = ok ? json_tokener_get_parse_end(tok) : len; i < len; i++)
		if (!strchr(" \t\r\n", body[i]))
			ok = false; /* junk after the object */
	json_tokener_free(tok);
	json_object *links = NULL, *next = NULL, *url = NULL;
	if (!ok || !json_object_is_type(p->root, json_type_object) ||
	    !json_object_object_get_ex(p->root, "results", &p->results) ||
	    !json_object_is_type(p->results, json_type_array)) {
		ls_page_free(p);
		return steno_error_set(err, STENO_ERR_PARSE,
				       "the list page is not an object with a results array");
	}
	for (size_t i = 0; i < json_object_array_length(p->results); i++)
		if (json_object_is_type(json_object_array_get_idx(p->results, i), json_type_object))
			p->n++;
	p->has_next = json_object_object_get_ex(p->root, "_links", &links) &&
		      json_object_object_get_ex(links, "next", &next) &&
		      json_object_object_get_ex(next, "url", &url) &&
		      json_object_is_type(url, json_type_string);
	return 0;
}

/* The first page's next link (for how pages are numbered), or NULL. Borrowed. */
const char *ls_page_next_url(const struct ls_page *p)
{
	if (!p->root)
		return p->typed.next_url;
	json_object *l = NULL, *n = NULL, *u = NULL;
	if (json_object_object_get_ex(p->root, "_links", &l) &&
	    json_object_object_get_ex(l, "next", &n) && json_object_object_get_ex(n, "url", &u) &&
	    json_object_is_type(u, json_type_string))
		return json_object_get_string(u);
	return NULL;
}

/* The page is out: streamed now; a reader that went away stops the listing (-2). */
static int ls_out_flush(struct ls_out *o)
{
	if (!o->json)
		out_table_flush(&o->table, stdout, false);
	if (out_stdout_closed())
		o->closed = true;
	return o->closed ? -2 : 0;
}

/* Emits one page's items. 0, -1 (no memory) or -2 (stdout closed). */
int ls_out_page(struct ls_out *o, const struct ls_page *p)
{
	o->pages++;
	o->more = p->has_next && p->n > 0;
	if (!o->json) {
		for (size_t i = 0; i < p->typed.n; i++)
			if (ls_out_item(o, p->typed.items[i].id, &p->typed.items[i], NULL) != 0)
				return -1;
		return ls_out_flush(o);
	}
	for (size_t i = 0; i < json_object_array_length(p->results); i++) {
		json_object *raw = json_object_array_get_idx(p->results, i), *id = NULL;
		if (!json_object_is_type(raw, json_type_object))
			continue;
		const char *ids = json_object_object_get_ex(raw, "id", &id) &&
				  json_object_is_type(id, json_type_string) ? json_object_get_string(id)
									    : NULL;
		if (ls_out_item(o, ids, NULL, raw) != 0)
			return -1;
	}
	return ls_out_flush(o);
}

/* The end: the JSON array closed, or the paging line of --ndjson
 * {"paging":{"first_page":N,"pages":K,"more":bool}}; without --all, when more pages exist,
 * a table or --json says so on stderr (stdout keeps its shape). */
void ls_out_finish(struct ls_out *o, long first_page, bool all)
{
	if (o->ndjson) {
		printf("{\"paging\":{\"first_page\":%ld,\"pages\":%ld,\"more\":%s}}\n", first_page,
		       o->pages, o->more ? "true" : "false");
		return;
	}
	if (o->json)
		fputs(o->printed ? "\n]\n" : "[]\n", stdout);
	else
		out_table_flush(&o->table, stdout, true);
	if (o->more && !all)
		fprintf(stderr, "steno ls: more pages follow: --page %ld, or --all\n",
			first_page + o->pages);
}

