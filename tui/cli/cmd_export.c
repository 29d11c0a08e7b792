#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/request.h"
#include "api/spec_tables.h"
#include "cli/cmds.h"

/* `steno export`: create an export of one or more transcriptions; --wait (or -o DIR) waits
 * until it is ready and downloads it (NAME.part, then renamed; never over an existing file
 * without --force). */

static const char export_usage[] =
	"Usage: steno export ID... --format F [OPTION]...\n"
	"Export transcriptions (several IDs give one ZIP).\n"
	"\n"
	"  --format F            txt, docx, pdf, srt, vtt, stl, avid, html, premiere, maxqda,\n"
	"                        json, fcp (see the API's formats)\n"
	"  --timestamps[=FREQ]   show timestamps; FREQ inline every 5s 10s 15s 20s 30s 60s\n"
	"  --speakers            show speakers\n"
	"  --comments            show comments\n"
	"  --highlights          show highlights  |  --highlights-only\n"
	"  -o, --output DIR      download into DIR (implies --wait; default: download_dir or .)\n"
	"  --wait                wait until ready and download\n"
	"  --force               replace an existing file\n"
	"  --json                print the export as JSON (with \"file\" once downloaded)\n";

struct ex_opts {
	struct steno_export_create_req req;
	const char *dir;
	bool wait, force, json;
};

static int ex_parse(int argc, char **argv, struct ex_opts *o)
{
	static const struct option lo[] = {
		{"format", required_argument, NULL, 'f'}, {"timestamps", optional_argument, NULL, 'T'},
		{"speakers", no_argument, NULL, 's'},     {"comments", no_argument, NULL, 'c'},
		{"highlights", no_argument, NULL, 'H'},   {"highlights-only", no_argument, NULL, 'O'},
		{"output", required_argument, NULL, 'o'}, {"wait", no_argument, NULL, 'w'},
		{"force", no_argument, NULL, 'F'},        {"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	struct steno_export_create_req *r = &o->req;
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
		switch (ch) {
		case 'f': r->format = optarg; break;
		case 'T':
			r->show_timestamps = true;
			r->timestamps_frequency = optarg;
			break;
		case 's': r->show_speakers = true; break;
		case 'c': r->show_comments = true; break;
		case 'H': r->show_highlights = true; break;
		case 'O': r->show_highlights_only = true; break;
		case 'o': o->dir = optarg; o->wait = true; break;
		case 'w': o->wait = true; break;
		case 'F': o->force = true; break;
		case OPT_JSON: o->json = true; break;
		case 'h': return -1;
		default: return CLI_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return cli_usage("export", "at least one transcription ID is required");
	if (!r->format)
		return cli_usage("export", "--format is required");
	if (r->show_highlights && r->show_highlights_only)
		return cli_usage("export", "--highlights and --highlights-only exclude each other");
	r->transcription_ids = (const char *const *)(argv + optind);
	r->n_transcription_ids = (size_t)(argc - optind);
	return 0;
}

struct ex_call {
	bool done, failed;
	char *id;
	struct steno_error err;
};

static void on_created(void *ud, struct steno_export *res, const struct steno_error *err)
{
	struct ex_call *x = ud;
	x->done = true;
	if (err) {
		x->failed = true;
		x->err = *err;
	} else {
		x->id = res->id;
		res->id = NULL;
	}
}

/* Without --wait: the POST alone, then the export as the server has it. */
static int ex_create_only(struct cli_ctx *c, const struct ex_opts *o)
{
	struct ex_call x = {0};
	if (steno_api_export_create(c->http, &o->req, on_created, &x, &x.err) != 0)
		return cli_fail(c, &x.err);
	if (cli_wait_flag(c, &x.done, &x.err) != 0)
		x.failed = true;
	if (!x.failed)
		cli_remember(c, STATE_WATCH_EXPORT, x.id);
	int rc = x.failed ? cli_fail(c, &x.err)
		 : x.id ? cmd_print_resource(c, "/exports", x.id, o->json) : CLI_EXIT_FAIL;
	free(x.id);
	return rc;
}

static int parse_json_obj(const char *b, size_t n, void *out, struct steno_error *err)
{
	json_object *o = json_tokener_parse(b);
	(void)n;
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return steno_error_set(err, STENO_ERR_PARSE, "the export is not a JSON object");
	}
	*(json_object **)out = o;
	return 0;
}

static int ex_print_done(struct cli_ctx *c, const struct steno_job *j, bool json)
{
	if (!json) {
		int rc = cmd_print_resource(c, "/exports", j->resource_id, false);
		if (j->file)
			printf("%-16s %s\n", "file", j->file);
		return rc;
	}
	char *url = cli_url(c, "/exports", j->resource_id);
	json_object *o = NULL;
	struct steno_error err;
	steno_error_clear(&err);
	if (!url || cli_get(c, url, parse_json_obj, &o, NULL, NULL, &err) != 0) {
		free(url);
		return cli_fail(c, &err);
	}
	free(url);
	if (j->file)
		json_object_object_add(o, "file", json_object_new_string(j->file));
	out_json(stdout, o);
	json_object_put(o);
	return CLI_EXIT_OK;
}

/* The download link's name carries no extension: name the file after what it holds,
 * TRANSCRIPTION_ID.EXT, or for several transcriptions (a ZIP) FIRST_ID+N.zip. */
static void export_file_name(const struct steno_export_create_req *r, char *out, size_t n)
{
	const struct spec_export_format *f = spec_export_format_find(r->format);
	const char *ext = f && f->extension ? f->extension : r->format;
	if (r->n_transcription_ids > 1)
		snprintf(out, n, "%s+%zu.zip", r->transcription_ids[0], r->n_transcription_ids - 1);
	else
		snprintf(out, n, "%s.%s", r->transcription_ids[0], ext);
}

int cmd_export(const struct cli_globals *g, int argc, char **argv)
{
	struct ex_opts o;
	memset(&o, 0, sizeof(o));
	int rc = ex_parse(argc, argv, &o);
	if (rc != 0)
		return rc < 0 ? cmd_help(export_usage) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "export");
	if (rc == 0)
		rc = cli_check_writable(&c);   /* an export is made on the server */
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0 && !o.wait) {
		rc = ex_create_only(&c, &o);
	} else if (rc == 0 && (rc = cli_ctx_jobs(&c)) == 0) {
		const char *dir = o.dir ? o.dir : c.cfg.download_dir ? c.cfg.download_dir : ".";
		struct steno_error err;
		steno_error_clear(&err);
		if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "steno export: cannot create %s: %s\n", dir, strerror(errno));
			cli_ctx_close(&c);
			return CLI_EXIT_FAIL;
		}
		char name[256];
		export_file_name(&o.req, name, sizeof(name));
		int id = jobs_export(c.jobs, &o.req, dir, name, o.force, &err);
		if (id < 0) {
			rc = cli_fail(&c, &err);
		} else {
			rc = cmd_run_job(&c, id);
			const struct steno_job *j = jobs_get(c.jobs, id);
			if (rc == 0 && j)
				rc = ex_print_done(&c, j, o.json);
		}
	}
	cli_ctx_close(&c);
	return rc;
}

