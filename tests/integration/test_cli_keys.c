/* `steno keys`: the actions table with the keys in effect, and the man page's KEYS section,
 * which must be exactly `steno keys --roff` of the built-in defaults (so the page can never
 * drift from the table). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

#define RUN(res, h, ...) \
	cr_assert_eq(cli_exec(res, h, NULL, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static struct cli_home home;

static void setup(void)
{
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(cli_home_config(&home, ""), 0);
}

static void teardown(void)
{
	cli_home_free(&home);
}

/* The text between the marker lines of docs/steno.1 (malloc'd). */
static char *man_keys_section(void)
{
	const char *src = getenv("STENO_SRCDIR");
	cr_assert(src, "STENO_SRCDIR is not set");
	char path[1024];
	snprintf(path, sizeof path, "%s/docs/steno.1", src);
	char *page = cli_read_file(path);
	cr_assert(page, "cannot read %s", path);
	const char *begin = strstr(page, ".\\\" BEGIN KEYS\n");
	cr_assert(begin, "no BEGIN KEYS marker in %s", path);
	begin += strlen(".\\\" BEGIN KEYS\n");
	const char *end = strstr(begin, ".\\\" END KEYS\n");
	cr_assert(end, "no END KEYS marker in %s", path);
	char *sec = strndup(begin, (size_t)(end - begin));
	free(page);
	return sec;
}

Test(cli_keys, man_page_section_is_the_roff_output, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, &home, "keys", "--roff");
	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	char *sec = man_keys_section();
	cr_assert(strstr(r.out, ".SS ") && strstr(r.out, "move\\-down"), "%s", r.out);
	cr_assert_str_eq(sec, r.out,
			 "docs/steno.1's KEYS section differs from `steno keys --roff`: "
			 "paste the command's output between the markers");
	free(sec);
	cli_result_free(&r);
}

Test(cli_keys, text_shows_the_configs_bindings, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, &home, "keys");
	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	cr_assert(strstr(r.out, "move-down"), "%s", r.out);
	cr_assert_null(strstr(r.out, "J <C-r>"), "%s", r.out);
	cli_result_free(&r);

	cr_assert_eq(cli_home_config(&home, "bind J move-down\nbind <F5> refresh\n"), 0);
	RUN(&r, &home, "keys");
	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	const char *line = strstr(r.out, "move-down");
	cr_assert(line, "%s", r.out);
	const char *start = line;
	while (start > r.out && start[-1] != '\n')
		start--;
	cr_assert(strstr(start, "J") && strstr(start, "J") < line, "J not on move-down's line: %s",
		  r.out);
	cr_assert(strstr(r.out, "<F5>"), "%s", r.out);
	cli_result_free(&r);
}

Test(cli_keys, help_and_usage, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, &home, "keys", "--help");
	cr_assert_eq(r.code, 0);
	cr_assert(strstr(r.out, "Usage: steno keys") && strstr(r.out, "--roff"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, &home, "keys", "extra");
	cr_assert_eq(r.code, 2, "%s", r.err);
	cli_result_free(&r);
	RUN(&r, &home, "--help");
	cr_assert_eq(r.code, 0);
	cr_assert(strstr(r.out, "\n  keys "), "--help lists no keys command: %s", r.out);
	cli_result_free(&r);
}
