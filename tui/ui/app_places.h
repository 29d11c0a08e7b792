#ifndef STENO_UI_APP_PLACES_H
#define STENO_UI_APP_PLACES_H

#include "ui/app_access.h"

/* app_places.c: the organizations pane's entries and the current place */
int app_places_build(struct app *app);
/* The key's organizations (pane_orgs.c) are kept and the places built again with them:
 * each with its known folders, and one known by its id alone takes the server's name.
 * Takes the n found (their strings too); 0, or -1 (out of memory). */
int app_places_found(struct app *app, struct app_org_found *found, size_t n);
void app_places_free(struct app *app);
/* The places and the organizations found (when the app ends). */
void app_places_free_all(struct app *app);
int app_select_place(struct app *app, size_t i);

#endif
