#include "config.h"

#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../integration/test_cli_util.h"
#include "soak_check.h"

#define SOAK_CONVERGE_MAX 40

long soak_count_exports(const struct sbx *s)
{
	struct sbx_resp r;
	long n = -1;

	if (sbx_request(s, "GET", "/_sandbox/state", s->admin_key, NULL, NULL, &r) != 0)
		return -1;
	json_object *o = sbx_json(&r);
	json_object *c = sbx_get(o, "counts.exports");
	if (c)
		n = (long)json_object_get_int64(c);
	json_object_put(o);
	sbx_resp_free(&r);
	return n;
}

json_object *soak_counters(const struct sbx *s)
{
	struct sbx_resp r;
	json_object *o = NULL;

	if (sbx_request(s, "GET", "/_sandbox/counters", s->admin_key, NULL, NULL, &r) != 0)
		return NULL;
	if (r.status == 200)
		o = sbx_json(&r);
	sbx_resp_free(&r);
	return o;
}

long soak_counter(json_object *counters, const char *method, const char *route, const char *what)
{
	json_object *arr = sbx_get(counters, "requests");

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		const char *m = sbx_str(e, "method"), *rt = sbx_str(e, "route");
		json_object *v = sbx_get(e, what);
		if (m && rt && v && strcmp(m, method) == 0 && strcmp(rt, route) == 0)
			return (long)json_object_get_int64(v);
	}
	return 0;
}

static void add_post(struct soak_post **arr, long *n, const char *key, const char *ok, const char *id)
{
	if (!*arr)
		*arr = calloc(SOAK_MAX_POSTS, sizeof **arr);
	if (!*arr || *n >= SOAK_MAX_POSTS)
		return;
	struct soak_post *p = &(*arr)[(*n)++];
	snprintf(p->key, sizeof p->key, "%s", key);
	snprintf(p->id, sizeof p->id, "%s", id);
	p->ok = strcmp(ok, "ok") == 0;
}

static void collect_sum(struct soak_totals *t, const char *line)
{
	struct soak_totals w = {0};

	if (sscanf(line, "sum %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &w.commands,
		   &w.requests, &w.retries, &w.crashes, &w.hangs, &w.failed, &w.max_ms, &w.final_5xx,
		   &w.final_429, &w.final_neterr, &w.posts_t_ok, &w.posts_t_fail, &w.posts_e_ok,
		   &w.posts_e_fail) != 14)
		return;
	t->commands += w.commands;
	t->requests += w.requests;
	t->retries += w.retries;
	t->crashes += w.crashes;
	t->hangs += w.hangs;
	t->failed += w.failed;
	t->max_ms = w.max_ms > t->max_ms ? w.max_ms : t->max_ms;
	t->final_5xx += w.final_5xx;
	t->final_429 += w.final_429;
	t->final_neterr += w.final_neterr;
	t->posts_t_ok += w.posts_t_ok;
	t->posts_t_fail += w.posts_t_fail;
	t->posts_e_ok += w.posts_e_ok;
	t->posts_e_fail += w.posts_e_fail;
}

static void collect_tui_trace(struct soak_result *r, const char *dir)
{
	char path[600], line[4096];

	snprintf(path, sizeof path, "%s/trace.tui", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		const char *p = strstr(line, " retries=");
		if (!p)
			continue;
		r->tui_requests += 1 + atol(p + 9);
		r->tui_retries += atol(p + 9);
	}
	fclose(f);
}

