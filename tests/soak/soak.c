/* The soak driver (issue 7): steno's headless commands (in parallel worker processes) and its
 * TUI on a pty run against one steno-sandbox that injects faults, for a bounded number of
 * requests and a bounded time. Checked: no crash, no hang (commands end within a bound, the
 * TUI keeps answering keys), flat memory (RSS of the TUI), no POST sent twice (counted by the
 * sandbox: GET /_sandbox/counters, whose fault counts the report also prints), and once
 * the faults stop every created item converges to the sandbox's own state, in `steno show
 * --json` and in the TUI. Prints a report and a Criterion-style Synthesis line.
 *
 *   soak_driver [--requests N] [--min-requests N] [--seconds T] [--workers P] [--seed N]
 *               [--hang S] [--rss-growth-kb K] [--faults SPEC]
 * --requests is the budget (the workers stop once their share is made), --seconds the time
 * bound (no new command after it), --min-requests what the run must reach to count.
 * Without options: the short run of `make check` (~250 requests, about 20 s). */
#include "config.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "soak.h"
#include "soak_check.h"
#include "soak_tui.h"

#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif
#ifndef SOAK_ASAN
#define SOAK_ASAN 0
#endif

#define SOAK_DEFAULT_FAULTS \
	"500=0.15,503=0.05,429=0.05,truncate=0.05,malformed=0.05,drop=0.02,drop_post=0.10,latency=0.05:1500ms"

struct opts {
	long requests, min_requests;
	double seconds;
	int workers, seed, hang;
	long rss_growth_kb;
	const char *faults;
};

static void opts_parse(struct opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{"requests", required_argument, NULL, 'r'}, {"seconds", required_argument, NULL, 's'},
		{"workers", required_argument, NULL, 'w'},  {"seed", required_argument, NULL, 'd'},
		{"hang", required_argument, NULL, 'h'},     {"rss-growth-kb", required_argument, NULL, 'm'},
		{"faults", required_argument, NULL, 'f'},   {"min-requests", required_argument, NULL, 'n'},
		{NULL, 0, NULL, 0},
	};
	*o = (struct opts){.requests = 250, .min_requests = 100, .seconds = 12, .workers = 3,
			   .seed = 40, .hang = 60, .rss_growth_kb = SOAK_ASAN ? 49152 : 12288,
			   .faults = SOAK_DEFAULT_FAULTS};
	for (int c; (c = getopt_long(argc, argv, "", lo, NULL)) != -1;) {
		switch (c) {
		case 'r': o->requests = atol(optarg); break;
		case 's': o->seconds = atof(optarg); break;
		case 'w': o->workers = atoi(optarg); break;
		case 'd': o->seed = atoi(optarg); break;
		case 'h': o->hang = atoi(optarg); break;
		case 'm': o->rss_growth_kb = atol(optarg); break;
		case 'f': o->faults = optarg; break;
		case 'n': o->min_requests = atol(optarg); break;
		default: exit(2);
		}
	}
	/* Under `make check-valgrind` every steno runs in memcheck (10-50 times slower, and RSS
	 * is valgrind's): keep the checks, scale the figures. */
	if (getenv("STENO_UNDER_VALGRIND")) {
		o->min_requests = o->min_requests > 20 ? 20 : o->min_requests;
		o->rss_growth_kb *= 8;
	}
	if (o->workers < 1 || o->workers > 16 || o->requests < 1 || o->seconds <= 0) {
		fprintf(stderr, "soak: bad options\n");
		exit(2);
	}
}

/* Seeded transcriptions in state automatic_done (sources for exports and reads). */
static int collect_ids(const struct sbx *s, struct soak_plan *p)
{
	for (int page = 0; page < 20 && p->nids < SOAK_MAX_IDS; page++) {
		char path[256];
		long st = 0;
		snprintf(path, sizeof path, "transcriptions?organization_id=%s&page=%d", s->org_id, page);
		json_object *o = sbx_call(s, "GET", path, NULL, &st);
		json_object *res = sbx_get(o, "results");
		size_t n = res ? json_object_array_length(res) : 0;
		for (size_t i = 0; i < n && p->nids < SOAK_MAX_IDS; i++) {
			json_object *it = json_object_array_get_idx(res, i);
			const char *state = sbx_str(it, "state"), *id = sbx_str(it, "id");
			if (state && id && strcmp(state, "automatic_done") == 0)
				snprintf(p->ids[p->nids++], sizeof p->ids[0], "%s", id);
		}
		json_object_put(o);
		if (n == 0)
			break;
	}
	return p->nids > 0 ? 0 : -1;
}

/* The TUI side of the run while the workers work: keys, liveness probes, RSS samples. */
struct tui_watch {
	struct soak_tui *t;
	long probes, probe_failures, keys;
	double probe_max_s;
};

static void tui_probe(struct tui_watch *w, int hang)
{
	double t0 = soak_now();

	w->probes++;
	/* The help overlay (its title: the focused pane's keys come first, so no one action's
	 * text is sure to be on its first page) must appear and go away on keys. */
	if (soak_tui_send(w->t, "?") != 0 || soak_tui_wait(w->t, "/: search  q: close", 1, hang) != 0 ||
	    soak_tui_send(w->t, "\033") != 0 ||
	    soak_tui_wait(w->t, "/: search  q: close", 0, hang) != 0) {
		w->probe_failures++;
		fprintf(stderr, "soak: the TUI did not answer a key:\n%s\n", soak_tui_text(w->t));
	}
	double d = soak_now() - t0;
	if (d > w->probe_max_s)
		w->probe_max_s = d;
}

