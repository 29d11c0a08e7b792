#include "config.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/export.h"
#include "api/order.h"
#include "api/spec_tables.h"
#include "api/translation.h"
#include "cli/cmd_watch.h"
#include "cli/cmds.h"

/* Reading one resource: `steno show`, `steno order show|watch`, and what the creating
 * commands print at their end. People get aligned "key value" lines; --json gets the body
 * the server sent, re-serialized. */

#define KW 16

static const char *yesno(struct steno_bool b)
{
	return !steno_known(b.st) ? NULL : b.v ? "yes" : "no";
}

static void kv_time(FILE *f, const char *k, struct steno_time t)
{
	char buf[40];
	out_fmt_time_ms(buf, sizeof(buf), steno_known(t.st), t.ms);
	out_kv(f, KW, k, buf);
}

static void kv_int(FILE *f, const char *k, struct steno_int v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)v.v);
	out_kv(f, KW, k, steno_known(v.st) ? buf : NULL);
}

static char *join_strings(const struct steno_strings *s)
{
	size_t n = 1;
	for (size_t i = 0; i < s->n; i++)
		n += strlen(s->v[i]) + 1;
	char *out = calloc(1, n);
	for (size_t i = 0; out && i < s->n; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, s->v[i]);
	}
	return out;
}

void cmd_print_transcription(const struct steno_transcription *t, FILE *f)
{
	char buf[64];
	out_kv(f, KW, "id", t->id);
	out_kv(f, KW, "name", t->name);
	out_kv(f, KW, "state", t->state);
	if (t->failure_reason || t->failure_message) {
		out_kv(f, KW, "failure", t->failure_reason);
		out_kv(f, KW, "failure message", t->failure_message);
	}
	out_kv(f, KW, "language", t->language);
	out_fmt_duration(buf, sizeof(buf), steno_known(t->audio_length_s.st), t->audio_length_s.v);
	out_kv(f, KW, "length", buf);
	out_fmt_cents(buf, sizeof(buf), steno_known(t->cost_cents.st), t->cost_cents.v, NULL);
	out_kv(f, KW, "cost", buf);
	out_kv(f, KW, "refunded", yesno(t->refunded));
	out_kv(f, KW, "subtitle", yesno(t->is_subtitle));
	out_kv(f, KW, "sharing", yesno(t->sharing_enabled));
	char *tags = steno_known(t->tags.st) ? join_strings(&t->tags) : NULL;
	out_kv(f, KW, "tags", tags);
	free(tags);
	kv_time(f, "created", t->created_at);
	kv_time(f, "updated", t->updated_at);
	kv_time(f, "delivery", t->delivery_estimated_at);
	out_kv(f, KW, "editor", t->editor_url);
}

static void print_export(const struct steno_export *e, FILE *f)
{
	out_kv(f, KW, "id", e->id);
	out_kv(f, KW, "state", e->state);
	out_kv(f, KW, "format", e->format);
	char *ids = join_strings(&e->transcription_ids);
	out_kv(f, KW, "transcriptions", ids);
	free(ids);
	out_kv(f, KW, "timestamps", yesno(e->show_timestamps));
	out_kv(f, KW, "speakers", yesno(e->show_speakers));
	out_kv(f, KW, "comments", yesno(e->show_comments));
	out_kv(f, KW, "highlights", yesno(e->show_highlights));
	out_kv(f, KW, "download", e->download_link);
}

static void print_task(const struct steno_translation_task *t, FILE *f)
{
	char pct[32];
	snprintf(pct, sizeof(pct), "%.0f%%", t->progress_percent.v);
	out_kv(f, KW, "id", t->id);
	out_kv(f, KW, "state", t->state);
	out_kv(f, KW, "progress", steno_known(t->progress_percent.st) ? pct : NULL);
	out_kv(f, KW, "target language", t->target_language);
	out_kv(f, KW, "failure", t->failure_reason);
	out_kv(f, KW, "translation", t->translated_transcription_id);
}

static const char *const item_heads[] = {"ITEM", "UNITS", "TURNAROUND", "PRICE"};

