#ifndef STENO_TEST_CORE_HELPERS_H
#define STENO_TEST_CORE_HELPERS_H

/* Small helpers of the core unit tests: a private temp dir per test and file writing. */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fresh temp dir; HOME and XDG variables point into it so nothing real is touched. */
static inline char *core_tmpdir(void)
{
	static char dir[256];
	snprintf(dir, sizeof(dir), "%s/steno-core-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	cr_assert_not_null(mkdtemp(dir));
	setenv("HOME", dir, 1);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_STATE_HOME");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("STENO_CONFIG");
	unsetenv("STENO_BASE_URL");
	unsetenv("STENO_API_KEY");
	unsetenv("STENO_PROFILE");
	unsetenv("STENO_ORG_ID");
	return dir;
}

static inline void core_rm_rf(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static inline void core_write(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
	cr_assert_eq(chmod(path, mode), 0);
}

/* Runs racer(0) ... racer(n - 1) in n forked processes at once (each must _exit) and
 * asserts that every one exited 0. */
static inline void core_race(int n, void (*racer)(int who))
{
	pid_t pids[16];
	cr_assert_leq(n, 16);
	for (int w = 0; w < n; w++) {
		pids[w] = fork();
		cr_assert_geq(pids[w], 0);
		if (pids[w] == 0)
			racer(w);
	}
	for (int w = 0; w < n; w++) {
		int status = 0;
		cr_assert_eq(waitpid(pids[w], &status, 0), pids[w]);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "racer %d failed", w);
	}
}

static inline char *core_path(const char *dir, const char *name)
{
	static char buf[4][512];
	static int k;
	char *p = buf[k++ % 4];
	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

#endif
