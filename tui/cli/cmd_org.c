#include "config.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "api/glossary.h"
#include "api/spec_tables.h"
#include "api/url.h"
#include "cli/cmd_ls.h"
#include "cli/cmds.h"
#include "core/lang_names.h"

/* The key's organizations, organization settings (glossaries, style guides), `steno upload`,
 * and the local commands `steno config paths` and `steno languages`. */

static int parse_glossaries(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_glossary_list_parse(b, n, out, err);
}

static int parse_guides(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_style_guide_list_parse(b, n, out, err);
}

static int parse_orgs(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_organization_list_parse(b, n, out, err);
}

/* A list for --json: the array under `key` of the server's body ({"glossaries":[...]} gives
 * [...]), the same shape as steno ls --json. */
static void print_list_json(const char *body, size_t len, const char *key)
{
	json_object *root = json_tokener_parse(body ? body : ""), *arr = NULL;
	(void)len;
	if (root && json_object_object_get_ex(root, key, &arr) &&
	    json_object_is_type(arr, json_type_array))
		out_json(stdout, arr);
	else
		fputs("[]\n", stdout);
	json_object_put(root);
}

static const char *yn(struct steno_bool b)
{
	return !steno_known(b.st) ? NULL : b.v ? "yes" : "no";
}

static const char *const gl_heads[] = {"ID", "NAME", "SOURCE", "TARGETS", "DEFAULT"};
static const char *const org_heads[] = {"ID", "NAME", "ROLE"};
static const char *const sg_heads[] = {"ID", "NAME", "OPERATION", "VERBATIM", "SDH", "DEFAULT"};

static void print_glossaries(const struct steno_glossary_list *l)
{
	struct out_table t;
	out_table_init(&t, 5, gl_heads);
	for (size_t i = 0; i < l->n; i++) {
		const struct steno_glossary *x = &l->items[i];
		char id[32], targets[512] = "";
		snprintf(id, sizeof(id), "%lld", (long long)x->id.v);
		for (size_t k = 0; k < x->target_languages.n; k++) {
			size_t len = strlen(targets);
			snprintf(targets + len, sizeof(targets) - len, "%s%s", k ? "," : "",
				 x->target_languages.v[k]);
		}
		const char *cells[] = {steno_known(x->id.st) ? id : NULL, x->name, x->source_language,
				       targets, yn(x->organization_default)};
		out_table_add(&t, cells);
	}
	out_table_print(&t, stdout);
	out_table_free(&t);
}

static void print_guides(const struct steno_style_guide_list *l)
{
	struct out_table t;
	out_table_init(&t, 6, sg_heads);
	for (size_t i = 0; i < l->n; i++) {
		const struct steno_style_guide *x = &l->items[i];
		char id[32];
		snprintf(id, sizeof(id), "%lld", (long long)x->id.v);
		const char *cells[] = {steno_known(x->id.st) ? id : NULL, x->name, x->operation,
				       yn(x->verbatim), yn(x->sdh), yn(x->organization_default)};
		out_table_add(&t, cells);
	}
	out_table_print(&t, stdout);
	out_table_free(&t);
}

static void print_orgs(const struct steno_organization_list *l)
{
	struct out_table t;
	out_table_init(&t, 3, org_heads);
	for (size_t i = 0; i < l->n; i++) {
		char id[32];
		snprintf(id, sizeof(id), "%lld", (long long)l->items[i].id.v);
		const char *cells[] = {id, l->items[i].name, l->items[i].role};
		out_table_add(&t, cells);
	}
	out_table_print(&t, stdout);
	out_table_free(&t);
}

static const char orgs_usage[] =
	"Usage: steno orgs [--json] [-q | --fields a,b]\n"
	"List the organizations the key can access (their ids go to --org). With exactly one,\n"
	"commands use it when no organization is given.\n";

