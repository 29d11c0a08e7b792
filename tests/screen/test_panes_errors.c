/* Screen tests of the TUI's empty states and errors. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../integration/security_server.h"
#include "core/conf.h"
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

/* An organization given by id alone (--org, STENO_ORG_ID) is named as the server names it;
 * a name the user gave (org.NAME in the config) is kept. */
Test(errors, an_organization_given_by_id_is_named_by_the_server)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo10 };
	pf_open(&f, &o);
	pf_wait_text(&f, "Transcriptions 23");
	pf_expect(&f, "Demo Organization");
	pf_reject(&f, "no organization configured");
}

/* The organizations pane's first entry (the screen's second line) begins with want. */
static void expect_org_row(const char *want)
{
	char *t = pf_text(&f), *line = strchr(t, '\n');
	cr_assert(line && !strncmp(line + 1, want, strlen(want)), "no '%s' row:\n%s", want, t);
	free(t);
}

/* The organizations found for the key stay when the pane is built again (a folder learned
 * from a creation rebuilds it): found, named, and the learned folder under it. */
static void org_stays_named_when_a_folder_is_learned(int no_org)
{
	struct pf_opts o = { .rows = 24, .cols = 100, .sandbox_args = demo10, .no_org = no_org };
	pf_open(&f, &o);
	pf_wait_text(&f, "Transcriptions 23");
	pf_expect(&f, "Demo Organization");
	cr_assert_eq(app_learn_folder(f.app, "fold1", "/tour/learned"), 0);
	pf_settle(&f);
	expect_org_row("› Demo Organi");
	pf_expect(&f, "tour/learned");
}

Test(errors, a_found_organization_stays_when_a_folder_is_learned)
{
	org_stays_named_when_a_folder_is_learned(1);
}

