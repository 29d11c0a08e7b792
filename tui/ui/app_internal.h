#ifndef STENO_UI_APP_INTERNAL_H
#define STENO_UI_APP_INTERNAL_H

/* app.c's own: every floor of the app below it, and its loop hooks. Only app.c (and tests
 * that drive the whole app) include this: a pane or a dialog includes the floors it calls
 * (ui/app_draw.h, app_list.h, app_data.h, app_places.h, app_watch.h, app_input.h) and reaches
 * app.c through struct app_hooks (app_pass_action, app_notify_dialogs). */

#include "ui/app_access.h"
#include "ui/app_data.h"
#include "ui/app_draw.h"
#include "ui/app_input.h"
#include "ui/app_list.h"
#include "ui/app_places.h"
#include "ui/app_watch.h"
#include "ui/org_lists.h"
#include "ui/pane_activity.h"

/* app.c: set-up, the loop's hooks, app-wide actions */
unsigned app_action(struct app *app, enum action_id act);
long app_wait_timeout(struct app *app);
void app_after_wait(struct app *app);

#endif
