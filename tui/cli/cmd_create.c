#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/glossary.h"
#include "api/request.h"
#include "api/spec_tables.h"
#include "api/url.h"
#include "api/utf8.h"
#include "cli/cmds.h"

/* The commands that create work: transcribe, order create, order translation, translate,
 * order confirm. Each builds the request, lets the job run it (upload, POST, optional
 * wait), then prints the resource as the server has it. Requests the builders refuse are
 * usage errors (exit 2) and nothing is sent. */

/* Once the job's resource exists its id goes to stderr (a script can come back for it): the
 * line "steno CMD: WHAT ID created", or with json the event
 * {"event":"created","created":"WHAT","kind":"WHAT","id":"ID","found_after_lost_reply":B}.
 * It is also named in the --json failure document (cli/errors.h "created"). */
static void announce(struct cli_ctx *c, int id, const char *what, bool json, bool *said)
{
	const struct steno_job *j = what && !*said ? jobs_get(c->jobs, id) : NULL;
	if (!j || !j->resource_id)
		return;
	cli_json_created(what, j->resource_id, j->state);
	if (json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "event", json_object_new_string("created"));
		json_object_object_add(o, "created", json_object_new_string(what));
		json_object_object_add(o, "kind", json_object_new_string(what));
		json_object_object_add(o, "id", json_object_new_string(j->resource_id));
		json_object_object_add(o, "found_after_lost_reply",
				       json_object_new_boolean(j->found_after_loss));
		out_json_text(stderr, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
									JSON_C_TO_STRING_NOSLASHESCAPE));
		fputc('\n', stderr);
		json_object_put(o);
	} else {
		char *clean = out_clean(j->resource_id);
		if (j->found_after_loss)
			fprintf(stderr, "steno %s: no answer from the server, but %s %s was found: it is "
					"this command's (it fits what was sent and no other steno process "
					"claims it)\n", c->cmd, what, clean ? clean : "");
		else
			fprintf(stderr, "steno %s: %s %s created\n", c->cmd, what, clean ? clean : "");
		free(clean);
	}
	fflush(stderr);
	*said = true;
}

/* An interrupted wait names what exists again: the last line a person reads. */
static void name_again(struct cli_ctx *c, const struct steno_job *j, const char *what)
{
	if (!what || !j || !j->resource_id)
		return;
	char *clean = out_clean(j->resource_id);
	fprintf(stderr, "steno %s: %s %s exists on the server and goes on without this command "
			"(steno watch %s)\n", c->cmd, what, clean ? clean : "", clean ? clean : "");
	free(clean);
}

/* The job's item is on the server (or the job is past its create). */
static bool job_exists(const struct steno_job *j)
{
	return j && (j->resource_id || j->step == JOB_STEP_WAITING ||
		     j->step == JOB_STEP_DOWNLOADING);
}

int cmd_run_job(struct cli_ctx *c, int id)
{
	return cmd_run_job_announcing(c, id, NULL, false);
}

int cmd_run_job_announcing(struct cli_ctx *c, int id, const char *what, bool json)
{
	return cmd_run_job_explained(c, id, what, json, NULL);
}

int cmd_run_job_explained(struct cli_ctx *c, int id, const char *what, bool json,
			  cmd_explain_fn explain)
{
	bool said = false;
	/* --timeout covers the wait for what exists: it counts from the create's answer (the
	 * upload and the create have their own request limits) */
	bool armed = job_exists(jobs_get(c->jobs, id));
	if (!armed)
		cli_wait_timeout_hold();
	/* jobs_run's loop, plus SIGINT/SIGTERM: the job is cancelled (a download's .part goes). */
	while (jobs_active(c->jobs) > 0 && !cli_interrupted() && !cli_timed_out()) {
		announce(c, id, what, json, &said);
		cli_wait(c, jobs_timeout_ms(c->jobs));   /* a signal wakes it too */
		jobs_tick(c->jobs);
		if (!armed && (armed = job_exists(jobs_get(c->jobs, id))))
			cli_wait_timeout_restart();
	}
	out_progress_end();
	announce(c, id, what, json, &said);
	const struct steno_job *j = jobs_get(c->jobs, id);
	if (j && what && j->resource_id)
		cli_json_created(what, j->resource_id, j->state);
	if (cli_interrupted()) {
		jobs_cancel(c->jobs, id);
		struct steno_error e;
		steno_error_clear(&e);
		cli_interrupt_error(&e);
		int rc = cli_fail(c, &e);
		name_again(c, jobs_get(c->jobs, id), what);
		return rc;
	}
	if (!j)
		return CLI_EXIT_FAIL;
	if (j->step == JOB_STEP_DONE)
		return CLI_EXIT_OK;
	if (cli_timed_out() && jobs_active(c->jobs) > 0) {
		/* --timeout: the wait is given up; what exists goes on on the server */
		char step[64];
		snprintf(step, sizeof step, "%s", jobs_step_name(j->step));
		jobs_cancel(c->jobs, id);
		struct steno_error e;
		steno_error_clear(&e);
		steno_error_set(&e, STENO_ERR_TIMEOUT, "gave up waiting after --timeout (%s)", step);
		snprintf(e.code, sizeof e.code, "timeout");
		int rc = cli_fail(c, &e);
		name_again(c, jobs_get(c->jobs, id), what);
		return rc;
	}
	struct steno_error e = j->error;
	if (e.kind == STENO_ERR_INVALID || e.kind == STENO_ERR_NONE)
		e.kind = STENO_ERR_JOB; /* the server refused: not a usage error */
	if (!e.message[0])
		steno_error_set(&e, STENO_ERR_JOB, "%s", jobs_step_name(j->step));
	if (e.kind == STENO_ERR_IO && strcmp(e.code, "exists") == 0) {
		char msg[sizeof(e.message)];
		snprintf(msg, sizeof(msg), "%.*s (--force replaces it)", STENO_UTF8_CUT(e.message, 400));
		steno_error_set(&e, STENO_ERR_IO, "%s", msg);
	}
	if (j->n_candidates)
		cli_json_candidates(j->candidates, j->n_candidates);
	if (steno_error_outcome_unknown(&e)) {
		/* what to check before a script sends it again (exit 3) */
		char msg[sizeof(e.message)];
		snprintf(msg, sizeof msg, "%.*s; check the list (steno ls) before sending it again",
			 STENO_UTF8_CUT(e.message, 420));
		steno_error_set(&e, e.kind, "%s", msg);
	}
	if (explain)
		explain(c, j, &e);
	return cli_fail(c, &e);
}