Test(errors, an_organization_given_by_id_stays_named_when_a_folder_is_learned)
{
	org_stays_named_when_a_folder_is_learned(0);
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

/* Issue 13: a server whose every answer is 429 "Retry-After: 3600". The status bar shows the
 * real remaining wait (capped at retry_max_wait, 30 s) and what was asked, nothing waits for
 * an hour, and R sends a request at once (counted by the server). */
Test(errors, rate_limit_of_an_hour_is_capped_shown_and_R_retries)
{
	struct sec_server srv;
	cr_assert_eq(sec_server_start(&srv), 0);
	sec_server_route(&srv, "*", "/api/v1/*", 429, NULL, "{\"error\":\"rate_limited\"}");
	sec_server_route_limit(&srv, "Retry-After: 3600", 0);
	char base[128];
	snprintf(base, sizeof base, "%s/api/v1", srv.origin);
	struct steno_config cfg;
	config_init_defaults(&cfg, NULL);
	cfg.timeout_s = 3; /* requests give up waiting after 3 s: settling stays short */
	struct pf_opts o = { .rows = 24, .cols = 120, .no_sandbox = 1, .base_url = base,
		.api_key = "k", .config = &cfg };
	pf_open(&f, &o);
	pf_wait_text(&f, "server asked 3600s");
	char *t = pf_text(&f);
	char *at = strstr(t, "rate-limited ");
	cr_assert_not_null(at, "%s", t);
	int secs = atoi(at + strlen("rate-limited "));
	cr_expect(secs > 20 && secs <= 30, "shows %d s:\n%s", secs, t);
	free(t);
	int before = sec_server_requests(&srv);
	pf_keys(&f, "R");
	cr_expect_gt(sec_server_requests(&srv), before, "R sent nothing");
	pf_close(&f);
	memset(&f, 0, sizeof f);
	sec_server_stop(&srv);
	config_free(&cfg);
}

#define COPY_ITEM(id, name, url) "{\"id\":\"" id "\",\"name\":\"" name "\",\"state\":\"automatic_done\"," \
	"\"language\":\"en-US\",\"createdAt\":\"2026-01-01T00:00:00Z\"," \
	"\"updatedAt\":\"2026-01-01T00:00:00Z\",\"_links\":{\"self\":{\"editorUrl\":\"" url "\"}}}"

/* Issue 13: `y` on an editor URL that would end a bracketed paste and run a command is
 * refused and says so; a plain URL is copied and the status line says what and how. */
Test(errors, copy_refuses_a_hostile_editor_url_and_says_what_was_copied)
{
	struct sec_server srv;
	cr_assert_eq(sec_server_start(&srv), 0);
	static const char evil[] = COPY_ITEM("a1", "evil", "https://e.example/x\\u001b[201~\\nrm -rf ~\\n");
	static const char good[] = COPY_ITEM("b2", "good", "https://e.example/edit/b2");
	sec_server_route(&srv, "GET", "/api/v1/transcriptions", 200, NULL, "{\"results\":[%s,%s]}",
			 evil, good);
	sec_server_route(&srv, "GET", "/api/v1/transcriptions/a1", 200, NULL, "%s", evil);
	sec_server_route(&srv, "GET", "/api/v1/transcriptions/b2", 200, NULL, "%s", good);
	char base[128];
	snprintf(base, sizeof base, "%s/api/v1", srv.origin);
	struct steno_config cfg;
	config_init_defaults(&cfg, NULL);
	cfg.clipboard = CLIPBOARD_OSC52;
	struct pf_opts o = { .rows = 24, .cols = 120, .no_sandbox = 1, .base_url = base,
		.api_key = "k", .config = &cfg };
	pf_open(&f, &o);
	pf_wait_text(&f, "evil");
	pf_keys(&f, "y");
	pf_expect(&f, "not copied: the editor URL is refused");
	pf_keys(&f, "j y");
	pf_expect(&f, "copied the editor URL https://e.example/edit/b2 (OSC 52)");
	pf_close(&f);
	memset(&f, 0, sizeof f);
	sec_server_stop(&srv);
	config_free(&cfg);
}

/* Issue 13 item 4: a server whose next link never changes made G load forever (one request
 * after another, the list never ending). The browser stops at a repeated link and says so;
 * the requests are counted on the server. */
Test(errors, a_next_link_that_repeats_stops_load_all)
{
	struct sec_server s;
	char base[128];
	cr_assert_eq(sec_server_start(&s), 0);
	sec_server_route(&s, "GET", "/api/v1/transcriptions", 200, NULL,
			 "{\"results\":[{\"id\":\"a1\",\"name\":\"Looping\",\"state\":\"automatic_done\"}],"
			 "\"_links\":{\"next\":{\"url\":\"%s/api/v1/transcriptions?cursor=same\"}}}", s.origin);
	snprintf(base, sizeof base, "%s/api/v1", s.origin);
	struct pf_opts o = { .rows = 24, .cols = 100, .no_sandbox = 1, .base_url = base, .api_key = "k" };
	pf_open(&f, &o);
	pf_keys(&f, "G");
	pf_wait_text(&f, "repeats an earlier one");
	int before = sec_server_requests(&s);
	pf_keys(&f, "G");
	cr_expect_eq(sec_server_requests(&s), before, "no more pages are asked for");
	pf_close(&f);
	memset(&f, 0, sizeof f);
	sec_server_stop(&s);
}

/* A body that is not JSON: the status line names the request it came from, not only
 * "parse: invalid JSON … byte N". */
Test(errors, a_body_that_does_not_parse_names_its_request)
{
	static const char *const demo[] = { "--seed-demo", "30", NULL };
	struct pf_opts o = { .rows = 24, .cols = 160, .sandbox_args = demo, .refresh = "0" };
	pf_open(&f, &o);
	pf_expect(&f, "online");
	cr_assert_eq(sbx_set_faults(&f.sbx, "malformed=1"), 0);
	pf_keys(&f, "R");
	pf_wait_text(&f, "parse: GET transcriptions");
}
