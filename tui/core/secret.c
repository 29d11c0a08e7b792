#include "config.h"
#include "core/secret.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REDACTED "[redacted]"
#define KEY_FILE_MAX 8192
#define KEYLIKE_MIN 16

void secret_free(char *key)
{
	if (!key)
		return;
	/* volatile so that the compiler keeps the wipe of memory about to be freed */
	volatile char *p = key;
	while (*p)
		*p++ = '\0';
	free(key);
}

int secret_check_key(const char *key, const char *origin, struct steno_error *err)
{
	size_t n = strlen(key);
	if (n == 0)
		return steno_error_set(err, STENO_ERR_CONFIG, "%s: the API key is empty", origin);
	if (n > SECRET_KEY_MAX)
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "%s: the API key is longer than %d bytes", origin,
				       SECRET_KEY_MAX);
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return steno_error_set(err, STENO_ERR_CONFIG,
					       "%s: the API key holds a space, control or non-ASCII character",
					       origin);
	return 0;
}

/* Copies the first line (without CR/LF and surrounding blanks) into a new string. */
static char *first_line(const char *buf, size_t len)
{
	size_t start = 0;
	while (start < len && (buf[start] == ' ' || buf[start] == '\t'))
		start++;
	size_t end = start;
	while (end < len && buf[end] != '\n' && buf[end] != '\r' && buf[end] != '\0')
		end++;
	while (end > start && (buf[end - 1] == ' ' || buf[end - 1] == '\t'))
		end--;
	char *s = malloc(end - start + 1);
	if (!s)
		return NULL;
	memcpy(s, buf + start, end - start);
	s[end - start] = '\0';
	return s;
}

bool secret_file_is_private(const char *path, mode_t *mode)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (mode)
		*mode = st.st_mode & 07777;
	return (st.st_mode & 077) == 0;
}

static int check_key_file(int fd, const char *path, struct steno_error *err)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return steno_error_set(err, STENO_ERR_IO, "cannot stat key file %s: %s", path,
				       strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size > KEY_FILE_MAX)
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "key file %s is not a regular file of at most %d bytes", path,
				       KEY_FILE_MAX);
	if (st.st_uid != getuid() && st.st_uid != 0)
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "key file %s belongs to another user (uid %ld); refusing it",
				       path, (long)st.st_uid);
	if ((st.st_mode & 077) != 0)
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "key file %s has mode %04o: it is accessible by group or others; "
				       "refusing it. Run: chmod 600 %s",
				       path, (unsigned)(st.st_mode & 07777), path);
	return 0;
}

int secret_read_key_file(const char *path, char **key, struct steno_error *err)
{
	*key = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return steno_error_set(err, STENO_ERR_CONFIG, "cannot open key file %s: %s", path,
				       strerror(errno));
	if (check_key_file(fd, path, err) != 0) {
		close(fd);
		return -1;
	}
	char buf[KEY_FILE_MAX + 1];
	ssize_t n;
	do
		n = read(fd, buf, KEY_FILE_MAX);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0)
		return steno_error_set(err, STENO_ERR_IO, "cannot read key file %s: %s", path,
				       strerror(e));
	char *k = first_line(buf, (size_t)n);
	explicit_bzero(buf, sizeof(buf));
	if (!k)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	char origin[300];
	snprintf(origin, sizeof(origin), "key file %s", path);
	if (secret_check_key(k, origin, err) != 0) {
		secret_free(k);
		return -1;
	}
	*key = k;
	return 0;
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Output of the key command: stdout is kept only up to its cap, the rest is drained. */
struct cmd_io {
	int fd[2];             /* stdout, stderr; -1 once closed */
	char out[KEY_FILE_MAX];
	size_t out_len;
	char errtxt[256];
	size_t err_len;
};

static void cmd_io_read(struct cmd_io *io, int which)
{
	char tmp[4096];
	ssize_t n = read(io->fd[which], tmp, sizeof(tmp));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(io->fd[which]);
		io->fd[which] = -1;
		return;
	}
	char *dst = which == 0 ? io->out : io->errtxt;
	size_t *len = which == 0 ? &io->out_len : &io->err_len;
	size_t cap = (which == 0 ? sizeof(io->out) : sizeof(io->errtxt)) - 1;
	size_t take = (size_t)n < cap - *len ? (size_t)n : cap - *len;
	memcpy(dst + *len, tmp, take);
	*len += take;
	explicit_bzero(tmp, sizeof(tmp));
}

