#ifndef STENO_UI_PANE_ORGS_H
#define STENO_UI_PANE_ORGS_H

/* The orgs pane of the TUI: pane_new(&orgs_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "ui/pane.h"

extern const struct pane_ops orgs_pane_ops;

struct app;
/* Asks for the organizations the key can access (GET /organizations through core/jobs_extra)
 * and adds them to the pane; when no organization was chosen and the key sees exactly one,
 * it is chosen and its transcriptions shown. */
void pane_orgs_discover(struct app *app);
/* At start, before any answer: the organizations the local store keeps (their names in the
 * places); with `choose` (none configured) the only one is selected and its list opened. */
void pane_orgs_kept(struct app *app, bool choose);

#endif
