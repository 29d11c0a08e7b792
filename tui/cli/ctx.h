#ifndef STENO_CLI_CTX_H
#define STENO_CLI_CTX_H

/* What every command works with: the configuration, the account, the engine, the jobs; and
 * the helpers shared by the commands (errors to exit codes, organization choice, GETs that
 * keep the raw body for --json). Used by tui/cli, and by main.c to load the configuration
 * and account it hands to the interactive browser. */

#include <stdbool.h>
#include <stddef.h>

#include "api/error.h"
#include "api/http.h"
#include "cli/cli.h"
#include "cli/errors.h"
#include "core/conf.h"
#include "core/jobs.h"
#include "core/paths.h"
#include "core/state.h"

/* Ownership: everything inside is owned by the ctx and released by cli_ctx_close. */
struct cli_ctx {
	const struct cli_globals *g;   /* borrowed */
	const char *cmd;               /* "ls", "order create" ... for messages */
	struct steno_paths paths;
	struct steno_config cfg;
	struct steno_account acct;
	struct steno_http *http;       /* NULL until cli_ctx_connect */
	struct steno_jobs *jobs;       /* NULL until cli_ctx_jobs */
	struct steno_state state;
	char *found_org;               /* the one organization GET /organizations gave, or NULL */
	bool local_only;               /* ls --cached: no request, the store answers */
	bool state_loaded;
	bool have_paths, have_cfg;
};

/* Loads paths and config (diagnostics to stderr). Returns an exit code (0 ok). */
int cli_ctx_open(struct cli_ctx *c, const struct cli_globals *g, const char *cmd);
/* Same; with `tolerant` a config file with errors is used as far as it goes (for
 * `config paths`, which must work when the file is broken). */
int cli_ctx_open_ex(struct cli_ctx *c, const struct cli_globals *g, const char *cmd,
		    bool tolerant);
/* Resolves the account (key required): --sandbox's, else config/env with --base-url.
 * Returns an exit code (a message was printed). */
int cli_ctx_account(struct cli_ctx *c);
/* Resolves the account if not done yet and starts the engine. Returns an exit code. */
int cli_ctx_connect(struct cli_ctx *c);
/* Creates the job manager (after cli_ctx_connect). Returns an exit code. */
int cli_ctx_jobs(struct cli_ctx *c);
void cli_ctx_close(struct cli_ctx *c);

/* Prints "steno CMD: message" (key redacted) and returns the exit code of the error kind:
 * CLI_EXIT_USAGE for STENO_ERR_INVALID, else CLI_EXIT_FAIL. */
int cli_fail(struct cli_ctx *c, const struct steno_error *err);
/* A usage error: message and the hint to run --help. Returns CLI_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* --offline on the command line or offline in the config: the engine refuses every request
 * (api/http.h offline) and the read commands answer from the local store. */
bool cli_offline(const struct cli_ctx *c);
/* Refuses a command that changes or spends when --read-only or --offline is on
 * (CLI_EXIT_USAGE), else 0. */
int cli_check_writable(struct cli_ctx *c);

/* The organization: `flag` (an id or org.NAME), else --org, else the account's default, else
 * the key's only organization (GET /organizations, when the engine runs and it lists exactly
 * one). NULL when none (then a message was printed). */
const char *cli_org(struct cli_ctx *c, const char *flag);

/* Synchronous GET of `url` (the engine retries 5xx/429/network); when `parse` is given the
 * body is parsed into `out` and a malformed body is fetched again (four more times at most). *body
 * (may be NULL) gets the raw body, malloc'd. 0 or -1 with err. */
typedef int (*cli_parse_fn)(const char *body, size_t len, void *out, struct steno_error *err);
int cli_get(struct cli_ctx *c, const char *url, cli_parse_fn parse, void *out, char **body,
	    size_t *len, struct steno_error *err);
