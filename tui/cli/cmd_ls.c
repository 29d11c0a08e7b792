#include "config.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/error_body.h"
#include "api/url.h"
#include "cli/cmds.h"

/* `steno ls`. With --all, pages are fetched concurrently and speculatively ahead (LS_AHEAD
 * requests in flight) once the first page shows how pages are numbered; when its next link is
 * not "page + 1" (a cursor, say) the links are followed one page at a time instead. The output
 * stays in page order and an item seen on an earlier page (the list moved meanwhile) is not
 * repeated. */

#define LS_AHEAD 4
#define LS_MAX_TRIES 5

static const char ls_usage[] =
	"Usage: steno ls [--org ID] [--folder ID] [--tags a,b] [--page N | --all] [--json]\n"
	"List transcriptions, most recent first.\n"
	"\n"
	"  --org ID       organization (default: --org, STENO_ORG_ID or the profile's)\n"
	"  --folder ID    only this folder and its subfolders (or a folder.NAME of the profile)\n"
	"  --tags a,b     only items carrying all these tags\n"
	"  --page N       this page (default: the first)\n"
	"  --all          every page (fetched several at a time, or one after another when\n"
	"                 the server's next links are not page numbers)\n"
	"  --json         a JSON array of the transcriptions as the server sent them\n";

struct ls_opts {
	const char *org, *folder;
	struct cli_list tags;
	long page;
	bool all, json;
};

/* A set of ids already printed (open addressing; strings owned). */
struct idset {
	char **slot;
	size_t cap, n;
};

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

static void idset_free(struct idset *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
}

/* The output side: items in page order, as a table or as a streamed JSON array. */
struct ls_out {
	bool json;
	size_t printed;
	struct idset seen;
	struct out_table table;
};

static const char *const ls_heads[] = {"ID", "STATE", "LANGUAGE", "LENGTH", "CREATED", "NAME"};

