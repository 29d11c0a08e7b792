/* `steno index` (fills the local content store: the organization's list, then the content
 * of every finished transcription that is missing or outdated) and `steno search` (full-text
 * search of that store, no request sent). */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/http.h"
#include "cli/cmds.h"
#include "core/content_db.h"
#include "core/content_sync.h"
#include "core/localdb.h"
#include "core/query.h"
#include "core/store.h"
#include "core/sync.h"

static const char index_usage[] =
	"Usage: steno index [--org ID] [--json]\n"
	"Fill the local store with the content of the organization's finished transcriptions\n"
	"(for steno search and the reader): its list first, then, one at a time and after\n"
	"anything else, each transcript that is missing or older than its updatedAt. What the\n"
	"list no longer holds leaves the store. Progress on a terminal; at the end, how many\n"
	"transcriptions the store holds and how many wait. Interrupted, it goes on from there\n"
	"the next time. Under --read-only, a server of the earlier API form (no downloadUrl)\n"
	"gives nothing: its transcripts are only read through exports, which are not created.\n"
	"\n"
	"  --org ID    organization (default: --org, STENO_ORG_ID or the profile's)\n"
	"  --json      the end as one JSON document: {\"held\", \"waiting\", \"read\", \"failed\"}\n";

static const char search_usage[] =
	"Usage: steno search QUERY [--org ID] [--where Q] [--limit N] [--names] [--json]\n"
	"Search the words of every transcript in the local store (fill it with steno index);\n"
	"no request is sent. Diacritics and case are folded (Zoe finds Zoë).\n"
	"  words        every word must occur in the same passage\n"
	"  \"a phrase\"   the words in this order\n"
	"  gard*        a prefix\n"
	"  a OR b, a NOT b, a AND (b OR c)\n"
	"Transcriptions are ranked (bm25 over their whole text), and the hits of each come in\n"
	"the order said, at most 5 a transcription; one hit a line: name, id, time code,\n"
	"speaker, and the words around the match, marked bold on a terminal and [like this] in\n"
	"a pipe (where the fields are separated by tabs).\n"
	"\n"
	"  --org ID     only this organization (default: --org, STENO_ORG_ID or the profile's;\n"
	"               with none of them, every organization in the store)\n"
	"  --where Q    only transcriptions matching the filter Q (as steno ls --where)\n"
	"  --limit N    at most N hits (default 50)\n"
	"  --names      also search names and tags (those hits come first, without time code)\n"
	"  --json       one JSON document: {\"query\", \"hits\": [{\"id\", \"name\", \"start\",\n"
	"               \"end\" (seconds, null for a name), \"speaker\", \"snippet\"}]}\n";

/* The local store of this server (core/localdb.h); NULL after printing why. */
static sqlite3 *open_store(struct cli_ctx *c, struct localdb **ldb)
{
	struct steno_error err;
	char *notice = NULL;
	struct localdb_options o = { .cache_dir = c->paths.cache_dir,
		.base_url = c->acct.base_url, .off = c->cfg.cache_off };
	int rc = localdb_open(&o, ldb, &notice, &err);

	if (notice) {
		char *clean = out_clean(notice);
		fprintf(stderr, "steno %s: %s\n", c->cmd, clean ? clean : "");
		free(clean);
		free(notice);
	}
	if (rc == 1)
		steno_error_set(&err, STENO_ERR_CONFIG, "the local store is off (cache = off in the "
				"configuration): there is nothing to %s", c->cmd);
	if (rc != 0) {
		cli_fail(c, &err);
		return NULL;
	}
	return localdb_handle(*ldb);
}

/* ---- steno index ---- */

struct indexer {
	struct cli_ctx *c;
	struct steno_store *store;
	struct steno_sync *sync;
	struct content_sync *cs;
	char *org;
	bool json;
};

static bool sync_busy(void *ud)
{
	struct indexer *ix = ud;
	return sync_in_flight(ix->sync) > 0;
}

static void index_log(void *ud, const char *line)
{
	struct indexer *ix = ud;
	out_progress_end();
	char *clean = out_clean(line);
	fprintf(stderr, "steno index: %s\n", clean ? clean : "out of memory");
	free(clean);
	(void)ix;
}

/* The engine's store is the local store (store_attach_db takes *ldb): the list it reads is
 * written to the transcriptions table, whose names, tags, states and updatedAt the transcript
 * index reads (core/content_db.h). */
