/* asr_audio: media decoded with libsndfile and resampled with libsoxr to what the recognizer
 * reads, 16 kHz mono signed 16-bit samples, streamed in chunks (memory stays bounded whatever
 * the media length). Built only with HAVE_ASR. One reader per thread; no global state. */
#ifndef SB_ASR_AUDIO_H
#define SB_ASR_AUDIO_H

#include <stddef.h>
#include <stdint.h>

#define ASR_AUDIO_RATE 16000

struct asr_audio;

/* Opens the media at path. NULL with why in err when libsndfile cannot decode it
 * (or the resampler cannot be created). *seconds: the media's length. */
struct asr_audio *asr_audio_open(const char *path, double *seconds, char *err, size_t errlen);
/* Up to max samples into out. Returns how many (0 at the end), or -1 with why in err. */
long asr_audio_read(struct asr_audio *a, int16_t *out, size_t max, char *err, size_t errlen);
void asr_audio_close(struct asr_audio *a);

#endif
