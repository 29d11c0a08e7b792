#ifndef STENO_API_EXPORT_H
#define STENO_API_EXPORT_H

/* Export resource (spec 2.3): create response and retrieve response. */

#include <stddef.h>

#include "api/error.h"
#include "api/model.h"

/* Ownership: all strings and arrays malloc'd, freed by steno_export_free. */
struct steno_export {
	char *id;
	char *state;                 /* verbatim, unknown states kept */
	char *format;                /* verbatim, also an unknown format */
	struct steno_bool show_timestamps;
	struct steno_bool show_speakers;
	struct steno_bool show_comments;
	struct steno_bool show_highlights;
	struct steno_bool show_highlights_only;
	char *timestamps_frequency;
	struct steno_strings transcription_ids;
	char *download_link;         /* present when ready */
	struct steno_time created_at; /* not in the spec; read when sent */
};

int steno_export_parse(const char *body, size_t len, struct steno_export *out,
		       struct steno_error *err);
void steno_export_free(struct steno_export *e);

#endif
