#ifndef STENO_API_TRANSLATION_H
#define STENO_API_TRANSLATION_H

/* Translation task resource (spec 2.4, superseded by orders). */

#include <stddef.h>

#include "api/error.h"
#include "api/model.h"

/* Ownership: strings malloc'd, freed by steno_translation_task_free. */
struct steno_translation_task {
	char *id;
	char *state;                       /* verbatim */
	char *failure_reason;              /* NULL when null or missing */
	struct steno_num progress_percent; /* STENO_NULL at creation; 100.0 when done */
	char *target_language;
	char *translated_transcription_id; /* when done */
};

int steno_translation_task_parse(const char *body, size_t len, struct steno_translation_task *out,
				 struct steno_error *err);
void steno_translation_task_free(struct steno_translation_task *t);

#endif
