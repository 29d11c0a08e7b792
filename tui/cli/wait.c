/* The waits of the commands: the engine's poll with the SIGINT/SIGTERM self-pipe. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/ctx.h"

/* Set by SIGINT/SIGTERM/SIGHUP/SIGQUIT (cli_signals_install); loops check it between passes. */
static volatile sig_atomic_t interrupted;
/* The self-pipe the same handler writes a byte to, after setting the flag: its read end is
 * among the fds of every wait (cli_wait), so a signal that comes after a loop looked at the
 * flag still ends the wait at once, and no wait needs a timeout to notice it. */
static int signal_pipe[2] = {-1, -1};

/* Drops the bytes the handler wrote: the flag says what happened, the pipe only wakes. */
static void signal_pipe_drain(void)
{
	char buf[64];
	while (read(signal_pipe[0], buf, sizeof buf) > 0)
		;
}

static int64_t mono_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static int64_t deadline;   /* --timeout: monotonic ms; 0: none (or held) */
static long wait_ms;       /* --timeout D itself; 0: none */

void cli_set_wait_timeout(long ms)
{
	wait_ms = ms > 0 ? ms : 0;
	deadline = ms > 0 ? mono_ms() + ms : 0;
}

void cli_wait_timeout_hold(void)
{
	deadline = 0;
}

void cli_wait_timeout_restart(void)
{
	deadline = wait_ms ? mono_ms() + wait_ms : 0;
}

bool cli_timed_out(void)
{
	return deadline && mono_ms() >= deadline;
}

static bool watch_stdout;   /* cli_wait_watch_stdout: stdout is a pipe or a socket */
static bool stdout_gone;    /* its reader went away */

void cli_wait_watch_stdout(void)
{
	struct stat st;
	watch_stdout = fstat(STDOUT_FILENO, &st) == 0 &&
		       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

bool cli_stdout_gone(void)
{
	return stdout_gone;
}

/* curl_multi_poll wakes on POLLERR/POLLHUP of an extra fd but does not hand them back: asked
 * here, at no wait. */
static void stdout_check(void)
{
	struct pollfd o = { .fd = STDOUT_FILENO };
	if (poll(&o, 1, 0) > 0 && (o.revents & (POLLERR | POLLHUP | POLLNVAL)))
		stdout_gone = true;
}

void cli_wait(struct cli_ctx *c, long max_ms)
{
	if (deadline) {   /* the wait ends at --timeout too */
		int64_t left = deadline - mono_ms();
		if (left < 0)
			left = 0;
		if (max_ms < 0 || max_ms > left)
			max_ms = (long)left;
	}
	struct pollfd p[2];
	unsigned n = 0;
	if (signal_pipe[0] >= 0)
		p[n++] = (struct pollfd){ .fd = signal_pipe[0], .events = POLLIN };
	/* no pipe (cli_signals_install not run or pipe2 failed): a second at most, as the
	 * flag is then only seen between waits */
	else if (max_ms < 0 || max_ms > 1000)
		max_ms = 1000;
	bool out = watch_stdout && !stdout_gone;
	if (out)   /* no events: POLLERR and POLLHUP end a poll all the same */
		p[n++] = (struct pollfd){ .fd = STDOUT_FILENO };
	if (steno_http_poll(c->http, p, n, max_ms) > 0 && signal_pipe[0] >= 0 &&
	    (p[0].revents & POLLIN))
		signal_pipe_drain();
	if (out)
		stdout_check();
	steno_http_perform(c->http);
}

void cli_pump(struct cli_ctx *c)
{
	cli_wait(c, -1);
}

int cli_sleep(struct cli_ctx *c, long ms, struct steno_error *err)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t end = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + ms;
	for (;;) {
		if (interrupted)
			return cli_interrupt_error(err);
		if (cli_timed_out()) {
			steno_error_set(err, STENO_ERR_TIMEOUT, "gave up waiting (--timeout)");
			if (err)
				snprintf(err->code, sizeof err->code, "timeout");
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t left = end - ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000);
		if (left <= 0)
			return 0;
		cli_wait(c, (long)left);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	interrupted = 1;
	if (signal_pipe[1] >= 0) {
		/* a full pipe is readable already: a failed write loses nothing */
		ssize_t n = write(signal_pipe[1], "", 1);
		(void)n;
	}
	errno = saved;
}

void cli_signals_install(void)
{
	if (signal_pipe[0] < 0 && pipe2(signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		signal_pipe[0] = signal_pipe[1] = -1;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);  /* no SA_RESTART: waits return early */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);   /* a dropped connection ends a command as ^C does */
	sigaction(SIGQUIT, &sa, NULL);  /* ^\ too: a default core dump would skip the cleanup */
}

bool cli_interrupted(void)
{
	return interrupted != 0;
}

int cli_interrupt_error(struct steno_error *err)
{
	return steno_error_set(err, STENO_ERR_CANCELLED, "interrupted");
}

int cli_wait_flag(struct cli_ctx *c, const bool *done, struct steno_error *err)
{
	while (!*done) {
		if (interrupted)
			return cli_interrupt_error(err);
		cli_pump(c);
	}
	return 0;
}