void soak_collect(struct soak_result *r, const char *dir, int workers)
{
	char path[600], line[1024], a[64], b[16], c[64];
	int have_sum = 0;

	for (int i = 0; i < workers; i++) {
		snprintf(path, sizeof path, "%s/worker.%d", dir, i);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof line, f)) {
			if (sscanf(line, "T %63s %15s %63s", a, b, c) == 3)
				add_post(&r->tposts, &r->ntposts, a, b, c);
			else if (sscanf(line, "E %63s %15s %63s", a, b, c) == 3)
				add_post(&r->eposts, &r->neposts, a, b, c);
			else if (strncmp(line, "sum ", 4) == 0 && ++have_sum)
				collect_sum(&r->sum, line);
			else if (line[0] == 'C')
				fprintf(stderr, "soak: worker %d: %s", i, line);
		}
		fclose(f);
	}
	/* A worker killed at the hard deadline wrote no sum: that is a hang. */
	if (have_sum < workers)
		r->sum.hangs += workers - have_sum;
	collect_tui_trace(r, dir);
}

/* Every transcription of the organization: name counts come from here. Caller puts. */
static json_object *list_all(const struct sbx *s)
{
	json_object *all = json_object_new_array();

	for (int page = 0; page < 2000; page++) {
		char path[256];
		long st = 0;
		snprintf(path, sizeof path, "transcriptions?organization_id=%s&page=%d", s->org_id, page);
		json_object *o = sbx_call(s, "GET", path, NULL, &st);
		json_object *res = sbx_get(o, "results");
		size_t n = res ? json_object_array_length(res) : 0;
		for (size_t i = 0; i < n; i++)
			json_object_array_add(all, json_object_get(json_object_array_get_idx(res, i)));
		json_object_put(o);
		if (n == 0)
			break;
	}
	return all;
}

/* Duplicates as the sandbox counted them: each soak action sends its own name, so a name the
 * sandbox received twice on POST /transcriptions is one action sent twice, unless the earlier
 * sends were answered 429 (the server did not act: steno may send it again). Also the totals
 * of create and export POSTs received during the run, less those answered 429, to hold
 * against the actions. Missing: an item steno reported created that the list does not have. */
static void check_duplicates(struct soak_result *r, json_object *all)
{
	json_object *rep = sbx_get(r->counters_after, "repeated");
	size_t n = json_object_array_length(all);

	for (size_t i = 0; rep && i < json_object_array_length(rep); i++) {
		json_object *e = json_object_array_get_idx(rep, i);
		const char *route = sbx_str(e, "route"), *key = sbx_str(e, "key");
		if (!route || !key || strcmp(route, "/api/v1/transcriptions") != 0 || strncmp(key, "name:soak-", 10) != 0)
			continue;
		long got = (long)json_object_get_int64(sbx_get(e, "received"));
		if (got - (long)json_object_get_int64(sbx_get(e, "answered_429")) <= 1)
			continue;
		r->duplicates++;
		fprintf(stderr, "soak: the sandbox received %s %ld times (processed %ld)\n", key,
			(long)json_object_get_int64(sbx_get(e, "received")),
			(long)json_object_get_int64(sbx_get(e, "processed")));
	}
	r->creates_received = soak_counter(r->counters_after, "POST", "/api/v1/transcriptions", "received") -
			      soak_counter(r->counters_before, "POST", "/api/v1/transcriptions", "received");
	r->creates_429 = soak_counter(r->counters_after, "POST", "/api/v1/transcriptions", "answered_429") -
			 soak_counter(r->counters_before, "POST", "/api/v1/transcriptions", "answered_429");
	r->exports_received = soak_counter(r->counters_after, "POST", "/api/v1/exports", "received") -
			      soak_counter(r->counters_before, "POST", "/api/v1/exports", "received");
	r->exports_429 = soak_counter(r->counters_after, "POST", "/api/v1/exports", "answered_429") -
			 soak_counter(r->counters_before, "POST", "/api/v1/exports", "answered_429");
	for (long i = 0; i < r->ntposts; i++) {
		const struct soak_post *p = &r->tposts[i];
		long id_found = 0;
		for (size_t j = 0; j < n && !id_found; j++) {
			const char *id = sbx_str(json_object_array_get_idx(all, j), "id");
			id_found = id && strcmp(id, p->id) == 0;
		}
		if (p->ok && !id_found) {
			r->missing++;
			fprintf(stderr, "soak: %s (%s) reported created but absent\n", p->key, p->id);
		}
	}
}