/* ---- download: an existing export's file ---- */

static const char download_usage[] =
	"Usage: steno download [-o DIR] [--force] [--json] EXPORT_ID\n"
	"Download the file of a ready export (steno show --export ID shows its state) into DIR\n"
	"(default: download_dir or .), under the link's name; never over an existing file\n"
	"without --force.\n";

struct dl_call {
	bool done, failed;
	char *path;
	struct steno_error err;
};

static void on_dl_done(void *ud, const char *path, const struct steno_http_response *resp,
		       const struct steno_error *err)
{
	(void)resp;
	struct dl_call *d = ud;
	d->done = true;
	if (err) {
		d->failed = true;
		d->err = *err;
	} else if (!(d->path = strdup(path))) {
		d->failed = true;
		steno_error_set(&d->err, STENO_ERR_NOMEM, "out of memory");
	}
}

static void on_dl_progress(void *ud, uint64_t now, uint64_t total)
{
	(void)ud;
	out_progress_bytes("downloading", now, total);
}

static int parse_export(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_export_parse(b, n, out, err);
}

/* As export_file_name: EXPORT_ID.EXT, or .zip for several transcriptions. */
static const char *download_name(const struct steno_export *e, char *out, size_t n)
{
	const struct spec_export_format *f = spec_export_format_find(e->format);
	const char *ext = e->transcription_ids.n > 1 ? "zip" : f && f->extension ? f->extension
							: "download";
	snprintf(out, n, "%s.%s", e->id ? e->id : "export", ext);
	return out;
}

static int download_run(struct cli_ctx *c, const char *id, const char *dir, bool force, bool json)
{
	char name[256];
	struct steno_export e;
	memset(&e, 0, sizeof(e));
	struct dl_call d = {0};
	char *url = cli_url(c, "/exports", id);
	if (!url || cli_get(c, url, parse_export, &e, NULL, NULL, &d.err) != 0) {
		free(url);
		if (!url)
			steno_error_set(&d.err, STENO_ERR_NOMEM, "out of memory");
		return cli_fail(c, &d.err);
	}
	free(url);
	if (!e.download_link) {
		steno_error_set(&d.err, STENO_ERR_JOB, "export %s is %s: no file to download yet", id,
				e.state ? e.state : "in an unknown state");
		steno_export_free(&e);
		return cli_fail(c, &d.err);
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		steno_error_set(&d.err, STENO_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
		d.failed = d.done = true;
	} else if (steno_api_export_download(c->http, &e, dir, download_name(&e, name, sizeof(name)),
					     force, on_dl_progress, on_dl_done, &d, &d.err) != 0) {
		d.failed = d.done = true;
	}
	steno_export_free(&e);
	if (cli_wait_flag(c, &d.done, &d.err) != 0)
		d.failed = true;
	out_progress_end();
	int rc = CLI_EXIT_OK;
	if (d.failed) {
		rc = cli_fail(c, &d.err);
	} else if (json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(id));
		json_object_object_add(o, "file", json_object_new_string(d.path));
		out_json(stdout, o);
		json_object_put(o);
	} else {
		printf("%s\n", d.path);
	}
	free(d.path);
	return rc;
}

int cmd_download(const struct cli_globals *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'F'},
		{"json", no_argument, NULL, OPT_JSON},    {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	bool force = false, json = false;
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': dir = optarg; break;
		case 'F': force = true; break;
		case OPT_JSON: json = true; break;
		case 'h': return cmd_help(download_usage);
		default: return CLI_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return cli_usage("download", optind >= argc ? "an export ID is required" : "one ID only");
	struct cli_ctx c;
	int rc = cli_ctx_open(&c, g, "download");
	if (rc == 0)
		rc = cli_ctx_connect(&c);
	if (rc == 0)
		rc = download_run(&c, argv[optind],
				  dir ? dir : c.cfg.download_dir ? c.cfg.download_dir : ".", force, json);
	cli_ctx_close(&c);
	return rc;
}
