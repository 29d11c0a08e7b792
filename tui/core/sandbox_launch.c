#include "config.h"

#include "core/sandbox_launch.h"

#include "core/conf.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int sandbox_launch_find(char *out, size_t size, struct steno_error *err)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(out, size, "%s/steno-sandbox", self);
			if (access(out, X_OK) == 0)
				return 0;
		}
	}
	snprintf(out, size, "%s/steno-sandbox", BINDIR);
	if (access(out, X_OK) == 0)
		return 0;
	return steno_error_set(err, STENO_ERR_CONFIG,
			       "steno-sandbox was not found next to steno nor in %s", BINDIR);
}

/* In the child: stdin /dev/null, stdout the pipe, stderr the temp file; dies with steno. */
static void child_exec(const char *bin, const char *data_dir, int out_w, int err_fd,
		       pid_t parent, const char *const *extra)
{
	/* Copies, because execv wants char *; the child replaces itself right after. */
	char *argv[64];
	size_t n = 0;
	char seed[16];
	snprintf(seed, sizeof(seed), "%d", SANDBOX_LAUNCH_SEED);
	const char *fixed[] = {bin, "--port", "0", "--seed-demo", seed, "--data", data_dir};
	for (size_t i = 0; i < 7; i++)
		argv[n++] = strdup(fixed[i]);
	for (size_t i = 0; extra && extra[i] && n < 63; i++)
		argv[n++] = strdup(extra[i]);
	argv[n] = NULL;
	for (size_t i = 0; i < n; i++)
		if (!argv[i])
			_exit(127);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(out_w, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* its own process group: the terminal's ^C or hang-up reach steno alone, which then
	 * stops the sandbox in order (sandbox_launch_stop) and removes the directory */
	setpgid(0, 0);
	if (getppid() != parent)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execv(bin, argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", bin, strerror(errno));
	_exit(127);
}

/* Reads lines until the four ready lines are in, the sandbox closes stdout, or time is up. */
static int read_ready(struct sandbox_launch *sb, long timeout_ms, struct steno_error *err)
{
	char buf[2048];
	size_t len = 0;
	long end = now_ms() + timeout_ms;
	int lines = 0;
	while (lines < 4) {
		long left = end - now_ms();
		if (left <= 0)
			return steno_error_set(err, STENO_ERR_TIMEOUT,
					       "steno-sandbox did not become ready in %ld s",
					       timeout_ms / 1000);
		struct pollfd p = {.fd = sb->out_fd, .events = POLLIN};
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t got = read(sb->out_fd, buf + len, sizeof(buf) - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return steno_error_set(err, STENO_ERR_IO, "steno-sandbox exited before it was ready");
		len += (size_t)got;
		buf[len] = '\0';
		lines = 0;
		for (const char *s = buf; (s = strchr(s, '\n')); s++)
			lines++;
		if (len >= sizeof(buf) - 1 && lines < 4)
			return steno_error_set(err, STENO_ERR_PARSE, "steno-sandbox printed unexpected output");
	}
	static const struct {
		const char *name;
		size_t off, size;
	} fields[] = {
		{"STENO_BASE_URL=", offsetof(struct sandbox_launch, base_url), 256},
		{"STENO_API_KEY=", offsetof(struct sandbox_launch, api_key), 256},
		{"STENO_ADMIN_KEY=", offsetof(struct sandbox_launch, admin_key), 256},
		{"STENO_ORG_ID=", offsetof(struct sandbox_launch, org_id), 64},
	};
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		for (size_t i = 0; i < 4; i++) {
			size_t k = strlen(fields[i].name);
			if (strncmp(line, fields[i].name, k) == 0)
				snprintf((char *)sb + fields[i].off, fields[i].size, "%s", line + k);
		}
	if (!sb->base_url[0] || !sb->api_key[0] || !sb->org_id[0])
		return steno_error_set(err, STENO_ERR_PARSE, "steno-sandbox's ready lines are incomplete");
	return 0;
}

/* Appends the start of the sandbox's stderr to err's message. */
static void quote_stderr(const struct sandbox_launch *sb, struct steno_error *err)
{
	char text[200];
	if (!err || sb->err_fd < 0)
		return;
	ssize_t n = pread(sb->err_fd, text, sizeof(text) - 1, 0);
	if (n <= 0)
		return;
	text[n] = '\0';
	for (char *p = text; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	char msg[sizeof(err->message) + sizeof(text) + 4];
	snprintf(msg, sizeof(msg), "%s: %s", err->message, text);
	steno_error_set(err, err->kind, "%s", msg);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Removes the run's directory (best effort). */
static void remove_run_dir(struct sandbox_launch *sb)
{
	if (sb->dir[0])
		nftw(sb->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	sb->dir[0] = '\0';
}

/* The run's private directory and the paths in it. */
static int make_run_dir(struct sandbox_launch *sb, struct steno_error *err)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(sb->dir, sizeof sb->dir, "%s/steno-sandbox-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(sb->dir)) {
		int e = errno;
		sb->dir[0] = '\0';
		return steno_error_set(err, STENO_ERR_IO, "cannot create a temporary directory: %s",
				       strerror(e));
	}
	snprintf(sb->state_file, sizeof sb->state_file, "%s/state.json", sb->dir);
	snprintf(sb->cache_dir, sizeof sb->cache_dir, "%s/cache", sb->dir);
	return 0;
}

int sandbox_launch_start(struct sandbox_launch *sb, const char *binary,
			 const char *const *extra, long timeout_ms, struct steno_error *err)
{
	memset(sb, 0, sizeof(*sb));
	sb->out_fd = sb->err_fd = -1;
	if (binary)
		snprintf(sb->binary, sizeof(sb->binary), "%s", binary);
	else if (sandbox_launch_find(sb->binary, sizeof(sb->binary), err) != 0)
		return -1;
	if (make_run_dir(sb, err) != 0)
		return -1;
	char data_dir[4200];
	snprintf(data_dir, sizeof data_dir, "%s/data", sb->dir);
	FILE *errf = tmpfile();
	int fds[2];
	if (!errf) {
		remove_run_dir(sb);
		return steno_error_set(err, STENO_ERR_IO, "cannot create a temp file: %s", strerror(errno));
	}
	if (pipe2(fds, O_CLOEXEC) != 0) {
		fclose(errf);
		remove_run_dir(sb);
		return steno_error_set(err, STENO_ERR_IO, "pipe: %s", strerror(errno));
	}
	sb->err_fd = dup(fileno(errf));
	fclose(errf);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		close(sb->err_fd);
		sb->err_fd = -1;
		remove_run_dir(sb);
		return steno_error_set(err, STENO_ERR_IO, "fork: %s", strerror(errno));
	}
	if (pid == 0)
		child_exec(sb->binary, data_dir, fds[1], sb->err_fd, parent, extra);
	close(fds[1]);
	sb->pid = pid;
	sb->out_fd = fds[0];
	if (read_ready(sb, timeout_ms > 0 ? timeout_ms : SANDBOX_LAUNCH_TIMEOUT_MS, err) != 0) {
		if (sb->pid > 0)
			kill(sb->pid, SIGTERM);
		quote_stderr(sb, err);
		sandbox_launch_stop(sb);
		return -1;
	}
	return 0;
}

static int wait_child(pid_t pid, long timeout_ms, int *status)
{
	long end = now_ms() + timeout_ms;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return r == pid ? 0 : -1;
		if (now_ms() >= end)
			return 1;
		struct timespec ts = {0, 10 * 1000000};
		nanosleep(&ts, NULL);
	}
}

int sandbox_launch_stop(struct sandbox_launch *sb)
{
	int status = 0, rc = -1;
	if (sb->pid > 0) {
		kill(sb->pid, SIGTERM);
		int w = wait_child(sb->pid, 5000, &status);
		if (w == 1) {
			kill(sb->pid, SIGKILL);
			w = wait_child(sb->pid, 5000, &status);
		}
		if (w == 0)
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		sb->pid = 0;
	}
	if (sb->out_fd >= 0)
		close(sb->out_fd);
	if (sb->err_fd >= 0)
		close(sb->err_fd);
	sb->out_fd = sb->err_fd = -1;
	remove_run_dir(sb);
	return rc;
}

int sandbox_launch_profile(struct steno_config *cfg, const char *org_id, struct steno_error *err)
{
	if (!org_id || !org_id[0] || config_profile_find(cfg, SANDBOX_LAUNCH_PROFILE))
		return 0;
	struct config_profile p = { .name = strdup(SANDBOX_LAUNCH_PROFILE),
		.organization = strdup(org_id), .orgs = calloc(1, sizeof *p.orgs), .n_orgs = 1 };
	if (p.orgs) {
		p.orgs->name = strdup(SANDBOX_LAUNCH_ORG_NAME);
		p.orgs->id = strdup(org_id);
	}
	struct config_profile *v = NULL;
	if (p.name && p.organization && p.orgs && p.orgs->name && p.orgs->id)
		v = realloc(cfg->profiles, (cfg->n_profiles + 1) * sizeof *v);
	if (!v) {
		if (p.orgs) {
			free(p.orgs->name);
			free(p.orgs->id);
		}
		free(p.orgs);
		free(p.organization);
		free(p.name);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	cfg->profiles = v;
	v[cfg->n_profiles++] = p;
	return 0;
}
