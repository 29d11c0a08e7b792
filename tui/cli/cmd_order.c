#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api/glossary.h"
#include "api/request.h"
#include "api/url.h"
#include "cli/cmds.h"

/* `steno order create|translation|confirm` and `steno translate`. */

static int parse_guides(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_style_guide_list_parse(b, n, out, err);
}

/* Reads the style guide's verbatim/SDH settings, which decide what a pro order may be.
 * An id that is not one of the organization's is a usage error. Returns an exit code. */
static int style_guide_settings(struct cli_ctx *c, const char *org,
				struct steno_order_create_req *req)
{
	struct steno_url_builder b;
	steno_url_builder_init(&b, c->acct.base_url, "/style_guides");
	steno_url_builder_param(&b, "organization_id", org);
	char *url = steno_url_builder_take(&b);
	struct steno_style_guide_list l = {0};
	struct steno_error err;
	steno_error_clear(&err);
	if (!url || cli_get(c, url, parse_guides, &l, NULL, NULL, &err) != 0) {
		free(url);
		if (!url)
			steno_error_set(&err, STENO_ERR_NOMEM, "out of memory");
		return cli_fail(c, &err);
	}
	free(url);
	bool found = false;
	for (size_t i = 0; i < l.n; i++)
		if (steno_known(l.items[i].id.st) && l.items[i].id.v == req->style_guide_id) {
			req->style_verbatim = l.items[i].verbatim.v;
			req->style_sdh = l.items[i].sdh.v;
			req->style_subtitles = l.items[i].operation &&
					       strcmp(l.items[i].operation, "subtitles") == 0;
			found = true;
		}
	steno_style_guide_list_free(&l);
	if (found)
		return 0;
	return cli_usage(c->cmd, "--style-guide %lld is not a style guide of organization %s "
				 "(see steno style-guides)", (long long)req->style_guide_id, org);
}

static int parse_id64(const char *cmd, const char *opt, const char *s, int64_t *out)
{
	long v = cmd_parse_long(s);
	if (v <= 0)
		return cli_usage(cmd, "%s wants a numeric id, not '%s'", opt, s);
	*out = v;
	return 0;
}

static const char order_create_usage[] =
	"Usage: steno order create FILE|URL --language L [OPTION]...\n"
	"Create a transcription or subtitling order; a local FILE is uploaded first.\n"
	"\n"
	"  --language L       language code (steno languages; pro needs a pro language); another\n"
	"                     well-formed code such as fr is sent with a warning, the server decides\n"
	"  --strict           refuse a language code outside steno languages\n"
	"  --service S        auto (default) or pro\n"
	"  --confirm          submit it at once (else it stays incomplete: order confirm)\n"
	"  --name N           name of the resulting transcription\n"
	"  --folder PATH      folder path  |  --folder-id ID\n"
	"  --boost            faster turnaround (rush)\n"
	"  --subtitle         subtitles\n"
	"  --tags a,b         tags\n"
	"  --webhook URL      receives the order's state changes\n"
	"  --glossary ID      a glossary of the organization (repeatable)\n"
	"  --style-guide ID   a style guide of the organization\n"
	"  --org ID           organization\n"
	"  --wait             with --confirm: wait until the order is final\n"
	"  --timeout D        with --wait: give up waiting D (90, 90s, 5m, 1h) after it\n"
	"                     is created (the upload and create are not counted)\n"
	"  --json             print the order as JSON\n";

struct oc_opts {
	struct steno_order_create_req req;
	struct cli_list tags;
	int64_t glossaries[64];
	const char *org;
	bool wait, json, has_style;
};