int cmd_orgs(const struct cli_globals *g, int argc, char **argv)
{
	bool json = false;
	int rc = cmd_parse_simple("orgs", argc, argv, NULL, &json, NULL, NULL, 0);
	if (rc != 0)
		return rc < 0 ? cmd_help(orgs_usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "orgs");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0) {
		struct steno_organization_list l = {0};
		struct steno_error err;
		steno_error_clear(&err);
		char *url = cli_url(&c, "/organizations", NULL), *body = NULL;
		size_t len = 0;
		if (!url)
			steno_error_set(&err, STENO_ERR_NOMEM, "out of memory");
		if (url && cli_offline(&c)) {   /* the list last read, from the local store */
			body = cache_answer(&c, "organizations");
			len = body ? strlen(body) : 0;
			if (!body)
				rc = CLI_EXIT_FAIL;
			else if (parse_orgs(body, len, &l, &err) != 0)
				rc = cli_fail(&c, &err);
		} else if (!url || cli_get(&c, url, parse_orgs, &l, &body, &len, &err) != 0) {
			rc = cli_fail(&c, &err);
		} else {
			cache_answer_keep(&c, "organizations", body);
		}
		if (rc == 0 && json)
			print_list_json(body, len, "organizations");
		else if (rc == 0)
			print_orgs(&l);
		free(url);
		free(body);
		steno_organization_list_free(&l);
	}
	cli_ctx_close(&c);
	return rc;
}

static const char glossaries_usage[] =
	"Usage: steno glossaries [--org ID] [--json] [-q | --fields a,b]\n"
	"List the organization's glossaries (their ids go to order create --glossary).\n";
static const char guides_usage[] =
	"Usage: steno style-guides [--org ID] [--json] [-q | --fields a,b]\n"
	"List the organization's style guides (their ids go to order create --style-guide).\n";

static int org_list(const struct cli_globals *g, int argc, char **argv, bool glossaries)
{
	const char *cmd = glossaries ? "glossaries" : "style-guides";
	const char *org_flag = NULL;
	bool json = false;
	int rc = cmd_parse_simple(cmd, argc, argv, &org_flag, &json, NULL, NULL, 0);
	if (rc != 0)
		return rc < 0 ? cmd_help(glossaries ? glossaries_usage : guides_usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, cmd);
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	const char *org = rc == 0 ? cli_org(&c, org_flag) : NULL;
	if (rc == 0 && !org)
		rc = CLI_EXIT_USAGE;
	if (rc == 0) {
		struct steno_url_builder b;
		steno_url_builder_init(&b, c.acct.base_url, glossaries ? "/glossaries" : "/style_guides");
		steno_url_builder_param(&b, "organization_id", org);
		char *url = steno_url_builder_take(&b), *body = NULL;
		size_t len = 0;
		struct steno_glossary_list gl = {0};
		struct steno_style_guide_list sg = {0};
		struct steno_error err;
		steno_error_clear(&err);
		int r = !url ? steno_error_set(&err, STENO_ERR_NOMEM, "out of memory")
			: cli_get(&c, url, glossaries ? parse_glossaries : parse_guides,
				  glossaries ? (void *)&gl : (void *)&sg, &body, &len, &err);
		free(url);
		if (r != 0)
			rc = cli_fail(&c, &err);
		else if (json)
			print_list_json(body, len, glossaries ? "glossaries" : "style_guides");
		else if (glossaries)
			print_glossaries(&gl);
		else
			print_guides(&sg);
		free(body);
		steno_glossary_list_free(&gl);
		steno_style_guide_list_free(&sg);
	}
	cli_ctx_close(&c);
	return rc;
}

int cmd_glossaries(const struct cli_globals *g, int argc, char **argv)
{
	return org_list(g, argc, argv, true);
}

int cmd_style_guides(const struct cli_globals *g, int argc, char **argv)
{
	return org_list(g, argc, argv, false);
}

/* ---- upload ---- */

static const char upload_usage[] =
	"Usage: steno upload [--json] FILE\n"
	"Upload a media file and print its signed URL, to give as tmp_url (transcribe URL,\n"
	"order create URL). Progress goes to stderr when it is a terminal.\n";

struct upload_call {
	bool done, failed;
	char *signed_url;
	struct steno_error err;
};

static void on_uploaded(void *ud, const struct steno_error *err)
{
	struct upload_call *u = ud;
	u->done = true;
	if (err) {
		u->failed = true;
		u->err = *err;
	}
}