static int index_open(struct indexer *ix, struct localdb **ldb)
{
	struct cli_ctx *c = ix->c;
	struct steno_error err;
	struct sync_config sc = { .http = c->http, .base_url = c->acct.base_url,
		.org_id = ix->org, .keep_http_listeners = true };
	/* the engine reads the list; the items it lists are not polled meanwhile (a running
	 * transcription is read once it is done, by the next index) */

	if (!(ix->store = store_new()))
		return cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_NOMEM,
							  .message = "out of memory" });
	store_set_page_limit(ix->store, c->cfg.page_limit);
	int attached = store_attach_db(ix->store, *ldb, NULL, NULL, &err);
	*ldb = NULL;
	if (attached != 0)
		return cli_fail(c, &err);
	sqlite3 *db = localdb_handle(store_localdb(ix->store));
	sc.store = ix->store;
	scheduler_policy_default(&sc.policy);
	sc.policy.requests_per_second = c->cfg.requests_per_second;
	sc.policy.min_ms = sc.policy.max_ms = sc.policy.needs_action_ms = 24LL * 3600 * 1000;
	if (!(ix->sync = sync_new(&sc, &err)))
		return cli_fail(c, &err);
	char *export_dir = paths_join(c->paths.cache_dir, "content/export");
	struct content_sync_config cc = { .http = c->http, .db = db, .store = ix->store,
		.jobs = c->jobs, .export_dir = export_dir, .allow_export = !c->g->read_only,
		.org = ix->org, .busy = sync_busy, .log = index_log, .ud = ix,
		/* two reads in flight: the server works on one while steno stores the other */
		.parallel = 2 };
	ix->cs = content_sync_new(&cc, &err);
	free(export_dir);
	return ix->cs ? 0 : cli_fail(c, &err);
}

static void index_close(struct indexer *ix)
{
	content_sync_free(ix->cs);
	sync_free(ix->sync);
	store_free(ix->store);
}

static void index_progress(struct indexer *ix)
{
	long held, waiting;
	if (!out_progress_enabled())
		return;
	content_sync_progress(ix->cs, &held, &waiting);
	if (held >= 0)
		out_progress_text("indexing %ld of %ld", held, held + waiting);
}

static int index_run(struct indexer *ix)
{
	struct cli_ctx *c = ix->c;
	struct steno_error err;
	struct store_view *v;

	if (sync_load_view(ix->sync, ix->org, NULL, NULL, true, true) < 0)
		return cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_NOMEM,
							  .message = "could not read the list" });
	for (;;) {
		sync_run(ix->sync);
		content_sync_run(ix->cs);
		index_progress(ix);
		v = sync_view(ix->sync, ix->org, NULL, NULL);
		bool list_done = v && !store_refresh_running(ix->store, v->key) &&
			(v->end || v->has_error);
		if (list_done && v->has_error) {
			out_progress_end();
			return cli_fail(c, &v->error);
		}
		long t = content_sync_timeout_ms(ix->cs);
		if (list_done && !content_sync_active(ix->cs) && !sync_in_flight(ix->sync) &&
		    (t < 0 || t > 0))
			break;   /* nothing waits but a failure's pause: the next run tries it */
		if (cli_interrupted()) {
			out_progress_end();
			return cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_CANCELLED,
								  .message = "interrupted" });
		}
		long ts = sync_timeout_ms(ix->sync), tj = jobs_timeout_ms(c->jobs);
		if (ts < 0 || (t >= 0 && t < ts))
			ts = t;
		if (ts < 0 || (tj >= 0 && tj < ts))
			ts = tj;
		cli_wait(c, ts);
		jobs_tick(c->jobs);
	}
	out_progress_end();
	long held, waiting;
	content_sync_progress(ix->cs, &held, &waiting);
	if (held < 0)
		return cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_IO,
							  .message = "the local store cannot be read" });
	if (ix->json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "held", json_object_new_int64(held));
		json_object_object_add(o, "waiting", json_object_new_int64(waiting));
		json_object_object_add(o, "read", json_object_new_int64(content_sync_fetched(ix->cs)));
		json_object_object_add(o, "failed", json_object_new_int64(content_sync_failed(ix->cs)));
		out_json(stdout, o);
		json_object_put(o);
	} else {
		printf("%ld transcriptions held, %ld waiting (%ld read now, %ld failed)\n", held,
		       waiting, content_sync_fetched(ix->cs), content_sync_failed(ix->cs));
	}
	(void)err;
	return waiting ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cmd_index(const struct cli_globals *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{"org", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
		{"json", no_argument, NULL, OPT_JSON}, {NULL, 0, NULL, 0} };
	const char *org_flag = NULL;
	bool json = false;
	int ch;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == 'o')
			org_flag = optarg;
		else if (ch == OPT_JSON)
			json = true;
		else if (ch == 'h')
			return cmd_help(index_usage);
		else
			return CLI_EXIT_USAGE;
	}
	if (optind < argc)
		return cli_usage("index", "unexpected argument '%s'", argv[optind]);
	struct cli_ctx c;
	int rc = cli_ctx_open(&c, g, "index");
	if (rc || (rc = cli_ctx_connect(&c)) || (rc = cli_ctx_jobs(&c))) {
		cli_ctx_close(&c);
		return rc;
	}
	out_progress_init();
	struct indexer ix = { .c = &c, .json = json };
	struct localdb *ldb = NULL;
	const char *org = cli_org(&c, org_flag);
	sqlite3 *db = org ? open_store(&c, &ldb) : NULL;
	rc = CLI_EXIT_FAIL;
	if (db && (ix.org = strdup(org)) && (rc = index_open(&ix, &ldb)) == 0)
		rc = index_run(&ix);
	index_close(&ix);
	free(ix.org);
	localdb_close(ldb);
	cli_ctx_close(&c);
	return rc;
}

