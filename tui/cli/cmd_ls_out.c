#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/jget.h"
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

/* ---- --fields, --sort ---- */

static const char *const field_names[LS_F_N] = {"id", "state", "language", "length", "created",
	"name", "tags", "cost", "updated"};
static const char *const field_keys[LS_F_N] = {"id", "state", "language",
	"audioLengthInSeconds", "createdAt", "name", "tags", "costInCents", "updatedAt"};
static const char *const field_heads[LS_F_N] = {"ID", "STATE", "LANGUAGE", "LENGTH", "CREATED",
	"NAME", "TAGS", "COST", "UPDATED"};

int ls_field(const char *name, size_t len)
{
	for (int i = 0; i < LS_F_N; i++)
		if (strlen(field_names[i]) == len && !strncmp(field_names[i], name, len))
			return i;
	return -1;
}

int ls_fields_parse(struct ls_out *o, const char *csv, char *bad, size_t n)
{
	o->ncols = 0;
	for (const char *p = csv; *p;) {
		size_t len = strcspn(p, ",");
		int f = len ? ls_field(p, len) : -1;
		if (f < 0 || o->ncols >= LS_F_N) {
			snprintf(bad, n, "%.*s", (int)len, p);
			return -1;
		}
		o->heads[o->ncols] = field_heads[f];
		o->cols[o->ncols++] = f;
		p += len + (p[len] == ',');
	}
	return o->ncols ? 0 : (snprintf(bad, n, "%s", csv), -1);
}

/* A table cell of field f into buf. */
static const char *field_cell(const struct steno_transcription *t, int f, char *buf, size_t n)
{
	switch (f) {
	case LS_F_ID: return t->id;
	case LS_F_STATE: return t->state;
	case LS_F_LANGUAGE: return t->language;
	case LS_F_NAME: return t->name;
	case LS_F_LENGTH:
		out_fmt_duration(buf, n, steno_known(t->audio_length_s.st), t->audio_length_s.v);
		return buf;
	case LS_F_CREATED:
		out_fmt_time_ms(buf, n, steno_known(t->created_at.st), t->created_at.ms);
		return buf;
	case LS_F_UPDATED:
		out_fmt_time_ms(buf, n, steno_known(t->updated_at.st), t->updated_at.ms);
		return buf;
	case LS_F_COST:
		out_fmt_cents(buf, n, steno_known(t->cost_cents.st), t->cost_cents.v, NULL);
		return buf;
	case LS_F_TAGS:
		buf[0] = '\0';
		for (size_t i = 0, o = 0; i < t->tags.n && o < n; i++)
			o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "", t->tags.v[i]);
		return buf;
	}
	return NULL;
}

/* The server's object with only the --fields keys (a new reference). */
static json_object *fields_only(const struct ls_out *o, json_object *raw)
{
	if (!o->ncols)
		return json_object_get(raw);
	json_object *c = json_object_new_object(), *v;
	for (size_t i = 0; c && i < o->ncols; i++)
		if (json_object_object_get_ex(raw, field_keys[o->cols[i]], &v))
			json_object_object_add(c, field_keys[o->cols[i]], json_object_get(v));
	return c;
}

