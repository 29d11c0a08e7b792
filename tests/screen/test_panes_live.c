/* Screen tests of the live list: what another client creates, changes or deletes reaches
 * the open list within one refresh interval, no key pressed, the cursor and its row on
 * screen staying put, new rows marked for a moment. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "panes_fixture.h"
#include "ui/app_internal.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };

static struct steno_config slow_polls;   /* a test's own config, freed after the app */
static bool slow_polls_set;

static void teardown(void)
{
	pf_close(&f);
	if (slow_polls_set)
		config_free(&slow_polls);
	slow_polls_set = false;
}

TestSuite(live, .fini = teardown, .timeout = 60);

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs the loop (no key) until the screen holds a line with both needles, or fails after
 * max_s seconds. Returns the screen row. */
static int wait_line(const char *a, const char *b, double max_s)
{
	double end = mono_s() + max_s;

	for (;;) {
		f.quit |= app_step(f.app, 200);
		char *t = scr_text();
		int row = 0;
		for (char *line = t, *nl; line && *line; line = nl ? nl + 1 : NULL, row++) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			if (strstr(line, a) && (!b || strstr(line, b))) {
				free(t);
				return row;
			}
		}
		if (mono_s() >= end) {
			char *screen = scr_text();
			cr_assert_fail("no line with '%s' '%s' after %.0f s:\n%s", a, b ? b : "", max_s,
				       screen);
		}
		free(t);
	}
}

static bool on_screen(const char *needle)
{
	char *t = scr_text();
	bool found = strstr(t, needle) != NULL;

	free(t);
	return found;
}

static void create(const char *name, char *id, size_t n)
{
	char body[512];
	long status = 0;

	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"%s\",\"language\":\"en-US\","
		 "\"tmp_url\":\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}",
		 name, f.sbx.org_id);
	json_object *o = sbx_call(&f.sbx, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(id, n, "%s", sbx_str(o, "id"));
	json_object_put(o);
}

Test(live, an_item_made_elsewhere_appears_and_moves_on_without_a_key)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30, .refresh = "5",
		.theme = "mono" };
	char id[64], sel[64];

	pf_open(&f, &o);
	pf_keys(&f, "j j");
	snprintf(sel, sizeof sel, "%s", app_selected_id(f.app));

	double t0 = mono_s();
	create("Made elsewhere", id, sizeof id);
	int row = wait_line("Made elsewhere", NULL, 8);
	cr_assert(mono_s() - t0 < 7, "within one interval (5 s) and a read");
	cr_assert_str_eq(app_selected_id(f.app), sel, "the cursor stays on its item");
	cr_assert_eq(f.app->list.lv.top, 0, "the head of the list stays in view");
	cr_assert_eq(row, 2, "the new row first");
	/* the new row is marked: its name in list.fresh (mono: bold underline = 5) */
	char *attrs = scr_attrs();
	char *line = attrs;
	for (int i = 0; i < row && line; i++)
		line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
	cr_assert_not_null(line);
	cr_assert(line[26] == '5', "fresh mark expected at the name:\n%s", attrs);
	free(attrs);

	/* its state changes arrive by themselves too (the fetch of its media fails) */
	wait_line("Made elsewhere", "failed", 15);
}

Test(live, scrolled_down_the_cursor_keeps_its_row_on_screen)
{
	struct pf_opts o = { .rows = 16, .cols = 120, .sandbox_args = demo30, .refresh = "5" };
	char id[64], sel[64];

	pf_open(&f, &o);
	pf_keys(&f, "j j j j j j j j j j j j j j j");
	cr_assert_gt(f.app->list.lv.top, 0);
	snprintf(sel, sizeof sel, "%s", app_selected_id(f.app));
	int screen_row = f.app->list.lv.cursor - f.app->list.lv.top;
	int top = f.app->list.lv.top;
	create("Above the fold", id, sizeof id);
	double end = mono_s() + 8;
	while (f.app->list.lv.top == top) {
		cr_assert(mono_s() < end, "the new row never came");
		f.quit |= app_step(f.app, 200);
	}
	cr_assert_str_eq(app_selected_id(f.app), sel, "the cursor stays on its item");
	cr_assert_eq(f.app->list.lv.cursor - f.app->list.lv.top, screen_row,
		     "and on its row of the screen");
}

Test(live, an_item_deleted_elsewhere_goes)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30, .refresh = "5" };
	char id[64];
	long status = 0;

	pf_open(&f, &o);
	create("Short-lived", id, sizeof id);
	wait_line("Short-lived", NULL, 8);
	char path[128];
	snprintf(path, sizeof path, "transcriptions/%s", id);
	json_object *d = sbx_call(&f.sbx, "DELETE", path, NULL, &status);
	json_object_put(d);
	cr_assert(status == 204 || status == 200, "%ld", status);
	double end = mono_s() + 8;
	while (on_screen("Short-lived")) {
		cr_assert(mono_s() < end, "the deleted row is still listed");
		f.quit |= app_step(f.app, 200);
	}
}

Test(live, refresh_zero_reads_nothing_by_itself)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30, .refresh = "0" };
	char id[64];

	pf_open(&f, &o);
	create("Never seen", id, sizeof id);
	double end = mono_s() + 6;
	while (mono_s() < end)
		f.quit |= app_step(f.app, 200);
	cr_assert_not(on_screen("Never seen"));
	pf_keys(&f, "r");
	pf_expect(&f, "Never seen");
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

