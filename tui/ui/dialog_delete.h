#ifndef STENO_UI_DIALOG_DELETE_H
#define STENO_UI_DIALOG_DELETE_H

/* The delete dialog (an overlay) for env->ids. pane_new's arg: a const struct dialog_env * (copied). */

#include "ui/dialog_common.h"
#include "ui/pane.h"

extern const struct pane_ops dialog_delete_ops;

#endif
