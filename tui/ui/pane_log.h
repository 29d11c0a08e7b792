#ifndef STENO_UI_PANE_LOG_H
#define STENO_UI_PANE_LOG_H

/* The log pane of the TUI: pane_new(&log_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "ui/pane.h"

extern const struct pane_ops log_pane_ops;

#endif
