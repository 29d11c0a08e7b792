#ifndef STENO_API_TRANSCRIPT_H
#define STENO_API_TRANSCRIPT_H

/* Transcript content: the JSON export format (open-points.md), a top-level array of
 * speaker blocks with words. A leading UTF-8 BOM is stripped. Word texts carry their own
 * spacing and punctuation and are joined as given. */

#include <stddef.h>

#include "api/error.h"
#include "api/model.h"

/* Ownership: all malloc'd, freed by steno_transcript_free. */
struct steno_word {
	char *text;                   /* "" when missing */
	char *type;                   /* "word", "spacing", ... or NULL */
	struct steno_num start;       /* data_start, seconds */
	struct steno_num end;         /* data_end */
	struct steno_num confidence;
};

struct steno_speaker_block {
	char *speaker;                /* "Speaker 1" or NULL */
	struct steno_int speaker_number;
	struct steno_num start;
	struct steno_num end;
	struct steno_word *words;
	size_t n_words;
};

struct steno_transcript {
	struct steno_speaker_block *blocks;
	size_t n_blocks;
	size_t skipped;               /* non-object blocks or words skipped */
};

int steno_transcript_parse(const char *body, size_t len, struct steno_transcript *out,
			   struct steno_error *err);
void steno_transcript_free(struct steno_transcript *t);

/* The text of a block: its word texts joined as given. *out is malloc'd (caller frees). */
int steno_transcript_block_text(const struct steno_speaker_block *b, char **out,
				struct steno_error *err);

#endif