/* Reads both pipes until they close or the deadline passes. Returns 0, or -1 on timeout. */
static int cmd_io_pump(struct cmd_io *io, long deadline)
{
	while (io->fd[0] >= 0 || io->fd[1] >= 0) {
		long left = deadline - now_ms();
		if (left <= 0)
			return -1;
		struct pollfd pfd[2] = { { io->fd[0], POLLIN, 0 }, { io->fd[1], POLLIN, 0 } };
		int r = poll(pfd, 2, (int)left);
		if (r < 0 && errno != EINTR)
			return -1;
		for (int i = 0; i < 2 && r > 0; i++)
			if (pfd[i].fd >= 0 && pfd[i].revents)
				cmd_io_read(io, i);
	}
	return 0;
}

static void child_exec(const char *command, int out_w, int err_w)
{
	setpgid(0, 0);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(out_w, STDOUT_FILENO);
	dup2(err_w, STDERR_FILENO);
	signal(SIGPIPE, SIG_DFL);
	execl("/bin/sh", "sh", "-c", command, (char *)NULL);
	_exit(127);
}

/* Waits for the child, killing its whole process group when it has overstayed. */
static int reap_child(pid_t pid, long deadline, bool timed_out)
{
	int status = 0;
	for (;;) {
		pid_t r = waitpid(pid, &status, timed_out ? 0 : WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!timed_out && now_ms() >= deadline) {
			kill(-pid, SIGKILL);
			timed_out = true;
		} else if (!timed_out) {
			struct timespec ts = { 0, 5 * 1000000 };
			nanosleep(&ts, NULL);
		}
	}
}