/* One item: `t` in table mode, `raw` (the server's object) in JSON mode. */
static int ls_out_item(struct ls_out *o, const char *id, const struct steno_transcription *t,
		       json_object *raw)
{
	if (id) {
		int r = idset_add(&o->seen, id);
		if (r <= 0)
			return r;
	}
	if (o->json) {
		fputs(o->printed ? ",\n  " : "[\n  ", stdout);
		/* out_json_text escapes C1 and bidi controls, which json-c leaves raw. */
		out_json_text(stdout, json_object_to_json_string_ext(raw, JSON_C_TO_STRING_PLAIN |
									     JSON_C_TO_STRING_NOSLASHESCAPE));
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

/* A page as it arrived: typed for the table, or the server's objects for --json (so the
 * body is parsed once either way). Ownership: ls_page_free. */
struct ls_page {
	struct steno_transcription_page typed;
	json_object *root;      /* JSON mode: the whole body */
	json_object *results;   /* borrowed from root */
	size_t n;               /* items (objects) */
	bool has_next;
};

static void ls_page_free(struct ls_page *p)
{
	steno_transcription_page_free(&p->typed);
	json_object_put(p->root);
	memset(p, 0, sizeof(*p));
}

static int ls_page_parse(bool json, const char *body, size_t len, struct ls_page *p,
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
static const char *ls_page_next_url(const struct ls_page *p)
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

/* Emits one page's items. 0 or -1 (no memory). */
static int ls_out_page(struct ls_out *o, const struct ls_page *p)
{
	if (!o->json) {
		for (size_t i = 0; i < p->typed.n; i++)
			if (ls_out_item(o, p->typed.items[i].id, &p->typed.items[i], NULL) != 0)
				return -1;
		return 0;
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
	return 0;
}

static void ls_out_finish(struct ls_out *o)
{
	if (o->json)
		fputs(o->printed ? "\n]\n" : "[]\n", stdout);
	else
		out_table_print(&o->table, stdout);
}

/* ---- page fetching ---- */

struct ls_slot {
	struct ls_page page; /* parsed on arrival, printed in order */
	bool arrived;
	int tries;
	uint64_t req;
};

struct ls_all {
	struct cli_ctx *c;
	const struct ls_opts *o;
	const char *org;
	long first;                 /* page number of slot 0 */
	struct ls_slot *slots;
	size_t nslots;
	long next_submit, next_emit;
	long last;                  /* last page with items; LONG_MAX while unknown */
	unsigned inflight;
	bool failed;
	struct steno_error err;
	struct ls_out *out;
	char *follow;               /* following next links: the URL being fetched (malloc'd) */
};

struct ls_req {
	struct ls_all *a;
	long page;
};

static char *ls_page_url(struct ls_all *a, long page)
{
	struct steno_url_builder b;
	char num[32], *tags = NULL;
	steno_url_builder_init(&b, a->c->acct.base_url, "/transcriptions");
	steno_url_builder_param(&b, "organization_id", a->org);
	steno_url_builder_param(&b, "folder_id", a->o->folder);
	snprintf(num, sizeof(num), "%ld", page);
	steno_url_builder_param(&b, "page", page >= 0 ? num : NULL);
	if (a->o->tags.n) {
		size_t n = 0;
		for (size_t i = 0; i < a->o->tags.n; i++)
			n += strlen(a->o->tags.v[i]) + 1;
		if ((tags = calloc(1, n + 1)))
			for (size_t i = 0; i < a->o->tags.n; i++) {
				if (i)
					strcat(tags, ",");
				strcat(tags, a->o->tags.v[i]);
			}
		else
			b.failed = 1;
	}
	steno_url_builder_param(&b, "tags", tags);
	free(tags);
	return steno_url_builder_take(&b);
}

static struct ls_slot *ls_slot(struct ls_all *a, long page)
{
	size_t i = (size_t)(page - a->first);
	if (i >= a->nslots) {
		size_t n = a->nslots ? a->nslots : 16;
		while (n <= i)
			n *= 2;
		struct ls_slot *s = realloc(a->slots, n * sizeof(*s));
		if (!s)
			return NULL;
		memset(s + a->nslots, 0, (n - a->nslots) * sizeof(*s));
		a->slots = s;
		a->nslots = n;
	}
	return &a->slots[i];
}

static void ls_on_page(void *ud, const struct steno_http_response *resp,
		       const struct steno_error *err);

static void ls_drop(void *ud)
{
	free(ud);
}

static int ls_submit(struct ls_all *a, long page)
{
	struct ls_slot *s = ls_slot(a, page);
	struct ls_req *r = malloc(sizeof(*r));
	char *url = a->follow ? strdup(a->follow) : ls_page_url(a, page);
	if (!s || !r || !url) {
		free(r);
		free(url);
		return steno_error_set(&a->err, STENO_ERR_NOMEM, "out of memory");
	}
	r->a = a;
	r->page = page;
	struct steno_http_request req = {
		.method = "GET", .url = url, .owner = a, .done = ls_on_page, .ud = r, .drop = ls_drop,
	};
	int rc = steno_http_submit(a->c->http, &req, &s->req, &a->err);
	free(url);
	if (rc != 0) {
		free(r);
		return -1;
	}
	s->tries++;
	a->inflight++;
	return 0;
}

static void ls_fail(struct ls_all *a, const struct steno_http_response *resp,
		    const struct steno_error *err)
{
	if (a->failed)
		return;
	a->failed = true;
	a->err = *err;
	if (err->kind == STENO_ERR_HTTP && resp && resp->status > 0) {
		steno_error_clear(&a->err);
		steno_error_from_http(resp, &a->err);
	}
}

/* Checks a page as soon as it arrives: a malformed body is asked for again, and an empty
 * page or one without a next link fixes where the list ends. */
static void ls_on_page(void *ud, const struct steno_http_response *resp,
		       const struct steno_error *err)
{
	struct ls_req *r = ud;
	struct ls_all *a = r->a;
	long page = r->page;
	free(r);
	a->inflight--;
	if (err) {
		ls_fail(a, resp, err);
		return;
	}
	struct ls_slot *s = &a->slots[page - a->first];
	struct ls_page p;
	struct steno_error perr;
	steno_error_clear(&perr);
	if (ls_page_parse(a->out->json, resp->body, resp->body_len, &p, &perr) != 0) {
		if (s->tries < LS_MAX_TRIES && ls_submit(a, page) == 0)
			return;
		ls_fail(a, NULL, &perr);
		return;
	}
	long end = (p.n == 0) ? page - 1 : (!p.has_next ? page : LONG_MAX);
	if (end < a->last)
		a->last = end;
	s->page = p;
	s->arrived = true;
}

/* Prints every page that is next in order and has arrived. */
static int ls_emit_ready(struct ls_all *a)
{
	while (a->next_emit <= a->last && a->next_emit < a->next_submit) {
		struct ls_slot *s = &a->slots[a->next_emit - a->first];
		if (!s->arrived)
			break;
		int rc = ls_out_page(a->out, &s->page);
		ls_page_free(&s->page);
		if (rc != 0)
			return steno_error_set(&a->err, STENO_ERR_NOMEM, "out of memory");
		a->next_emit++;
	}
	return 0;
}

static void ls_all_free(struct ls_all *a)
{
	steno_http_cancel_owner(a->c->http, a);
	for (size_t i = 0; i < a->nslots; i++)
		ls_page_free(&a->slots[i].page);
	free(a->slots);
	free(a->follow);
}

static int ls_run_all(struct ls_all *a)
{
	while (!a->failed && a->next_emit <= a->last) {
		while (!a->failed && a->inflight < LS_AHEAD && a->next_submit <= a->last &&
		       a->next_submit < a->next_emit + 64) {
			if (ls_submit(a, a->next_submit) != 0)
				return -1;
			a->next_submit++;
		}
		if (ls_emit_ready(a) != 0)
			return -1;
		if (a->next_emit > a->last || a->failed)
			break;
		if (cli_interrupted()) {
			cli_interrupt_error(&a->err);
			return -1;
		}
		cli_pump(a->c);
	}
	if (!a->failed && ls_emit_ready(a) != 0)
		return -1;
	return a->failed ? -1 : 0;
}

/* Waits for the requests in flight. 0, or -1 (failed or interrupted, a->err set). */
static int ls_wait(struct ls_all *a)
{
	while (!a->failed && a->inflight && !cli_interrupted())
		cli_pump(a->c);
	if (cli_interrupted())
		return cli_interrupt_error(&a->err);
	return a->failed ? -1 : 0;
}

/* The server does not number its pages one by one (a cursor, say): each page's next link is
 * followed, one page at a time, until a page without one or without items. The page of
 * slot a->next_emit has arrived. */
static int ls_follow(struct ls_all *a)
{
	for (;;) {
		struct ls_page *p = &a->slots[a->next_emit - a->first].page;
		const char *nu = p->n ? ls_page_next_url(p) : NULL;
		/* a link back to the page just read would never end */
		char *next = nu && (!a->follow || strcmp(nu, a->follow) != 0) ? strdup(nu) : NULL;
		if (nu && !next && (!a->follow || strcmp(nu, a->follow) != 0))
			return steno_error_set(&a->err, STENO_ERR_NOMEM, "out of memory");
		int rc = ls_out_page(a->out, p);
		ls_page_free(p);
		a->next_emit++;
		if (rc != 0 || !next) {
			free(next);
			return rc != 0 ? steno_error_set(&a->err, STENO_ERR_NOMEM, "out of memory") : 0;
		}
		free(a->follow);
		a->follow = next;
		a->last = LONG_MAX;
		if (ls_submit(a, a->next_emit) != 0 || ls_wait(a) != 0)
			return -1;
		a->next_submit = a->next_emit + 1;
	}
}

/* The first page alone tells how pages are numbered (its next link); after it, the rest
 * are requested ahead by number. When the next link is not "page + 1", links are followed
 * one by one instead. */
static int ls_fetch(struct cli_ctx *c, const struct ls_opts *o, const char *org,
		    struct ls_out *out)
{
	struct ls_all a = {.c = c, .o = o, .org = org, .out = out, .last = LONG_MAX};
	a.first = a.next_submit = a.next_emit = o->page >= 0 ? o->page : 0;
	int rc = ls_submit(&a, a.next_submit++);
	if (rc == 0 && ls_wait(&a) != 0 && !a.failed)
		rc = -1;   /* interrupted */
	if (rc == 0 && !a.failed && o->all && a.last == LONG_MAX) {
		/* Peek at the first page's next link to decide how to go on. */
		const char *nu = ls_page_next_url(&a.slots[0].page);
		long next = -1;
		const char *q = nu ? strstr(nu, "page=") : NULL;
		if (q && (q == nu || q[-1] == '?' || q[-1] == '&'))
			next = strtol(q + 5, NULL, 10);
		if (next != a.first + 1) {
			rc = ls_follow(&a);
			ls_all_free(&a);
			return rc != 0 || a.failed ? cli_fail(c, &a.err) : CLI_EXIT_OK;
		}
	} else if (rc == 0 && !o->all && a.last > a.first) {
		a.last = a.first;
	}
	if (rc == 0 && !a.failed)
		rc = ls_run_all(&a);
	if (rc != 0 || a.failed) {
		ls_all_free(&a);
		return cli_fail(c, &a.err);
	}
	ls_all_free(&a);
	return CLI_EXIT_OK;
}

static int ls_parse(int argc, char **argv, struct ls_opts *o)
{
	static const struct option lo[] = {
		{"org", required_argument, NULL, 'o'}, {"folder", required_argument, NULL, 'f'},
		{"tags", required_argument, NULL, 't'}, {"page", required_argument, NULL, 'p'},
		{"all", no_argument, NULL, 'a'},        {"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
	};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': o->org = optarg; break;
		case 'f': o->folder = optarg; break;
		case 't':
			if (cli_list_split(&o->tags, optarg) != 0)
				return CLI_EXIT_FAIL;
			break;
		case 'p':
			if ((o->page = cmd_parse_long(optarg)) < 0)
				return cli_usage("ls", "--page wants a number >= 0, not '%s'", optarg);
			break;
		case 'a': o->all = true; break;
		case OPT_JSON: o->json = true; break;
		case 'h': return -1;
		default: return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("ls", "unexpected argument '%s'", argv[optind]);
	if (o->all && o->page >= 0)
		return cli_usage("ls", "--page and --all exclude each other");
	return 0;
}

int cmd_ls(const struct cli_globals *g, int argc, char **argv)
{
	struct ls_opts o = {.page = -1};
	int rc = ls_parse(argc, argv, &o);
	if (rc != 0) {
		cli_list_free(&o.tags);
		return rc < 0 ? cmd_help(ls_usage) : rc;
	}
	struct cli_ctx c;
	struct ls_out out = {.json = o.json};
	out_table_init(&out.table, 6, ls_heads);
	rc = cli_ctx_open(&c, g, "ls");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	const char *org_flag = o.org;
	if (rc == 0 && o.folder)
		o.folder = cli_folder(&c, o.folder, &org_flag);
	const char *org = rc == 0 ? cli_org(&c, org_flag) : NULL;
	if (rc == 0 && !org)
		rc = CLI_EXIT_USAGE;
	if (rc == 0)
		rc = ls_fetch(&c, &o, org, &out);
	if (rc == 0)
		ls_out_finish(&out);
	out_table_free(&out.table);
	idset_free(&out.seen);
	cli_list_free(&o.tags);
	cli_ctx_close(&c);
	return rc;
}