static int same_member(json_object *a, json_object *b, const char *path)
{
	const char *x = sbx_str(a, path), *y = sbx_str(b, path);

	if (!x || !y)
		return !x && !y;
	return strcmp(x, y) == 0;
}

/* `steno show --json [--export] ID` against a direct read of the same resource. */
static void converge_one(struct soak_result *r, const struct sbx *s, struct cli_home *h, const char *kind,
			 const char *id)
{
	const char *argv[] = {"show", "--json", id, NULL, NULL};
	char path[128];
	long st = 0;
	struct cli_result cr;

	if (strcmp(kind, "exports") == 0) {
		argv[2] = "--export";
		argv[3] = id;
	}
	snprintf(path, sizeof path, "%s/%s", kind, id);
	cli_exec(&cr, h, s, NULL, argv);
	json_object *mine = json_tokener_parse(cr.out);
	json_object *theirs = sbx_call(s, "GET", path, NULL, &st);
	r->converge_checked++;
	if (cr.code != 0 || !mine || st != 200 || !same_member(mine, theirs, "state") ||
	    !same_member(mine, theirs, "failureReason")) {
		r->converge_mismatch++;
		fprintf(stderr, "soak: %s %s did not converge: steno %d %s / sandbox %ld %s\n", kind, id,
			cr.code, sbx_str(mine, "state"), st, sbx_str(theirs, "state"));
	}
	json_object_put(mine);
	json_object_put(theirs);
	cli_result_free(&cr);
}

/* The TUI shows the newest item created during the soak after a refresh. */
static void converge_tui(struct soak_result *r, json_object *all, struct soak_tui *t)
{
	const char *newest = NULL;

	for (size_t j = 0; j < json_object_array_length(all) && !newest; j++) {
		const char *name = sbx_str(json_object_array_get_idx(all, j), "name");
		if (name && strncmp(name, "soak-", 5) == 0)
			newest = name;
	}
	if (!newest) {
		r->tui_converged = 1; /* nothing was created: nothing to show */
		return;
	}
	soak_tui_send(t, "2");
	soak_tui_pump(t, 100);
	soak_tui_send(t, "g");
	soak_tui_send(t, "R");
	r->tui_converged = soak_tui_wait(t, newest, 1, 20) == 0;
	if (!r->tui_converged)
		fprintf(stderr, "soak: the TUI does not show %s:\n%s\n", newest, soak_tui_text(t));
}

void soak_check_converge(struct soak_result *r, const struct soak_plan *p, struct soak_tui *t)
{
	const struct sbx *s = p->sbx;
	struct cli_home h;
	json_object *all = list_all(s);

	r->exports_after = soak_count_exports(s);
	r->counters_after = soak_counters(s);
	check_duplicates(r, all);
	if (cli_home_init(&h) == 0) {
		long done = 0;
		for (long i = 0; i < r->ntposts && done < SOAK_CONVERGE_MAX; i++)
			if (r->tposts[i].ok && ++done)
				converge_one(r, s, &h, "transcriptions", r->tposts[i].id);
		done = 0;
		for (long i = 0; i < r->neposts && done < SOAK_CONVERGE_MAX / 2; i++)
			if (r->eposts[i].ok && ++done)
				converge_one(r, s, &h, "exports", r->eposts[i].id);
		for (int i = 0; i < p->nids && i < 5; i++)
			converge_one(r, s, &h, "transcriptions", p->ids[i]);
		cli_home_free(&h);
	}
	converge_tui(r, all, t);
	json_object_put(all);
}

void soak_dump_sanitizer_reports(const char *dir)
{
	DIR *d = opendir(dir);
	char path[600];

	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, "san.", 4) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		char *text = cli_read_file(path);
		fprintf(stderr, "TUI sanitizer report %s:\n%s\n", e->d_name, text ? text : "");
		free(text);
	}
	closedir(d);
}
