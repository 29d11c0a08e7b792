/* steno watch: the sync engine (core/sync.h) headless. It watches the items named (and with
 * --list the organization's list, kept live) and prints one line per state change until
 * every named item has settled; order watch runs on it too. */
#include "config.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "api/http.h"
#include "api/spec_tables.h"
#include "cli/cmd_watch.h"
#include "cli/cmds.h"
#include "core/store.h"
#include "core/sync.h"

static const char watch_usage[] =
	"Usage: steno watch [--order | --export | --task] [--list] [--json] [ID...]\n"
	"Follow transcriptions (or with --order, --export, --task those; a KIND:ID argument,\n"
	"e.g. order:ID, names the kind of one) and print a line at each state change until all\n"
	"have settled (done, failed, or waiting for a person). --list also follows the\n"
	"organization's list (new items and their changes), read again every `refresh` seconds,\n"
	"until interrupted (exit 130). --json: one JSON object a line (a failure adds its\n"
	"failure object as the last line). Exit 0 when all ended well, 1 when one failed,\n"
	"waits for a person (incomplete, locked) or was not found (as order watch); 141 as soon\n"
	"as the reader of the pipe it writes to went away (steno watch --list | head -n 1).\n";

/* One thing followed. */
struct watch_item {
	enum sched_kind kind;
	char *id;
	char *state;     /* last printed (NULL: none yet) */
	bool named;      /* given on the command line: the watch ends when all of these settle */
	bool settled, failed;
};

struct watch {
	struct cli_ctx *c;
	struct steno_store *store;
	struct steno_sync *sync;
	struct watch_item *items;
	size_t n, cap;
	bool json, bare;
	bool closed;     /* stdout's reader went away: the watch stops (exit 141) */
};

static const char *const kind_names[] = { "transcription", "order", "export", "translation" };

static int watch_add(struct watch *w, enum sched_kind kind, const char *id, bool named)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->items[i].kind == kind && !strcmp(w->items[i].id, id))
			return 0;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 8;
		struct watch_item *n = realloc(w->items, cap * sizeof *n);
		if (!n)
			return -1;
		w->items = n;
		w->cap = cap;
	}
	struct watch_item *it = &w->items[w->n];
	*it = (struct watch_item){ .kind = kind, .id = strdup(id), .named = named };
	if (!it->id)
		return -1;
	w->n++;
	if (kind == SCHED_TRANSCRIPTION)
		return sync_watch_transcription(w->sync, id);
	return sync_watch(w->sync, (enum store_activity_kind)(kind - 1), id);
}

/* The state the store knows of an item; *gone when the server said it does not exist. */
static const char *item_state(struct watch *w, const struct watch_item *it, bool *gone)
{
	*gone = false;
	if (it->kind == SCHED_TRANSCRIPTION) {
		const struct store_transcription *t = store_transcription_get(w->store, it->id);
		/* no record and no longer polled: the server answered 404 or 410 */
		*gone = !t && scheduler_interval(sync_scheduler(w->sync), it->kind, it->id) < 0;
		return t ? t->t.state : NULL;
	}
	const struct store_activity *a = store_activity_find(w->store,
		(enum store_activity_kind)(it->kind - 1), it->id);
	/* the sync engine drops an item the server answers 404 or 410 for (sync_unwatch) */
	if ((a && a->has_error && a->error.kind == STENO_ERR_HTTP &&
	     (a->error.http_status == 404 || a->error.http_status == 410)) ||
	    (!a && scheduler_interval(sync_scheduler(w->sync), it->kind, it->id) < 0))
		*gone = true;
	return a ? a->state : NULL;
}

static void print_change(struct watch *w, const struct watch_item *it, const char *state)
{
	if (w->bare) {   /* order watch: the state alone (to stderr under --json) */
		char *st = out_clean(state);
		fprintf(w->json ? stderr : stdout, "%s\n", st ? st : "?");
		fflush(w->json ? stderr : stdout);
		free(st);
		return;
	}
	if (w->json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "kind", json_object_new_string(kind_names[it->kind]));
		json_object_object_add(o, "id", json_object_new_string(it->id));
		json_object_object_add(o, "state", json_object_new_string(state));
		json_object_object_add(o, "settled", json_object_new_boolean(it->settled));
		json_object_object_add(o, "failed", json_object_new_boolean(it->failed));
		out_json_line(stdout, o);
		json_object_put(o);
	} else {
		char *id = out_clean(it->id), *st = out_clean(state);
		printf("%s %s %s\n", kind_names[it->kind], id ? id : "?", st ? st : "?");
		free(id);
		free(st);
	}
	if (out_stdout_closed())
		w->closed = true;
}

