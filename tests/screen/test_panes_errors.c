/* Screen tests of the TUI's empty states and errors. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"

static struct pf f;
static const char *const demo10[] = { "--seed-demo", "10", NULL };

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(errors, .fini = teardown);

/* No organization anywhere and none found (the server cannot be reached). */
Test(errors, no_organization_says_how_to_set_one)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .no_sandbox = 1, .no_org = 1,
		.base_url = "http://127.0.0.1:9/api/v1", .api_key = "k" };
	pf_open(&f, &o);
	pf_golden(&f, "panes-no-org-100x24.txt");
}

/* Issue 15: no organization configured, and the key sees exactly one (GET /organizations on
 * the sandbox): it fills the organizations pane and is chosen. */
Test(errors, the_only_organization_of_the_key_is_chosen)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo10, .no_org = 1 };
	pf_open(&f, &o);
	pf_wait_text(&f, "Transcriptions 23");
	pf_expect(&f, "Demo Organization");
	pf_reject(&f, "no organization configured");
	pf_golden(&f, "panes-org-found-100x24.txt");
}

Test(errors, refused_key_is_named)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo10,
		.api_key = "sk_not_a_real_key" };
	pf_open(&f, &o);
	pf_expect(&f, "the API key was refused");
	pf_expect(&f, "Could not load the transcriptions");
}

Test(errors, network_down_is_health_not_a_crash)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .no_sandbox = 1,
		.base_url = "http://127.0.0.1:9/api/v1", .api_key = "k" };
	pf_open(&f, &o);
	pf_expect(&f, "offline");
	pf_expect(&f, "cannot reach the server");
	pf_keys(&f, "L");
	pf_expect(&f, "list: trying again");
}
