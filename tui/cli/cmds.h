#ifndef STENO_CLI_CMDS_H
#define STENO_CLI_CMDS_H

/* The commands of tui/cli, one entry point each (argv[0] is "steno NAME" for getopt's
 * messages), and the small pieces they share. Internal to tui/cli. */

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "api/transcription.h"
#include "cli/cli.h"
#include "cli/ctx.h"
#include "cli/out.h"

int cmd_ls(const struct cli_globals *g, int argc, char **argv);
int cmd_show(const struct cli_globals *g, int argc, char **argv);
int cmd_rm(const struct cli_globals *g, int argc, char **argv);
int cmd_upload(const struct cli_globals *g, int argc, char **argv);
int cmd_transcribe(const struct cli_globals *g, int argc, char **argv);
int cmd_export(const struct cli_globals *g, int argc, char **argv);
int cmd_download(const struct cli_globals *g, int argc, char **argv);
int cmd_translate(const struct cli_globals *g, int argc, char **argv);
int cmd_order(const struct cli_globals *g, int argc, char **argv);
int cmd_order_show(const struct cli_globals *g, int argc, char **argv);
int cmd_order_watch(const struct cli_globals *g, int argc, char **argv);
int cmd_order_create(const struct cli_globals *g, int argc, char **argv);
int cmd_order_translation(const struct cli_globals *g, int argc, char **argv);
int cmd_order_confirm(const struct cli_globals *g, int argc, char **argv);
int cmd_orgs(const struct cli_globals *g, int argc, char **argv);
int cmd_glossaries(const struct cli_globals *g, int argc, char **argv);
int cmd_style_guides(const struct cli_globals *g, int argc, char **argv);
int cmd_config(const struct cli_globals *g, int argc, char **argv);
int cmd_languages(const struct cli_globals *g, int argc, char **argv);
/* cli/cmd_cache.c: steno cache info|clear */
int cmd_cache(const struct cli_globals *g, int argc, char **argv);
int cmd_index(const struct cli_globals *g, int argc, char **argv);
int cmd_search(const struct cli_globals *g, int argc, char **argv);
int cmd_folders(const struct cli_globals *g, int argc, char **argv);

/* Option values shared by many commands. */
enum {
	OPT_JSON = 1000,
};

/* The command table (cli.c): every command, and its subcommands (order's, cache's,
 * config's). `steno help`, the completion scripts (complete.c) and dispatch all read it: a
 * command or subcommand added here is everywhere (its options are read from its --help
 * text). */
struct cli_cmd {
	const char *name;
	int (*run)(const struct cli_globals *g, int argc, char **argv);
	const char *summary;
	const struct cli_cmd *subs;   /* its subcommands, or NULL */
	size_t n_subs;
};
extern const struct cli_cmd cli_cmds[], cli_order_cmds[];
extern const size_t cli_n_cmds, cli_n_order_cmds;
/* A command's --help text (its run with --help, written to memory), malloc'd, or NULL. */
char *cli_help_text(const struct cli_cmd *c, const char *prefix);

/* The names of the browser's bundled themes for --theme's completion, NULL after the last
 * (main.c points it at ui's list: cli/ does not include ui/); NULL when unknown. */
extern const char *(*cli_theme_name)(size_t i);

int cmd_help_command(const struct cli_globals *g, int argc, char **argv);
int cmd_completion(const struct cli_globals *g, int argc, char **argv);

/* Prints `usage` (for --help) to cmd_help_out(): stdout, or cli_help_text's memory. */
int cmd_help(const char *usage);
FILE *cmd_help_out(void);
/* Parses a non-negative integer option; -1 when invalid. */
long cmd_parse_long(const char *s);
/* Parses options that are only --org, --json and --help (plus `flags`, up to 4 booleans set in
 * `flag_vals`), from optind 0; org or json NULL refuses that option. 0 when parsed (the
 * operands start at optind), -1 for --help, else the exit code after saying why (an unknown
 * option, or more than `max_args` operands). */
int cmd_parse_simple(const char *cmd, int argc, char **argv, const char **org, bool *json,
		     const char *const *flags, bool *flag_vals, int max_args);

/* The key/value view of a transcription, and its parser for cli_get. */
void cmd_print_transcription(const struct steno_transcription *t, FILE *f);
int cmd_parse_transcription(const char *body, size_t len, void *out, struct steno_error *err);

/* After a job: prints its resource (GET path/ID) for people or as JSON. Exit code. */
int cmd_print_resource(struct cli_ctx *c, const char *path, const char *id, bool json);

/* Runs the job `id` (from a jobs_* starter) to its end. 0 when done, else the exit code
 * after printing why. */
int cmd_run_job(struct cli_ctx *c, int id);
/* Same, and as soon as the job's resource exists: "steno CMD: WHAT ID created" on stderr, or
 * with json the event line {"event":"created","created":"WHAT","kind":"WHAT","id":"ID",
 * "found_after_lost_reply":B} on stderr (stdout keeps its one document); an interrupted wait
 * names it again. The exit status is cli_fail's (the code's, cli/errors.c). */
int cmd_run_job_announcing(struct cli_ctx *c, int id, const char *what, bool json);
/* Same; a failed job's error goes through `explain` first (it may say more of why). */
typedef void (*cmd_explain_fn)(struct cli_ctx *c, const struct steno_job *j,
			       struct steno_error *e);
int cmd_run_job_explained(struct cli_ctx *c, int id, const char *what, bool json,
			  cmd_explain_fn explain);

/* Shared by the creating commands (cmd_create.c). */
/* Checks shared by transcribe and order create before anything is sent: --folder with
 * --folder-id is a usage error; a well-formed language code outside the spec's list gets a
 * warning on stderr when it is to be sent (any_language). 0 or CLI_EXIT_USAGE. */
int cmd_check_create_options(const char *cmd, const char *folder, const char *folder_id,
			     const char *language, bool any_language);
int cmd_open_for_jobs(struct cli_ctx *c, const struct cli_globals *g, const char *cmd);
int cmd_start_failed(struct cli_ctx *c, const struct steno_error *err);
int cmd_finish_job(struct cli_ctx *c, int id, const char *path, const char *what, bool json);
char *cmd_source_language(struct cli_ctx *c, const char *id, int *rc);
/* A name for what a file or URL holds, into buf: a file's basename; a URL's last segment when
 * it looks like a file name (a.mp3), else the URL without its scheme (host/watch?v=ID, host). */
const char *cmd_basename(const char *url_or_path, char *buf, size_t n);
int cmd_check_source(const char *cmd, const char *src, bool *is_file);

#endif