static int oc_parse(int argc, char **argv, struct oc_opts *o)
{
	static const struct option lo[] = {
		{"language", required_argument, NULL, 'l'}, {"service", required_argument, NULL, 's'},
		{"confirm", no_argument, NULL, 'c'},        {"name", required_argument, NULL, 'n'},
		{"folder", required_argument, NULL, 'f'},   {"folder-id", required_argument, NULL, 'F'},
		{"boost", no_argument, NULL, 'b'},          {"subtitle", no_argument, NULL, 'S'},
		{"tags", required_argument, NULL, 't'},     {"webhook", required_argument, NULL, 'W'},
		{"glossary", required_argument, NULL, 'g'}, {"style-guide", required_argument, NULL, 'G'},
		{"org", required_argument, NULL, 'o'},      {"wait", no_argument, NULL, 'w'},
		{"json", no_argument, NULL, OPT_JSON},      {"help", no_argument, NULL, 'h'},
		{"strict", no_argument, NULL, 'X'},         {NULL, 0, NULL, 0},
	};
	struct steno_order_create_req *r = &o->req;
	r->any_language = true;
	int ch, rc = 0;
	optind = 0;
	while (rc == 0 && (ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case 'l': r->language = optarg; break;
		case 's': r->service = optarg; break;
		case 'c': r->confirm = true; break;
		case 'n': r->name = optarg; break;
		case 'f': r->folder = optarg; break;
		case 'F': r->folder_id = optarg; break;
		case 'b': r->boost = true; break;
		case 'S': r->is_subtitle = true; break;
		case 't': rc = cli_list_split(&o->tags, optarg) ? CLI_EXIT_FAIL : 0; break;
		case 'W': r->webhook_url = optarg; break;
		case 'X': r->any_language = false; break;
		case 'g':
			if (r->n_glossary_ids >= 64)
				return cli_usage("order create", "at most 64 --glossary");
			rc = parse_id64("order create", "--glossary", optarg,
					&o->glossaries[r->n_glossary_ids++]);
			break;
		case 'G':
			rc = parse_id64("order create", "--style-guide", optarg, &r->style_guide_id);
			r->has_style_guide = true;
			break;
		case 'o': o->org = optarg; break;
		case 'w': o->wait = true; break;
		case OPT_JSON: o->json = true; break;
		case 'h': return -1;
		default: rc = CLI_EXIT_USAGE;
		}
	}
	if (rc == 0 && optind + 1 != argc)
		rc = cli_usage("order create", optind >= argc ? "a FILE or URL is required"
							      : "one FILE or URL only");
	if (rc == 0)
		rc = cmd_check_create_options("order create", r->folder, r->folder_id, r->language,
					      r->any_language);
	r->glossary_ids = o->glossaries;
	r->tags = cli_list_cv(&o->tags);
	r->n_tags = o->tags.n;
	return rc;
}

int cmd_order_create(const struct cli_globals *g, int argc, char **argv)
{
	struct oc_opts o;
	memset(&o, 0, sizeof(o));
	bool is_file = false;
	int rc = oc_parse(argc, argv, &o);
	if (rc < 0) {
		cli_list_free(&o.tags);
		return cmd_help(order_create_usage);
	}
	if (rc == 0)
		rc = cmd_check_source("order create", argv[optind], &is_file);
	if (rc == 0 && o.wait && !o.req.confirm) {
		fprintf(stderr, "steno order create: without --confirm the order stays incomplete; "
				"not waiting (see steno order confirm --wait)\n");
		o.wait = false;
	}
	struct cli_ctx c;
	memset(&c, 0, sizeof(c));
	if (rc == 0)
		rc = cmd_open_for_jobs(&c, g, "order create");
	if (rc == 0 && !(o.req.organization_id = cli_org(&c, o.org)))
		rc = CLI_EXIT_USAGE;
	if (rc == 0 && o.req.has_style_guide)
		rc = style_guide_settings(&c, o.req.organization_id, &o.req);
	if (rc == 0) {
		const char *src = argv[optind];
		o.req.url = is_file ? NULL : src;
		struct steno_error err;
		steno_error_clear(&err);
		int id = jobs_order(c.jobs, &o.req, is_file ? src : NULL, o.wait, &err);
		rc = id < 0 ? cmd_start_failed(&c, &err) : cmd_finish_job(&c, id, "/orders", "order", o.json);
	}
	cli_list_free(&o.tags);
	cli_ctx_close(&c);
	return rc;
}