static int workers_left(pid_t *pids, int n)
{
	int left = 0;

	for (int i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], NULL, WNOHANG) == pids[i])
			pids[i] = 0;
		else
			left++;
	}
	return left;
}

static void tui_watch_run(struct tui_watch *w, pid_t *pids, int n, double hard_end, int hang)
{
	static const char *const keys[] = {"2", "j", "j", "k", "3", "4", "j", "1", "2", "L", "g", "L", "G", "g"};
	double next_key = 0, next_probe = soak_now() + 2, next_rss = 0, warm = soak_now() + 3;

	while (workers_left(pids, n) > 0) {
		double now = soak_now();
		if (now > hard_end) {
			for (int i = 0; i < n; i++)
				if (pids[i] > 0)
					kill(pids[i], SIGKILL);
			continue;
		}
		if (!soak_tui_pump(w->t, 50))
			break;
		if (now >= next_rss && now >= warm) {
			soak_tui_sample_rss(w->t);
			next_rss = now + 0.5;
		}
		if (now >= next_key) {
			soak_tui_send(w->t, keys[w->keys++ % (sizeof keys / sizeof keys[0])]);
			next_key = now + 0.3;
		}
		if (now >= next_probe) {
			tui_probe(w, hang);
			next_probe = soak_now() + 3;
		}
	}
	soak_tui_sample_rss(w->t);
}

static pid_t worker_spawn(const struct soak_plan *p, int n)
{
	pid_t pid = fork();

	if (pid == 0)
		soak_worker_run(p, n);
	return pid;
}

static int run(const struct opts *o, struct sbx *s, struct soak_tui *t, const char *dir)
{
	struct soak_plan plan = {.sbx = s, .hang_seconds = o->hang};
	struct soak_result res = {0};
	char trace[600];
	size_t wavlen = 0;
	void *wav = sbx_make_wav(2.0, &wavlen);
	pid_t pids[16] = {0};

	snprintf(plan.out_dir, sizeof plan.out_dir, "%s", dir);
	if (!wav || sbx_upload(s, "soak.wav", wav, wavlen, plan.media_url, sizeof plan.media_url) != 0 ||
	    collect_ids(s, &plan) != 0) {
		free(wav);
		fprintf(stderr, "soak: could not prepare the sandbox\n");
		return -1;
	}
	free(wav);
	res.exports_before = soak_count_exports(s);
	res.counters_before = soak_counters(s);
	snprintf(trace, sizeof trace, "%s/trace.tui", dir);
	if (soak_tui_start(t, s, 30, 120, trace) != 0 || soak_tui_wait(t, "Transcriptions", 1, 30) != 0) {
		fprintf(stderr, "soak: the TUI did not start:\n%s\n", t->vt ? soak_tui_text(t) : "");
		return -1;
	}
	if (sbx_set_faults(s, o->faults) != 0)
		return -1;
	double start = soak_now();
	plan.deadline = start + o->seconds;
	plan.requests = o->requests / o->workers + 1;
	for (int i = 0; i < o->workers; i++)
		pids[i] = worker_spawn(&plan, i);
	struct tui_watch w = {.t = t};
	tui_watch_run(&w, pids, o->workers, plan.deadline + 2.0 * o->hang, o->hang);
	res.seconds = soak_now() - start;
	if (sbx_set_faults(s, "none") != 0 || sbx_advance(s, 7200) != 0)
		return -1;
	res.probes = w.probes;
	res.probe_failures = w.probe_failures;
	res.probe_max_s = w.probe_max_s;
	soak_collect(&res, dir, o->workers);
	soak_check_converge(&res, &plan, t);
	res.tui_quit_ok = soak_tui_quit(t, 15) == 0 && WIFEXITED(t->status) && WEXITSTATUS(t->status) == 0;
	res.tui_san_reports = soak_tui_sanitizer_reports(t);
	soak_dump_sanitizer_reports(t->dir);
	res.rss_first = t->rss_first_kb;
	res.rss_last = t->rss_last_kb;
	res.rss_max = t->rss_max_kb;
	res.rss_bound = o->rss_growth_kb;
	res.target_requests = o->min_requests;
	return soak_report(&res, o->faults, o->hang);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct sbx s;
	struct soak_tui t = {.fd = -1};
	char dir[] = "/tmp/steno-soak-XXXXXX";
	static const char *const args[] = {"--seed-demo", NULL, "--page-size", "10", NULL};
	char seed[16];
	const char *argsv[5];

	opts_parse(&o, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	snprintf(seed, sizeof seed, "%d", o.seed);
	memcpy(argsv, args, sizeof argsv);
	argsv[1] = seed;
	if (!mkdtemp(dir) || sbx_start(&s, argsv) != 0) {
		fprintf(stderr, "soak: could not start the sandbox\n");
		printf("Synthesis: Tested: 1 | Passing: 0 | Failing: 0 | Crashing: 1\n");
		return 1;
	}
	int rc = run(&o, &s, &t, dir);
	soak_tui_stop(&t);
	int sst = sbx_stop(&s);
	if (sst != 0)
		fprintf(stderr, "soak: the sandbox exited with %d\n", sst);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "soak: could not remove %s\n", dir);
	if (rc < 0) {
		printf("Synthesis: Tested: 1 | Passing: 0 | Failing: 0 | Crashing: 1\n");
		return 1;
	}
	return rc == 0 && sst == 0 ? 0 : 1;
}
