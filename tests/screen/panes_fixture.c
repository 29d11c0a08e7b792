/* The fixture of the panes' screen tests. */
#include "config.h"
#ifdef PANES_LIST_SQL
#include "core/store_list.h"
#endif

#include "panes_fixture.h"

#include "core/paths.h"
#include "core/state.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void pf_env(const struct pf_opts *o, const char *dir)
{
	char num[16], path[512];

	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "C.UTF-8 locale missing");
	snprintf(num, sizeof num, "%d", o->rows);
	setenv("LINES", num, 1);
	snprintf(num, sizeof num, "%d", o->cols);
	setenv("COLUMNS", num, 1);
	if (o->no_color)
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");
	/* the state file (learned folders) goes to the test's own dir */
	snprintf(path, sizeof path, "%s/state", dir);
	setenv("XDG_STATE_HOME", path, 1);
	snprintf(path, sizeof path, "%s/config", dir);
	setenv("XDG_CONFIG_HOME", path, 1);
	snprintf(path, sizeof path, "%s/cache", dir);
	setenv("XDG_CACHE_HOME", path, 1);   /* the preview's transcripts */
	unsetenv("STENO_CONFIG");
#ifdef PANES_LIST_SQL
	store_list_set_sql_min(0);   /* every sorted or filtered list selected in SQL */
#endif
}

/* Writes a learned folder of the sandbox's organization into the state file. */
static void pf_learn(const char *org, const char *spec)
{
	struct steno_paths paths;
	struct steno_state st;
	struct steno_error err;
	char id[64];
	const char *colon = strchr(spec, ':');

	cr_assert_not_null(colon);
	snprintf(id, sizeof id, "%.*s", (int)(colon - spec), spec);
	cr_assert_eq(paths_resolve(&paths, &err), 0, "%s", err.message);
	state_init(&st);
	cr_assert_eq(state_folder_learn(&st, org, id, colon + 1, 0, &err), 1, "%s", err.message);
	cr_assert_eq(state_save(&st, paths.state_file, &err), 0, "%s", err.message);
	state_free(&st);
	paths_free(&paths);
}

static void pf_start(struct pf *f, const struct pf_opts *o);

