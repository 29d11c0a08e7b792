#ifndef STENO_UI_PANE_PREVIEW_H
#define STENO_UI_PANE_PREVIEW_H

/* The transcript preview (an overlay with the preview keys): pane_new's arg is a const
 * struct dialog_env * whose ids[0] is the transcription and cache_dir the cache (copied).
 * The JSON export is fetched once (export json -> wait -> download into
 * CACHE/transcripts/ID.json) and read from there afterwards without any request. */

#include "ui/dialog_common.h"
#include "ui/pane.h"

extern const struct pane_ops pane_preview_ops;

#endif
