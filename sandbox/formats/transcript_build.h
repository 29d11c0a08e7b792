/* Internal helpers to build a struct sb_transcript (shared by transcript.c and
 * transcript_json.c). Not part of the library's public interface. */
#ifndef SANDBOX_FORMATS_TRANSCRIPT_BUILD_H
#define SANDBOX_FORMATS_TRANSCRIPT_BUILD_H

#include "transcript.h"

/* Append an empty block; speaker copied (NULL -> "Speaker N"). NULL on failure. */
struct sb_block *sb_tr_block_add(struct sb_transcript *t, const char *speaker, int number);
/* Append a word (text/type copied). Returns 0 or -1 (allocation). */
int sb_tr_word_add(struct sb_block *b, const char *text, const char *type, double start,
                   double end, double confidence);
/* Set each block's start/end from its words. */
void sb_tr_finish(struct sb_transcript *t);
/* x rounded to whole milliseconds, so that "%.3f" text round-trips exactly. */
double sb_tr_ms(double x);

#endif
