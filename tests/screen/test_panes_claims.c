/* The browser's creations and the claims of the state file (core/state_claims.c), as another
 * steno process sees them: a transcription created in the browser is recorded with its id,
 * and the browser's lookup after a lost reply never takes an item another live process
 * claimed, nor decides while another live process that sent the same has no answer yet (it
 * says what it waits for, and the screen stays live meanwhile). */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/state.h"
#include "keepalive_server.h"
#include "panes_fixture.h"

#define LISTED_ID "00112233445566778899aabbccddeeff"

static void type(struct pf *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		scr_push_key((unsigned char)*p);
		pf_settle(f);
	}
}

/* Pushes the keys of a script without settling (a lookup that waits keeps a job running). */
static void push(const char *script)
{
	ui_key keys[8];
	int n = scr_parse_script(script, keys, 8);
	for (int i = 0; i < n; i++)
		scr_push_key(keys[i]);
}

static void state_path(const struct pf *f, char *buf, size_t size)
{
	snprintf(buf, size, "%s/state/steno/state.json", f->dir);
}

/* The state file as on disk now (the caller frees it with state_free). */
static void read_state(const struct pf *f, struct steno_state *st)
{
	char path[400];
	struct steno_error err;
	state_path(f, path, sizeof path);
	state_init(st);
	cr_assert_eq(state_load(st, path, &err), 0, "%s", err.message);
}

/* The new-transcription dialog filled in and submitted (F2 pushed, not settled: a lookup
 * that waits keeps a job running). */
static void submit(struct pf *f, const char *name)
{
	pf_keys(f, "a");
	pf_expect(f, "New transcription");
	type(f, name);
	pf_keys(f, "<Tab> <Tab> <Tab>");
	type(f, "http://127.0.0.1:9/a.wav");
	push("<F2>");
}

Test(claims, a_creation_in_the_browser_is_recorded_with_its_id)
{
	struct pf f;
	struct pf_opts o = { .rows = 30, .cols = 110 };
	pf_open(&f, &o);
	submit(&f, "Recorded");
	pf_wait_text(&f, "Created transcription");
	struct steno_state st;
	read_state(&f, &st);
	cr_assert_eq(st.n_claims, 1, "the state file holds %zu claims", st.n_claims);
	const struct state_claim *c = &st.claims[0];
	cr_assert_eq(c->pid, (long)getpid());
	cr_assert(c->done && c->id && strlen(c->id) == 32, "claim without its id");
	cr_assert_str_eq(c->org_id, f.sbx.org_id);
	char target[128];
	struct sbx_resp r;
	snprintf(target, sizeof target, "transcriptions/%s", c->id);
	cr_assert_eq(sbx_request(&f.sbx, "GET", target, f.sbx.api_key, NULL, NULL, &r), 0);
	cr_assert_eq(r.status, 200, "the claimed id %s is not the created one", c->id);
	sbx_resp_free(&r);
	state_free(&st);
	pf_close(&f);
}

/* Another steno process: a child that lives until killed. */
static pid_t other_process(void)
{
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		/* gone with the test, and holds none of its output open */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		for (;;)
			pause();
	}
	return pid;
}

static void end_process(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

struct put_claim {
	struct state_claim_in c;
};

static int put_fn(struct steno_state *disk, void *ud)
{
	const struct put_claim *p = ud;
	return state_claim_put(disk, &p->c);
}

/* A claim of another process into the state file, under its lock, as that process would. */
static void put_other_claim(const struct pf *f, const char *base, const char *key,
			    const char *id, pid_t pid)
{
	char path[400], origin[512];
	struct steno_error err;
	state_path(f, path, sizeof path);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct put_claim p = { .c = {
		.origin = state_origin(base, origin, sizeof origin), .org_id = "1",
		.token = id ? "0therc1a1m0f4n0therpr0cess00001" : "0therc1a1m0f4n0therpr0cess00002",
		.key = key, .id = id, .pid = (long)pid,
		.started_ms = (int64_t)ts.tv_sec * 1000, .done = id != NULL } };
	cr_assert_geq(state_file_update(path, put_fn, &p, &err), 0, "%s", err.message);
}

/* The browser against a stand-in that lists LISTED_ID "Board call" and drops every POST's
 * reply; the child is another live steno process whose claim holds LISTED_ID. */
static void open_lost(struct pf *f, struct keepalive_server *srv, pid_t other)
{
	cr_assert_eq(keepalive_server_start(srv), 0);
	char body[1024], when[40];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	snprintf(body, sizeof body,
		 "{\"results\":[{\"id\":\"" LISTED_ID "\",\"name\":\"Board call\","
		 "\"createdAt\":\"%s\",\"updatedAt\":\"%s\",\"state\":\"ingesting\","
		 "\"language\":\"en-US\"}],\"_links\":{}}", when, when);
	keepalive_server_route(srv, "/api/v1/transcriptions", body);
	srv->drop_posts = 100;
	struct pf_opts o = { .rows = 30, .cols = 110, .no_sandbox = 1, .base_url = srv->base,
			     .api_key = "k" };
	pf_open(f, &o);
	put_other_claim(f, srv->base, "whatever it sent", LISTED_ID, other);
}

Test(claims, the_lookup_leaves_another_process_item)
{
	struct keepalive_server srv;
	struct pf f;
	pid_t other = other_process();
	open_lost(&f, &srv, other);
	submit(&f, "Board call");
	pf_wait_text(&f, "another steno command's");
	pf_reject(&f, "found it");
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 1);
	pf_close(&f);
	keepalive_server_stop(&srv);
	end_process(other);
}

