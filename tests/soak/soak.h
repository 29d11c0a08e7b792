/* soak: shared definitions of the soak driver (soak.c runs the show and checks; soak_work.c
 * is one headless worker process running steno commands in a loop). */
#ifndef STENO_TESTS_SOAK_H
#define STENO_TESTS_SOAK_H

#include <stddef.h>

#include "../integration/sandbox_fixture.h"

#define SOAK_MAX_IDS 64

/* What a worker needs to know; filled by the driver before forking. */
struct soak_plan {
	const struct sbx *sbx;
	char media_url[1024];              /* a signed upload URL of this sandbox (no fetch) */
	char ids[SOAK_MAX_IDS][64];        /* seeded automatic_done transcriptions */
	int nids;
	long requests;                     /* this worker's budget of HTTP requests */
	double deadline;                   /* soak_now() after which it stops */
	int hang_seconds;                  /* a command running longer is a hang */
	char out_dir[512];                 /* results: out_dir/worker.N (text) and trace.N */
};

/* Per-worker totals, written as one "sum ..." line at the end of worker.N. */
struct soak_totals {
	long commands, requests, retries, crashes, hangs, failed, max_ms;
	long final_5xx, final_429, final_neterr; /* last tries that still failed, per the trace */
	long posts_t_ok, posts_t_fail, posts_e_ok, posts_e_fail;
};

/* Runs worker n until its budget or the deadline; writes out_dir/worker.n. Never returns:
 * _exit(0) (or 1 when it could not run at all). */
void soak_worker_run(const struct soak_plan *p, int n);

#endif
