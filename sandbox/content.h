/* content: the transcript content of a transcription: recognised from its media (asr.c), or
 * built deterministically on demand (generated from its media seed, aligned from its document,
 * or translated from its source). */
#ifndef SB_CONTENT_H
#define SB_CONTENT_H

#include "formats/transcript.h"
#include "model.h"

/* 0, or -1 (allocation, missing source). out is freed with sb_transcript_free. */
int content_build(const struct tr_row *t, struct sb_transcript *out);

#endif