/* ---- translations: order translation, translate ---- */

struct tr_opts {
	const char *id, *service, *webhook;
	struct cli_list to, tags;
	bool confirm, boost, wait, json, task;
};

static int tr_parse(const char *cmd, int argc, char **argv, struct tr_opts *o)
{
	static const struct option lo[] = {
		{"to", required_argument, NULL, 'T'},    {"service", required_argument, NULL, 's'},
		{"confirm", no_argument, NULL, 'c'},     {"boost", no_argument, NULL, 'b'},
		{"webhook", required_argument, NULL, 'W'}, {"tags", required_argument, NULL, 't'},
		{"task", no_argument, NULL, 'k'},        {"wait", no_argument, NULL, 'w'},
		{"json", no_argument, NULL, OPT_JSON},   {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch, rc = 0;
	optind = 0;
	while (rc == 0 && (ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case 'T': rc = cli_list_split(&o->to, optarg) ? CLI_EXIT_FAIL : 0; break;
		case 's': o->service = optarg; break;
		case 'c': o->confirm = true; break;
		case 'b': o->boost = true; break;
		case 'W': o->webhook = optarg; break;
		case 't': rc = cli_list_split(&o->tags, optarg) ? CLI_EXIT_FAIL : 0; break;
		case 'k': o->task = true; break;
		case 'w': o->wait = true; break;
		case OPT_JSON: o->json = true; break;
		case 'h': return -1;
		default: rc = CLI_EXIT_USAGE;
		}
	}
	if (rc == 0 && optind + 1 != argc)
		rc = cli_usage(cmd, optind >= argc ? "a transcription ID is required" : "one ID only");
	if (rc == 0)
		o->id = argv[optind];
	if (rc == 0 && o->to.n == 0)
		rc = cli_usage(cmd, "--to L[,L...] is required (steno languages --translation)");
	if (rc == 0 && o->task && (o->service || o->confirm || o->boost || o->webhook || o->tags.n))
		rc = cli_usage(cmd, "--task takes only --to and --wait (tasks have no service, "
				    "confirm, boost, webhook or tags)");
	return rc;
}

/* One translation task per target language; every job runs, then each is printed. */
static int run_tasks(struct cli_ctx *c, const struct tr_opts *o, const char *src_lang)
{
	int ids[64], n = 0, rc = 0;
	for (size_t i = 0; i < o->to.n && i < 64; i++) {
		struct steno_translation_task_req req = {
			.source_transcription_id = o->id, .target_language = o->to.v[i],
			.source_language = src_lang,
		};
		struct steno_error err;
		steno_error_clear(&err);
		int id = jobs_translation_task(c->jobs, &req, o->wait, &err);
		if (id < 0) {
			rc = cmd_start_failed(c, &err);
			break;
		}
		ids[n++] = id;
	}
	if (o->json && n > 1)
		out_json_list_begin();   /* one document: an array (cli_json_finish closes it) */
	for (int i = 0; i < n; i++) {
		int r = cmd_finish_job(c, ids[i], "/task/transcription_translation",
				       "translation task", o->json);
		if (rc == 0)
			rc = r;
	}
	return rc;
}

static int run_translation(const struct cli_globals *g, const char *cmd, struct tr_opts *o)
{
	struct cli_ctx c;
	memset(&c, 0, sizeof(c));
	int rc = cmd_open_for_jobs(&c, g, cmd);
	char *src_lang = rc == 0 ? cmd_source_language(&c, o->id, &rc) : NULL;
	if (rc == 0 && o->task) {
		rc = run_tasks(&c, o, src_lang);
	} else if (rc == 0) {
		struct steno_translation_order_req req = {
			.source_transcription_id = o->id, .target_languages = cli_list_cv(&o->to),
			.n_target_languages = o->to.n, .service = o->service, .confirm = o->confirm,
			.boost = o->boost, .webhook_url = o->webhook, .tags = cli_list_cv(&o->tags),
			.n_tags = o->tags.n, .source_language = src_lang,
		};
		struct steno_error err;
		steno_error_clear(&err);
		int id = jobs_translation_order(c.jobs, &req, o->wait && o->confirm, &err);
		rc = id < 0 ? cmd_start_failed(&c, &err) : cmd_finish_job(&c, id, "/orders", "order", o->json);
	}
	free(src_lang);
	cli_ctx_close(&c);
	return rc;
}

static const char order_translation_usage[] =
	"Usage: steno order translation ID --to L[,L...] [OPTION]...\n"
	"Create a translation order of transcription ID (one new transcription per language).\n"
	"\n"
	"  --to L,L           target languages (steno languages --translation)\n"
	"  --service S        auto (default) or pro\n"
	"  --confirm          submit it at once (else: order confirm)\n"
	"  --boost            faster turnaround\n"
	"  --webhook URL      receives the order's state changes\n"
	"  --tags a,b         tags\n"
	"  --wait             with --confirm: wait until the order is final\n"
	"  --timeout D        with --wait: give up waiting D (90, 90s, 5m, 1h) after it\n"
	"                     is created (the upload and create are not counted)\n"
	"  --json             print the order as JSON\n";

static const char translate_usage[] =
	"Usage: steno translate ID --to L[,L...] [--task] [--service auto|pro] [--confirm]\n"
	"                       [--boost] [--webhook URL] [--tags a,b] [--wait [--timeout D]]\n"
	"                       [--json]\n"
	"Translate transcription ID: by default a translation order (as order translation);\n"
	"with --task one translation task per language (the older API).\n";

int cmd_order_translation(const struct cli_globals *g, int argc, char **argv)
{
	struct tr_opts o;
	memset(&o, 0, sizeof(o));
	int rc = tr_parse("order translation", argc, argv, &o);
	if (rc == 0 && o.task)
		rc = cli_usage("order translation", "--task belongs to steno translate");
	if (rc == 0)
		rc = run_translation(g, "order translation", &o);
	cli_list_free(&o.to);
	cli_list_free(&o.tags);
	return rc < 0 ? cmd_help(order_translation_usage) : rc;
}

int cmd_translate(const struct cli_globals *g, int argc, char **argv)
{
	struct tr_opts o;
	memset(&o, 0, sizeof(o));
	int rc = tr_parse("translate", argc, argv, &o);
	if (rc == 0)
		rc = run_translation(g, "translate", &o);
	cli_list_free(&o.to);
	cli_list_free(&o.tags);
	return rc < 0 ? cmd_help(translate_usage) : rc;
}

/* ---- confirm ---- */

static const char confirm_usage[] =
	"Usage: steno order confirm [--wait [--timeout D]] [--json] ID\n"
	"Confirm an incomplete order; --wait follows it until it is final.\n";

int cmd_order_confirm(const struct cli_globals *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{"wait", no_argument, NULL, 'w'}, {"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
	};
	bool wait = false, json = false;
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == 'w')
			wait = true;
		else if (ch == OPT_JSON)
			json = true;
		else if (ch == 'h')
			return cmd_help(confirm_usage);
		else
			return CLI_EXIT_USAGE;
	}
	if (optind + 1 != argc)
		return cli_usage("order confirm", optind >= argc ? "an order ID is required" : "one ID only");
	struct cli_ctx c;
	memset(&c, 0, sizeof(c));
	int rc = cmd_open_for_jobs(&c, g, "order confirm");
	if (rc == 0) {
		struct steno_error err;
		steno_error_clear(&err);
		int id = jobs_confirm(c.jobs, argv[optind], wait, &err);
		rc = id < 0 ? cmd_start_failed(&c, &err) : cmd_finish_job(&c, id, "/orders", NULL, json);
	}
	cli_ctx_close(&c);
	return rc;
}
