/* The quit signals' self-pipe: see quit_signal.h. */
#include "config.h"

#include "core/quit_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
static int quit_pipe[2] = {-1, -1};
static int installed;

static void on_quit_signal(int sig)
{
	int saved = errno;
	if (!caught)
		caught = sig;
	if (quit_pipe[1] >= 0) {
		/* a full pipe is readable already: a failed write loses nothing */
		ssize_t n = write(quit_pipe[1], "", 1);
		(void)n;
	}
	errno = saved;
}

int quit_signal_install(void)
{
	static const int sigs[] = { SIGHUP, SIGTERM, SIGINT, SIGQUIT };
	struct sigaction sa;

	if (installed)
		return quit_pipe[0] >= 0 ? 0 : -1;
	installed = 1;
	if (pipe2(quit_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		quit_pipe[0] = quit_pipe[1] = -1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_quit_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);   /* no SA_RESTART: the wait returns early */
	return quit_pipe[0] >= 0 ? 0 : -1;
}

int quit_signal_fd(void)
{
	return quit_pipe[0];
}

int quit_signal_caught(void)
{
	return caught;
}
