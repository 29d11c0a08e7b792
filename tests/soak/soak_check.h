/* soak_check: after the soak run, gather the workers' results and check them against the
 * sandbox's own state (duplicates, convergence), then print the report. */
#ifndef STENO_TESTS_SOAK_CHECK_H
#define STENO_TESTS_SOAK_CHECK_H

#include "soak.h"
#include "soak_tui.h"

#include <json-c/json.h>

#define SOAK_MAX_POSTS 20000

/* One POST a worker made: ok is what steno reported. */
struct soak_post {
	char key[64];   /* transcription name (T) or source transcription id (E) */
	char id[64];    /* the created id, "-" when steno reported a failure */
	int ok;
};

/* Everything the report prints. Ownership: plain data plus the two malloc'ed arrays, freed by
 * soak_report. */
struct soak_result {
	struct soak_totals sum;       /* over the workers */
	long tui_requests, tui_retries;
	long target_requests;         /* the minimum the run must reach */
	double seconds;
	struct soak_post *tposts, *eposts;
	long ntposts, neposts;
	long exports_before, exports_after;
	long duplicates, missing;     /* soak names the sandbox received twice; reported but absent */
	/* GET /_sandbox/counters before the faults and after the run (NULL on error); what the
	 * sandbox itself received and injected is their difference. */
	json_object *counters_before, *counters_after;
	long creates_received, exports_received; /* POSTs the sandbox received during the run */
	long creates_429, exports_429;           /* ... of them answered 429 (may be sent again) */
	long converge_checked, converge_mismatch;
	int tui_converged;
	long probes, probe_failures;
	double probe_max_s;
	int tui_quit_ok, tui_san_reports;
	long rss_first, rss_last, rss_max, rss_bound;
};

/* The sandbox's own counters (GET /_sandbox/counters); caller puts; NULL on error. */
json_object *soak_counters(const struct sbx *s);
/* received (or processed) of method + route in a counters object; 0 when absent. */
long soak_counter(json_object *counters, const char *method, const char *route, const char *what);
/* Exports of the demo organization per the admin state route (-1 on error). */
long soak_count_exports(const struct sbx *s);
/* Reads out_dir/worker.N and the TUI's trace. */
void soak_collect(struct soak_result *r, const char *dir, int workers);
/* With the faults cleared: duplicates, missing items, CLI and TUI convergence (the created
 * items and a few of the seeded ones the workers read). */
void soak_check_converge(struct soak_result *r, const struct soak_plan *p, struct soak_tui *t);
/* Prints the TUI's sanitizer report files to stderr. */
void soak_dump_sanitizer_reports(const char *dir);
/* Prints the figures, the checks and the Synthesis line; frees the arrays. 0 when every
 * check passed, 1 otherwise. */
int soak_report(struct soak_result *r, const char *faults, int hang);

#endif
