#ifndef STENO_UI_SESSION_H
#define STENO_UI_SESSION_H

/* Everything a TUI run needs, set up in the right order: locale and terminal
 * (term_open), theme (file or built-in) and colours, the keymap with the config's
 * bind lines, the frame with its status bar. main() and the screen tests use the
 * same path. */

#include <stdio.h>

#include "ui/diag.h"
#include "ui/frame.h"
#include "ui/keymap.h"
#include "ui/loop.h"
#include "ui/statusbar.h"
#include "ui/term.h"
#include "ui/theme.h"

struct ui_session_opts {
	const char *theme;        /* name or path (--theme / config); NULL = "default" */
	const char *key_lines;    /* "bind ..." / "unbind ..." lines from the config, or NULL */
	const char *key_origin;   /* file name for their messages */
	int read_only;            /* --read-only */
	int ascii;                /* force ASCII drawing */
	int mouse;                /* capture the mouse */
	const char *term;         /* terminfo name; NULL = $TERM */
	FILE *out, *in;           /* NULL = stdout/stdin */
};

/* Ownership: ui_session_open fills it, ui_session_close frees everything in it
 * (panes added to the frame included). */
struct ui_session {
	struct term term;
	struct theme theme;
	struct keymap km;
	struct ui_frame frame;
	struct status_info status;     /* fill and pane_dirty(status_pane) to update */
	struct pane *status_pane;
	struct ui_diag diag;           /* theme and key binding messages */
};

/* Returns 0, or -1 when the terminal cannot be opened or memory runs out (nothing is
 * left to close then). Theme and binding problems do not fail: they are in s->diag
 * and the first one is shown in the status bar. */
int ui_session_open(struct ui_session *s, const struct ui_session_opts *o);
void ui_session_close(struct ui_session *s);
/* Switches to the theme name (as --theme takes it) for this run and repaints the whole
 * screen: 0, or -1 with why in msg, the theme in use kept. */
int ui_session_set_theme(struct ui_session *s, const char *name, char *msg, size_t size);

/* Adds a pane to the frame and lays the screen out again. Returns 0 or -1. */
int ui_session_add(struct ui_session *s, struct pane *p);

/* The loop's result hook: refusals and notices from the frame go to the status bar. */
void ui_session_on_result(void *session, unsigned result);

/* Runs the loop until quit (0) or input EOF (1); wait = NULL waits on stdin alone. */
int ui_session_run(struct ui_session *s, ui_wait_fn wait, void *wait_ctx, int timeout_ms);

#endif