/* Prints what moved; returns true while a named item has not settled. */
static bool watch_scan(struct watch *w)
{
	bool waiting = false;

	for (size_t i = 0; i < w->n; i++) {
		struct watch_item *it = &w->items[i];
		bool gone;
		const char *st = item_state(w, it, &gone);
		if (gone && !it->settled) {
			it->settled = it->failed = true;
			print_change(w, it, "not found");
		} else if (st && (!it->state || strcmp(st, it->state))) {
			enum spec_state_kind sk = scheduler_spec_kind(it->kind);
			it->settled = spec_state_is_final(sk, st) || spec_state_needs_action(sk, st);
			/* as order confirm --wait: waiting for action did not get done (watch and
			 * order watch agree) */
			it->failed = spec_state_is_failure(sk, st) || spec_state_needs_action(sk, st);
			free(it->state);
			it->state = strdup(st);
			print_change(w, it, st);
		}
		waiting |= it->named && !it->settled;
	}
	return waiting;
}

/* The organization's list: its items join the watch (not named: they do not hold it). */
static void watch_list(struct watch *w, const char *org)
{
	struct store_view *v = sync_view(w->sync, org, NULL, NULL);

	for (size_t i = 0; v && i < v->n; i++)
		if (watch_add(w, SCHED_TRANSCRIPTION, v->ids[i], false) < 0)
			return;
}

static int watch_open(struct watch *w, struct cli_ctx *c)
{
	struct steno_error err;
	struct sync_config sc = { .http = c->http, .state = &c->state,
		.base_url = c->acct.base_url, .org_id = c->acct.org_id,
		.live_ms = (int64_t)(c->cfg.live_refresh_s * 1000) };

	w->c = c;
	if (!(w->store = store_new()))
		return cli_fail(c, &(struct steno_error){ .kind = STENO_ERR_NOMEM,
							  .message = "out of memory" });
	sc.store = w->store;
	scheduler_policy_default(&sc.policy);
	sc.policy.min_ms = (int64_t)(c->cfg.refresh_interval_s * 1000);
	sc.policy.max_ms = (int64_t)(c->cfg.refresh_max_s * 1000);
	sc.policy.requests_per_second = c->cfg.requests_per_second;
	sc.keep_http_listeners = true; /* the command says its own retries on stderr */
	if (!(w->sync = sync_new(&sc, &err)))
		return cli_fail(c, &err);
	return 0;
}

static void watch_close(struct watch *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->items[i].id);
		free(w->items[i].state);
	}
	free(w->items);
	sync_free(w->sync);
	store_free(w->store);
}

/* Says why a named item failed (stderr; with --json the failure document, cli/errors.h). */
static void watch_failed(struct watch *w, const struct watch_item *it)
{
	enum spec_state_kind sk = scheduler_spec_kind(it->kind);
	const char *code = !it->state ? "not_found"
		: spec_state_needs_action(sk, it->state) ? "needs_action" : "job_failed";
	char msg[400];
	char *id = out_clean(it->id), *st = out_clean(it->state);
	if (!it->state)
		snprintf(msg, sizeof msg, "%s %s not found", kind_names[it->kind], id ? id : "");
	else if (!strcmp(code, "needs_action"))
		snprintf(msg, sizeof msg, "%s %s is %s and waits for action in the web application",
			 kind_names[it->kind], id ? id : "", st ? st : "");
	else
		snprintf(msg, sizeof msg, "%s %s is %s", kind_names[it->kind], id ? id : "",
			 st ? st : "");
	free(id);
	free(st);
	fprintf(stderr, "steno %s: %s\n", w->c->cmd, msg);
	cli_json_error(0, code, it->state, msg, NULL);
}

