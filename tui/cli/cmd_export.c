#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "api/request.h"
#include "api/spec_tables.h"
#include "api/utf8.h"
#include "cli/cmds.h"
#include "core/download_name.h"

/* `steno export`: create an export of one or more transcriptions; --wait (or -o DIR) checks
 * the destination first, then waits until it is ready and downloads it under the
 * download_name pattern (NAME.part, then renamed; never over an existing file without
 * --force). */

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
	"  --wait                wait until ready and download as download_name (default\n"
	"                        {name}-{id}.{ext}); DIR and the file are checked first, and\n"
	"                        the export's id goes to stderr as soon as it exists\n"
	"  --timeout D           give up waiting D (90, 90s, 5m, 1h) after the export is\n"
	"                        created (its create is not counted)\n"
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
	/* "--timestamps 30s" would make 30s an id: optional values take '=' */
	for (int i = optind; r->show_timestamps && !r->timestamps_frequency && i < argc; i++)
		if (spec_timestamps_frequency_is_valid(argv[i]))
			return cli_usage("export", "--timestamps takes its value after '=': "
						   "--timestamps=%s", argv[i]);
	/* the same id twice is one transcription */
	int n = optind;
	for (int i = optind; i < argc; i++) {
		int k = optind;
		while (k < n && strcmp(argv[k], argv[i]) != 0)
			k++;
		if (k == n)
			argv[n++] = argv[i];
	}
	r->transcription_ids = (const char *const *)(argv + optind);
	r->n_transcription_ids = (size_t)(n - optind);
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

/* A path printed for people goes through the same cleaning as tables (issue 13: a name from
 * the server once carried U+009B and U+202E to the terminal). */
static void print_path(const char *key, const char *path)
{
	char *clean = out_clean(path);
	if (key)
		printf("%-16s %s\n", key, clean ? clean : "?");
	else
		printf("%s\n", clean ? clean : "?");
	free(clean);
}

/* --json after a download: the export as the server has it, plus "file" (export --wait and
 * download print the same shape). */
static int print_export_json(struct cli_ctx *c, const char *id, const char *file)
{
	char *url = cli_url(c, "/exports", id);
	json_object *o = NULL;
	struct steno_error err;
	steno_error_clear(&err);
	if (!url || cli_get(c, url, parse_json_obj, &o, NULL, NULL, &err) != 0) {
		free(url);
		return cli_fail(c, &err);
	}
	free(url);
	if (file)
		json_object_object_add(o, "file", json_object_new_string(file));
	out_json(stdout, o);
	json_object_put(o);
	return CLI_EXIT_OK;
}

static int ex_print_done(struct cli_ctx *c, const struct steno_job *j, bool json)
{
	if (json)
		return print_export_json(c, j->resource_id, j->file);
	int rc = cmd_print_resource(c, "/exports", j->resource_id, false);
	if (j->file)
		print_path("file", j->file);
	return rc;
}

static int parse_transcription(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_transcription_parse(b, n, out, err);
}

/* The file name under the configuration's download_name (core/download_name.h); the first
 * transcription is read for its name only when the pattern uses {name}, and a name that
 * cannot be read is left out ("export") rather than stopping the download. */
static int file_name(struct cli_ctx *c, const char *first_id, size_t count, const char *format,
		     char *out, size_t size, struct steno_error *err)
{
	struct steno_transcription t;
	memset(&t, 0, sizeof(t));
	if (download_name_wants_name(c->cfg.download_name) && first_id) {
		char *url = cli_url(c, "/transcriptions", first_id);
		struct steno_error lerr;
		steno_error_clear(&lerr);
		if (url && cli_get(c, url, parse_transcription, &t, NULL, NULL, &lerr) != 0) {
			memset(&t, 0, sizeof(t));
			/* after the engine's retries: said, never silent (the name is left out) */
			char *clean = out_clean(lerr.message), *id = out_clean(first_id);
			fprintf(stderr, "steno %s: warning: the name of transcription %s could not be "
					"read (%s); the file is named without it\n", c->cmd, id ? id : "",
				clean ? clean : "");
			free(clean);
			free(id);
		}
		free(url);
	}
	struct download_name_req r = {.pattern = c->cfg.download_name, .name = t.name,
				      .id = first_id, .count = count, .format = format};
	int rc = download_name_make(&r, out, size, err);
	steno_transcription_free(&t);
	return rc;
}