static void print_order_details(const struct steno_order_details *d, FILE *f)
{
	char buf[64];
	const char *cur = d->currency;
	out_fmt_cents(buf, sizeof(buf), steno_known(d->total_cents.st), d->total_cents.v, cur);
	out_kv(f, KW, "total", buf);
	if (!d->n_items)
		return;
	struct out_table t;
	out_table_init(&t, 4, item_heads);
	for (size_t i = 0; i < d->n_items; i++) {
		const struct steno_order_item *it = &d->items[i];
		char units[48], turn[32], price[48];
		snprintf(units, sizeof(units), "%.2f %s", it->pricing_unit_count.v,
			 it->pricing_unit_name ? it->pricing_unit_name : "");
		snprintf(turn, sizeof(turn), "%lld min", (long long)it->turnaround_minutes.v);
		out_fmt_cents(price, sizeof(price), steno_known(it->cents.st), it->cents.v, cur);
		const char *name = it->addon_name ? it->addon_name
				   : it->has_service ? it->service.name : it->filename;
		const char *cells[] = {name, steno_known(it->pricing_unit_count.st) ? units : NULL,
				       steno_known(it->turnaround_minutes.st) ? turn : NULL, price};
		out_table_add(&t, cells);
	}
	fputc('\n', f);
	out_table_print(&t, f);
	out_table_free(&t);
}

static const char *const otr_heads[] = {"TRANSCRIPTION", "STATE", "LANGUAGE", "NAME"};

static void print_order(const struct steno_order *o, FILE *f)
{
	out_kv(f, KW, "id", o->id);
	out_kv(f, KW, "state", o->state);
	kv_int(f, "folder", o->folder_id);
	for (size_t i = 0; i < o->n_operations; i++) {
		const struct steno_operation *op = &o->operations[i];
		char buf[160];
		snprintf(buf, sizeof(buf), "%s %s %s%s%s", op->name ? op->name : "-",
			 op->type ? op->type : "-", op->language ? op->language : "",
			 op->target_language ? " -> " : "", op->target_language ? op->target_language : "");
		out_kv(f, KW, i ? "" : "operations", buf);
	}
	for (size_t i = 0; i < o->n_addons; i++)
		out_kv(f, KW, i ? "" : "addons", o->addons[i]);
	for (size_t i = 0; i < o->n_ingestions; i++) {
		char buf[600];
		snprintf(buf, sizeof(buf), "%s %s", o->ingestions[i].state ? o->ingestions[i].state : "-",
			 o->ingestions[i].name ? o->ingestions[i].name : "");
		out_kv(f, KW, i ? "" : "ingestions", buf);
	}
	if (o->details.present)
		print_order_details(&o->details, f);
	if (o->n_transcriptions) {
		struct out_table t;
		out_table_init(&t, 4, otr_heads);
		for (size_t i = 0; i < o->n_transcriptions; i++) {
			const struct steno_order_transcription *x = &o->transcriptions[i];
			const char *cells[] = {x->uuid, x->state, x->language, x->name};
			out_table_add(&t, cells);
		}
		fputc('\n', f);
		out_table_print(&t, f);
		out_table_free(&t);
	}
}

int cmd_parse_transcription(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_transcription_parse(b, n, out, err);
}

static int parse_export(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_export_parse(b, n, out, err);
}

static int parse_task(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_translation_task_parse(b, n, out, err);
}

static int parse_order(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_order_parse(b, n, out, err);
}

/* One resource kind: its path, parser, printer and free. */
union any_res {
	struct steno_transcription tr;
	struct steno_export ex;
	struct steno_translation_task task;
	struct steno_order order;
};

static int res_kind(const char *path)
{
	static const char *const paths[] = {"/transcriptions", "/exports",
					    "/task/transcription_translation", "/orders"};
	for (int i = 0; i < 4; i++)
		if (strcmp(path, paths[i]) == 0)
			return i;
	return -1;
}

static void res_print_free(int kind, union any_res *r, FILE *f)
{
	if (f) {
		switch (kind) {
		case 0: cmd_print_transcription(&r->tr, f); break;
		case 1: print_export(&r->ex, f); break;
		case 2: print_task(&r->task, f); break;
		default: print_order(&r->order, f); break;
		}
	}
	switch (kind) {
	case 0: steno_transcription_free(&r->tr); break;
	case 1: steno_export_free(&r->ex); break;
	case 2: steno_translation_task_free(&r->task); break;
	default: steno_order_free(&r->order); break;
	}
}

