#ifndef STENO_UI_DIALOG_TRANSCRIBE_H
#define STENO_UI_DIALOG_TRANSCRIBE_H

/* The new-transcription dialog (an overlay). pane_new's arg: a const struct dialog_env * (copied). */

#include "ui/dialog_common.h"
#include "ui/pane.h"

extern const struct pane_ops dialog_transcribe_ops;

#endif