/* The key the browser's own claim recorded (what it sent, as the list shows it). */
static char *own_key(const struct pf *f)
{
	struct steno_state st;
	read_state(f, &st);
	char *key = NULL;
	for (size_t i = 0; i < st.n_claims; i++)
		if (st.claims[i].pid == (long)getpid())
			key = strdup(st.claims[i].key);
	state_free(&st);
	cr_assert_not_null(key, "the browser recorded no claim");
	return key;
}

/* Runs the loop (no settling: a job waits) until the screen shows needle, within ms. */
static bool shows_within(struct pf *f, const char *needle, long ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t end = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + ms, now;
	do {
		f->quit |= app_step(f->app, 50);
		char *t = scr_text();
		bool found = strstr(t, needle) != NULL;
		free(t);
		if (found)
			return true;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	} while (now < end);
	return false;
}

/* A first lost reply (the other process holds the listed item), then another live process
 * that sent the same without an answer yet: the second lookup waits for it, saying so. */
static pid_t lookup_waiting(struct pf *f, struct keepalive_server *srv, pid_t other)
{
	open_lost(f, srv, other);
	submit(f, "Board call");
	pf_wait_text(f, "another steno command's");
	char *key = own_key(f);
	pid_t sender = other_process();
	put_other_claim(f, srv->base, key, NULL, sender);
	free(key);
	push("<F2>");
	char waiting[80];
	snprintf(waiting, sizeof waiting, "waiting for steno process %ld", (long)sender);
	cr_assert(shows_within(f, waiting, 10000), "the dialog does not say what it waits for");
	return sender;
}

Test(claims, quitting_while_the_lookup_waits)
{
	struct keepalive_server srv;
	struct pf f;
	pid_t other = other_process();
	pid_t sender = lookup_waiting(&f, &srv, other);
	pf_close(&f);   /* the job goes with jobs_free; nothing is left running or allocated */
	keepalive_server_stop(&srv);
	end_process(sender);
	end_process(other);
}

Test(claims, the_lookup_waits_for_another_live_process_and_says_so)
{
	struct keepalive_server srv;
	struct pf f;
	pid_t other = other_process();
	pid_t sender = lookup_waiting(&f, &srv, other);
	pf_reject(&f, "another steno command's");
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 2);
	/* the loop stays live meanwhile: a pass returns at once, the wait goes on */
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	f.quit |= app_step(f.app, 50);
	clock_gettime(CLOCK_MONOTONIC, &b);
	cr_assert_lt((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000, 1000);
	cr_assert(app_busy(f.app), "the lookup stopped waiting");
	/* that process ends without an answer: the lookup decides at once, takes nothing */
	end_process(sender);
	cr_assert(shows_within(&f, "another steno command's", 10000), "the lookup never decided");
	pf_reject(&f, "found it");
	pf_close(&f);
	keepalive_server_stop(&srv);
	end_process(other);
}

/* A POST the server refused made nothing: its claim is over at once, or the browser, alive
 * for hours, would keep every other process's lookup of the same request waiting. */
Test(claims, a_refused_creation_leaves_no_pending_claim)
{
	struct pf f;
	struct pf_opts o = { .rows = 30, .cols = 110 };
	pf_open(&f, &o);
	cr_assert_eq(sbx_set_faults(&f.sbx, "500=1"), 0);
	submit(&f, "Refused");
	pf_wait_text(&f, "HTTP 500");
	struct steno_state st;
	read_state(&f, &st);
	cr_assert_eq(st.n_claims, 1, "the state file holds %zu claims", st.n_claims);
	cr_assert(st.claims[0].done && !st.claims[0].id, "the refused creation's claim is pending");
	state_free(&st);
	pf_close(&f);
}
