/* The soak report: figures for docs/RELIABILITY.md and one line per check, then the
 * Criterion-style Synthesis line that .ci/count-tests adds up. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak_check.h"

/* Probability of each fault kind in a spec, in the sandbox's order of drawing. */
static const char *const kinds[] = {"500", "503", "429", "drop", "truncate", "malformed"};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static void faults_parse(const char *spec, double *p, double *lat_p)
{
	char buf[512];
	char *save = NULL;

	snprintf(buf, sizeof buf, "%s", spec);
	for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(it, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(it, "latency") == 0)
			*lat_p = atof(eq + 1);
		for (size_t k = 0; k < NKINDS; k++)
			if (strcmp(it, kinds[k]) == 0)
				p[k] = atof(eq + 1);
	}
}

/* The sandbox does not count the faults it injects: expected numbers from the spec, each kind
 * drawn only when the kinds before it were not. */
static void print_faults(const char *spec, long requests)
{
	double p[NKINDS] = {0}, lat = 0, none = 1;

	faults_parse(spec, p, &lat);
	printf("faults (expected from the spec over %ld requests):", requests);
	for (size_t k = 0; k < NKINDS; k++) {
		printf(" %s=%.0f", kinds[k], (double)requests * none * p[k]);
		none *= 1 - p[k];
	}
	printf(" latency=%.0f\n", (double)requests * lat);
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
	print_faults(faults, requests);
	printf("commands failing after retries (exit 1, reported): %ld; last tries 5xx %ld, 429 %ld, "
	       "network %ld\n", t->failed, t->final_5xx, t->final_429, t->final_neterr);
	printf("crashes: %ld, hangs: %ld, slowest command %ld ms (bound %d s)\n", t->crashes, t->hangs,
	       t->max_ms, hang);
	printf("TUI: %ld key probes, %ld unanswered, slowest %.2f s; exit %s; sanitizer reports %d\n",
	       r->probes, r->probe_failures, r->probe_max_s, r->tui_quit_ok ? "0" : "bad", r->tui_san_reports);
	printf("TUI RSS kB: first %ld, last %ld, max %ld (growth %ld, bound %ld)\n", r->rss_first,
	       r->rss_last, r->rss_max, growth, r->rss_bound);
	printf("POST transcriptions: %ld ok, %ld failed; duplicates %ld, missing %ld\n", t->posts_t_ok,
	       t->posts_t_fail, r->duplicates, r->missing);
	printf("POST exports: %ld ok, %ld failed; sandbox gained %ld\n", t->posts_e_ok, t->posts_e_fail, edelta);
	printf("convergence: %ld items compared, %ld differ; TUI %s\n", r->converge_checked,
	       r->converge_mismatch, r->tui_converged ? "shows the newest item" : "did not converge");

	struct check checks[] = {
		{"no_crash", t->crashes == 0 && r->tui_quit_ok && r->tui_san_reports == 0},
		{"no_hang", t->hangs == 0},
		{"tui_answers_keys", r->probes > 0 && r->probe_failures == 0},
		{"flat_memory", r->rss_first > 0 && growth <= r->rss_bound},
		{"no_post_twice", r->duplicates == 0 && r->missing == 0 && r->exports_before >= 0 &&
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
	return pass == n ? 0 : 1;
}
