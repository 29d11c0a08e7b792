#ifndef STENO_UI_FRAME_H
#define STENO_UI_FRAME_H

/* The frame: owns the panes on screen, lays them out, routes keys to the focused pane
 * (overlays first), handles the global actions (focus, help, prompt, quit, redraw,
 * log toggle, resize) and draws dirty panes with one doupdate per pass. */

#include "ui/line_input.h"
#include "ui/pane.h"

#define FRAME_MAX_PANES 8

/* The rows an overlay's content wants at that width, borders included (0: as tall as the
 * screen allows). Asked again before each draw of the overlay, so it may grow and shrink. */
typedef int (*frame_fit_fn)(const struct pane *p, int cols);

/* Ownership: the frame owns every pane given to frame_add and the overlays it opens;
 * frame_free releases them. The keymap stays the caller's. */
struct ui_frame {
	struct ui_ctx ctx;
	struct pane *panes[FRAME_MAX_PANES];   /* main, bottom and status panes */
	int npanes;
	int focus;                             /* index in panes of the focused one */
	struct pane *overlay;                  /* help, prompt or a dialog; gets keys first */
	frame_fit_fn overlay_fit;              /* sizes the overlay to its content; NULL: full */
	WINDOW *backdrop;                      /* a blank column each side of the overlay, so the
						* panes' text does not run into its border */
	int rows, cols;
	int min_rows, min_cols;
	int too_small;
	int all_dirty;
	char notice[128];                      /* last refusal etc., shown by the owner */
	struct line_history prompt_history;    /* the `:` prompt's lines, this run */
	/* Asked before `q` quits (NULL: never): 0 lets it quit; else the result of having asked
	 * instead (work in flight: a question opened as the overlay). */
	unsigned (*before_quit)(void *ud);
	void *before_quit_ud;
};

void frame_init(struct ui_frame *f, const struct keymap *km, int ascii, int read_only);
void frame_free(struct ui_frame *f);

/* Adds a pane (taking ownership, also on failure). Returns 0 or -1. */
int frame_add(struct ui_frame *f, struct pane *p);

/* Opens an overlay on top (replacing an open one). Takes ownership. It takes the screen's
 * height but two rows; with fit, the rows fit(p, cols) asks for (centred, at most that). */
void frame_open_overlay(struct ui_frame *f, struct pane *p);
void frame_open_overlay_fit(struct ui_frame *f, struct pane *p, frame_fit_fn fit);
void frame_close_overlay(struct ui_frame *f);

/* Reads the terminal size and lays out every pane; marks all dirty. */
void frame_resize(struct ui_frame *f);

/* Handles one key; returns the pane_result bits (PANE_QUIT when steno should end). */
unsigned frame_key(struct ui_frame *f, ui_key key);

/* Runs an action as if its key was pressed in the focused pane. */
unsigned frame_run(struct ui_frame *f, enum action_id act, ui_key key);

/* Draws what is dirty: wnoutrefresh per pane, one doupdate. */
void frame_draw(struct ui_frame *f);

/* The focused main pane (NULL if none). */
struct pane *frame_focused(struct ui_frame *f);

/* Marks every pane whose scope matches dirty (the store's listeners call this). */
void frame_dirty_scope(struct ui_frame *f, unsigned scope);

#endif
