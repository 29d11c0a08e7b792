#ifndef STENO_CLI_CLI_H
#define STENO_CLI_CLI_H

/* steno's headless commands (`steno ls`, `steno export` ...), on api/ and core/.
 * Exit codes: CLI_EXIT_OK, CLI_EXIT_FAIL (an API, network, job or file failure),
 * CLI_EXIT_USAGE (a bad command line or a request the builders refuse), CLI_EXIT_UNKNOWN (a
 * lost reply whose outcome is unknown or ambiguous), CLI_EXIT_INTERRUPTED; per error code in
 * cli/errors.c (the man page's table). */

#include <stdbool.h>
#include <stdio.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_UNKNOWN 3       /* a create's outcome is unknown or ambiguous (check first) */
#define CLI_EXIT_CLOSED 141      /* stdout's reader went away (as SIGPIPE would: it is ignored) */
#define CLI_EXIT_INTERRUPTED 130 /* SIGINT/SIGTERM: what was pending was dropped */

/* The global options main parsed, and the account of a --sandbox (all borrowed).
 * Ownership: the caller's; the commands only read them. */
struct cli_globals {
	const char *profile;      /* --profile */
	const char *base_url;     /* --base-url: overrides config and environment */
	const char *org;          /* --org: an id or a profile's org.NAME */
	const char *trace;        /* --trace FILE */
	const char *config_file;  /* --config FILE */
	const char *theme;        /* --theme (the TUI's) */
	bool read_only;           /* --read-only: commands that change or spend are refused */
	bool json;                /* --json before the command: as the command's own --json */
	/* Set by --sandbox: used as the account instead of config and environment. */
	const char *sandbox_base_url;
	const char *sandbox_api_key;
	const char *sandbox_org_id;
	const char *sandbox_state_file;   /* steno's state and cache for that sandbox */
	const char *sandbox_cache_dir;
};

/* True when `name` is a command of cli_run (so main can tell a command from a typo). */
bool cli_is_command(const char *name);

/* Runs argv[0] (the command name) with its arguments. Returns the exit code. */
int cli_run(const struct cli_globals *g, int argc, char **argv);

/* The command list for `steno --help`. */
void cli_print_commands(FILE *out);
/* `steno --help`: usage, global options, commands, exit statuses. */
void cli_print_usage(FILE *out);

#endif
