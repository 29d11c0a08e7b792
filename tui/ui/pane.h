#ifndef STENO_UI_PANE_H
#define STENO_UI_PANE_H

/* The pane framework (tig's view_ops): every pane is one .c file exporting a
 * `const struct pane_ops`. Handlers return a bitmask of enum pane_result (htop's
 * HandlerResult) and never redraw themselves; the frame draws dirty panes once per
 * pass. draw() only paints p->win from memory: no I/O, no refresh. */

#include <curses.h>
#include <stdbool.h>

#include "ui/actions.h"
#include "ui/keymap.h"
#include "ui/keys.h"

enum pane_result {
	PANE_IGNORED    = 0,
	PANE_HANDLED    = 1u << 0,  /* the key was used */
	PANE_REDRAW     = 1u << 1,  /* this pane changed */
	PANE_REDRAW_ALL = 1u << 2,  /* every pane (layout changed) */
	PANE_CLOSE      = 1u << 3,  /* close this overlay */
	PANE_QUIT       = 1u << 4,  /* leave steno */
	PANE_REFUSED    = 1u << 5,  /* refused (a write in read-only mode) or did nothing:
	                             * frame.notice says why */
};

enum pane_place {
	PANE_PLACE_MAIN,     /* side by side in the main area, by weight (and max_cols) */
	PANE_PLACE_BOTTOM,   /* below the main area, a third of it (the log) */
	PANE_PLACE_STATUS,   /* the last line */
	PANE_PLACE_OVERLAY,  /* centred on top (help, dialogs) */
	PANE_PLACE_PROMPT,   /* the last line, on top of the status bar */
	PANE_PLACE_FULL,     /* on top of every pane, all but the status bar (describe view) */
};

/* State shared by every pane of one frame. Ownership: the frame (struct ui_frame). */
struct ui_ctx {
	const struct keymap *keymap;   /* not owned */
	int ascii;                     /* TEXT_ASCII drawing */
	int read_only;                 /* --read-only: write actions refused */
	int offline;                   /* --offline: idem, nothing is sent (read_only is set too) */
	enum action_id pending;        /* set by the prompt: run after it closes */
	char pending_arg[128];         /* the rest of the prompt's line ("" if none), for an
					* ACTION_ARG action; cleared once pending has run */
	unsigned overlay_scope;        /* the open overlay's SCOPE_* (0: none), kept by the
					* frame: the status bar hints the overlay's keys */
	/* The `:` prompt's Tab after an ACTION_ARG action: up to max arguments starting with
	 * prefix into out (strings valid until the next call), their count. NULL: none. */
	size_t (*complete_arg)(void *ud, int act, const char *prefix, const char **out,
			       size_t max);
	void *complete_ud;
};

struct pane;

struct pane_ops {
	const char *name;
	unsigned scope;                /* SCOPE_* bit used for key lookups */
	enum pane_place place;
	/* Sets up p->data from arg. Returns 0, or -1 (out of memory ...). */
	int (*open)(struct pane *p, void *arg);
	/* Paints p->win (already erased) from memory. */
	void (*draw)(struct pane *p);
	/* An action (ACT_NONE when the key is unbound: text input) and the raw key. */
	unsigned (*key)(struct pane *p, enum action_id act, ui_key key);
	/* The row (window relative) clicked, or a selection made from outside. */
	unsigned (*select)(struct pane *p, int row);
	/* Frees p->data. */
	void (*close)(struct pane *p);
	/* A main pane's most useful width (its widest content), or 0 (NULL: none): it never
	 * takes more, and what it leaves of its weighted share goes to the other main panes.
	 * Asked at each layout and before a dirty pane is drawn, so it may follow the content. */
	int (*max_cols)(const struct pane *p);
};

/* Ownership: created by pane_new, freed by pane_free (which calls ops->close and
 * deletes the window). data belongs to the ops. */
struct pane {
	const struct pane_ops *ops;
	struct ui_ctx *ctx;
	void *data;
	WINDOW *win;             /* NULL while the pane has no room */
	int y, x, rows, cols;
	int weight;              /* share of the main area (default 1) */
	int dirty;
	int hidden;
	int focused;
	/* Set by the owner: at stack_cols columns and more, showing this main pane no longer
	 * hides stack_on: it goes under the main panes from stack_from (at stack_on's left) to
	 * the right edge, which keep their widths and give it the lower rows; narrower, this
	 * pane and stack_on show one at a time (the focused one). stacked: the frame's, whether
	 * the screen is that wide now. */
	struct pane *stack_on, *stack_from;
	int stack_cols;
	int stacked;
};

/* Creates a pane and calls ops->open(p, arg). NULL on failure. */
struct pane *pane_new(const struct pane_ops *ops, struct ui_ctx *ctx, void *arg);
void pane_free(struct pane *p);

/* Gives the pane its place on screen (rows or cols <= 0: no window) and marks it
 * dirty. Returns 0, or -1 when the window cannot be created. */
int pane_place(struct pane *p, int y, int x, int rows, int cols);

/* Erases, draws and wnoutrefreshes the pane if it is dirty (or force). Returns 1 if it
 * was drawn. */
int pane_render(struct pane *p, int force);

/* Whether act leaves a full-screen reading pane (the reader, the preview): Back, Quit, Cancel. */
static inline bool pane_act_leaves(enum action_id act)
{
	return act == ACT_BACK || act == ACT_QUIT || act == ACT_CANCEL;
}

static inline void pane_dirty(struct pane *p)
{
	if (p)
		p->dirty = 1;
}

#endif
