#ifndef STENO_UI_LOOP_H
#define STENO_UI_LOOP_H

/* The one loop of the TUI (DESIGN.md "How data flows"): draw what is dirty (one
 * doupdate), drain every pending key, then block until input or other work. The
 * blocking step is a hook so that the engine can wait in curl_multi_poll with stdin
 * as the extra fd (ui never calls curl itself); the default hook is poll(2) on stdin
 * alone. SIGWINCH interrupts the wait and arrives as a resize key. */

#include "ui/frame.h"

enum ui_wait_result {
	UI_WAIT_TIMEOUT = 0,   /* nothing on fd (timer due or other work done) */
	UI_WAIT_INPUT   = 1,   /* fd is readable */
	UI_WAIT_HUP     = 2,   /* fd hung up or failed: stop reading it and leave */
};

/* Blocks until fd is readable or timeout_ms passes (-1 = no timeout); returns an
 * enum ui_wait_result. Interrupted waits return UI_WAIT_TIMEOUT. */
typedef int (*ui_wait_fn)(void *ctx, int fd, int timeout_ms);

/* Ownership: plain settings; the frame stays the caller's. */
struct ui_loop {
	struct ui_frame *frame;
	int in_fd;                        /* the terminal's input fd */
	ui_wait_fn wait;                  /* NULL: ui_wait_poll */
	void *wait_ctx;
	int timeout_ms;                   /* passed to wait; -1 = sleep until input */
	/* Called with the result bits of every key (notices, bell ...); may be NULL. */
	void (*on_result)(void *ctx, unsigned result);
	void *result_ctx;
};

int ui_wait_poll(void *ctx, int fd, int timeout_ms);

enum ui_loop_status { UI_LOOP_GO = 0, UI_LOOP_QUIT = 1, UI_LOOP_EOF = 2 };

/* One pass: draw, drain keys, dispatch. `readable` says the last wait reported input
 * (readable with nothing to read is end of file). */
enum ui_loop_status ui_loop_step(struct ui_loop *l, int readable);

/* Runs passes until quit (returns 0) or input EOF/hang-up (returns 1). */
int ui_loop_run(struct ui_loop *l);

#endif