static int cmd_spawn(const char *command, struct cmd_io *io, pid_t *pid,
		     struct steno_error *err)
{
	int po[2], pe[2];
	if (pipe2(po, O_CLOEXEC) != 0)
		return steno_error_set(err, STENO_ERR_IO, "pipe: %s", strerror(errno));
	if (pipe2(pe, O_CLOEXEC) != 0) {
		close(po[0]);
		close(po[1]);
		return steno_error_set(err, STENO_ERR_IO, "pipe: %s", strerror(errno));
	}
	*pid = fork();
	if (*pid == 0)
		child_exec(command, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	if (*pid < 0) {
		close(po[0]);
		close(pe[0]);
		return steno_error_set(err, STENO_ERR_IO, "fork: %s", strerror(errno));
	}
	/* The child may not have called setpgid yet when we kill its group. */
	setpgid(*pid, *pid);
	io->fd[0] = po[0];
	io->fd[1] = pe[0];
	return 0;
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* Replaces, in place, every word that looks like a key: KEYLIKE_MIN or more of
 * [A-Za-z0-9_-] holding both a letter and a digit (a path or a sentence does not). */
static void redact_keylike(char *s, size_t size)
{
	for (size_t i = 0; s[i];) {
		size_t n = 0;
		bool digit = false, alpha = false;
		while (key_char(s[i + n])) {
			digit |= s[i + n] >= '0' && s[i + n] <= '9';
			alpha |= (s[i + n] | 0x20) >= 'a' && (s[i + n] | 0x20) <= 'z';
			n++;
		}
		if (n >= KEYLIKE_MIN && digit && alpha) {
			size_t rl = strlen(REDACTED);
			memmove(s + i + rl, s + i + n, strlen(s + i + n) + 1);
			memcpy(s + i, REDACTED, rl);
			i += rl;
		} else {
			i += n ? n : 1;
		}
	}
	(void)size; /* REDACTED is shorter than KEYLIKE_MIN: the text only shrinks */
}

/* The command's stderr as quoted in a message: its first line, with whatever it printed
 * on stdout (the would-be key) and every key-like word redacted. */
static void cmd_stderr_redacted(struct cmd_io *io)
{
	io->errtxt[io->err_len] = '\0';
	char *nl = strchr(io->errtxt, '\n');
	if (nl)
		*nl = '\0';
	char *out_line = first_line(io->out, io->out_len);
	if (out_line && out_line[0])
		secret_redact_buf(io->errtxt, sizeof(io->errtxt), out_line);
	secret_free(out_line);
	redact_keylike(io->errtxt, sizeof(io->errtxt));
}

static int cmd_failure(struct cmd_io *io, int status, bool timed_out, int timeout_ms,
		       struct steno_error *err)
{
	cmd_stderr_redacted(io);
	if (timed_out)
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "api_key_command did not finish within %d ms and was killed",
				       timeout_ms);
	if (status < 0 || WIFSIGNALED(status))
		return steno_error_set(err, STENO_ERR_CONFIG, "api_key_command was killed by signal %d",
				       status < 0 ? 0 : WTERMSIG(status));
	return steno_error_set(err, STENO_ERR_CONFIG, "api_key_command failed with exit status %d%s%s",
			       WEXITSTATUS(status), io->errtxt[0] ? ": " : "", io->errtxt);
}

int secret_run_key_command(const char *command, int timeout_ms, char **key,
			   struct steno_error *err)
{
	*key = NULL;
	if (timeout_ms <= 0)
		timeout_ms = SECRET_COMMAND_TIMEOUT_MS;
	struct cmd_io *io = calloc(1, sizeof(*io));
	if (!io)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	pid_t pid = -1;
	int rc = -1;
	if (cmd_spawn(command, io, &pid, err) != 0)
		goto out;
	long deadline = now_ms() + timeout_ms;
	bool timed_out = cmd_io_pump(io, deadline) != 0;
	if (timed_out)
		kill(-pid, SIGKILL);
	int status = reap_child(pid, deadline, timed_out);
	timed_out = timed_out || (status >= 0 && WIFSIGNALED(status) && now_ms() >= deadline);
	for (int i = 0; i < 2; i++)
		if (io->fd[i] >= 0)
			close(io->fd[i]);
	if (timed_out || status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		cmd_failure(io, status, timed_out, timeout_ms, err);
		goto out;
	}
	char *k = first_line(io->out, io->out_len);
	if (!k) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (secret_check_key(k, "api_key_command", err) != 0) {
		secret_free(k);
		goto out;
	}
	*key = k;
	rc = 0;
out:
	explicit_bzero(io, sizeof(*io));
	free(io);
	return rc;
}

char *secret_redact(const char *text, const char *key)
{
	size_t klen = key ? strlen(key) : 0;
	size_t count = 0;
	if (klen)
		for (const char *p = strstr(text, key); p; p = strstr(p + klen, key))
			count++;
	size_t rl = strlen(REDACTED);
	size_t len = strlen(text) + count * (rl > klen ? rl - klen : 0) + 1;
	char *out = malloc(len);
	if (!out)
		return NULL;
	char *o = out;
	const char *p = text;
	const char *hit;
	while (klen && (hit = strstr(p, key)) != NULL) {
		memcpy(o, p, (size_t)(hit - p));
		o += hit - p;
		memcpy(o, REDACTED, rl);
		o += rl;
		p = hit + klen;
	}
	strcpy(o, p);
	return out;
}

void secret_redact_buf(char *buf, size_t size, const char *key)
{
	if (!key || !key[0] || size == 0 || !strstr(buf, key))
		return;
	char *r = secret_redact(buf, key);
	if (!r) {
		/* Without memory to rewrite it, drop the message rather than leak the key. */
		snprintf(buf, size, "%s", REDACTED);
		return;
	}
	snprintf(buf, size, "%s", r);
	free(r);
}

/* STENO_API_KEY as it was when steno started (secret_env_take), or NULL. */
static char *env_key;

void secret_env_take(void)
{
	char *v = getenv("STENO_API_KEY");
	if (!v)
		return;
	secret_free(env_key);
	env_key = strdup(v);
	/* The string lives in the process's initial environment block, which
	 * /proc/PID/environ shows: wipe it there too, then drop the variable. */
	explicit_bzero(v, strlen(v));
	unsetenv("STENO_API_KEY");
}

const char *secret_env_key(void)
{
	return env_key ? env_key : getenv("STENO_API_KEY");
}

void secret_env_forget(void)
{
	secret_free(env_key);
	env_key = NULL;
}
