/* The engine wait hook. */
#include "config.h"

#include "ui/wait.h"

#include <poll.h>

#include "api/http.h"
#include "core/quit_signal.h"

static long min_timeout(long a, long b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

int ui_wait_engine(void *ctx, int fd, int timeout_ms)
{
	struct ui_engine_wait *w = ctx;
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
		{ .fd = quit_signal_fd(), .events = POLLIN } };
	long t = timeout_ms;
	int n;

	if (quit_signal_caught())
		return UI_WAIT_HUP;   /* SIGHUP/SIGTERM/SIGINT/SIGQUIT: leave as `q` does */
	if (w->due_ms)
		t = min_timeout(t, w->due_ms(w->ud));
	/* the engine's own timers are added by steno_http_poll itself */
	n = steno_http_poll(w->http, p, p[1].fd >= 0 ? 2 : 1, t);
	if (w->after)
		w->after(w->ud);
	if (quit_signal_caught())
		return UI_WAIT_HUP;
	if (n < 0)
		return UI_WAIT_TIMEOUT;
	if (n > 0 && (p->revents & (POLLHUP | POLLERR | POLLNVAL)) && !(p->revents & POLLIN)) {
		w->input_closed = 1;
		return UI_WAIT_HUP;
	}
	return n > 0 && (p->revents & POLLIN) ? UI_WAIT_INPUT : UI_WAIT_TIMEOUT;
}
