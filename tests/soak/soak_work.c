/* One headless soak worker: runs steno commands (reads and POSTs) against the faulty sandbox
 * in a loop, counts the HTTP requests they made from their --trace lines, and writes what
 * happened to out_dir/worker.N:
 *   T NAME ok|fail ID     a `transcribe` POST (ID "-" when it failed)
 *   E TID ok|fail EID     an `export` POST
 *   C ARGS code=N ms=N    a crash or a hang (with the command)
 *   sum ...               the totals (struct soak_totals, in order)
 */
#include "config.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../integration/test_cli_util.h"
#include "soak.h"
#include "soak_tui.h"

struct worker {
	const struct soak_plan *p;
	int n;
	struct cli_home home;
	char trace[600];
	long trace_off;
	FILE *out;
	struct soak_totals t;
	long seq;
};

/* Reads the trace lines appended since the last call: one line per request with its retries
 * and the last try's status. */
static void worker_count_trace(struct worker *w)
{
	FILE *f = fopen(w->trace, "r");
	char line[4096];

	if (!f)
		return;
	if (fseek(f, w->trace_off, SEEK_SET) != 0) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof line, f)) {
		char method[16], status[64];
		int retries = 0;
		const char *r = strstr(line, " retries=");
		if (!r || sscanf(line, "%*s %15s %*s %63s", method, status) != 2)
			continue;
		retries = atoi(r + 9);
		w->t.requests += 1 + retries;
		w->t.retries += retries;
		long st = atol(status);
		if (st >= 500)
			w->t.final_5xx++;
		else if (st == 429)
			w->t.final_429++;
		else if (st == 0)
			w->t.final_neterr++;
	}
	w->trace_off = ftell(f);
	fclose(f);
}

static int is_crash(const struct cli_result *r)
{
	return r->code >= 128 || r->code == 23 || r->code == -1 || strstr(r->err, "Sanitizer") ||
	       strstr(r->err, "runtime error:");
}

/* Runs one command (argv without the global options); returns its result. */
static void worker_exec(struct worker *w, const char *const *args, struct cli_result *r)
{
	const char *argv[24] = {"--trace", w->trace};
	size_t n = 2;
	char what[512] = "";

	for (size_t i = 0; args[i] && n < 23; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	double t0 = soak_now();
	cli_exec(r, &w->home, w->p->sbx, NULL, argv);
	long ms = (long)((soak_now() - t0) * 1000);
	w->t.commands++;
	if (ms > w->t.max_ms)
		w->t.max_ms = ms;
	for (size_t i = 0; args[i]; i++)
		snprintf(what + strlen(what), sizeof what - strlen(what), "%s%s", i ? " " : "", args[i]);
	if (is_crash(r)) {
		w->t.crashes++;
		fprintf(w->out, "C crash %s code=%d ms=%ld\n", what, r->code, ms);
		fprintf(stderr, "soak: CRASH: steno %s: code %d\n%s\n", what, r->code, r->err);
	} else if (r->code == -2 || ms > (long)w->p->hang_seconds * 1000) {
		w->t.hangs++;
		fprintf(w->out, "C hang %s code=%d ms=%ld\n", what, r->code, ms);
	} else if (r->code != 0) {
		w->t.failed++;
	}
	worker_count_trace(w);
}

/* The "id" of the JSON object a command printed, or NULL. Copied into buf. */
static const char *json_id(const char *text, char *buf, size_t n)
{
	json_object *o = json_tokener_parse(text);
	json_object *id = NULL;
	const char *res = NULL;

	if (o && json_object_object_get_ex(o, "id", &id) && json_object_is_type(id, json_type_string)) {
		snprintf(buf, n, "%s", json_object_get_string(id));
		res = buf;
	}
	json_object_put(o);
	return res;
}

static void worker_transcribe(struct worker *w)
{
	char name[64], idbuf[64];
	struct cli_result r;

	snprintf(name, sizeof name, "soak-%d-%ld", w->n, w->seq);
	const char *args[] = {"transcribe", w->p->media_url, "--language", "en-US", "--name", name, "--json", NULL};
	worker_exec(w, args, &r);
	const char *id = r.code == 0 ? json_id(r.out, idbuf, sizeof idbuf) : NULL;
	fprintf(w->out, "T %s %s %s\n", name, id ? "ok" : "fail", id ? id : "-");
	if (id)
		w->t.posts_t_ok++;
	else
		w->t.posts_t_fail++;
	cli_result_free(&r);
}

static void worker_export(struct worker *w, const char *tid)
{
	char idbuf[64];
	struct cli_result r;
	const char *args[] = {"export", tid, "--format", "txt", "--json", NULL};

	worker_exec(w, args, &r);
	const char *id = r.code == 0 ? json_id(r.out, idbuf, sizeof idbuf) : NULL;
	fprintf(w->out, "E %s %s %s\n", tid, id ? "ok" : "fail", id ? id : "-");
	if (id)
		w->t.posts_e_ok++;
	else
		w->t.posts_e_fail++;
	cli_result_free(&r);
}

/* One step of the rotation: mostly reads (as people browse), a POST every few steps. */
static void worker_step(struct worker *w)
{
	const struct soak_plan *p = w->p;
	const char *tid = p->ids[(w->seq * 7 + w->n) % p->nids];
	struct cli_result r;

	switch (w->seq % 8) {
	case 0: worker_transcribe(w); return; /* first: a short run under valgrind still POSTs */
	case 1: case 5: {
		const char *a[] = {"show", "--json", tid, NULL};
		worker_exec(w, a, &r);
		break;
	}
	case 2: {
		const char *a[] = {"ls", "--all", "--json", NULL};
		worker_exec(w, a, &r);
		break;
	}
	case 3: worker_export(w, tid); return;
	case 4: {
		const char *a[] = {"ls", "--page", "1", NULL};
		worker_exec(w, a, &r);
		break;
	}
	case 6: {
		const char *a[] = {"ls", "--json", NULL};
		worker_exec(w, a, &r);
		break;
	}
	default: {
		const char *a[] = {"glossaries", "--json", NULL};
		worker_exec(w, a, &r);
		break;
	}
	}
	cli_result_free(&r);
}

void soak_worker_run(const struct soak_plan *p, int n)
{
	struct worker w = {.p = p, .n = n};
	char path[600];

	snprintf(path, sizeof path, "%s/worker.%d", p->out_dir, n);
	snprintf(w.trace, sizeof w.trace, "%s/trace.%d", p->out_dir, n);
	w.out = fopen(path, "w");
	if (!w.out || cli_home_init(&w.home) != 0)
		_exit(1);
	setvbuf(w.out, NULL, _IOLBF, 0);
	while (w.t.requests < p->requests && soak_now() < p->deadline) {
		worker_step(&w);
		w.seq++;
	}
	fprintf(w.out, "sum %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", w.t.commands,
		w.t.requests, w.t.retries, w.t.crashes, w.t.hangs, w.t.failed, w.t.max_ms, w.t.final_5xx,
		w.t.final_429, w.t.final_neterr, w.t.posts_t_ok, w.t.posts_t_fail, w.t.posts_e_ok,
		w.t.posts_e_fail);
	fclose(w.out);
	cli_home_free(&w.home);
	_exit(0);
}