/* GET path/id; *state_out (may be NULL) gets a malloc'd copy of its state. */
static int fetch_print(struct cli_ctx *c, const char *path, const char *id, bool json,
		       char **state_out)
{
	static const cli_parse_fn parsers[] = {cmd_parse_transcription, parse_export, parse_task,
					       parse_order};
	int kind = res_kind(path);
	union any_res r;
	memset(&r, 0, sizeof(r));
	char *url = cli_url(c, path, id), *body = NULL;
	size_t len = 0;
	struct steno_error err;
	steno_error_clear(&err);
	if (!url)
		return cli_fail(c, &(struct steno_error){.kind = STENO_ERR_NOMEM, .message = "out of memory"});
	int rc = cli_get(c, url, parsers[kind], &r, &body, &len, &err);
	free(url);
	if (rc != 0)
		return cli_fail(c, &err);
	const char *st = kind == 0 ? r.tr.state : kind == 1 ? r.ex.state : kind == 2 ? r.task.state
											 : r.order.state;
	if (state_out)
		*state_out = st ? strdup(st) : NULL;
	if (json)
		out_json_body(stdout, body, len);
	res_print_free(kind, &r, json ? NULL : stdout);
	free(body);
	fflush(stdout);
	return CLI_EXIT_OK;
}

int cmd_print_resource(struct cli_ctx *c, const char *path, const char *id, bool json)
{
	return fetch_print(c, path, id, json, NULL);
}

/* ---- show / order show / order watch ---- */

/* Parses "[--json] [--help] ID"; *id gets the argument. -1: --help was asked. */
/* Options, then one ID (*id), or with `many` one or more (argv[optind..argc-1]). */
static int parse_id_json(const char *cmd, int argc, char **argv, const char **id, bool *json,
			 bool *extra_flag, const char *extra_name, bool many)
{
	struct option lo[] = {
		{"json", no_argument, NULL, OPT_JSON}, {"help", no_argument, NULL, 'h'},
		{extra_name ? extra_name : "json", no_argument, NULL, 'x'}, {NULL, 0, NULL, 0},
	};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == OPT_JSON)
			*json = true;
		else if (ch == 'x' && extra_flag)
			*extra_flag = true;
		else if (ch == 'h')
			return -1;
		else
			return CLI_EXIT_USAGE;
	}
	if (optind >= argc || (!many && optind + 1 != argc))
		return cli_usage(cmd, optind >= argc ? "an ID is required" : "one ID only");
	*id = argv[optind];
	return 0;
}

static const char show_usage[] =
	"Usage: steno show [--export | --task | --order] [--json] ID...\n"
	"Show a transcription; with --export an export (state, download link), with --task a\n"
	"translation task, with --order an order (as order show). Several IDs are shown one\n"
	"after another (with --json one JSON array: an object each, a failure object last when\n"
	"one failed); exit 1 if any failed.\n";

static int show_like(const struct cli_globals *g, const char *cmd, const char *usage,
		     const char *path, int argc, char **argv)
{
	const char *id = NULL;
	bool json = false;
	int rc = parse_id_json(cmd, argc, argv, &id, &json, NULL, NULL, false);
	if (rc != 0)
		return rc < 0 ? cmd_help(usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, cmd);
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0)
		rc = fetch_print(&c, path, id, json, NULL);
	cli_ctx_close(&c);
	return rc;
}

int cmd_show(const struct cli_globals *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{"export", no_argument, NULL, 'e'}, {"task", no_argument, NULL, 't'},
		{"order", no_argument, NULL, 'o'},  {"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
	};
	const char *path = "/transcriptions";
	bool json = false;
	int ch, kinds = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case 'e': path = "/exports"; kinds++; break;
		case 't': path = "/task/transcription_translation"; kinds++; break;
		case 'o': path = "/orders"; kinds++; break;
		case OPT_JSON: json = true; break;
		case 'h': return cmd_help(show_usage);
		default: return CLI_EXIT_USAGE;
		}
	}
	if (kinds > 1)
		return cli_usage("show", "--export, --task and --order exclude each other");
	if (optind >= argc)
		return cli_usage("show", "an ID is required");
	struct cli_ctx c;
	int rc = cli_ctx_open(&c, g, "show");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	/* several IDs: one after another (a blank line between tables); exit 1 if any failed */
	bool failed = false;
	if (rc == 0 && json && argc - optind > 1)
		out_json_list_begin();   /* one document: an array (cli_json_finish closes it) */
	for (int i = optind; rc == 0 && i < argc; i++) {
		if (i > optind && !json)
			putchar('\n');
		failed |= fetch_print(&c, path, argv[i], json, NULL) != CLI_EXIT_OK;
	}
	if (rc == 0 && failed)
		rc = CLI_EXIT_FAIL;
	cli_ctx_close(&c);
	return rc;
}

