#ifndef STENO_UI_DIALOG_CONFIRM_H
#define STENO_UI_DIALOG_CONFIRM_H

/* Confirming an unconfirmed order: its pricing (items, addons, total, currency,
 * turnaround) is shown first, and only then is the confirm key `c` offered; a locked order
 * explains why and what to do. As a dialog of its own (dialog_confirm_ops: pane_new's arg
 * is a const struct dialog_env * whose activity_id, or else ids[0], is the order id) and as a
 * part that the new-order dialog embeds after creating an order. */

#include <curses.h>

#include "ui/dialog_common.h"
#include "ui/pane.h"

extern const struct pane_ops dialog_confirm_ops;

enum dconfirm_mode { DCONFIRM_VIEW, DCONFIRM_RUNNING, DCONFIRM_DONE };

/* Ownership: plain value inside a dialog's data. */
struct dconfirm {
	char order_id[64];
	enum dconfirm_mode mode;
	int job;
	bool loading;          /* the order is being read (not in the store yet) */
	char msg[600];
	bool msg_error;
	void *owner;           /* request owner tag (the dialog's data) */
	struct pane *pane;     /* marked dirty when the order arrives */
	struct dialog_env *env;
};

void dconfirm_init(struct dconfirm *c, struct dialog_env *env, const char *order_id, void *owner,
		   struct pane *pane);
/* Keys: `c` confirms (when offered), Esc/Enter close. Returns pane_result bits. */
unsigned dconfirm_key(struct dconfirm *c, enum action_id act, ui_key key);
void dconfirm_draw(struct dconfirm *c, WINDOW *w, int y, int x, int rows, int cols, bool ascii);
/* Cancels the order read in flight. */
void dconfirm_cancel(struct dconfirm *c);

#endif