/* Prints one item that is in: its id (-q), its object (JSON) or its row. */
static int ls_out_emit(struct ls_out *o, const char *id, const struct steno_transcription *t,
		       json_object *raw)
{
	o->printed++;
	if (o->quiet) {
		char *clean = out_clean(id ? id : (t ? t->id : ""));
		printf("%s\n", clean ? clean : "");
		free(clean);
		return 0;
	}
	if (o->json) {
		if (!o->ndjson)
			fputs(o->printed > 1 ? ",\n  " : "[\n  ", stdout);
		json_object *shown = fields_only(o, raw);
		/* out_json_text escapes C1 and bidi controls, which json-c leaves raw. */
		out_json_text(stdout, json_object_to_json_string_ext(shown, JSON_C_TO_STRING_PLAIN |
									     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(shown);
		if (o->ndjson)
			fputc('\n', stdout);
		return 0;
	}
	static const int dflt[] = {LS_F_ID, LS_F_STATE, LS_F_LANGUAGE, LS_F_LENGTH, LS_F_CREATED,
				   LS_F_NAME};
	const int *cols = o->ncols ? o->cols : dflt;
	size_t n = o->ncols ? o->ncols : 6;
	char bufs[LS_F_N][256];
	const char *cells[LS_F_N];
	for (size_t i = 0; i < n; i++)
		cells[i] = field_cell(t, cols[i], bufs[i], sizeof bufs[i]);
	return out_table_add(&o->table, cells);
}

/* One item: `t` in table mode, `raw` (the server's object) in JSON mode or for --sort. */
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
	if (o->sort) {   /* kept to the end */
		if (!o->sorted && !(o->sorted = json_object_new_array()))
			return -1;
		return json_object_array_add(o->sorted, json_object_get(raw)) ? -1 : 0;
	}
	if (o->limit > 0 && (long)o->printed >= o->limit) {
		o->limit_reached = true;
		return 0;
	}
	struct steno_transcription parsed = {0};
	struct steno_error err;
	if (!t && !o->json && !o->quiet) {
		if (steno_transcription_from_json(raw, &parsed, &err) != 0)
			return 0;
		t = &parsed;
	}
	int rc = ls_out_emit(o, id, t, raw);
	steno_transcription_free(&parsed);
	if (o->limit > 0 && (long)o->printed >= o->limit)
		o->limit_reached = true;
	return rc;
}

struct sorted_item {
	struct steno_transcription t;
	json_object *raw;
	size_t idx;             /* the server's order: breaks ties (qsort is not stable) */
};

static int sort_desc;
static int sort_field;

static int cmp_str_null(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_sorted(const void *pa, const void *pb)
{
	const struct steno_transcription *a = &((const struct sorted_item *)pa)->t;
	const struct steno_transcription *b = &((const struct sorted_item *)pb)->t;
	int c = 0;
	switch (sort_field) {
	case LS_F_ID: c = cmp_str_null(a->id, b->id); break;
	case LS_F_STATE: c = cmp_str_null(a->state, b->state); break;
	case LS_F_LANGUAGE: c = cmp_str_null(a->language, b->language); break;
	case LS_F_NAME: c = cmp_str_null(a->name, b->name); break;
	case LS_F_TAGS: c = cmp_i64((int64_t)a->tags.n, (int64_t)b->tags.n); break;
	case LS_F_LENGTH: c = cmp_i64(a->audio_length_s.v, b->audio_length_s.v); break;
	case LS_F_COST: c = cmp_i64(a->cost_cents.v, b->cost_cents.v); break;
	case LS_F_CREATED: c = cmp_i64(a->created_at.ms, b->created_at.ms); break;
	case LS_F_UPDATED: c = cmp_i64(a->updated_at.ms, b->updated_at.ms); break;
	}
	if (sort_desc)
		c = -c;
	return c ? c : cmp_i64((int64_t)((const struct sorted_item *)pa)->idx,
			       (int64_t)((const struct sorted_item *)pb)->idx);
}

/* --sort: the kept items in order (stable on the server's order), then --limit. */
static void ls_out_sorted(struct ls_out *o)
{
	size_t n = o->sorted ? json_object_array_length(o->sorted) : 0;
	struct sorted_item *v = n ? calloc(n, sizeof(*v)) : NULL;
	if (n && !v)
		return;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		struct steno_error err;
		v[k].raw = json_object_array_get_idx(o->sorted, i);
		v[k].idx = k;
		if (steno_transcription_from_json(v[k].raw, &v[k].t, &err) == 0)
			k++;
	}
	sort_field = o->sort - 1;
	sort_desc = o->sort_desc;
	qsort(v, k, sizeof(*v), cmp_sorted);
	for (size_t i = 0; i < k && (o->limit <= 0 || (long)o->printed < o->limit); i++)
		ls_out_emit(o, v[i].t.id, &v[i].t, v[i].raw);
	for (size_t i = 0; i < k; i++)
		steno_transcription_free(&v[i].t);
	free(v);
	json_object_put(o->sorted);
	o->sorted = NULL;
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
	static const struct jget_bounds bounds = JGET_PAGE_BOUNDS;
	if (jget_check_bounds(body, len, &bounds, err) != 0)
		return -1;   /* before json-c builds a tree of it */
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

/* The page is out: streamed now; a reader that went away stops the listing (-2), and so do
 * --limit's items all out (-3). */
static int ls_out_flush(struct ls_out *o)
{
	if (!o->json && !o->quiet)
		out_table_flush(&o->table, stdout, false);
	if (out_stdout_closed())
		o->closed = true;
	return o->closed ? -2 : o->limit_reached ? -3 : 0;
}

/* Emits one page's items. 0, -1 (no memory) or -2 (stdout closed). */
int ls_out_page(struct ls_out *o, const struct ls_page *p)
{
	o->pages++;
	o->more = p->has_next && p->n > 0;
	if (!ls_out_raw(o)) {
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
	if (o->sort)
		ls_out_sorted(o);
	if (o->quiet) {
		fflush(stdout);
		return;
	}
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
	if (o->more && !all && o->where)
		fprintf(stderr, "steno ls: --where filtered only the page%s listed; --all filters "
				"every page\n", o->pages == 1 ? "" : "s");
}

