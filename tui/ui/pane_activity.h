#ifndef STENO_UI_PANE_ACTIVITY_H
#define STENO_UI_PANE_ACTIVITY_H

/* The activity pane of the TUI: pane_new(&activity_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "core/store.h"
#include "ui/pane.h"

struct app;

extern const struct pane_ops activity_pane_ops;

/* pane_activity.c: puts the activity pane's cursor on an order, export or task it lists */
void app_activity_select(struct app *app, enum store_activity_kind kind, const char *id);

#endif
