/* The TUI loop: draw, drain input, wait. */
#include "config.h"

#include "ui/loop.h"

#include <errno.h>
#include <poll.h>

#include "core/quit_signal.h"
#include "ui/term.h"

int ui_wait_poll(void *ctx, int fd, int timeout_ms)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
		{ .fd = quit_signal_fd(), .events = POLLIN } };
	int n;

	(void)ctx;
	if (quit_signal_caught())
		return UI_WAIT_HUP;
	n = poll(p, p[1].fd >= 0 ? 2 : 1, timeout_ms);
	if (quit_signal_caught())
		return UI_WAIT_HUP;
	if (n < 0)
		return errno == EINTR ? UI_WAIT_TIMEOUT : UI_WAIT_HUP;
	if (n == 0)
		return UI_WAIT_TIMEOUT;
	if (p->revents & POLLIN)
		return UI_WAIT_INPUT;
	return UI_WAIT_HUP;
}

enum ui_loop_status ui_loop_step(struct ui_loop *l, int readable)
{
	ui_key keys[64];
	int n;
	enum ui_loop_status st = UI_LOOP_GO;

	frame_draw(l->frame);
	n = term_read_keys(stdscr, keys, 64);
	/* readable but nothing to read: the input reached end of file */
	if (readable && n == 0)
		return UI_LOOP_EOF;
	for (int i = 0; i < n && st == UI_LOOP_GO; i++) {
		unsigned r = frame_key(l->frame, keys[i]);
		if (l->on_result)
			l->on_result(l->result_ctx, r);
		if (r & PANE_QUIT)
			st = UI_LOOP_QUIT;
	}
	if (n)
		frame_draw(l->frame);
	return st;
}

int ui_loop_run(struct ui_loop *l)
{
	ui_wait_fn wait = l->wait ? l->wait : ui_wait_poll;
	int readable = 0;

	for (;;) {
		enum ui_loop_status st = ui_loop_step(l, readable);
		if (st != UI_LOOP_GO)
			return st == UI_LOOP_EOF;
		int w = wait(l->wait_ctx, l->in_fd, l->timeout_ms);
		if (w == UI_WAIT_HUP)
			return 1;
		readable = w == UI_WAIT_INPUT;
	}
}
