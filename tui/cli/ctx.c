#include "config.h"

#include "cli/ctx.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/error_body.h"
#include "api/glossary.h"
#include "api/url.h"
#include "cli/cmd_ls.h"
#include "cli/errors.h"
#include "cli/out.h"
#include "core/jobs_extra.h"
#include "core/sandbox_launch.h"
#include "core/secret.h"

static void print_diags(const struct steno_config *cfg)
{
	for (size_t i = 0; i < cfg->n_diags; i++)
		fprintf(stderr, "%s\n", cfg->diags[i].text);
}

/* --sandbox: steno's state and cache go with the sandbox's run, not the user's. */
static int cli_sandbox_paths(struct cli_ctx *c, struct steno_error *err)
{
	char *state = strdup(c->g->sandbox_state_file);
	char *cache = strdup(c->g->sandbox_cache_dir ? c->g->sandbox_cache_dir : "");
	if (!state || !cache) {
		free(state);
		free(cache);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	free(c->paths.state_file);
	free(c->paths.cache_dir);
	c->paths.state_file = state;
	c->paths.cache_dir = cache;
	return 0;
}

int cli_ctx_open(struct cli_ctx *c, const struct cli_globals *g, const char *cmd)
{
	return cli_ctx_open_ex(c, g, cmd, false);
}

int cli_ctx_open_ex(struct cli_ctx *c, const struct cli_globals *g, const char *cmd,
		    bool tolerant)
{
	struct steno_error err;
	steno_error_clear(&err);
	memset(c, 0, sizeof(*c));
	c->g = g;
	c->cmd = cmd;
	state_init(&c->state);
	if (paths_resolve(&c->paths, &err) != 0)
		return cli_fail(c, &err);
	c->have_paths = true;
	if (g->sandbox_state_file && cli_sandbox_paths(c, &err) != 0)
		return cli_fail(c, &err);
	if (config_init_defaults(&c->cfg, &err) != 0)
		return cli_fail(c, &err);
	c->have_cfg = true;
	int rc = config_load(&c->cfg, &c->paths, g->config_file, &err);
	print_diags(&c->cfg);
	if (rc != 0 && !tolerant)
		return cli_fail(c, &err);
	return CLI_EXIT_OK;
}

static int account_from_sandbox(struct cli_ctx *c, struct steno_error *err)
{
	const struct cli_globals *g = c->g;
	c->acct.base_url = strdup(g->sandbox_base_url);
	c->acct.api_key = strdup(g->sandbox_api_key);
	c->acct.key_source = strdup("--sandbox");
	c->acct.org_id = g->sandbox_org_id ? strdup(g->sandbox_org_id) : NULL;
	c->acct.profile = strdup(SANDBOX_LAUNCH_PROFILE);
	if (!c->acct.base_url || !c->acct.api_key || !c->acct.key_source || !c->acct.profile ||
	    (g->sandbox_org_id && !c->acct.org_id))
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	/* the demo organization gets a name, as a profile's org.NAME would give it */
	return c->have_cfg ? sandbox_launch_profile(&c->cfg, g->sandbox_org_id, err) : 0;
}

static int account_resolve(struct cli_ctx *c, struct steno_error *err)
{
	if (c->g->sandbox_base_url)
		return account_from_sandbox(c, err);
	if (config_account_resolve(&c->cfg, c->g->profile, true, &c->acct, err) != 0)
		return -1;
	if (c->g->base_url) {
		char *u = strdup(c->g->base_url);
		if (!u)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		free(c->acct.base_url);
		c->acct.base_url = u;
	}
	return 0;
}

int cli_ctx_account(struct cli_ctx *c)
{
	struct steno_error err;
	steno_error_clear(&err);
	if (account_resolve(c, &err) != 0)
		return cli_fail(c, &err);
	return CLI_EXIT_OK;
}

/* A script sees why a command takes its time: every wait for a rate limit is said. */
static void on_retry(void *ud, const struct steno_http_response *resp, long delay_ms)
{
	struct cli_ctx *c = ud;
	if (resp->status != 429)
		return;
	fprintf(stderr, "steno %s: rate limited, waiting %ld s", c->cmd ? c->cmd : "",
		(delay_ms + 999) / 1000);
	if (resp->retry_after_asked_s > resp->retry_after_s)
		fprintf(stderr, " (the server asked %.0f s; retry_max_wait is %.0f s)",
			resp->retry_after_asked_s < 1e9 ? resp->retry_after_asked_s : 1e9,
			resp->retry_after_s);
	fputc('\n', stderr);
}

int cli_ctx_connect(struct cli_ctx *c)
{
	struct steno_error err;
	steno_error_clear(&err);
	if (!c->acct.base_url && cli_ctx_account(c) != 0)
		return CLI_EXIT_FAIL;
	struct steno_http_config hc = {
		.base_url = c->acct.base_url,
		.api_key = c->acct.api_key,
		.timeout_ms = c->cfg.timeout_s > 0 ? (long)c->cfg.timeout_s * 1000 : 0,
		.max_host_connections = c->cfg.connections > 0 ? c->cfg.connections : 0,
		.trace_path = c->g->trace ? c->g->trace : c->cfg.trace_file,
		.retry_max_wait_ms = (long)c->cfg.retry_max_wait_s * 1000,
		.low_speed_bytes = c->cfg.min_speed,
		.low_speed_time_s = c->cfg.stall_time_s,
		.download_max_bytes = c->cfg.download_max,
		.offline = cli_offline(c),
		.download_min_rate = c->cfg.download_min_rate,
		.request_deadline_ms = (long)c->cfg.request_deadline_s * 1000,
	};
	if (steno_http_new(&hc, &c->http, &err) != 0)
		return cli_fail(c, &err);
	char warn[256];
	if (steno_http_proxy_warning(hc.base_url, warn, sizeof warn))
		fprintf(stderr, "steno: warning: %s\n", warn);
	steno_http_set_retry_listener(c->http, on_retry, c);
	return CLI_EXIT_OK;
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The organization the TUI would open with for this account (main.c's rule), without the
 * message cli_org prints when there is none. */
static const char *cli_job_org(struct cli_ctx *c)
{
	if (c->g->org) {
		const struct config_profile *prof =
			c->acct.profile ? config_profile_find(&c->cfg, c->acct.profile) : NULL;
		const char *id = prof ? config_org_id(prof, c->g->org) : NULL;
		return id ? id : c->g->org;
	}
	return c->acct.org_id;
}

/* The state file, loaded once (a broken one was set aside by state_load). */
bool cli_state(struct cli_ctx *c)
{
	if (!c->state_loaded && c->paths.state_file) {
		struct steno_error err;
		steno_error_clear(&err);
		c->state_loaded = state_load(&c->state, c->paths.state_file, &err) == 0;
		char origin[512];   /* learned folders are per server */
		state_set_origin(&c->state, state_origin(c->acct.base_url, origin, sizeof origin),
				 cli_job_org(c));
	}
	return c->state_loaded;
}

void cli_remember(struct cli_ctx *c, enum state_watch_kind kind, const char *id)
{
	char origin[512];
	struct steno_error err;
	steno_error_clear(&err);
	if (id && cli_state(c) && state_origin(c->acct.base_url, origin, sizeof origin))
		state_watch_add(&c->state, origin, cli_job_org(c), kind, id, wall_ms(), &err);
}

static void on_job_event(void *ud, const struct steno_job *job)
{
	struct cli_ctx *c = ud;
	/* what the shell started shows in the TUI's activity pane too */
	if (cli_state(c))
		jobs_extra_remember(&c->state, c->acct.base_url, cli_job_org(c), job, wall_ms());
	if (!out_progress_enabled())
		return;
	const char *step = jobs_step_name(job->step);
	if (job->step == JOB_STEP_UPLOADING || job->step == JOB_STEP_DOWNLOADING)
		out_progress_bytes(step, job->bytes_done, job->bytes_total);
	else if (job->step == JOB_STEP_WAITING)
		out_progress_text("waiting: %s %s", job->resource_id ? job->resource_id : "",
				  job->state ? job->state : "");
	else
		out_progress_text("%s", step);
}

int cli_ctx_jobs(struct cli_ctx *c)
{
	struct steno_error err;
	steno_error_clear(&err);
	cli_state(c);
	struct jobs_config jc = {
		.http = c->http,
		.state = c->state_loaded ? &c->state : NULL,
		.state_path = c->state_loaded ? c->paths.state_file : NULL,
		.organization_id = c->acct.org_id,
		.poll_min_ms = (int64_t)(c->cfg.refresh_interval_s * 1000),
		.poll_max_ms = (int64_t)(c->cfg.refresh_max_s * 1000),
		.requests_per_second = c->cfg.requests_per_second,
		.on_event = on_job_event,
		.ud = c,
	};
	c->jobs = jobs_new(&jc, &err);
	if (!c->jobs)
		return cli_fail(c, &err);
	return CLI_EXIT_OK;
}

void cli_ctx_close(struct cli_ctx *c)
{
	out_progress_end();
	if (c->jobs)
		jobs_free(c->jobs);
	if (c->state_loaded && c->state.dirty) {
		struct steno_error err;
		steno_error_clear(&err);
		if (state_save(&c->state, c->paths.state_file, &err) != 0)
			fprintf(stderr, "steno: warning: %s\n", err.message);
	}
	state_free(&c->state);
	free(c->found_org);
	c->found_org = NULL;
	if (c->http)
		steno_http_free(c->http);
	config_account_free(&c->acct);
	if (c->have_cfg)
		config_free(&c->cfg);
	if (c->have_paths)
		paths_free(&c->paths);
	memset(c, 0, sizeof(*c));
}

int cli_fail(struct cli_ctx *c, const struct steno_error *err)
{
	out_progress_end();
	char msg[sizeof(err->message) + 128];
	if (err->kind == STENO_ERR_INVALID && err->field[0] &&
	    !strstr(err->message, err->field))
		snprintf(msg, sizeof(msg), "%s: %s", err->field, err->message);
	else if (err->kind == STENO_ERR_HTTP && err->http_status > 0)
		snprintf(msg, sizeof(msg), "%s (HTTP %ld%s%s)", err->message, err->http_status,
			 err->code[0] ? ", " : "", err->code);
	else
		snprintf(msg, sizeof(msg), "%s", err->message[0] ? err->message : "failed");
	if (c && c->acct.api_key)
		secret_redact_buf(msg, sizeof(msg), c->acct.api_key);
	char *clean = out_clean(msg);
	fprintf(stderr, "steno%s%s: %s\n", c && c->cmd ? " " : "", c && c->cmd ? c->cmd : "",
		clean ? clean : "error");
	free(clean);
	if (err->kind == STENO_ERR_HTTP && err->http_status == 401)
		fprintf(stderr, "steno%s%s: hint: the key was refused for this request: is it a key "
				"of this transcription API (not of another product's API), and does it "
				"reach this organization?\n", c && c->cmd ? " " : "", c && c->cmd ? c->cmd : "");
	char *json_msg = out_clean(err->message[0] ? err->message : "failed");
	if (c && c->acct.api_key && json_msg)
		secret_redact_buf(json_msg, strlen(json_msg) + 1, c->acct.api_key);
	bool cancelled = err->kind == STENO_ERR_CANCELLED && !cli_interrupted();
	const char *code = cancelled ? "failed" : cli_error_code_of(err);
	cli_json_error(err->kind == STENO_ERR_HTTP ? err->http_status : 0, code, err->code,
		       json_msg ? json_msg : "failed", err->field);
	free(json_msg);
	return cli_error_exit(code);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "steno %s: %s\nTry 'steno %s --help'.\n", cmd, msg, cmd);
	cli_json_error(0, "usage", NULL, msg, NULL);
	return CLI_EXIT_USAGE;
}

bool cli_offline(const struct cli_ctx *c)
{
	return c->g->offline || c->cfg.offline;
}

int cli_check_writable(struct cli_ctx *c)
{
	if (cli_offline(c)) {
		if (c->g->offline || !c->cfg.file)
			fprintf(stderr, "steno %s: refused offline: nothing is sent (--offline)\n",
				c->cmd);
		else
			fprintf(stderr, "steno %s: refused offline: nothing is sent (offline in %s)\n",
				c->cmd, c->cfg.file);
		cli_json_error(0, "offline", NULL, "refused offline: nothing is sent", NULL);
		return CLI_EXIT_USAGE;
	}
	if (!c->g->read_only && !c->cfg.read_only)
		return 0;
	char msg[600];
	snprintf(msg, sizeof msg, "refused in read-only mode (--read-only or read_only in %s)",
		 c->cfg.file ? c->cfg.file : "the config file");
	fprintf(stderr, "steno %s: %s\n", c->cmd, msg);
	cli_json_error(0, "read_only", NULL, msg, NULL);
	return CLI_EXIT_USAGE;
}

static int parse_orgs(const char *b, size_t n, void *out, struct steno_error *err)
{
	return steno_organization_list_parse(b, n, out, err);
}

/* No organization was given: the key's own list decides when it holds exactly one. */
static const char *cli_org_found(struct cli_ctx *c)
{
	struct steno_organization_list l = {0};
	struct steno_error err;
	steno_error_clear(&err);
	int rc = -1;
	if (cli_offline(c) || c->local_only) {
		/* nothing is sent: the organizations the local store keeps for this server */
		char *body = cache_answer_quiet(c, "organizations");
		rc = body ? parse_orgs(body, strlen(body), &l, &err) : -1;
		if (!body)
			steno_error_set(&err, STENO_ERR_IO, "the local store keeps no organizations "
					"for this server: run steno orgs online once");
		free(body);
	} else {
		char *url = c->http ? cli_url(c, "/organizations", NULL) : NULL;
		char *body = NULL;
		size_t len = 0;
		rc = url ? cli_get(c, url, parse_orgs, &l, &body, &len, &err) : -1;
		if (rc == 0 && body)
			cache_answer_keep(c, "organizations", body);
		free(url);
		free(body);
	}
	char id[32];
	if (rc == 0 && l.n == 1) {
		snprintf(id, sizeof(id), "%lld", (long long)l.items[0].id.v);
		c->found_org = strdup(id);
	}
	bool stored = cli_offline(c) || c->local_only;
	if (!c->found_org && rc == 0 && l.n > 1)
		cli_usage(c->cmd, "%s %zu organizations: give --org ID (steno %sorgs lists "
				  "them), set STENO_ORG_ID, or set organization in the profile",
			  stored ? "the local store keeps" : "the key sees", l.n,
			  stored ? "--offline " : "");
	else if (!c->found_org)
		cli_usage(c->cmd, "no organization: give --org ID, set STENO_ORG_ID, or set "
				  "organization in the profile%s%s%s", rc != 0 ? (stored ? " (" : " (GET /organizations: ") : "",
			  rc != 0 ? err.message : "", rc != 0 ? ")" : "");
	steno_organization_list_free(&l);
	return c->found_org;
}

const char *cli_org(struct cli_ctx *c, const char *flag)
{
	const char *ref = flag ? flag : c->g->org;
	if (!ref) {
		if (c->acct.org_id)
			return c->acct.org_id;
		return c->found_org ? c->found_org : cli_org_found(c);
	}
	const struct config_profile *p =
		c->acct.profile ? config_profile_find(&c->cfg, c->acct.profile) : NULL;
	const char *id = p ? config_org_id(p, ref) : NULL;
	if (id)
		return id;
	if (strncmp(ref, "org.", 4) == 0) {
		cli_usage(c->cmd, "organization %s is not defined in the profile", ref);
		return NULL;
	}
	return ref;
}

/* The id steno learned for a folder path of an organization (the state file), or NULL. */
static const char *learned_folder_id(struct cli_ctx *c, const char *org, const char *path)
{
	size_t *idx = NULL;
	long n = org && cli_state(c) ? state_folders_of(&c->state, org, &idx) : 0;
	const char *id = NULL;
	for (long i = 0; i < n && !id; i++) {
		const struct state_folder *f = &c->state.folders[idx[i]];
		const char *a = f->path ? f->path : "", *b = path;
		a += *a == '/';
		b += *b == '/';
		if (f->folder_id && !strcmp(a, b))
			id = f->folder_id;
	}
	free(idx);
	return id;
}

const char *cli_folder(struct cli_ctx *c, const char *flag, const char **org)
{
	const struct config_profile *p =
		c->acct.profile ? config_profile_find(&c->cfg, c->acct.profile) : NULL;
	for (size_t i = 0; flag && p && i < p->n_folders; i++) {
		const struct config_folder *f = &p->folders[i];
		if (strcmp(f->name, flag) != 0)
			continue;
		const char *forg = f->org ? (config_org_id(p, f->org) ? config_org_id(p, f->org)
								      : f->org) : NULL;
		if (org && !*org && forg)
			*org = forg;
		if (f->folder_id)
			return f->folder_id;
		/* a path: its id, when steno learned it (the API lists no folders) */
		const char *o = forg ? forg : cli_org(c, org ? *org : NULL);
		const char *id = f->path && o ? learned_folder_id(c, o, f->path) : NULL;
		if (id)
			return id;
		if (o)
			cli_usage(c->cmd, "folder %s is the path %s in the config, and steno knows no "
					  "id for it in organization %s (the API lists no folders: steno "
					  "learns an id when an order is created in the folder; steno folders "
					  "lists what it knows): give --folder ID, or folder.%s = ID",
				  flag, f->path ? f->path : "?", o, flag);
		return NULL;
	}
	return flag;
}

char *cli_url(struct cli_ctx *c, const char *path, const char *id)
{
	struct steno_url_builder b;
	steno_url_builder_init(&b, c->acct.base_url, path);
	if (id)
		steno_url_builder_segment(&b, id);
	return steno_url_builder_take(&b);
}

struct get_call {
	bool done;
	long status;
	char *body;
	size_t len;
	struct steno_error err;
	bool failed;
};

static void on_get(void *ud, const struct steno_http_response *resp, const struct steno_error *err)
{
	struct get_call *g = ud;
	g->done = true;
	g->status = resp->status;
	if (err) {
		g->failed = true;
		g->err = *err;
		if (err->kind == STENO_ERR_HTTP && resp->status > 0) {
			steno_error_clear(&g->err);
			steno_error_from_http(resp, &g->err);
		}
		return;
	}
	g->body = malloc(resp->body_len + 1);
	if (!g->body) {
		g->failed = true;
		steno_error_set(&g->err, STENO_ERR_NOMEM, "out of memory");
		return;
	}
	memcpy(g->body, resp->body, resp->body_len);
	g->body[resp->body_len] = '\0';
	g->len = resp->body_len;
}

static int get_once(struct cli_ctx *c, const char *url, struct get_call *g, struct steno_error *err)
{
	memset(g, 0, sizeof(*g));
	struct steno_http_request req = {.method = "GET", .url = url, .done = on_get, .ud = g};
	if (steno_http_submit(c->http, &req, NULL, err) != 0)
		return -1;
	if (cli_wait_flag(c, &g->done, err) != 0)
		return -1;
	if (g->failed) {
		if (err)
			*err = g->err;
		return -1;
	}
	return 0;
}

int cli_get(struct cli_ctx *c, const char *url, cli_parse_fn parse, void *out, char **body,
	    size_t *len, struct steno_error *err)
{
	for (int attempt = 0;; attempt++) {
		struct get_call g;
		if (get_once(c, url, &g, err) != 0)
			return -1;
		int rc = parse ? parse(g.body, g.len, out, err) : 0;
		if (rc != 0 && err && err->kind == STENO_ERR_PARSE && attempt < 4) {
			free(g.body);
			continue; /* a malformed answer to a GET: ask again */
		}
		if (rc == 0 && body) {
			*body = g.body;
			if (len)
				*len = g.len;
		} else {
			free(g.body);
		}
		return rc;
	}
}

int cli_list_split(struct cli_list *l, const char *csv)
{
	char *copy = strdup(csv ? csv : "");
	if (!copy)
		return -1;
	char *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (*t && cli_list_add(l, t) != 0) {
			free(copy);
			return -1;
		}
	free(copy);
	return 0;
}

int cli_list_add(struct cli_list *l, const char *item)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	l->v = v;
	char *s = strdup(item);
	if (!s)
		return -1;
	l->v[l->n++] = s;
	return 0;
}

void cli_list_free(struct cli_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

bool cli_is_url(const char *s)
{
	return s && (strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0);
}
