#ifndef STENO_UI_PANE_ACTIVITY_H
#define STENO_UI_PANE_ACTIVITY_H

/* The activity pane of the TUI: pane_new(&activity_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "ui/pane.h"

extern const struct pane_ops activity_pane_ops;

#endif
