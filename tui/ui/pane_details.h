#ifndef STENO_UI_PANE_DETAILS_H
#define STENO_UI_PANE_DETAILS_H

/* The details pane of the TUI: pane_new(&details_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "ui/pane.h"

extern const struct pane_ops details_pane_ops;

#endif