void pf_open(struct pf *f, const struct pf_opts *o)
{
	memset(f, 0, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/steno-panes-XXXXXX");
	cr_assert_not_null(mkdtemp(f->dir));
	if (!o->no_sandbox) {
		cr_assert_eq(sbx_start(&f->sbx, o->sandbox_args), 0, "sandbox did not start");
		f->have_sbx = 1;
	}
	pf_env(o, f->dir);
	if (o->learned_folder)
		pf_learn(f->sbx.org_id, o->learned_folder);
	char out_path[300];
	snprintf(out_path, sizeof out_path, "%s/out", f->dir);
	f->out = fopen(o->capture_out ? out_path : "/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	cr_assert(f->out && f->in);
	struct steno_error err;
	cr_assert_eq(config_init_defaults(&f->config, &err), 0, "%s", err.message);
	if (o->refresh)
		f->config.live_refresh_s = atof(o->refresh);
	f->config.desktop_notify = o->desktop;
	pf_start(f, o);
}

static void pf_start(struct pf *f, const struct pf_opts *o)
{
	struct ui_options uo = {
		.base_url = o->base_url ? o->base_url : f->sbx.base_url,
		.api_key = o->api_key ? o->api_key : f->sbx.api_key,
		.org_id = o->no_org ? NULL : f->have_sbx ? f->sbx.org_id : "1",
		.profile = "test", .theme = o->theme, .read_only = o->read_only, .mouse = o->mouse,
		.key_lines = o->key_lines, .key_origin = "test.conf",
		.term = o->term ? o->term : "xterm-256color", .in = f->in, .out = f->out,
		.config = o->config ? o->config : &f->config,
		.index_content = o->index,
	};
	char msg[640];
	f->app = app_new(&uo, msg, sizeof msg);
	cr_assert_not_null(f->app, "%s", msg);
	pf_settle(f);
}

void pf_restart(struct pf *f, const struct pf_opts *o)
{
	app_destroy(f->app);   /* saves the state file, as quitting does */
	f->app = NULL;
	f->quit = 0;
	pf_start(f, o);
}

void pf_close(struct pf *f)
{
	char cmd[300];

	app_destroy(f->app);
	config_free(&f->config);
	if (f->out)
		fclose(f->out);
	if (f->in)
		fclose(f->in);
	if (f->have_sbx)
		sbx_stop(&f->sbx);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", f->dir);
}

char *pf_out_text(struct pf *f)
{
	char path[300];

	fflush(f->out);
	snprintf(path, sizeof path, "%s/out", f->dir);
	FILE *in = fopen(path, "r");
	cr_assert_not_null(in);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	cr_assert_not_null(mem);
	int c;
	while ((c = fgetc(in)) != EOF)
		fputc(c, mem);
	fclose(in);
	fclose(mem);
	return buf;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pf_settle(struct pf *f)
{
	double end = mono_s() + 20; /* a refused connection is retried 5 times: up to 7.5 s */

	/* one pass first: keys may start requests */
	f->quit |= app_step(f->app, 0);
	while (app_busy(f->app)) {
		cr_assert(mono_s() < end, "requests still running after 20 s");
		f->quit |= app_step(f->app, 50);
	}
	f->quit |= app_step(f->app, 0);
}

void pf_keys(struct pf *f, const char *script)
{
	ui_key keys[128];
	int n = scr_parse_script(script, keys, 128);

	for (int i = 0; i < n && !f->quit; i++) {
		scr_push_key(keys[i]);
		pf_settle(f);
	}
}

void pf_resize(struct pf *f, int rows, int cols)
{
	/* as in the real loop, where wget_wch resizes and the frame lays out before the next
	 * draw: a window left beyond the new screen must never be refreshed */
	cr_assert_eq(resizeterm(rows, cols), OK);
	cr_assert(frame_key(app_frame(f->app), KEYS_FN | KEY_RESIZE) & PANE_HANDLED);
	pf_settle(f);
	cr_assert_eq(app_frame(f->app)->rows, rows);
	cr_assert_eq(app_frame(f->app)->cols, cols);
}

/* Replaces every match of re, with the spaces after it up to `width` characters, by
 * exactly max(width, match) `fill` characters: text of varying length in a fixed-width
 * cell masks alike, also at the end of a line (where the dump cut the padding). Returns a
 * new string and frees text. */
static char *mask_re_width(char *text, const char *re, char fill, int width)
{
	regex_t rx;
	regmatch_t m;
	size_t cap = strlen(text) * 2 + 64, len = 0;
	char *out = malloc(cap), *p = text;

	cr_assert_not_null(out);
	cr_assert_eq(regcomp(&rx, re, REG_EXTENDED), 0);
	while (regexec(&rx, p, 1, &m, 0) == 0 && m.rm_eo > m.rm_so) {
		memcpy(out + len, p, (size_t)m.rm_so);
		len += (size_t)m.rm_so;
		int n = (int)(m.rm_eo - m.rm_so);
		p += m.rm_eo;
		for (int k = n; k < width && *p == ' '; k++)
			p++;
		int fills = n > width ? n : width;
		cr_assert_lt(len + (size_t)fills + strlen(p) + 1, cap);
		memset(out + len, fill, (size_t)fills);
		len += (size_t)fills;
	}
	strcpy(out + len, p);
	regfree(&rx);
	free(text);
	return out;
}

/* Masks every match of re; with in_ids false, not a match inside an id (preceded by a letter,
 * a digit or '-': "d0dfe7be-2006-4df8-…" holds no date). */
static void mask_re_in(char *text, const char *re, char fill, bool in_ids)
{
	regex_t rx;
	regmatch_t m;
	char *p = text;

	cr_assert_eq(regcomp(&rx, re, REG_EXTENDED), 0);
	while (regexec(&rx, p, 1, &m, 0) == 0) {
		if (m.rm_eo == m.rm_so)
			break;
		char before = p + m.rm_so > text ? p[m.rm_so - 1] : ' ';
		if (!in_ids && (before == '-' || isalnum((unsigned char)before))) {
			p += m.rm_so + 1;
			continue;
		}
		memset(p + m.rm_so, fill, (size_t)(m.rm_eo - m.rm_so));
		p += m.rm_eo;
	}
	regfree(&rx);
}

static void mask_re(char *text, const char *re, char fill)
{
	mask_re_in(text, re, fill, true);
}

static void mask_str(char *text, const char *s)
{
	size_t n = strlen(s);
	char *p = text;

	if (!n)
		return;
	while ((p = strstr(p, s))) {
		memset(p, '#', n);
		p += n;
	}
}

char *pf_text(struct pf *f)
{
	char *t = scr_text();

	if (f->have_sbx)
		mask_str(t, f->sbx.org_id);
	/* dates, also when a narrow pane cut them */
	mask_re_in(t, "20[0-9]{2}-[0-9]{1,2}(-[0-9]{0,2}( [0-9]{0,2}(:[0-9]{0,2})?)?)?", '~', false);
	mask_re(t, "[0-9]{2}:[0-9]{2}:[0-9]{2}", '~');   /* log times */
	mask_re(t, "[0-9]+ms", '~');
	mask_re(t, "127\\.0\\.0\\.1:[0-9]+", '~');   /* the sandbox's port */
	/* spans that move while a test runs: "5s ago", "just now", "in 1m", "0s" in state */
	t = mask_re_width(t, "(just now|[0-9]+s ago)", '~', 8);
	t = mask_re_width(t, "(in|overdue) [0-9]+[smhd]( [0-9]+[smhd])?", '~', 11);
	t = mask_re_width(t, "In state +[0-9]+[smhd]( [0-9]+[smhd])?", '~', 20);
	return t;
}

void pf_golden(struct pf *f, const char *name)
{
	char *t = pf_text(f);
	scr_golden(name, t);
	free(t);
}

/* A failing assertion leaves the test at once: what it quotes must not be malloc'd. */
static const char *pf_quote(struct pf *f)
{
	static char last[1 << 16];
	char *t = pf_text(f);

	snprintf(last, sizeof last, "%s", t);
	free(t);
	return last;
}

void pf_expect(struct pf *f, const char *needle)
{
	const char *t = pf_quote(f);
	cr_assert(strstr(t, needle), "'%s' not on screen:\n%s", needle, t);
}

void pf_expect_row(struct pf *f, const char *first, const char *later)
{
	const char *t = pf_quote(f);
	for (const char *row = strstr(t, first); row; row = strstr(row + 1, first)) {
		const char *eol = strchr(row, '\n'), *hit = strstr(row + strlen(first), later);
		if (hit && (!eol || hit < eol))
			return;
	}
	cr_assert_fail("no row with '%s' then '%s':\n%s", first, later, t);
}

void pf_reject(struct pf *f, const char *needle)
{
	const char *t = pf_quote(f);
	cr_assert(!strstr(t, needle), "'%s' on screen:\n%s", needle, t);
}

void pf_wait_text(struct pf *f, const char *needle)
{
	static char last[1 << 16];
	double end = mono_s() + 20; /* a refused connection is retried 5 times: up to 7.5 s */

	for (;;) {
		f->quit |= app_step(f->app, 50);
		char *t = scr_text();
		int found = strstr(t, needle) != NULL;
		snprintf(last, sizeof last, "%s", t);
		free(t);
		if (found)
			return;
		if (mono_s() >= end)
			cr_assert_fail("'%s' did not appear:\n%s", needle, last);
	}
}