int cmd_check_create_options(const char *cmd, const char *folder, const char *folder_id,
			     const char *language, bool any_language)
{
	if (folder && folder_id)
		return cli_usage(cmd, "--folder and --folder-id exclude each other");
	if (any_language && language && !spec_language_is_valid(language) &&
	    spec_language_is_well_formed(language)) {
		char *clean = out_clean(language);
		fprintf(stderr, "steno %s: warning: %s is not in steno languages; it is sent as is and "
				"the server decides (--strict refuses it)\n", cmd, clean ? clean : "");
		free(clean);
	}
	return 0;
}

/* Opens, checks read-only, connects and creates the jobs. Returns an exit code. */
int cmd_open_for_jobs(struct cli_ctx *c, const struct cli_globals *g, const char *cmd)
{
	int rc = cli_ctx_open(c, g, cmd);
	if (rc == 0)
		rc = cli_check_writable(c);
	if (rc == 0)
		rc = cli_ctx_connect(c);
	if (rc == 0)
		rc = cli_ctx_jobs(c);
	return rc;
}

/* A job start failed before anything ran: INVALID (a builder's refusal) is a usage error. */
int cmd_start_failed(struct cli_ctx *c, const struct steno_error *err)
{
	return cli_fail(c, err);
}

/* After a job: print what the server has (the resource, or for an export its file). With
 * --json a failure prints only its document (one document per command: it names what was
 * created). */
int cmd_finish_job(struct cli_ctx *c, int id, const char *path, const char *what, bool json)
{
	int rc = cmd_run_job_announcing(c, id, what, json);
	const struct steno_job *j = jobs_get(c->jobs, id);
	if (j && j->resource_id && !cli_interrupted() && !(json && rc != 0)) {
		int prc = cmd_print_resource(c, path, j->resource_id, json);
		if (rc == 0)
			rc = prc;
	}
	return rc;
}

/* The language of a transcription (to check a translation's source); NULL if unknown. */
char *cmd_source_language(struct cli_ctx *c, const char *id, int *rc)
{
	struct steno_transcription t;
	memset(&t, 0, sizeof(t));
	struct steno_error err;
	steno_error_clear(&err);
	char *url = cli_url(c, "/transcriptions", id), *lang = NULL;
	if (!url || cli_get(c, url, cmd_parse_transcription, &t, NULL, NULL, &err) != 0) {
		if (!url)
			steno_error_set(&err, STENO_ERR_NOMEM, "out of memory");
		*rc = cli_fail(c, &err);
	} else if (t.language && !(lang = strdup(t.language))) {
		*rc = CLI_EXIT_FAIL;
	}
	free(url);
	steno_transcription_free(&t);
	return lang;
}

const char *cmd_basename(const char *s, char *buf, size_t n)
{
	if (!cli_is_url(s)) {
		const char *b = strrchr(s, '/');
		snprintf(buf, n, "%s", b && b[1] ? b + 1 : s);
		return buf;
	}
	/* A URL: its file name when the last segment looks like one (a.mp3); else the URL without
	 * its scheme, so that https://host/watch?v=ID or https://host/ still names something. */
	const char *rest = strstr(s, "://") + 3;
	size_t len = strcspn(rest, "#");
	while (len > 0 && rest[len - 1] == '/')
		len--;
	size_t path_end = strcspn(rest, "?#");
	if (path_end > len)
		path_end = len;
	const char *seg = rest + path_end;
	while (seg > rest && seg[-1] != '/')
		seg--;
	size_t seg_len = (size_t)(rest + path_end - seg);
	if (seg > rest && memchr(seg, '.', seg_len) && seg_len > 1)
		snprintf(buf, n, "%.*s", (int)seg_len, seg);
	else
		snprintf(buf, n, "%.*s", (int)(len > 120 ? 120 : len), rest);
	return buf;
}

