#include "config.h"

#include "test_cli_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int cli_home_init(struct cli_home *h)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(h->dir, sizeof(h->dir), "%s/steno-cli-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(h->dir))
		return -1;
	static const char *const sub[] = {"home", "cfg", "cfg/steno", "state", "cache", "tmp"};
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		char p[600];
		snprintf(p, sizeof(p), "%s/%s", h->dir, sub[i]);
		if (mkdir(p, 0700) != 0)
			return -1;
	}
	return 0;
}

void cli_home_free(struct cli_home *h)
{
	if (!h->dir[0])
		return;
	pid_t pid = fork();
	if (pid == 0) {
		execlp("rm", "rm", "-rf", h->dir, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	h->dir[0] = '\0';
}

void cli_home_path(const struct cli_home *h, const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", h->dir, name);
}

int cli_home_config(const struct cli_home *h, const char *text)
{
	char p[600];
	snprintf(p, sizeof(p), "%s/cfg/steno/config", h->dir);
	FILE *f = fopen(p, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

char *cli_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len - 1 == 0) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static void build_env(char **envp, size_t max, char (*store)[1024], const struct cli_home *h,
		      const struct sbx *s, const char *const *extra)
{
	size_t n = 0;
	const char *keep[] = {"PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", NULL};
	for (size_t i = 0; keep[i]; i++)
		if (getenv(keep[i]))
			snprintf(store[n], 1024, "%s=%s", keep[i], getenv(keep[i])), n++;
	snprintf(store[n++], 1024, "HOME=%s/home", h->dir);
	snprintf(store[n++], 1024, "XDG_CONFIG_HOME=%s/cfg", h->dir);
	snprintf(store[n++], 1024, "XDG_STATE_HOME=%s/state", h->dir);
	snprintf(store[n++], 1024, "XDG_CACHE_HOME=%s/cache", h->dir);
	snprintf(store[n++], 1024, "TMPDIR=%s/tmp", h->dir);
	snprintf(store[n++], 1024, "LANG=C.UTF-8");
	if (s) {
		snprintf(store[n++], 1024, "STENO_BASE_URL=%s", s->base_url);
		snprintf(store[n++], 1024, "STENO_API_KEY=%s", s->api_key);
		snprintf(store[n++], 1024, "STENO_ORG_ID=%s", s->org_id);
	}
	for (size_t i = 0; extra && extra[i] && n + 1 < max; i++)
		snprintf(store[n++], 1024, "%s", extra[i]);
	for (size_t i = 0; i < n; i++)
		envp[i] = store[i];
	envp[n] = NULL;
}

static int wait_timeout(pid_t pid, int *status, int seconds)
{
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > seconds) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return -1;
		}
		struct timespec ts = {0, 5 * 1000000};
		nanosleep(&ts, NULL);
	}
}

static pid_t spawn_prog(const char *bin, const struct cli_home *h, const struct sbx *s,
			const char *const *env, const char *const *argv, const char *outp,
			const char *errp)
{
	if (!bin)
		return -1;
	char *args[64];
	size_t n = 0;
	args[n++] = (char *)(uintptr_t)bin;
	for (size_t i = 0; argv[i] && n < 63; i++)
		args[n++] = (char *)(uintptr_t)argv[i];
	args[n] = NULL;
	char *envp[48];
	static char store[48][1024];
	build_env(envp, 47, store, h, s, env);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int in = open("/dev/null", O_RDONLY);
		if (o < 0 || e < 0 || in < 0)
			_exit(126);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		if (chdir(h->dir) != 0)
			_exit(126);
		execve(bin, args, envp);
		_exit(127);
	}
	return pid;
}

pid_t cli_spawn(const struct cli_home *h, const struct sbx *s, const char *const *env,
		const char *const *argv, const char *outp, const char *errp)
{
	return spawn_prog(getenv("STENO_BIN"), h, s, env, argv, outp, errp);
}

int cli_exec(struct cli_result *r, const struct cli_home *h, const struct sbx *s,
	     const char *const *env, const char *const *argv)
{
	return cli_exec_prog(r, h, s, env, getenv("STENO_BIN"), argv);
}

int cli_exec_prog(struct cli_result *r, const struct cli_home *h, const struct sbx *s,
		  const char *const *env, const char *bin, const char *const *argv)
{
	memset(r, 0, sizeof(*r));
	r->code = -1;
	char outp[600], errp[600];
	static int seq;
	snprintf(outp, sizeof(outp), "%s/out.%d.%d", h->dir, (int)getpid(), seq);
	snprintf(errp, sizeof(errp), "%s/err.%d.%d", h->dir, (int)getpid(), seq++);
	pid_t pid = spawn_prog(bin, h, s, env, argv, outp, errp);
	if (pid < 0)
		return -1;
	int status = 0;
	if (wait_timeout(pid, &status, 120) != 0)
		r->code = -2;
	else
		r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	r->out = cli_read_file(outp);
	r->err = cli_read_file(errp);
	unlink(outp);
	unlink(errp);
	/* Sanitizer reports of steno itself go to the test's log, where CI greps for them. */
	if (r->err && (strstr(r->err, "Sanitizer") || strstr(r->err, "runtime error:")))
		fprintf(stderr, "steno stderr:\n%s\n", r->err);
	if (!r->out)
		r->out = strdup("");
	if (!r->err)
		r->err = strdup("");
	return 0;
}

void cli_result_free(struct cli_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

long cli_count_transcriptions(const struct sbx *s)
{
	return cli_count_rows(s, "transcriptions");
}

long cli_count_rows(const struct sbx *s, const char *table)
{
	char key[64];
	snprintf(key, sizeof key, "counts.%s", table);
	struct sbx_resp resp;
	if (sbx_request(s, "GET", "/_sandbox/state", s->admin_key, NULL, NULL, &resp) != 0)
		return -1;
	json_object *o = sbx_json(&resp);
	sbx_resp_free(&resp);
	json_object *v = o ? sbx_get(o, key) : NULL;
	long n = v ? (long)json_object_get_int64(v) : -1;
	json_object_put(o);
	return n;
}

void cli_home_wav(const struct cli_home *h, const char *name, double seconds, char *out, size_t n)
{
	size_t len = 0;
	void *data = sbx_make_wav(seconds, &len);
	cli_home_path(h, name, out, n);
	FILE *f = fopen(out, "wb");
	if (!f || !data || fwrite(data, 1, len, f) != len)
		out[0] = '\0';
	if (f)
		fclose(f);
	free(data);
}

int cli_fixture_start(struct sbx *s, struct cli_home *h, const char *const *extra,
		      const char *config)
{
	if (sbx_start(s, extra) != 0)
		return -1;
	if (cli_home_init(h) != 0 || (config && cli_home_config(h, config) != 0)) {
		sbx_stop(s);
		return -1;
	}
	return 0;
}

void cli_fixture_stop(struct sbx *s, struct cli_home *h)
{
	sbx_stop(s);
	cli_home_free(h);
}

int cli_seed_transcriptions(const struct sbx *s, int n)
{
	char path[128], body[64];
	snprintf(path, sizeof(path), "/_sandbox/organizations/%s/seed", s->org_id);
	snprintf(body, sizeof(body), "{\"transcriptions\":%d}", n);
	struct sbx_resp r;
	if (sbx_request(s, "POST", path, s->admin_key, body, NULL, &r) != 0)
		return -1;
	int ok = r.status / 100 == 2;
	sbx_resp_free(&r);
	return ok ? 0 : -1;
}
