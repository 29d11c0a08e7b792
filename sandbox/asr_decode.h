/* asr_decode: one pocketsphinx decoder (Debian's 5prealpha API, en-us model) that turns a
 * media file into a transcript of recognised words with their times and confidences.
 * Built only with HAVE_ASR. A decoder is used by one thread at a time and reused for many
 * files; it holds about 90 MB, plus about 15 MB while decoding (docs/PERFORMANCE.md). */
#ifndef SB_ASR_DECODE_H
#define SB_ASR_DECODE_H

#include <stddef.h>

#include "formats/transcript.h"

struct asr_decoder;

/* Loads the acoustic model, language model and dictionary from model_dir (the en-us
 * folder of pocketsphinx-en-us). NULL with why in err. */
struct asr_decoder *asr_decoder_new(const char *model_dir, char *err, size_t errlen);
/* Decodes the media at path into *out (sb_transcript_from_words, in language); its length
 * into *seconds. should_stop is polled between utterances (may be NULL): nonzero aborts.
 * Returns 0; -1 with why in err (media not decodable, recognizer error); -2 stopped. */
int asr_decoder_run(struct asr_decoder *d, const char *path, const char *language, int (*should_stop)(void),
		    struct sb_transcript *out, double *seconds, char *err, size_t errlen);
void asr_decoder_free(struct asr_decoder *d);

#endif