static void on_signed(void *ud, struct steno_upload *res, const struct steno_error *err)
{
	struct upload_call *u = ud;
	if (err) {
		u->done = u->failed = true;
		u->err = *err;
		return;
	}
	u->signed_url = res->signed_url;
	res->signed_url = NULL;
	u->done = true;
}

static void on_progress(void *ud, uint64_t now, uint64_t total)
{
	(void)ud;
	out_progress_bytes("uploading", now, total);
}

static int upload_run(struct cli_ctx *c, const char *path, bool json)
{
	struct upload_call u = {0};
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	/* a malformed answer to the GET is asked again, four more times, as every GET's */
	for (int attempt = 0; attempt < 5; attempt++) {
		u = (struct upload_call){0};
		if (steno_api_uploads_new(c->http, base, on_signed, &u, &u.err) != 0)
			u.done = u.failed = true;
		if (cli_wait_flag(c, &u.done, &u.err) != 0) {
			u.failed = true;
			break;
		}
		if (!u.failed || u.err.kind != STENO_ERR_PARSE)
			break;
	}
	if (!u.failed) {
		u.done = false;
		if (steno_api_upload_put(c->http, u.signed_url, path, on_progress, on_uploaded, &u,
					 &u.err) != 0)
			u.done = u.failed = true;
		if (cli_wait_flag(c, &u.done, &u.err) != 0)
			u.failed = true;
	}
	out_progress_end();
	int rc = CLI_EXIT_OK;
	if (u.failed) {
		rc = cli_fail(c, &u.err);
	} else if (json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "signedUrl", json_object_new_string(u.signed_url));
		json_object_object_add(o, "file", json_object_new_string(path));
		out_json(stdout, o);
		json_object_put(o);
	} else {
		printf("%s\n", u.signed_url);
	}
	free(u.signed_url);
	return rc;
}

int cmd_upload(const struct cli_globals *g, int argc, char **argv)
{
	bool json = false;
	int rc = cmd_parse_simple("upload", argc, argv, NULL, &json, NULL, NULL, 1);
	if (rc != 0)
		return rc < 0 ? cmd_help(upload_usage) : rc;
	if (optind >= argc)
		return cli_usage("upload", "a FILE is required");
	const char *path = argv[optind];
	bool is_file = false;
	if ((rc = cmd_check_source("upload", path, &is_file)) != 0)
		return rc;
	if (!is_file)
		return cli_usage("upload", "'%s' is a URL: give a local FILE (transcribe takes URLs)", path);
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "upload");
	if (rc == 0)
		rc = cli_check_writable(&c);
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0)
		rc = upload_run(&c, path, json);
	cli_ctx_close(&c);
	return rc;
}

/* ---- config paths ---- */

static const char config_usage[] =
	"Usage: steno config paths [--json]\n"
	"Print every path steno reads or writes, and whether it exists.\n";

int cmd_config(const struct cli_globals *g, int argc, char **argv)
{
	bool json = false;
	int rc = cmd_parse_simple("config", argc, argv, NULL, &json, NULL, NULL, 1);
	if (rc != 0)
		return rc < 0 ? cmd_help(config_usage) : rc;
	if (optind >= argc || strcmp(argv[optind], "paths") != 0)
		return cli_usage("config", "the only subcommand is 'paths'");
	struct cli_ctx c;
	rc = cli_ctx_open_ex(&c, g, "config paths", true);
	struct config_path_list l = {0};
	struct steno_error err;
	steno_error_clear(&err);
	if (rc == 0 && config_paths_list(&c.cfg, &c.paths, g->profile, &l, &err) != 0)
		rc = cli_fail(&c, &err);
	if (rc == 0 && json) {
		json_object *a = json_object_new_array();
		for (size_t i = 0; i < l.n; i++) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "what", json_object_new_string(l.items[i].what));
			json_object_object_add(o, "path", json_object_new_string(l.items[i].path));
			json_object_object_add(o, "exists", json_object_new_boolean(l.items[i].exists));
			json_object_array_add(a, o);
		}
		out_json(stdout, a);
		json_object_put(a);
	} else if (rc == 0) {
		static const char *const heads[] = {"WHAT", "EXISTS", "PATH"};
		struct out_table t;
		out_table_init(&t, 3, heads);
		for (size_t i = 0; i < l.n; i++) {
			const char *cells[] = {l.items[i].what, l.items[i].exists ? "yes" : "no",
					       l.items[i].path};
			out_table_add(&t, cells);
		}
		out_table_print(&t, stdout);
		out_table_free(&t);
	}
	config_paths_free(&l);
	cli_ctx_close(&c);
	return rc;
}

