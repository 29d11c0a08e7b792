#include "config.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/error_body.h"
#include "api/jget.h"
#include "api/paging.h"
#include "api/url.h"
#include "cli/cmd_ls.h"
#include "cli/cmds.h"
#include "core/query.h"

/* `steno ls`. With --all, pages are fetched concurrently and speculatively ahead (LS_AHEAD
 * requests in flight) once the first page shows how pages are numbered; when its next link is
 * not "page + 1" (a cursor, say) the links are followed one page at a time instead. The output
 * stays in page order and an item seen on an earlier page (the list moved meanwhile) is not
 * repeated. */

#define LS_AHEAD 4
#define LS_MAX_TRIES 5

static const char ls_usage[] =
	"Usage: steno ls [--org ID] [--folder ID] [--tags a,b] [--where QUERY] [--page N | --all]\n"
	"                [--json | --ndjson | -q] [--fields a,b] [--limit N] [--sort KEY]\n"
	"                [--cached]\n"
	"List transcriptions, most recent first.\n"
	"\n"
	"  --org ID       organization (default: --org, STENO_ORG_ID or the profile's)\n"
	"  --folder ID    only this folder and its subfolders (or a folder.NAME of the profile)\n"
	"  --tags a,b     only items carrying all these tags\n"
	"  --where QUERY  only the listed items that match QUERY: words (in name, id, tags),\n"
	"                 state:S, lang:L (code or name), tag:T, cost>N (<, >=, <=, =),\n"
	"                 -term to exclude (see steno(1), QUERIES)\n"
	"  --page N       this page (default: the first)\n"
	"  --all          every page (fetched several at a time, or one after another when\n"
	"                 the server's next links are not page numbers)\n"
	"  --json         a JSON array of the transcriptions as the server sent them (without\n"
	"                 --all, stderr says when more pages follow)\n"
	"  --ndjson       one transcription a line, then {\"paging\":{\"first_page\":N,\"pages\":K,\n"
	"                 \"more\":true|false}}\n"
	"  -q, --quiet    the ids alone, one a line\n"
	"  --fields a,b   these columns (JSON: these keys): id, state, language, length,\n"
	"                 created, name, tags, cost, updated\n"
	"  --limit N      at most N items (stops fetching pages then)\n"
	"  --sort KEY     sort what is listed by a field of --fields (-KEY: descending); with\n"
	"                 --all every page is read first\n"
	"  --cached       the rows last read into the local store, no request (also what\n"
	"                 --offline lists)\n";

struct ls_opts {
	const char *org, *folder, *where, *fields, *sort;
	struct cli_list tags;
	long page, limit;
	bool all, json, ndjson, quiet, cached;
};

/* ---- page fetching ---- */

struct ls_slot {
	struct ls_page page; /* parsed on arrival, printed in order */
	struct steno_transcription_page kept; /* for the local store (a->keep) */
	bool has_kept;
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
	struct cache_keep *keep;    /* the list's view in the local store, or NULL */
	char *follow;               /* following next links: the URL being fetched (malloc'd) */
	struct steno_pager pager;   /* page limit, loops, the parameters next links must keep */
};

struct ls_req {
	struct ls_all *a;
	long page;
};

/* "a,b" of --tags a --tags b, or NULL when none; *failed on no memory. Caller frees. */
static char *ls_tags_joined(const struct ls_opts *o, bool *failed)
{
	if (!o->tags.n)
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < o->tags.n; i++)
		n += strlen(o->tags.v[i]) + 1;
	char *tags = calloc(1, n + 1);
	if (!tags) {
		*failed = true;
		return NULL;
	}
	for (size_t i = 0; i < o->tags.n; i++) {
		if (i)
			strcat(tags, ",");
		strcat(tags, o->tags.v[i]);
	}
	return tags;
}

static char *ls_page_url(struct ls_all *a, long page)
{
	struct steno_url_builder b;
	char num[32];
	bool failed = false;
	steno_url_builder_init(&b, a->c->acct.base_url, "/transcriptions");
	steno_url_builder_param(&b, "organization_id", a->org);
	steno_url_builder_param(&b, "folder_id", a->o->folder);
	snprintf(num, sizeof(num), "%ld", page);
	steno_url_builder_param(&b, "page", page >= 0 ? num : NULL);
	char *tags = ls_tags_joined(a->o, &failed);
	steno_url_builder_param(&b, "tags", tags);
	free(tags);
	if (failed)
		b.failed = 1;
	return steno_url_builder_take(&b);
}