/* The destination before any server work: DIR made if missing, then a writable directory
 * without NAME in it (unless --force). */
static int dest_ready(const char *dir, const char *name, bool force, struct steno_error *err)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return steno_error_set(err, STENO_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
	return download_dest_check(dir, name, force, err);
}

static int parse_export(const char *b, size_t n, void *out, struct steno_error *err);

/* A failed export: the API gives no reason, but its transcriptions may (one not done cannot
 * be exported). The message says which, or that the server gave none. */
static void explain_export(struct cli_ctx *c, const struct steno_job *j, struct steno_error *e)
{
	if (e->kind != STENO_ERR_JOB || !j->state || strcmp(j->state, "failed") != 0 ||
	    !j->resource_id)
		return;
	struct steno_export ex;
	memset(&ex, 0, sizeof ex);
	struct steno_error ig;
	steno_error_clear(&ig);
	char *url = cli_url(c, "/exports", j->resource_id), why[300] = "";
	if (url && cli_get(c, url, parse_export, &ex, NULL, NULL, &ig) == 0) {
		for (size_t i = 0; i < ex.transcription_ids.n && !why[0]; i++) {
			struct steno_transcription t;
			memset(&t, 0, sizeof t);
			char *tu = cli_url(c, "/transcriptions", ex.transcription_ids.v[i]);
			if (tu && cli_get(c, tu, parse_transcription, &t, NULL, NULL, &ig) == 0 &&
			    t.state && strcmp(t.state, "automatic_done") && strcmp(t.state, "done"))
				snprintf(why, sizeof why, "transcription %.*s is %.*s%s%.*s%s: only a "
					 "finished transcription can be exported",
					 STENO_UTF8_CUT(t.id ? t.id : "", 64), STENO_UTF8_CUT(t.state, 40),
					 t.failure_reason ? " (" : "",
					 STENO_UTF8_CUT(t.failure_reason ? t.failure_reason : "", 80),
					 t.failure_reason ? ")" : "");
			steno_transcription_free(&t);
			free(tu);
		}
		steno_export_free(&ex);
	}
	free(url);
	char msg[sizeof e->message];
	snprintf(msg, sizeof msg, "%.*s: %s", STENO_UTF8_CUT(e->message, 200),
		 why[0] ? why : "the server gives no reason (the API has none); the transcriptions "
				"are done: try again, or another format");
	steno_error_set(e, STENO_ERR_JOB, "%s", msg);
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
		char name[256];
		int id = -1;
		if (steno_validate_export_create(&o.req, &err) == 0 &&
		    file_name(&c, o.req.transcription_ids[0], o.req.n_transcription_ids, o.req.format,
			      name, sizeof(name), &err) == 0 &&
		    dest_ready(dir, name, o.force, &err) == 0)
			id = jobs_export(c.jobs, &o.req, dir, name, o.force, &err);
		if (id < 0) {
			rc = cli_fail(&c, &err);
		} else {
			rc = cmd_run_job_explained(&c, id, "export", o.json, explain_export);
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
	"Usage: steno download [-o DIR|-] [--force] [--wait [--timeout D]] [--json] EXPORT_ID\n"
	"Download the file of a ready export (steno show --export ID shows its state) into DIR\n"
	"(default: download_dir or .), named by download_name (default {name}-{id}.{ext});\n"
	"never over an existing file without --force. With --wait an export still being made is\n"
	"waited for; a failed or expired one says so (exit 1). -o - writes the file to stdout.\n";

static int parse_export(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_export_parse(b, n, out, err);
}

/* Reads the export until it has a file: once, or with `wait` until a final state (polled at
 * refresh_interval). 0 with a download link, else -1 with err saying why there is no file. */
static int export_with_file(struct cli_ctx *c, const char *id, bool wait, struct steno_export *e,
			    struct steno_error *err)
{
	for (;;) {
		char *url = cli_url(c, "/exports", id);
		memset(e, 0, sizeof(*e));
		int rc = url ? cli_get(c, url, parse_export, e, NULL, NULL, err)
			     : steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		free(url);
		if (rc != 0 || e->download_link)
			return rc;
		const char *st = e->state ? e->state : "in an unknown state";
		bool final = e->state && spec_state_is_final(SPEC_STATE_EXPORT, e->state);
		if (e->state && strcmp(e->state, "failed") == 0)
			steno_error_set(err, STENO_ERR_JOB, "export %s failed: it has no file", id);
		else if (e->state && strcmp(e->state, "expired") == 0)
			steno_error_set(err, STENO_ERR_JOB, "export %s has expired: its file is gone "
					"(export again)", id);
		else if (final || !wait)
			steno_error_set(err, STENO_ERR_JOB, "export %s is %s: no file to download yet%s",
					id, st, wait ? "" : " (--wait waits for it)");
		steno_export_free(e);
		if (final || !wait)
			return -1;
		if (cli_sleep(c, (long)(c->cfg.refresh_interval_s * 1000), err) != 0)
			return -1;
	}
}

/* The file is fetched by the core's download job (jobs_download), as the browser's `d` does:
 * NAME.part renamed when whole, a refused link read again once from the export, Ctrl-C
 * cancels it and removes the .part. */
static int download_run(struct cli_ctx *c, const char *id, const char *dir, bool force, bool json,
			bool wait, bool quiet)
{
	char name[256];
	struct steno_export e;
	struct steno_error err;
	steno_error_clear(&err);
	if (export_with_file(c, id, wait, &e, &err) != 0)
		return cli_fail(c, &err);
	const char *first = e.transcription_ids.n ? e.transcription_ids.v[0] : e.id;
	int job = -1;
	if (file_name(c, first, e.transcription_ids.n, e.format, name, sizeof(name), &err) == 0 &&
	    dest_ready(dir, name, force, &err) == 0)
		job = jobs_download(c->jobs, &e, dir, name, force, &err);
	steno_export_free(&e);
	if (job < 0)
		return cli_fail(c, &err);
	int rc = cmd_run_job(c, job);
	const struct steno_job *j = jobs_get(c->jobs, job);
	if (rc != CLI_EXIT_OK || !j)
		return rc;
	if (quiet)
		return CLI_EXIT_OK;   /* -o -: the file itself goes to stdout */
	if (json)
		return print_export_json(c, id, j->file);
	print_path(NULL, j->file);
	return CLI_EXIT_OK;
}

/* download -o -: the file into a private temporary directory, then to stdout, then gone. */
static int download_to_stdout(struct cli_ctx *c, const char *id, bool wait)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/steno-download-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		struct steno_error e;
		steno_error_clear(&e);
		steno_error_set(&e, STENO_ERR_IO, "cannot create a temporary directory: %s",
				strerror(errno));
		return cli_fail(c, &e);
	}
	int rc = download_run(c, id, dir, true, false, wait, true);
	DIR *d = opendir(dir);
	for (struct dirent *de; d && (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		FILE *f = rc == 0 ? fopen(path, "rb") : NULL;
		char buf[65536];
		size_t n;
		while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
			if (fwrite(buf, 1, n, stdout) != n)
				break;
		if (f)
			fclose(f);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	if (rc == 0 && out_stdout_closed())
		return CLI_EXIT_CLOSED;
	return rc;
}

int cmd_download(const struct cli_globals *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'F'},
		{"json", no_argument, NULL, OPT_JSON},    {"help", no_argument, NULL, 'h'},
		{"wait", no_argument, NULL, 'w'},         {NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	bool force = false, json = false, wait = false;
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': dir = optarg; break;
		case 'F': force = true; break;
		case 'w': wait = true; break;
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
		rc = cli_ctx_jobs(&c);
	if (rc == 0 && dir && !strcmp(dir, "-"))
		rc = json ? cli_usage("download", "-o - writes the file itself to stdout: not with --json")
			  : download_to_stdout(&c, argv[optind], wait);
	else if (rc == 0)
		rc = download_run(&c, argv[optind],
				  dir ? dir : c.cfg.download_dir ? c.cfg.download_dir : ".", force, json,
				  wait, false);
	cli_ctx_close(&c);
	return rc;
}
