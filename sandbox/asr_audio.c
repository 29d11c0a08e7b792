/* asr_audio: libsndfile frames (any channel count, any rate) mixed down to mono floats, then
 * libsoxr's streaming resampler to 16 kHz signed 16-bit (no dither, so the samples and the
 * recognised words are the same on every run). */
#include "config.h"

#include "asr_audio.h"

#include <sndfile.h>
#include <soxr.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK_FRAMES 4096

struct asr_audio {
	SNDFILE *sf;
	int channels;
	soxr_t sx;
	float *raw;  /* CHUNK_FRAMES * channels interleaved */
	float mono[CHUNK_FRAMES];
	size_t mono_len, mono_pos;
	int eof;     /* libsndfile has nothing more; soxr is being drained */
};

struct asr_audio *asr_audio_open(const char *path, double *seconds, char *err, size_t errlen)
{
	SF_INFO info = {0};
	*seconds = 0;
	SNDFILE *sf = sf_open(path, SFM_READ, &info);
	if (!sf) {
		snprintf(err, errlen, "%s", sf_strerror(NULL));
		return NULL;
	}
	if (info.samplerate <= 0 || info.channels <= 0 || info.frames <= 0) {
		snprintf(err, errlen, "the file holds no audio samples");
		sf_close(sf);
		return NULL;
	}
	struct asr_audio *a = calloc(1, sizeof *a);
	float *raw = calloc((size_t)CHUNK_FRAMES * (size_t)info.channels, sizeof *raw);
	soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_INT16_I);
	io.flags |= SOXR_NO_DITHER;
	soxr_quality_spec_t q = soxr_quality_spec(SOXR_HQ, 0);
	soxr_error_t e = NULL;
	soxr_t sx = a && raw ? soxr_create(info.samplerate, ASR_AUDIO_RATE, 1, &e, &io, &q, NULL) : NULL;
	if (!sx) {
		snprintf(err, errlen, "cannot resample from %d Hz: %s", info.samplerate, e ? e : "out of memory");
		free(raw);
		free(a);
		sf_close(sf);
		return NULL;
	}
	a->sf = sf;
	a->channels = info.channels;
	a->sx = sx;
	a->raw = raw;
	*seconds = (double)info.frames / (double)info.samplerate;
	return a;
}

/* Next chunk of mono input; 0, or -1 when libsndfile reports a decoding error. */
static int refill(struct asr_audio *a, char *err, size_t errlen)
{
	sf_count_t n = sf_readf_float(a->sf, a->raw, CHUNK_FRAMES);
	if (n <= 0) {
		if (sf_error(a->sf) != SF_ERR_NO_ERROR) {
			snprintf(err, errlen, "the audio cannot be decoded: %s", sf_strerror(a->sf));
			return -1;
		}
		a->eof = 1;
		n = 0;
	}
	for (sf_count_t i = 0; i < n; i++) {
		float sum = 0;
		for (int c = 0; c < a->channels; c++)
			sum += a->raw[i * a->channels + c];
		a->mono[i] = sum / (float)a->channels;
	}
	a->mono_len = (size_t)n;
	a->mono_pos = 0;
	return 0;
}

long asr_audio_read(struct asr_audio *a, int16_t *out, size_t max, char *err, size_t errlen)
{
	size_t got = 0;
	while (got < max) {
		if (a->mono_pos == a->mono_len && !a->eof && refill(a, err, errlen) != 0)
			return -1;
		size_t idone = 0, odone = 0;
		soxr_error_t e;
		if (a->mono_pos < a->mono_len)
			e = soxr_process(a->sx, a->mono + a->mono_pos, a->mono_len - a->mono_pos, &idone, out + got,
					 max - got, &odone);
		else /* end of input: drain what the filter still holds */
			e = soxr_process(a->sx, NULL, 0, NULL, out + got, max - got, &odone);
		if (e) {
			snprintf(err, errlen, "resampling failed: %s", e);
			return -1;
		}
		a->mono_pos += idone;
		got += odone;
		if (a->eof && a->mono_pos == a->mono_len && odone == 0)
			break;
	}
	return (long)got;
}

void asr_audio_close(struct asr_audio *a)
{
	if (!a)
		return;
	soxr_delete(a->sx);
	sf_close(a->sf);
	free(a->raw);
	free(a);
}
