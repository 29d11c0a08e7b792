/* Issue 22: the man page's ERRORS table (codes and their exit statuses) and its EXIT STATUS
 * list are the code's table (cli/errors.c), both ways. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"

/* The lines of section `name` of docs/steno.1 (malloc'd, NUL-separated by '\n'). */
static char *man_section(const char *name)
{
	const char *src = getenv("STENO_SRCDIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/docs/steno.1", src ? src : ".");
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	static char buf[400000];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char head[64];
	snprintf(head, sizeof head, "\n.SH %s\n", name);
	char *a = strstr(buf, head);
	cr_assert_not_null(a, "no section %s", name);
	a += strlen(head);
	char *b = strstr(a, "\n.SH ");
	return b ? strndup(a, (size_t)(b - a + 1)) : strdup(a);
}

Test(cli_errtable, the_man_page_has_the_codes_and_their_exit_statuses)
{
	char *sec = man_section("ERRORS");
	size_t seen = 0;
	for (char *line = strtok(sec, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, ".B ", 3) != 0)
			continue;
		const char *code = line + 3;
		char *next = strtok(NULL, "\n");
		cr_assert_not_null(next, "%s: no text", code);
		int ex = -1;
		cr_assert_eq(sscanf(next, "exit %d:", &ex), 1, "%s: %s", code, next);
		bool found = false;
		for (size_t i = 0; i < cli_n_error_codes; i++)
			if (!strcmp(cli_error_codes[i].code, code)) {
				found = true;
				cr_expect_eq(cli_error_codes[i].exit, ex, "%s: man %d, code %d", code, ex,
					     cli_error_codes[i].exit);
			}
		cr_expect(found, "the man page's %s is not a code of cli/errors.c", code);
		seen++;
	}
	cr_expect_eq(seen, cli_n_error_codes, "the man page lists %zu codes, the code %zu", seen,
		     cli_n_error_codes);
	free(sec);
}

Test(cli_errtable, exit_status_lists_every_exit_of_the_table)
{
	char *sec = man_section("EXIT STATUS");
	int listed[16], n = 0;
	for (char *line = strtok(sec, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, ".B ", 3) && n < 16)
			listed[n++] = atoi(line + 3);
	free(sec);
	cr_expect(n > 0 && listed[0] == 0, "0 first");
	for (size_t i = 0; i < cli_n_error_codes; i++) {
		bool in = false;
		for (int k = 0; k < n; k++)
			in = in || listed[k] == cli_error_codes[i].exit;
		cr_expect(in, "exit %d of %s is not in EXIT STATUS", cli_error_codes[i].exit,
			  cli_error_codes[i].code);
	}
	for (int k = 1; k < n; k++) {
		bool used = false;
		for (size_t i = 0; i < cli_n_error_codes; i++)
			used = used || listed[k] == cli_error_codes[i].exit;
		cr_expect(used, "EXIT STATUS lists %d, which no code gives", listed[k]);
	}
}

/* The mapping of errors to codes is the table's. */
Test(cli_errtable, errors_map_to_codes_of_the_table)
{
	struct steno_error e;
	steno_error_clear(&e);
	e.kind = STENO_ERR_HTTP;
	long statuses[] = {400, 401, 403, 404, 409, 422, 429, 500, 503, 418};
	for (size_t i = 0; i < sizeof statuses / sizeof *statuses; i++) {
		e.http_status = statuses[i];
		const char *c = cli_error_code_of(&e);
		bool in = false;
		for (size_t k = 0; k < cli_n_error_codes; k++)
			in = in || !strcmp(cli_error_codes[k].code, c);
		cr_expect(in, "%ld gives %s", statuses[i], c);
	}
	e.http_status = 404;
	cr_expect_str_eq(cli_error_code_of(&e), "not_found");
	steno_error_clear(&e);
	e.kind = STENO_ERR_JOB;
	snprintf(e.code, sizeof e.code, "locked");
	cr_expect_str_eq(cli_error_code_of(&e), "needs_action");
	snprintf(e.code, sizeof e.code, "failed");
	cr_expect_str_eq(cli_error_code_of(&e), "job_failed");
	snprintf(e.code, sizeof e.code, "ambiguous");
	cr_expect_eq(cli_error_exit(cli_error_code_of(&e)), 3);
}
