#ifndef STENO_UI_DIALOG_EXPORT_H
#define STENO_UI_DIALOG_EXPORT_H

/* The export / download dialog (an overlay) for env->ids, or the export env->activity_id. pane_new's arg: a const struct dialog_env * (copied). */

#include "ui/dialog_common.h"
#include "ui/pane.h"

extern const struct pane_ops dialog_export_ops;

#endif