/* The parameters every next link must carry (the real service's links drop organization_id). */
static int ls_pager_init(struct ls_all *a)
{
	bool failed = false;
	steno_pager_init(&a->pager, a->c->cfg.page_limit);
	char *tags = ls_tags_joined(a->o, &failed);
	int rc = failed || steno_pager_keep(&a->pager, "organization_id", a->org) != 0 ||
			 steno_pager_keep(&a->pager, "folder_id", a->o->folder) != 0 ||
			 steno_pager_keep(&a->pager, "tags", tags) != 0
		 ? steno_error_set(&a->err, STENO_ERR_NOMEM, "out of memory")
		 : 0;
	free(tags);
	return rc;
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
	if (ls_page_parse(ls_out_raw(a->out), resp->body, resp->body_len, &p, &perr) != 0) {
		if (strcmp(perr.code, JGET_CODE_BOUNDS) && s->tries < LS_MAX_TRIES &&
		    ls_submit(a, page) == 0)
			return;
		ls_fail(a, NULL, &perr);
		return;
	}
	s->has_kept = a->keep && steno_transcription_page_parse(resp->body, resp->body_len,
								 &s->kept, &perr) == 0;
	if (!s->has_kept)
		steno_transcription_page_free(&s->kept);   /* shown, not kept */
	long end = (p.n == 0) ? page - 1 : (!p.has_next ? page : LONG_MAX);
	if (end < a->last)
		a->last = end;
	s->page = p;
	s->arrived = true;
}

/* An output failure: no memory, or stdout closed (a->out->closed: the caller stops). -1. */
static int ls_out_failed(struct ls_all *a, int rc)
{
	if (rc == -3)
		return -1;   /* --limit: every item wanted is out (a->out->limit_reached) */
	if (rc == -2)
		return steno_error_set(&a->err, STENO_ERR_IO, "stdout was closed");
	return steno_error_set(&a->err, STENO_ERR_NOMEM, "out of memory");
}

/* Writes the page that is next in order into the local store (the first restarts the list). */
static void ls_keep(struct ls_all *a, struct ls_slot *s)
{
	if (a->keep && s->has_kept)
		cache_keep_page(a->keep, &s->kept, a->next_emit == a->first);
	else
		steno_transcription_page_free(&s->kept);
	s->has_kept = false;
}

/* Prints every page that is next in order and has arrived. */
static int ls_emit_ready(struct ls_all *a)
{
	while (a->next_emit <= a->last && a->next_emit < a->next_submit) {
		struct ls_slot *s = &a->slots[a->next_emit - a->first];
		if (!s->arrived)
			break;
		ls_keep(a, s);
		int rc = ls_out_page(a->out, &s->page);
		ls_page_free(&s->page);
		if (rc != 0)
			return ls_out_failed(a, rc);
		a->next_emit++;
	}
	return 0;
}

static void ls_all_free(struct ls_all *a)
{
	steno_http_cancel_owner(a->c->http, a);
	for (size_t i = 0; i < a->nslots; i++) {
		ls_page_free(&a->slots[i].page);
		steno_transcription_page_free(&a->slots[i].kept);
	}
	cache_keep_close(a->keep);
	free(a->slots);
	free(a->follow);
	steno_pager_free(&a->pager);
}

static int ls_run_all(struct ls_all *a)
{
	while (!a->failed && a->next_emit <= a->last) {
		if (a->next_emit - a->first >= a->pager.limit) {
			/* every page up to the limit is out and the list goes on */
			a->pager.pages = a->pager.limit;
			a->failed = true;
			return steno_pager_count(&a->pager, &a->err);
		}
		while (!a->failed && a->inflight < LS_AHEAD && a->next_submit <= a->last &&
		       a->next_submit < a->next_emit + 64 && a->next_submit - a->first < a->pager.limit) {
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
		/* nothing in flight (every page up to the limit is in): the loop's top says so; a
		 * pump now would wait for ever */
		if (a->inflight)
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
		char *next = NULL;
		int more = steno_pager_next(&a->pager, nu, &next, &a->err);
		ls_keep(a, &a->slots[a->next_emit - a->first]);
		int rc = ls_out_page(a->out, p); /* this page is good even when its link is not */
		ls_page_free(p);
		a->next_emit++;
		if (rc != 0 || more <= 0) {
			free(next);
			return rc != 0 ? ls_out_failed(a, rc) : more;
		}
		free(a->follow);
		a->follow = next;
		a->last = LONG_MAX;
		if (ls_submit(a, a->next_emit) != 0 || ls_wait(a) != 0)
			return -1;
		a->next_submit = a->next_emit + 1;
	}
}

/* The exit code of a listing: a closed stdout stops it quietly (the reader went away, as
 * SIGPIPE would have it), a failure is said. */
static int ls_result(struct cli_ctx *c, struct ls_all *a, int rc)
{
	if (a->out->closed)
		return CLI_EXIT_CLOSED;
	if (a->out->limit_reached && !a->failed)
		return CLI_EXIT_OK;
	return rc != 0 || a->failed ? cli_fail(c, &a->err) : CLI_EXIT_OK;
}

/* The first page alone tells how pages are numbered (its next link); after it, the rest
 * are requested ahead by number. When the next link is not "page + 1", links are followed
 * one by one instead. */
static int ls_fetch(struct cli_ctx *c, const struct ls_opts *o, const char *org,
		    struct ls_out *out)
{
	struct ls_all a = {.c = c, .o = o, .org = org, .out = out, .last = LONG_MAX};
	a.first = a.next_submit = a.next_emit = o->page >= 0 ? o->page : 0;
	if (o->page < 0) {   /* the list from its start: the local store keeps it too */
		bool failed = false;
		char *tags = ls_tags_joined(o, &failed);
		a.keep = failed ? NULL : cache_keep_open(c, org, o->folder, tags);
		free(tags);
	}
	int rc = ls_pager_init(&a);
	if (rc == 0)
		rc = ls_submit(&a, a.next_submit++);
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
			return ls_result(c, &a, rc);
		}
	} else if (rc == 0 && !o->all && a.last > a.first) {
		a.last = a.first;
	}
	if (rc == 0 && !a.failed)
		rc = ls_run_all(&a);
	ls_all_free(&a);
	return ls_result(c, &a, rc);
}

