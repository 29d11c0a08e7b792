/* The soak report: figures for docs/RELIABILITY.md and one line per check, then the
 * Criterion-style Synthesis line that .ci/count-tests adds up. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak_check.h"
#include "../integration/sandbox_fixture.h"

/* What the sandbox counted during the run: the after-minus-before of its counters. */
static long delta(const struct soak_result *r, const char *path)
{
	json_object *a = sbx_get(r->counters_after, path), *b = sbx_get(r->counters_before, path);
	return (a ? (long)json_object_get_int64(a) : 0) - (b ? (long)json_object_get_int64(b) : 0);
}

static void print_sandbox_counts(const struct soak_result *r)
{
	char path[96];
	json_object *faults = sbx_get(r->counters_after, "faults"), *reqs = sbx_get(r->counters_after, "requests");

	printf("faults injected (counted by the sandbox):");
	if (faults) {
		json_object_object_foreach(faults, kind, v)
		{
			(void)v;
			snprintf(path, sizeof path, "faults.%s", kind);
			printf(" %s=%ld", kind, delta(r, path));
		}
	}
	printf("\nrequests received that can change something (counted by the sandbox):");
	for (size_t i = 0; reqs && i < json_object_array_length(reqs); i++) {
		json_object *e = json_object_array_get_idx(reqs, i);
		const char *m = sbx_str(e, "method"), *rt = sbx_str(e, "route");
		long got = soak_counter(r->counters_after, m, rt, "received") -
			   soak_counter(r->counters_before, m, rt, "received");
		long done = soak_counter(r->counters_after, m, rt, "processed") -
			    soak_counter(r->counters_before, m, rt, "processed");
		if (got > 0)
			printf(" %s %s %ld (processed %ld);", m, rt, got, done);
	}
	printf("\n");
}

struct check {
	const char *name;
	int ok;
};

int soak_report(struct soak_result *r, const char *faults, int hang)
{
	const struct soak_totals *t = &r->sum;
	long requests = t->requests + r->tui_requests;
	long growth = r->rss_last - r->rss_first;
	long edelta = r->exports_after - r->exports_before;

	printf("soak: fault spec %s\n", faults);
	printf("requests: %ld (commands %ld: %ld, of them retries %ld; TUI: %ld, retries %ld) in %.1f s\n",
	       requests, t->commands, t->requests, t->retries, r->tui_requests, r->tui_retries, r->seconds);
	print_sandbox_counts(r);
	printf("commands failing after retries (exit 1, reported): %ld; last tries 5xx %ld, 429 %ld, "
	       "network %ld\n", t->failed, t->final_5xx, t->final_429, t->final_neterr);
	printf("crashes: %ld, hangs: %ld, slowest command %ld ms (bound %d s)\n", t->crashes, t->hangs,
	       t->max_ms, hang);
	printf("TUI: %ld key probes, %ld unanswered, slowest %.2f s; exit %s; sanitizer reports %d\n",
	       r->probes, r->probe_failures, r->probe_max_s, r->tui_quit_ok ? "0" : "bad", r->tui_san_reports);
	printf("TUI RSS kB: first %ld, last %ld, max %ld (growth %ld, bound %ld)\n", r->rss_first,
	       r->rss_last, r->rss_max, growth, r->rss_bound);
	printf("POST transcriptions: %ld actions (%ld ok, %ld failed); the sandbox received %ld (answered 429: %ld); "
	       "names it received twice not after a 429 (duplicates) %ld; missing %ld\n", t->posts_t_ok + t->posts_t_fail,
	       t->posts_t_ok, t->posts_t_fail, r->creates_received, r->creates_429, r->duplicates, r->missing);
	printf("POST exports: %ld actions (%ld ok, %ld failed); the sandbox received %ld (answered 429: %ld), gained %ld\n",
	       t->posts_e_ok + t->posts_e_fail, t->posts_e_ok, t->posts_e_fail, r->exports_received, r->exports_429, edelta);
	printf("convergence: %ld items compared, %ld differ; TUI %s\n", r->converge_checked,
	       r->converge_mismatch, r->tui_converged ? "shows the newest item" : "did not converge");

	struct check checks[] = {
		{"no_crash", t->crashes == 0 && r->tui_quit_ok && r->tui_san_reports == 0},
		{"no_hang", t->hangs == 0},
		{"tui_answers_keys", r->probes > 0 && r->probe_failures == 0},
		{"flat_memory", r->rss_first > 0 && growth <= r->rss_bound},
		{"no_post_twice", r->counters_after && r->counters_before && r->duplicates == 0 && r->missing == 0 &&
		 r->creates_received - r->creates_429 <= t->posts_t_ok + t->posts_t_fail &&
		 r->exports_received - r->exports_429 <= t->posts_e_ok + t->posts_e_fail && r->exports_before >= 0 &&
		 edelta >= t->posts_e_ok && edelta <= t->posts_e_ok + t->posts_e_fail},
		{"converged", r->converge_checked > 0 && r->converge_mismatch == 0 && r->tui_converged},
		{"enough_requests", requests >= r->target_requests},
	};
	size_t n = sizeof checks / sizeof checks[0], pass = 0;
	for (size_t i = 0; i < n; i++) {
		printf("[%s] soak::%s\n", checks[i].ok ? "PASS" : "FAIL", checks[i].name);
		pass += checks[i].ok ? 1 : 0;
	}
	printf("Synthesis: Tested: %zu | Passing: %zu | Failing: %zu | Crashing: 0\n", n, pass, n - pass);
	free(r->tposts);
	free(r->eposts);
	json_object_put(r->counters_before);
	json_object_put(r->counters_after);
	return pass == n ? 0 : 1;
}