/* ---- steno search ---- */

#define MARK_OPEN "\x02"
#define MARK_CLOSE "\x03"

static bool where_keep(void *ud, const struct content_hit *h)
{
	const struct query *q = ud;
	char *tags = h->tags ? strdup(h->tags) : NULL;
	const char *tagv[64];
	size_t nt = 0;
	for (char *save = NULL, *t = tags ? strtok_r(tags, "\t", &save) : NULL; t && nt < 64;
	     t = strtok_r(NULL, "\t", &save))
		tagv[nt++] = t;
	struct query_item it = { .id = h->id, .name = h->name, .state = h->state,
		.language = h->language, .tags = tagv, .n_tags = nt, .has_cost = h->has_cost,
		.cost_cents = h->cost_cents };
	bool keep = query_match(q, &it);
	free(tags);
	return keep;
}

/* The snippet cleaned for the output, its marks as `open`/`close`. Caller frees. */
static char *snippet_marked(const char *s, const char *open, const char *close)
{
	size_t cap = strlen(s) * 2 + 64, o = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = '\0';
	while (*s) {
		size_t k = strcspn(s, MARK_OPEN MARK_CLOSE);
		char *piece = strndup(s, k), *clean = piece ? out_clean(piece) : NULL;
		free(piece);
		if (!clean) {
			free(out);
			return NULL;
		}
		const char *mark = s[k] == MARK_OPEN[0] ? open : s[k] == MARK_CLOSE[0] ? close : "";
		size_t need = o + strlen(clean) + strlen(mark) + 1;
		if (need > cap) {
			char *bigger = realloc(out, cap = need * 2);
			if (!bigger) {
				free(clean);
				free(out);
				return NULL;
			}
			out = bigger;
		}
		o += (size_t)sprintf(out + o, "%s%s", clean, mark);
		free(clean);
		s += k + (s[k] ? 1 : 0);
	}
	return out;
}

static void print_hit(const struct content_hit *h, bool tty)
{
	char tc[32];
	const char *sep = tty ? "  " : "\t";
	char *name = out_clean(h->name ? h->name : "-"), *id = out_clean(h->id);
	char *speaker = out_clean(h->speaker ? h->speaker : "-");
	char *snip = snippet_marked(h->snippet ? h->snippet : "", tty ? "\033[1m" : "[",
				    tty ? "\033[22m" : "]");
	if (h->start >= 0)
		content_timecode(h->start, tc, sizeof tc);
	else
		snprintf(tc, sizeof tc, "%s", h->para < 0 ? "name" : "--:--");
	if (name && id && speaker && snip)
		printf("%s%s%s%s%s%s%s%s%s\n", name, sep, id, sep, tc, sep, speaker, sep, snip);
	free(name);
	free(id);
	free(speaker);
	free(snip);
}