static int ls_parse(int argc, char **argv, struct ls_opts *o)
{
	static const struct option lo[] = {
		{"org", required_argument, NULL, 'o'}, {"folder", required_argument, NULL, 'f'},
		{"tags", required_argument, NULL, 't'}, {"page", required_argument, NULL, 'p'},
		{"all", no_argument, NULL, 'a'},        {"json", no_argument, NULL, OPT_JSON},
		{"ndjson", no_argument, NULL, 'N'},     {"where", required_argument, NULL, 'w'},
		{"cached", no_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},       {"quiet", no_argument, NULL, 'q'},
		{"fields", required_argument, NULL, 'F'}, {"limit", required_argument, NULL, 'L'},
		{"sort", required_argument, NULL, 'S'}, {NULL, 0, NULL, 0},
	};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "hq", lo, NULL)) != -1) {
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
		case 'w': o->where = optarg; break;
		case 'q': o->quiet = true; break;
		case 'F': o->fields = optarg; break;
		case 'S': o->sort = optarg; break;
		case 'L':
			if ((o->limit = cmd_parse_long(optarg)) <= 0)
				return cli_usage("ls", "--limit wants a number > 0, not '%s'", optarg);
			break;
		case 'a': o->all = true; break;
		case 'C': o->cached = true; break;
		case OPT_JSON: o->json = true; break;
		case 'N': o->json = o->ndjson = true; break;
		case 'h': return -1;
		default: return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cli_usage("ls", "unexpected argument '%s'", argv[optind]);
	if (o->all && o->page >= 0)
		return cli_usage("ls", "--page and --all exclude each other");
	if (o->quiet && (o->json || o->fields))
		return cli_usage("ls", "-q prints ids alone: not with --json, --ndjson or --fields");
	return 0;
}

/* -q, --fields, --limit, --sort into the output side. 0 or a usage error. */
static int ls_out_options(const struct ls_opts *o, struct ls_out *out)
{
	char bad[64];
	out->quiet = o->quiet;
	out->limit = o->limit;
	if (o->fields && ls_fields_parse(out, o->fields, bad, sizeof bad) != 0)
		return cli_usage("ls", "--fields: no field '%s' (id, state, language, length, created, "
				       "name, tags, cost, updated)", bad);
	if (o->sort) {
		const char *k = o->sort + (o->sort[0] == '-');
		int f = ls_field(k, strlen(k));
		if (f < 0)
			return cli_usage("ls", "--sort: no key '%s' (id, state, language, length, "
					       "created, name, tags, cost, updated; -KEY: descending)", o->sort);
		out->sort = f + 1;
		out->sort_desc = o->sort[0] == '-';
	}
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
	struct query where = {0};
	char why[200];
	if (o.where && query_parse(&where, o.where, why, sizeof why) != 0) {
		cli_list_free(&o.tags);
		return cli_usage("ls", "--where: %s", why);
	}
	struct cli_ctx c;
	memset(&c, 0, sizeof c);
	struct ls_out out = {.json = o.json, .ndjson = o.ndjson, .where = o.where ? &where : NULL};
	rc = ls_out_options(&o, &out);
	out_table_init(&out.table, out.ncols ? out.ncols : 6, out.ncols ? out.heads : ls_heads);
	if (rc == 0)
		rc = cli_ctx_open(&c, g, "ls");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	c.local_only = o.cached;
	const char *org_flag = o.org;
	if (rc == 0 && o.folder && !(o.folder = cli_folder(&c, o.folder, &org_flag)))
		rc = CLI_EXIT_USAGE;   /* a configured path without a known id: said */
	const char *org = rc == 0 ? cli_org(&c, org_flag) : NULL;
	if (rc == 0 && !org)
		rc = CLI_EXIT_USAGE;
	if (rc == 0 && (o.cached || cli_offline(&c))) {
		bool failed = false;
		char *tags = ls_tags_joined(&o, &failed);
		rc = failed ? CLI_EXIT_FAIL : cache_ls(&c, org, o.folder, tags, &out);
		free(tags);
	} else if (rc == 0) {
		rc = ls_fetch(&c, &o, org, &out);
	}
	if (rc == 0)
		ls_out_finish(&out, o.page >= 0 ? o.page : 0, o.all);
	out_table_free(&out.table);
	json_object_put(out.sorted);
	idset_free(&out.seen);
	cli_list_free(&o.tags);
	query_free(&where);
	cli_ctx_close(&c);
	return rc;
}
