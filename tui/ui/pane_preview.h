#ifndef STENO_UI_PANE_PREVIEW_H
#define STENO_UI_PANE_PREVIEW_H

/* The transcript preview (an overlay with the preview keys): pane_new's arg is a const
 * struct dialog_env * whose ids[0] is the transcription (copied). The transcript comes from
 * the local store of env.store when it holds it (no request), else it is read (downloadUrl,
 * or a JSON export on the earlier API form, written to CACHE/transcripts/ID.json, read and
 * removed) and kept in that store (core/content_db.h). */

#include "ui/dialog_common.h"
#include "ui/pane.h"

extern const struct pane_ops pane_preview_ops;

#endif