/* A folder: the NAME of a profile's folder.NAME line gives its id (a path: the id steno
 * learned for it, state file), and its organization into *org when *org is NULL; anything
 * else is returned as given. NULL after a usage message: a configured path whose id is not
 * known. */
const char *cli_folder(struct cli_ctx *c, const char *flag, const char **org);
/* base_url + path + "/" + escaped id (id may be NULL); caller frees; NULL on no memory. */
char *cli_url(struct cli_ctx *c, const char *path, const char *id);

/* The state file, loaded once (after the account: its origin scopes what is read). */
bool cli_state(struct cli_ctx *c);

/* Remembers an order, export or translation task this command created in the state file's
 * watched list, so the TUI's activity pane shows it (jobs are remembered by themselves). */
void cli_remember(struct cli_ctx *c, enum state_watch_kind kind, const char *id);

/* The waits (cli/wait.c). One pass of the engine: waits until a transfer can progress, the engine's next timer,
 * SIGINT/SIGTERM (the handler's self-pipe wakes it at once, even when the signal came just
 * before the wait), or `max_ms` (-1: no limit of its own); then runs what is due
 * (steno_http_perform). Nothing else wakes it: an idle command sleeps. */
void cli_wait(struct cli_ctx *c, long max_ms);
/* From now on every cli_wait also ends when stdout is a pipe or a socket whose reader went
 * away (POLLERR/POLLHUP), which cli_stdout_gone() then says: a command that may have nothing
 * to write for long (watch) ends then, not at its next write. Once seen, stdout is no longer
 * watched (it would wake every wait). */
void cli_wait_watch_stdout(void);
bool cli_stdout_gone(void);
/* cli_wait with no limit of its own: for a loop waiting for requests in flight. */
void cli_pump(struct cli_ctx *c);
/* Waits `ms` milliseconds, running the engine meanwhile; -1 with err (STENO_ERR_CANCELLED)
 * as soon as SIGINT/SIGTERM arrives, else 0. */
int cli_sleep(struct cli_ctx *c, long ms, struct steno_error *err);
/* Runs the engine until `*done` is set (for single endpoint calls). -1 with err (kind
 * STENO_ERR_CANCELLED) when SIGINT/SIGTERM arrived: the caller gives up, and closing the ctx
 * drops what is still pending (a partial download's NAME.part is removed). */
int cli_wait_flag(struct cli_ctx *c, const bool *done, struct steno_error *err);

/* --timeout D of a --wait: from now, every wait ends after ms (cli_wait returns then, cli_sleep
 * fails with code "timeout"), and cli_timed_out says so. 0: none. */
void cli_set_wait_timeout(long ms);
bool cli_timed_out(void);
/* A job's --wait counts from when its item exists: held (no deadline) until then, and
 * restarted (D from now) when the create has answered. */
void cli_wait_timeout_hold(void);
void cli_wait_timeout_restart(void);

/* SIGINT/SIGTERM handling of the commands (installed by cli_run). */
void cli_signals_install(void);
/* With --json (cli/errors.h cli_json_errors), cli_fail, cli_usage and cli_check_writable also
 * record the failure's JSON document, printed once at the command's end (cli_json_finish). */
bool cli_interrupted(void);
/* Sets err to "interrupted" (STENO_ERR_CANCELLED) and returns -1. */
int cli_interrupt_error(struct steno_error *err);

/* A list of strings from "a,b,c" options. Ownership: malloc'd items, cli_list_free. */
struct cli_list {
	char **v;
	size_t n;
};
/* Adds the items of "a,b,c" (empty items dropped). 0 or -1 (no memory). */
int cli_list_split(struct cli_list *l, const char *csv);
/* Appends one more item (copied). */
int cli_list_add(struct cli_list *l, const char *item);
void cli_list_free(struct cli_list *l);
static inline const char *const *cli_list_cv(const struct cli_list *l)
{
	return (const char *const *)l->v;
}

/* True when s looks like an http(s) URL (else it is taken as a local file). */
bool cli_is_url(const char *s);

#endif
