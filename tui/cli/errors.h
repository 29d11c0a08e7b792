#ifndef STENO_CLI_ERRORS_H
#define STENO_CLI_ERRORS_H

/* The one vocabulary of error codes of the commands and their exit statuses (docs/steno.1,
 * ERRORS and EXIT STATUS: a test compares them with this table), and the one JSON document a
 * command with --json prints on stdout when it fails:
 *   {"status": HTTP status or null, "code": CODE, "server_code": the server's own code or null,
 *    "message": text, "fields": {FIELD: [text]}, "exit": N,
 *    "created": [{"kind": K, "id": ID, "state": S or null}], "candidates": [ID] (ambiguous only)}
 * "created" names what the command made before it failed (it exists on the server). */

#include <stdbool.h>
#include <stddef.h>

#include "api/error.h"

struct cli_error_code {
	const char *code;
	int exit;
	const char *meaning;
};

/* The table, in the man page's order. */
extern const struct cli_error_code cli_error_codes[];
extern const size_t cli_n_error_codes;

/* The code of an error (from its kind, HTTP status and code). */
const char *cli_error_code_of(const struct steno_error *err);
/* The exit status of a code of the table (1 for an unknown one). */
int cli_error_exit(const char *code);

/* --json failures (cli.c turns them on for a command line with --json): the first failure's
 * document is kept and printed by cli_json_finish, once, when the command fails. */
void cli_json_errors(bool on);
bool cli_json_errors_on(void);
/* Records a failure (the first one is kept); server_code, field may be NULL or "". */
void cli_json_error(long status, const char *code, const char *server_code, const char *message,
		    const char *field);
/* Something the command created (reported in the failure document). */
void cli_json_created(const char *kind, const char *id, const char *state);
/* The candidates of an ambiguous lookup. */
void cli_json_candidates(char *const *ids, size_t n);
/* Whether a failure was said (cli_fail, cli_usage, a refusal) since the command began:
 * else a usage error is getopt's, and the command adds "Try 'steno CMD --help'". */
void cli_error_said(void);
bool cli_error_was_said(void);
/* At the command's end: with --json and rc != 0, prints the failure document (a generic one
 * when no failure was recorded: a usage error getopt reported, say) with "exit": rc. Then
 * forgets everything. */
void cli_json_finish(int rc);

#endif
