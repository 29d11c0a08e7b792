#ifndef STENO_UI_ORG_LISTS_H
#define STENO_UI_ORG_LISTS_H

#include "ui/app_access.h"

/* org_lists.c: `:glossaries` / `:style-guides`, read and shown in a popup */
void app_show_org_lists(struct app *app, bool style_guides);

#endif
