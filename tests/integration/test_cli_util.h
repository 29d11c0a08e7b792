/* Helpers of the steno command tests: run $STENO_BIN in a private environment (own HOME and
 * XDG dirs, the account of a sandbox), capture stdout, stderr and the exit code. */
#ifndef STENO_TESTS_CLI_UTIL_H
#define STENO_TESTS_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sandbox_fixture.h"

/* A private home for one test: dir/home, dir/cfg, dir/state, dir/cache; removed by
 * cli_home_free. */
struct cli_home {
	char dir[512];
};

int cli_home_init(struct cli_home *h);
void cli_home_free(struct cli_home *h);
/* Writes dir/cfg/steno/config. */
int cli_home_config(const struct cli_home *h, const char *text);
/* path of a file in the home dir (static buffer per call site: copy it). */
void cli_home_path(const struct cli_home *h, const char *name, char *out, size_t n);

struct cli_result {
	int code;      /* exit status; 128+N for signal N; -1 when it could not run */
	char *out;     /* stdout, NUL-terminated, malloc'd */
	char *err;     /* stderr */
};

/* Runs STENO_BIN with argv (NULL-terminated, without argv[0]). Environment: the home's XDG
 * dirs, the sandbox's account as STENO_BASE_URL/STENO_API_KEY/STENO_ORG_ID when sbx is not
 * NULL, plus `env` ("NAME=VALUE", NULL-terminated, may be NULL). Times out after 120 s. */
int cli_exec(struct cli_result *r, const struct cli_home *h, const struct sbx *sbx,
	     const char *const *env, const char *const *argv);
/* Same with another program than STENO_BIN (a shell, say). */
int cli_exec_prog(struct cli_result *r, const struct cli_home *h, const struct sbx *s,
		  const char *const *env, const char *bin, const char *const *argv);
void cli_result_free(struct cli_result *r);
/* Starts STENO_BIN like cli_exec, with stdout and stderr into the files outp and errp, and
 * returns at once: its pid (the caller waits for it), or -1. */
pid_t cli_spawn(const struct cli_home *h, const struct sbx *s, const char *const *env,
		const char *const *argv, const char *outp, const char *errp);

/* Writes a WAV of `seconds` (sbx_make_wav) as dir/name; its path in out ("" on failure). */
void cli_home_wav(const struct cli_home *h, const char *name, double seconds, char *out, size_t n);
/* Reads a whole file (malloc'd, NUL-terminated) or NULL. */
char *cli_read_file(const char *path);
/* Transcriptions of the demo organization per the admin state route (-1 on error). */
long cli_count_transcriptions(const struct sbx *s);
/* Rows of a sandbox table (orgs, transcriptions, orders, exports, tasks, webhooks), -1 on error. */
long cli_count_rows(const struct sbx *s, const char *table);

/* A test's sandbox (sbx_start with extra) and private home with config text (NULL: none).
 * 0, or -1 (nothing left started). cli_fixture_stop undoes both. */
int cli_fixture_start(struct sbx *s, struct cli_home *h, const char *const *extra,
		      const char *config);
void cli_fixture_stop(struct sbx *s, struct cli_home *h);
/* Seeds n transcriptions into the sandbox's demo organization. 0 or -1. */
int cli_seed_transcriptions(const struct sbx *s, int n);

#endif
