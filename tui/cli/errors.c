#include "config.h"

#include "cli/errors.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out.h"

const struct cli_error_code cli_error_codes[] = {
	{"usage", CLI_EXIT_USAGE, "a bad command line: an unknown option, a missing argument"},
	{"invalid", CLI_EXIT_USAGE, "a value steno refused before sending (fields names it)"},
	{"rejected", CLI_EXIT_FAIL, "the server refused the request (HTTP 400, 409, 422; fields "
				    "names the field)"},
	{"read_only", CLI_EXIT_USAGE, "refused by --read-only or read_only"},
	{"config", CLI_EXIT_FAIL, "the configuration or account is unusable (no key...)"},
	{"unauthorized", CLI_EXIT_FAIL, "the key was refused (HTTP 401, 403)"},
	{"not_found", CLI_EXIT_FAIL, "no such item (HTTP 404)"},
	{"rate_limited", CLI_EXIT_FAIL, "still rate limited after the retries (HTTP 429)"},
	{"server_error", CLI_EXIT_FAIL, "the server failed, after the retries (HTTP 5xx)"},
	{"http", CLI_EXIT_FAIL, "another HTTP error status"},
	{"network", CLI_EXIT_FAIL, "no connection, or it broke"},
	{"timeout", CLI_EXIT_FAIL, "a request, or a wait's --timeout, took too long"},
	{"malformed", CLI_EXIT_FAIL, "the server's answer is not what the API says, after retries"},
	{"io", CLI_EXIT_FAIL, "a local file could not be read or written"},
	{"exists", CLI_EXIT_FAIL, "the file to write exists (--force replaces it)"},
	{"job_failed", CLI_EXIT_FAIL, "the item reached a failed state (failed, expired...)"},
	{"needs_action", CLI_EXIT_FAIL, "the item waits for a person (incomplete, locked)"},
	{"no_memory", CLI_EXIT_FAIL, "out of memory"},
	{"failed", CLI_EXIT_FAIL, "any other failure"},
	{"outcome_unknown", CLI_EXIT_UNKNOWN, "the server did not answer a create, and what it did "
					      "is unknown: check before sending it again"},
	{"ambiguous", CLI_EXIT_UNKNOWN, "the server did not answer a create, and more than one "
					"item fits it (candidates lists them)"},
	{"interrupted", CLI_EXIT_INTERRUPTED, "SIGINT or SIGTERM"},
	{"closed_output", CLI_EXIT_CLOSED, "stdout's reader went away (a pipe closed): stopped "
					   "at the first write that failed"},
};
const size_t cli_n_error_codes = sizeof(cli_error_codes) / sizeof(cli_error_codes[0]);

static const char *http_code(long status)
{
	if (status == 401 || status == 403)
		return "unauthorized";
	if (status == 404)
		return "not_found";
	if (status == 400 || status == 409 || status == 422)
		return "rejected";
	if (status == 429)
		return "rate_limited";
	return status >= 500 ? "server_error" : "http";
}

const char *cli_error_code_of(const struct steno_error *err)
{
	if (!strcmp(err->code, STENO_CODE_OUTCOME_UNKNOWN) || !strcmp(err->code, "ambiguous"))
		return err->code;
	if (!strcmp(err->code, "exists"))
		return "exists";
	if (!strcmp(err->code, "needs_action") || !strcmp(err->code, "read_only") ||
	    !strcmp(err->code, "job_failed") || !strcmp(err->code, "timeout"))
		return err->code;
	if (err->kind == STENO_ERR_JOB && (!strcmp(err->code, "incomplete") ||
					   !strcmp(err->code, "locked")))
		return "needs_action";
	switch (err->kind) {
	case STENO_ERR_INVALID: return err->http_status ? "rejected" : "invalid";
	case STENO_ERR_NOMEM: return "no_memory";
	case STENO_ERR_NETWORK: return "network";
	case STENO_ERR_TIMEOUT: return "timeout";
	case STENO_ERR_HTTP: return http_code(err->http_status);
	case STENO_ERR_PARSE: return "malformed";
	case STENO_ERR_IO: return "io";
	case STENO_ERR_CANCELLED: return "interrupted";
	case STENO_ERR_CONFIG: return "config";
	case STENO_ERR_JOB: return "job_failed";
	case STENO_ERR_NONE: break;
	}
	return "failed";
}

int cli_error_exit(const char *code)
{
	for (size_t i = 0; i < cli_n_error_codes; i++)
		if (!strcmp(cli_error_codes[i].code, code))
			return cli_error_codes[i].exit;
	return CLI_EXIT_FAIL;
}

static bool json_on, said;

void cli_error_said(void)
{
	said = true;
}

bool cli_error_was_said(void)
{
	return said;
}

static json_object *pending;      /* the first failure */
static json_object *created;      /* array */
static json_object *candidates;   /* array or NULL */

void cli_json_errors(bool on)
{
	json_on = on;
}

bool cli_json_errors_on(void)
{
	return json_on;
}

void cli_json_error(long status, const char *code, const char *server_code, const char *message,
		    const char *field)
{
	said = true;
	if (!json_on || pending)
		return;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "status", status > 0 ? json_object_new_int64(status) : NULL);
	json_object_object_add(o, "code", json_object_new_string(code));
	json_object_object_add(o, "server_code", server_code && server_code[0] &&
			       strcmp(server_code, code) ? json_object_new_string(server_code) : NULL);
	json_object_object_add(o, "message", json_object_new_string(message));
	json_object *fields = json_object_new_object();
	if (field && field[0]) {
		json_object *list = json_object_new_array();
		json_object_array_add(list, json_object_new_string(message));
		json_object_object_add(fields, field, list);
	}
	json_object_object_add(o, "fields", fields);
	pending = o;
}

void cli_json_created(const char *kind, const char *id, const char *state)
{
	if (!id)
		return;
	if (!created)
		created = json_object_new_array();
	size_t n = json_object_array_length(created);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(created, i), *v;
		if (json_object_object_get_ex(c, "id", &v) && !strcmp(json_object_get_string(v), id)) {
			if (state)
				json_object_object_add(c, "state", json_object_new_string(state));
			return;
		}
	}
	json_object *c = json_object_new_object();
	json_object_object_add(c, "kind", json_object_new_string(kind));
	json_object_object_add(c, "id", json_object_new_string(id));
	json_object_object_add(c, "state", state ? json_object_new_string(state) : NULL);
	json_object_array_add(created, c);
}

void cli_json_candidates(char *const *ids, size_t n)
{
	if (!candidates)
		candidates = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(candidates, json_object_new_string(ids[i]));
}

void cli_json_finish(int rc)
{
	if (json_on && rc != 0) {
		if (!pending) {
			const char *code = rc == CLI_EXIT_USAGE ? "usage"
				: rc == CLI_EXIT_INTERRUPTED ? "interrupted" : "failed";
			json_on = true;
			cli_json_error(0, code, NULL, rc == CLI_EXIT_USAGE
				       ? "bad command line (stderr says what; see --help)"
				       : "failed (stderr says why)", NULL);
		}
		json_object_object_add(pending, "exit", json_object_new_int(rc));
		json_object_object_add(pending, "created",
				       created ? json_object_get(created) : json_object_new_array());
		if (candidates)
			json_object_object_add(pending, "candidates", json_object_get(candidates));
		if (out_json_list_open())
			out_json(stdout, pending);   /* the last element */
		else
			out_json_line(stdout, pending);
	}
	out_json_list_end();
	fflush(stdout);
	json_object_put(pending);
	json_object_put(created);
	json_object_put(candidates);
	pending = created = candidates = NULL;
	said = false;
}