/* Runs the engine until every named item settled (forever with a list). Exit code. */
static int watch_run(struct watch *w, const char *list_org)
{
	if (list_org && sync_load_view(w->sync, list_org, NULL, NULL, true, false) == 0)
		sync_set_live_view(w->sync, list_org, NULL, NULL);
	cli_wait_watch_stdout();   /* `steno watch | head -1`: ends when head does */
	for (;;) {
		sync_run(w->sync);
		if (list_org)
			watch_list(w, list_org);
		bool waiting = watch_scan(w);
		if (w->closed || cli_stdout_gone())
			return CLI_EXIT_CLOSED;   /* quietly, as SIGPIPE would */
		if (!waiting && !list_org)
			break;
		if (cli_interrupted())
			return cli_fail(w->c, &(struct steno_error){ .kind = STENO_ERR_CANCELLED,
								     .message = "interrupted" });
		/* asleep until the sync engine's next deadline, a transfer, or a signal */
		cli_wait(w->c, sync_timeout_ms(w->sync));
	}
	int rc = CLI_EXIT_OK;
	for (size_t i = 0; i < w->n; i++)
		if (w->items[i].named && w->items[i].failed) {
			watch_failed(w, &w->items[i]);
			rc = CLI_EXIT_FAIL;
		}
	return rc;
}

/* "ID" (of the default kind) or "KIND:ID" (transcription, order, export, task). */
static int watch_named(struct watch *w, enum sched_kind dflt, const char *arg)
{
	static const char *const prefixes[] = { "transcription:", "order:", "export:", "task:" };
	enum sched_kind k = dflt;
	const char *id = arg;

	for (size_t j = 0; j < 4; j++)
		if (!strncmp(arg, prefixes[j], strlen(prefixes[j]))) {
			k = (enum sched_kind)j;
			id = arg + strlen(prefixes[j]);
		}
	if (!*id || strlen(id) >= SCHED_ID_MAX)
		return cli_usage("watch", "not an id: %s", arg);
	return watch_add(w, k, id, true) < 0 ? CLI_EXIT_FAIL : 0;
}

/* Follows the items (and the list of list_org when not NULL) to their end. Exit code. */
static int watch_all(struct cli_ctx *c, enum sched_kind kind, const char *const *args, size_t n,
		     const char *list_org, bool json, bool bare)
{
	struct watch w = { .json = json, .bare = bare };
	int rc = watch_open(&w, c);

	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = watch_named(&w, kind, args[i]);
	if (rc == 0)
		rc = watch_run(&w, list_org);
	watch_close(&w);
	return rc;
}

int cmd_watch_order(struct cli_ctx *c, const char *id, bool json)
{
	return watch_all(c, SCHED_ORDER, &id, 1, NULL, json, true);
}

int cmd_watch(const struct cli_globals *g, int argc, char **argv)
{
	struct option lo[] = {
		{"order", no_argument, NULL, 'O'}, {"export", no_argument, NULL, 'E'},
		{"task", no_argument, NULL, 'T'}, {"list", no_argument, NULL, 'l'},
		{"json", no_argument, NULL, OPT_JSON}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	enum sched_kind kind = SCHED_TRANSCRIPTION;
	bool json = false, list = false;
	int ch;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case 'O': kind = SCHED_ORDER; break;
		case 'E': kind = SCHED_EXPORT; break;
		case 'T': kind = SCHED_TRANSLATION_TASK; break;
		case 'l': list = true; break;
		case OPT_JSON: json = true; break;
		case 'h': return cmd_help(watch_usage);
		default: return CLI_EXIT_USAGE;
		}
	}
	if (optind >= argc && !list)
		return cli_usage("watch", "name an ID, or --list");
	struct cli_ctx c;
	int rc = cli_ctx_open(&c, g, "watch");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	const char *org = rc == 0 && list ? cli_org(&c, NULL) : NULL;
	if (rc == 0 && list && !org)
		rc = CLI_EXIT_USAGE;
	if (rc == 0)
		rc = watch_all(&c, kind, (const char *const *)argv + optind, (size_t)(argc - optind),
			       org, json, false);
	cli_ctx_close(&c);
	return rc;
}