static void json_add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static int print_json(const char *query, const struct content_hit *hits, size_t n)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	if (!root || !arr) {
		json_object_put(root);
		json_object_put(arr);
		return -1;
	}
	json_add_str(root, "query", query);
	for (size_t i = 0; i < n; i++) {
		json_object *h = json_object_new_object();
		char *snip = snippet_marked(hits[i].snippet ? hits[i].snippet : "", "[", "]");
		json_add_str(h, "id", hits[i].id);
		json_add_str(h, "name", hits[i].name);
		json_object_object_add(h, "start", hits[i].start >= 0 ?
				       json_object_new_double(hits[i].start) : NULL);
		json_object_object_add(h, "end", hits[i].end >= 0 ?
				       json_object_new_double(hits[i].end) : NULL);
		json_add_str(h, "speaker", hits[i].speaker);
		json_add_str(h, "snippet", snip);
		free(snip);
		json_object_array_add(arr, h);
	}
	json_object_object_add(root, "hits", arr);
	out_json(stdout, root);
	json_object_put(root);
	return 0;
}

struct search_opts {
	const char *org, *where, *text;
	long limit;
	bool names, json;
};

static int search_parse(int argc, char **argv, struct search_opts *o)
{
	enum { OPT_WHERE = 300, OPT_LIMIT, OPT_NAMES };
	static const struct option lo[] = {
		{"org", required_argument, NULL, 'o'}, {"where", required_argument, NULL, OPT_WHERE},
		{"limit", required_argument, NULL, OPT_LIMIT}, {"names", no_argument, NULL, OPT_NAMES},
		{"json", no_argument, NULL, OPT_JSON}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0} };
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == 'o')
			o->org = optarg;
		else if (ch == OPT_WHERE)
			o->where = optarg;
		else if (ch == OPT_LIMIT && (o->limit = cmd_parse_long(optarg)) <= 0)
			return cli_usage("search", "--limit needs a number above 0");
		else if (ch == OPT_NAMES)
			o->names = true;
		else if (ch == OPT_JSON)
			o->json = true;
		else if (ch == 'h')
			return -1;
		else if (ch != OPT_LIMIT)
			return CLI_EXIT_USAGE;
	}
	if (argc - optind != 1)
		return cli_usage("search", argc - optind ? "one QUERY (quote it: steno search "
				 "'a b')" : "what to search for? steno search QUERY");
	o->text = argv[optind];
	return 0;
}

int cmd_search(const struct cli_globals *g, int argc, char **argv)
{
	struct search_opts o = { .limit = 50 };
	struct query where = { 0 };
	char qerr[200];
	struct steno_error err;
	int rc = search_parse(argc, argv, &o);

	if (rc)
		return rc < 0 ? cmd_help(search_usage) : rc;
	if (query_parse(&where, o.where, qerr, sizeof qerr) < 0)
		return cli_usage("search", "--where: %s", qerr);
	struct cli_ctx c;
	if ((rc = cli_ctx_open(&c, g, "search")) || (rc = cli_ctx_account(&c))) {
		cli_ctx_close(&c);
		query_free(&where);
		return rc;
	}
	/* an organization only when one is named: no request to find the key's only one */
	const char *org = o.org || g->org ? cli_org(&c, o.org) : c.acct.org_id;
	struct localdb *ldb = NULL;
	sqlite3 *db = open_store(&c, &ldb);
	struct content_hit *hits = NULL;
	size_t n = 0;
	struct content_query q = { .text = o.text, .org = org, .names = o.names,
		.limit = o.limit, .mark_open = MARK_OPEN, .mark_close = MARK_CLOSE,
		.keep = o.where ? where_keep : NULL, .keep_ud = &where };
	rc = CLI_EXIT_FAIL;
	if (db && content_db_search(db, &q, &hits, &n, &err) < 0)
		rc = cli_fail(&c, &err);
	else if (db && o.json)
		rc = print_json(o.text, hits, n) < 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	else if (db) {
		bool tty = isatty(STDOUT_FILENO);
		for (size_t i = 0; i < n; i++)
			print_hit(&hits[i], tty);
		if (!n) {
			long held = 0, waiting = 0;
			content_db_counts(db, org, &held, &waiting, &err);
			fprintf(stderr, "steno search: no hit in %ld transcripts%s\n", held,
				held ? "" : " (fill the store with steno index)");
		}
		rc = n ? CLI_EXIT_OK : CLI_EXIT_FAIL;
	}
	content_hits_free(hits, n);
	localdb_close(ldb);
	query_free(&where);
	cli_ctx_close(&c);
	return rc;
}
