/* The log pane (L) of the real browser against a sandbox: every line whole (wrapped, not
 * cut), scrolling, and `/` filtering the lines on each key. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"

static const char *const demo30[] = {"--seed-demo", "30", NULL};
static struct pf f;

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(log, .fini = teardown);

/* How many times needle occurs on screen. */
static int count_on_screen(const char *needle)
{
	char *t = pf_text(&f);
	int n = 0;
	for (const char *q = strstr(t, needle); q; q = strstr(q + 1, needle))
		n++;
	free(t);
	return n;
}

Test(log, lines_are_whole_and_filter_as_you_type)
{
	struct pf_opts o = { .rows = 30, .cols = 80, .sandbox_args = demo30 };
	pf_open(&f, &o);
	pf_keys(&f, "L");
	pf_expect(&f, "Log (this run's requests)");
	/* the details request: its 32-character id does not fit after the method and host
	 * at 80 columns; it is shown whole on a row of its own */
	pf_expect(&f, "/api/v1/transcriptions/3a07bb3d2bf9cfba35966b5a23e133b3");
	cr_expect_geq(count_on_screen("retries=0"), 3, "every line ends on screen");
	/* `/` narrows on each key */
	pf_keys(&f, "<S-Tab> <S-Tab>");   /* transcriptions -> organizations -> the log */
	/* 4 lines: the first page, GET /organizations (the organizations pane), the details,
	 * page 1 */
	pf_keys(&f, "/ p a g e =");
	pf_expect(&f, "1 of 4 lines");
	cr_expect_eq(count_on_screen("retries=0"), 1);
	pf_expect(&f, "page=1");
	pf_keys(&f, "<BS> <BS> <BS> <BS> <BS>");
	pf_expect(&f, "4 of 4 lines");
	pf_keys(&f, "3 a 0 7");
	pf_expect(&f, "1 of 4 lines");
	pf_expect(&f, "/api/v1/transcriptions/3a07bb3d2bf9cfba35966b5a23e133b3");
	/* Enter keeps the filter (the keys move again), Esc clears it */
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "/: change  Esc: clear");
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "of 4 lines");
	cr_expect_geq(count_on_screen("retries=0"), 3);
	/* scrolling back a line shows the one before at the bottom */
	pf_keys(&f, "k");
	pf_reject(&f, "3a07bb3d2bf9cfba35966b5a23e133b3 200");
}
