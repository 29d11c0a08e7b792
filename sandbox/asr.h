/* asr: real transcripts for English media (--asr on, built with pocketsphinx). A bounded pool
 * of --asr-threads decoder threads (never the HTTP threads) takes the transcriptions whose work
 * has started from the asr table, decodes their media and stores the recognised transcript;
 * the transcription stays automatic_transcribing until then (its sandbox-clock duration is a
 * minimum). Each thread loads its decoder on its first job and reuses it. Restart-safe: jobs
 * left queued or running are taken again. */
#ifndef SB_ASR_H
#define SB_ASR_H

#include <stdint.h>

#include "formats/transcript.h"
#include "model.h"

/* 1 when the sandbox was built with speech recognition. */
int asr_built(void);
/* 1 when t's transcript comes from recognition: --asr on, an en or en-* language, media of its
 * own (not an alignment nor a translation). */
int asr_applies(const struct tr_row *t);
/* Queues rid (in the caller's transaction): its work ends at min_end on the sandbox clock or
 * when its decode is done, whichever is later. Call asr_wake after the commit. 0 or -1. */
int asr_queue(int64_t rid, double min_end);
/* Wakes a decoder thread for the jobs queued so far. */
void asr_wake(void);
/* The recognised transcript of rid into *out: 1 found, 0 none (not recognised), -1 error. */
int asr_transcript(int64_t rid, struct sb_transcript *out);
/* Starts the pool (no thread when --asr off); 0 or -1. */
int asr_start(void);
/* Stops the pool: a running decode is abandoned at its next utterance and taken again on the
 * next start. */
void asr_stop(void);

#endif