Test(live, a_watched_change_is_announced_once)
{
	/* the sandbox's clock stands nearly still: states move only when the test says so */
	static const char *const still[] = { "--clock-speed", "0.001", NULL };
	struct pf_opts o = { .rows = 30, .cols = 120, .refresh = "5", .sandbox_args = still,
		.desktop = CONFIG_DESKTOP_OSC9, .capture_out = 1 };
	struct sbx_receiver *rc = sbx_receiver_start(30.0, NULL, NULL, 0);
	char body[512], id[64], want[160];
	long status = 0;

	cr_assert_not_null(rc);
	pf_open(&f, &o);
	/* a name that tries to end the notification early and start one of its own */
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"Mine \\u001b]9;evil\\u0007\","
		 "\"language\":\"en-US\",\"tmp_url\":\"%s/media.wav\",\"organization_id\":\"%s\"}}",
		 sbx_receiver_origin(rc), f.sbx.org_id);
	json_object *tr = sbx_call(&f.sbx, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(id, sizeof id, "%s", sbx_str(tr, "id"));
	json_object_put(tr);
	cr_assert_eq(sync_watch_transcription(f.app->sync, id), 0);
	pf_settle(&f);
	char *out = pf_out_text(&f);
	cr_assert_eq(count(out, "\033]9;"), 0, "the first read is no news");
	free(out);
	/* the sandbox's clock moves it on to done, in one or two steps (it depends on whether
	 * its media was fetched before the first jump): each change seen is told once */
	for (int jump = 0; jump < 3 && !on_screen("finished (automatic_done)"); jump++) {
		cr_assert_eq(sbx_advance(&f.sbx, 8 * 3600), 0);
		double until = mono_s() + 4;
		while (mono_s() < until && !on_screen("finished (automatic_done)"))
			f.quit |= app_step(f.app, 200);
	}
	pf_expect(&f, "finished (automatic_done)");
	pf_keys(&f, "4");   /* the activity pane: its history */
	pf_expect(&f, "History");
	double end = mono_s() + 6;   /* a live re-read and polls more: nothing new to tell */
	while (mono_s() < end)
		f.quit |= app_step(f.app, 200);
	pf_keys(&f, "R");
	snprintf(want, sizeof want, "transcription %.8s", id);   /* the pane cuts the rest */
	char *t = scr_text();
	int told = count(t, want);
	free(t);
	cr_assert(told >= 1 && told <= 2, "one history line per change: %d", told);
	out = pf_out_text(&f);
	cr_assert_eq(count(out, "\033]9;"), told, "one desktop notification per change:\n%s", out);
	cr_assert_eq(count(out, "\033]9;evil"), 0, "the name cannot start a sequence");
	cr_assert_eq(count(out, "\007"), told, "nor end one");
	free(out);
	sbx_receiver_stop(rc);
}

/* An item that fails while selected, seen failing through the live list (which carries
 * no reason): its details are read again and say why. Its media is asked of a listener that
 * never answers, and fails when the test closes it. */
Test(live, a_selected_item_that_fails_says_why_in_the_details)
{
	/* items are polled once an hour: only the live list (5 s) sees the change */
	struct steno_error err;
	cr_assert_eq(config_init_defaults(&slow_polls, &err), 0);
	slow_polls_set = true;
	slow_polls.refresh_interval_s = 3600;
	slow_polls.refresh_max_s = 3600;
	slow_polls.live_refresh_s = 5;
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30, .config = &slow_polls };
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof sa;
	char body[512];
	long status = 0;
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	cr_assert(lfd >= 0 && bind(lfd, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(lfd, 4) == 0);
	cr_assert_eq(getsockname(lfd, (struct sockaddr *)&sa, &sl), 0);
	pf_open(&f, &o);
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"Fails while shown\","
		 "\"language\":\"en-US\",\"tmp_url\":\"http://127.0.0.1:%d/a.wav\","
		 "\"organization_id\":\"%s\"}}", ntohs(sa.sin_port), f.sbx.org_id);
	json_object *tr = sbx_call(&f.sbx, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	json_object_put(tr);
	wait_line("Fails while shown", "ingesting", 8);
	pf_keys(&f, "g");
	pf_settle(&f);   /* its details are read: ingesting, no failure */
	cr_assert_not(on_screen("download_failed"));
	/* the sandbox's fetch of the media: accepted, then closed unanswered (it fails) */
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	for (double end = mono_s() + 15; poll(&pfd, 1, 0) == 0; ) {
		cr_assert(mono_s() < end, "the sandbox never asked for the media");
		f.quit |= app_step(f.app, 100);
		cr_assert_not(on_screen("failed    "), "failed before the media was asked for");
	}
	close(accept(lfd, NULL, NULL));
	close(lfd);
	wait_line("Failure", "download_failed", 15);
}

/* Issue 24 item 1: `A` on a list stopped by page_limit says it stopped there, and a live
 * refresh of the first page afterwards does not turn that into "all 5 loaded". */
Test(live, load_all_at_the_page_limit_says_it_stopped)
{
	static const char *const one_a_page[] = { "--seed-demo", "60", "--page-size", "1", NULL };
	struct steno_error err;
	cr_assert_eq(config_init_defaults(&slow_polls, &err), 0);
	slow_polls_set = true;
	slow_polls.page_limit = 5;
	slow_polls.live_refresh_s = 1;
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = one_a_page, .config = &slow_polls };

	pf_open(&f, &o);
	pf_keys(&f, "A");
	/* two live refreshes of the first page at least */
	double end = mono_s() + 2.5;
	while (mono_s() < end)
		f.quit |= app_step(f.app, 200);
	pf_settle(&f);
	pf_reject(&f, "all 5");
	pf_expect(&f, "stopped");
}