static const char order_show_usage[] =
	"Usage: steno order show [--json] ID\n"
	"Show one order: state, operations, price details, ingestions, transcriptions.\n";

int cmd_order_show(const struct cli_globals *g, int argc, char **argv)
{
	return show_like(g, "order show", order_show_usage, "/orders", argc, argv);
}

static const char order_watch_usage[] =
	"Usage: steno order watch [--json] ID\n"
	"Follow an order until it is final or needs action (incomplete, locked), printing each\n"
	"state it goes through; then show it. Exit 1 when it ends failed or waits for action\n"
	"(as order confirm --wait and watch order:ID). --json: the states on stderr, and on\n"
	"stdout the order, or the failure object when it failed.\n";

/* The sync engine follows it (cmd_watch.c); then it is shown. */
static int watch_loop(struct cli_ctx *c, const char *id, bool json)
{
	int rc = cmd_watch_order(c, id, json);
	if ((rc != CLI_EXIT_OK && rc != CLI_EXIT_FAIL) || (json && rc != CLI_EXIT_OK))
		return rc;   /* --json: one document, the failure's */
	int shown = fetch_print(c, "/orders", id, json, NULL);
	return shown ? shown : rc;
}

int cmd_order_watch(const struct cli_globals *g, int argc, char **argv)
{
	const char *id = NULL;
	bool json = false;
	int rc = parse_id_json("order watch", argc, argv, &id, &json, NULL, NULL, false);
	if (rc != 0)
		return rc < 0 ? cmd_help(order_watch_usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "order watch");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0)
		rc = watch_loop(&c, id, json);
	cli_ctx_close(&c);
	return rc;
}

/* ---- rm ---- */

static const char rm_usage[] =
	"Usage: steno rm [--permanent] [--json] ID...\n"
	"Delete transcriptions (to the trash; --permanent: for good, with their exports), one\n"
	"after another (with --json one JSON array: an object each, a failure object last when\n"
	"one failed); exit 1 if any failed.\n";

struct done_flag {
	bool done;
	struct steno_error err;
	bool failed;
};

static void on_deleted(void *ud, const struct steno_error *err)
{
	struct done_flag *d = ud;
	d->done = true;
	if (err) {
		d->failed = true;
		d->err = *err;
	}
}

static int rm_one(struct cli_ctx *c, const char *id, bool permanent, bool json)
{
	struct done_flag d = {0};
	if (steno_api_transcription_delete(c->http, id, permanent, on_deleted, &d, &d.err) != 0)
		d.failed = d.done = true;
	if (cli_wait_flag(c, &d.done, &d.err) != 0)
		d.failed = true;
	if (d.failed)
		return cli_fail(c, &d.err);
	if (json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(id));
		json_object_object_add(o, "deleted", json_object_new_boolean(1));
		json_object_object_add(o, "permanent", json_object_new_boolean(permanent));
		out_json(stdout, o);
		json_object_put(o);
	} else {
		char *clean = out_clean(id);
		printf("deleted %s%s\n", clean ? clean : "", permanent ? " (permanently)" : "");
		free(clean);
	}
	return CLI_EXIT_OK;
}

int cmd_rm(const struct cli_globals *g, int argc, char **argv)
{
	const char *id = NULL;
	bool json = false, permanent = false, failed = false;
	int rc = parse_id_json("rm", argc, argv, &id, &json, &permanent, "permanent", true);
	if (rc != 0)
		return rc < 0 ? cmd_help(rm_usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "rm");
	if (rc == 0)
		rc = cli_check_writable(&c);
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0 && json && argc - optind > 1)
		out_json_list_begin();
	for (int i = optind; rc == 0 && i < argc && !cli_interrupted(); i++)
		failed |= rm_one(&c, argv[i], permanent, json) != CLI_EXIT_OK;
	cli_ctx_close(&c);
	return rc ? rc : failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