/* FILE|URL: a local file must be a readable file (not a directory). Sets *is_file. */
int cmd_check_source(const char *cmd, const char *src, bool *is_file)
{
	struct stat st;
	*is_file = !cli_is_url(src);
	if (*is_file && access(src, R_OK) != 0)
		return cli_usage(cmd, "cannot read '%s': %s (give a readable file or an http(s) URL)",
				 src, strerror(errno));
	if (*is_file && stat(src, &st) == 0 && S_ISDIR(st.st_mode))
		return cli_usage(cmd, "'%s' is a directory (give a media file or an http(s) URL)", src);
	return 0;
}

/* ---- transcribe ---- */

static const char transcribe_usage[] =
	"Usage: steno transcribe FILE|URL --language L [--name N] [OPTION]...\n"
	"Create a transcription; a local FILE is uploaded first.\n"
	"\n"
	"  --name N           name (default: the file name)\n"
	"  --language L       language code (steno languages; another well-formed code such\n"
	"                     as en is sent with a warning and the server decides)\n"
	"  --strict           refuse a language code outside steno languages\n"
	"  --service S        auto (default), pro or alignment\n"
	"  --document URL     the text to align (alignment only)\n"
	"  --subtitle         treat as subtitles\n"
	"  --folder PATH      folder path a/b  |  --folder-id ID\n"
	"  --tags a,b         tags\n"
	"  --sharing          enable sharing\n"
	"  --org ID           organization\n"
	"  --wait             wait until it is done (exit 1 when it fails)\n"
	"  --timeout D        with --wait: give up waiting D (90, 90s, 5m, 1h) after it\n"
	"                     is created (the upload and create are not counted)\n"
	"  --json             print the transcription as JSON\n";

int cmd_transcribe(const struct cli_globals *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{"name", required_argument, NULL, 'n'},     {"language", required_argument, NULL, 'l'},
		{"service", required_argument, NULL, 's'},  {"document", required_argument, NULL, 'd'},
		{"subtitle", no_argument, NULL, 'S'},       {"folder", required_argument, NULL, 'f'},
		{"folder-id", required_argument, NULL, 'F'}, {"tags", required_argument, NULL, 't'},
		{"sharing", no_argument, NULL, 'x'},        {"org", required_argument, NULL, 'o'},
		{"wait", no_argument, NULL, 'w'},           {"json", no_argument, NULL, OPT_JSON},
		{"strict", no_argument, NULL, 'X'},         {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct steno_transcription_create_req req = {.any_language = true};
	struct cli_list tags = {0};
	const char *org = NULL;
	bool wait = false, json = false, is_file = false;
	int ch, rc = 0;
	optind = 0;
	while (rc == 0 && (ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case 'n': req.name = optarg; break;
		case 'l': req.language = optarg; break;
		case 's': req.service = optarg; break;
		case 'd': req.document_url = optarg; break;
		case 'S': req.is_subtitle = true; break;
		case 'f': req.folder = optarg; break;
		case 'F': req.folder_id = optarg; break;
		case 't': rc = cli_list_split(&tags, optarg) ? CLI_EXIT_FAIL : 0; break;
		case 'x': req.sharing_enabled = true; break;
		case 'X': req.any_language = false; break;
		case 'o': org = optarg; break;
		case 'w': wait = true; break;
		case OPT_JSON: json = true; break;
		case 'h': cli_list_free(&tags); return cmd_help(transcribe_usage);
		default: rc = CLI_EXIT_USAGE;
		}
	}
	if (rc == 0 && optind + 1 != argc)
		rc = cli_usage("transcribe", optind >= argc ? "a FILE or URL is required" : "one FILE or URL only");
	if (rc == 0)
		rc = cmd_check_create_options("transcribe", req.folder, req.folder_id, req.language,
					      req.any_language);
	if (rc == 0)
		rc = cmd_check_source("transcribe", argv[optind], &is_file);
	struct cli_ctx c;
	memset(&c, 0, sizeof(c));
	if (rc == 0)
		rc = cmd_open_for_jobs(&c, g, "transcribe");
	if (rc == 0 && !(req.organization_id = cli_org(&c, org)))
		rc = CLI_EXIT_USAGE;
	if (rc == 0) {
		const char *src = argv[optind];
		req.tmp_url = is_file ? NULL : src;
		char base[256];
		if (!req.name)
			req.name = cmd_basename(src, base, sizeof(base));
		req.tags = cli_list_cv(&tags);
		req.n_tags = tags.n;
		struct steno_error err;
		steno_error_clear(&err);
		int id = jobs_transcribe(c.jobs, &req, is_file ? src : NULL, wait, &err);
		rc = id < 0 ? cmd_start_failed(&c, &err) : cmd_finish_job(&c, id, "/transcriptions",
								      "transcription", json);
	}
	cli_list_free(&tags);
	cli_ctx_close(&c);
	return rc;
}