/* ---- languages ---- */

static const char languages_usage[] =
	"Usage: steno languages [--pro] [--translation] [--json] [-q | --fields a,b]\n"
	"Print the language codes of the API with their English and own names: transcription\n"
	"languages (--pro: only those with the human service), or with --translation the\n"
	"translation targets and sources (--pro and --translation exclude each other).\n";

/* "name" and "native" of a code in --json (native omitted when iso-codes has none). */
static void languages_json_names(json_object *o, const char *code)
{
	const char *english = lang_name_english(code), *native = lang_name_native(code);
	if (english)
		json_object_object_add(o, "name", json_object_new_string(english));
	if (native)
		json_object_object_add(o, "native", json_object_new_string(native));
}

#define NAME_OR_EMPTY(s) ((s) ? (s) : "")

static void languages_print(bool pro, bool translation, bool json)
{
	json_object *a = json ? json_object_new_array() : NULL;
	static const char *const heads[] = {"CODE", "PRO", "NAME", "NATIVE"};
	static const char *const theads[] = {"CODE", "TARGET", "SOURCE", "NAME", "NATIVE"};
	struct out_table t;
	out_table_init(&t, translation ? 5 : 4, translation ? theads : heads);
	if (!translation) {
		for (size_t i = 0; i < spec_language_count(); i++) {
			const struct spec_language *l = spec_language_at(i);
			if (pro && !l->pro)
				continue;
			const char *cells[] = {l->code, l->pro ? "yes" : "no",
					       NAME_OR_EMPTY(lang_name_english(l->code)),
					       NAME_OR_EMPTY(lang_name_native(l->code))};
			if (a) {
				json_object *o = json_object_new_object();
				json_object_object_add(o, "code", json_object_new_string(l->code));
				json_object_object_add(o, "pro", json_object_new_boolean(l->pro));
				languages_json_names(o, l->code);
				json_object_array_add(a, o);
			} else {
				out_table_add(&t, cells);
			}
		}
	} else {
		for (int pass = 0; pass < 2; pass++) {
			size_t n = pass ? spec_source_language_count() : spec_target_language_count();
			for (size_t i = 0; i < n; i++) {
				const char *code = pass ? spec_source_language_at(i) : spec_target_language_at(i);
				if (pass && spec_target_language_is_valid(code))
					continue; /* listed in the first pass */
				bool tgt = spec_target_language_is_valid(code);
				bool src = spec_source_language_is_valid(code);
				const char *cells[] = {code, tgt ? "yes" : "no", src ? "yes" : "no",
						       NAME_OR_EMPTY(lang_name_english(code)),
						       NAME_OR_EMPTY(lang_name_native(code))};
				if (a) {
					json_object *o = json_object_new_object();
					json_object_object_add(o, "code", json_object_new_string(code));
					languages_json_names(o, code);
					json_object_object_add(o, "target", json_object_new_boolean(tgt));
					json_object_object_add(o, "source", json_object_new_boolean(src));
					json_object_array_add(a, o);
				} else {
					out_table_add(&t, cells);
				}
			}
		}
	}
	if (a) {
		out_json(stdout, a);
		json_object_put(a);
	} else {
		out_table_print(&t, stdout);
	}
	out_table_free(&t);
}

int cmd_languages(const struct cli_globals *g, int argc, char **argv)
{
	(void)g;
	static const char *const flags[] = {"pro", "translation", NULL};
	bool vals[2] = {false, false}, json = false;
	int rc = cmd_parse_simple("languages", argc, argv, NULL, &json, flags, vals, 0);
	if (rc != 0)
		return rc < 0 ? cmd_help(languages_usage) : rc;
	if (vals[0] && vals[1])
		return cli_usage("languages", "--pro and --translation exclude each other (--pro is "
					      "about transcription languages)");
	languages_print(vals[0], vals[1], json);
	return CLI_EXIT_OK;
}
