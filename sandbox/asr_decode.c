/* asr_decode: media -> 16 kHz samples (asr_audio) -> utterances of at most UTT_MAX_S seconds,
 * cut at the quietest 100 ms after UTT_MIN_S, each decoded as a whole (full_utt: cepstral mean
 * from the whole utterance) -> the best path's words, frames (100 a second) and posteriors. */
#include "config.h"

#include "asr_decode.h"

#include "asr_audio.h"

/* pocketsphinx 5prealpha's headers declare some functions twice */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-decls"
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#pragma GCC diagnostic pop
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UTT_MIN_S 15
#define UTT_MAX_S 25
#define UTT_MAX (UTT_MAX_S * ASR_AUDIO_RATE)
#define FRAME_SAMPLES (ASR_AUDIO_RATE / 100) /* pocketsphinx's 10 ms frames */
#define CUT_FRAMES 10                        /* the quietest 100 ms */

struct asr_decoder {
	cmd_ln_t *cfg;
	ps_decoder_t *ps;
	int16_t *utt; /* UTT_MAX samples */
};

/* The words recognised so far; texts copied. */
struct word_list {
	struct sb_rec_word *w;
	size_t n, cap;
};

/* sphinxbase keeps its log stream in a global, and model loading is not documented as
 * thread-safe: decoders are created one at a time. */
static pthread_mutex_t create_mx = PTHREAD_MUTEX_INITIALIZER;

static struct asr_decoder *decoder_create(const char *model_dir, char *err, size_t errlen)
{
	char hmm[512], lm[512], dict[512];
	snprintf(hmm, sizeof hmm, "%s/en-us", model_dir);
	snprintf(lm, sizeof lm, "%s/en-us.lm.bin", model_dir);
	snprintf(dict, sizeof dict, "%s/cmudict-en-us.dict", model_dir);
	err_set_logfp(NULL); /* pocketsphinx logs a lot to stderr by default */
	struct asr_decoder *d = calloc(1, sizeof *d);
	if (!d || !(d->utt = malloc(UTT_MAX * sizeof *d->utt))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* -remove_silence no: every 10 ms of media is a frame, so frames are media times. */
	d->cfg = cmd_ln_init(NULL, ps_args(), TRUE, "-hmm", hmm, "-lm", lm, "-dict", dict, "-remove_silence", "no",
			     "-bestpath", "yes", NULL);
	if (!d->cfg || !(d->ps = ps_init(d->cfg))) {
		snprintf(err, errlen, "cannot load the pocketsphinx model from %s", model_dir);
		goto fail;
	}
	return d;
fail:
	asr_decoder_free(d);
	return NULL;
}

struct asr_decoder *asr_decoder_new(const char *model_dir, char *err, size_t errlen)
{
	pthread_mutex_lock(&create_mx);
	struct asr_decoder *d = decoder_create(model_dir, err, errlen);
	pthread_mutex_unlock(&create_mx);
	return d;
}

void asr_decoder_free(struct asr_decoder *d)
{
	if (!d)
		return;
	if (d->ps)
		ps_free(d->ps);
	if (d->cfg)
		cmd_ln_free_r(d->cfg);
	free(d->utt);
	free(d);
}

static int word_push(struct word_list *l, const char *text, double start, double end, double conf)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct sb_rec_word *nw = realloc(l->w, cap * sizeof *nw);
		if (!nw)
			return -1;
		l->w = nw;
		l->cap = cap;
	}
	char *t = strdup(text);
	if (!t)
		return -1;
	l->w[l->n++] = (struct sb_rec_word){.text = t, .start = start, .end = end, .confidence = conf};
	return 0;
}

static void word_list_free(struct word_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)(uintptr_t)l->w[i].text);
	free(l->w);
}

/* Fillers (<s>, </s>, <sil>, [NOISE]...) are not words; "word(2)" is a pronunciation variant. */
static int seg_word(const char *s, char *out, size_t n)
{
	if (!s || s[0] == '<' || s[0] == '[' || !s[0])
		return 0;
	size_t len = strcspn(s, "(");
	if (len >= n)
		len = n - 1;
	memcpy(out, s, len);
	out[len] = '\0';
	return len > 0;
}

/* Decodes n samples starting offset seconds into the media; appends the words. */
static int decode_utt(struct asr_decoder *d, size_t n, double offset, struct word_list *l, char *err, size_t errlen)
{
	if (ps_start_utt(d->ps) < 0 || ps_process_raw(d->ps, d->utt, n, FALSE, TRUE) < 0 || ps_end_utt(d->ps) < 0) {
		snprintf(err, errlen, "the recognizer failed on the audio at %.1f s", offset);
		return -1;
	}
	logmath_t *lmath = ps_get_logmath(d->ps);
	for (ps_seg_t *seg = ps_seg_iter(d->ps); seg; seg = ps_seg_next(seg)) {
		char w[128];
		if (!seg_word(ps_seg_word(seg), w, sizeof w))
			continue;
		int sf = 0, ef = 0;
		int32 ascr, lscr, lback;
		ps_seg_frames(seg, &sf, &ef);
		double conf = logmath_exp(lmath, ps_seg_prob(seg, &ascr, &lscr, &lback));
		if (word_push(l, w, offset + sf / 100.0, offset + (ef + 1) / 100.0, conf < 0 ? 0 : conf > 1 ? 1 : conf) <
		    0) {
			ps_seg_free(seg);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Where to end an utterance of n (> UTT_MIN_S s) samples: the middle of its quietest 100 ms
 * after UTT_MIN_S seconds, so that a cut rarely falls inside a word. */
static size_t quiet_cut(const int16_t *s, size_t n)
{
	size_t frames = n / FRAME_SAMPLES, first = UTT_MIN_S * 100, best = frames;
	double energy[UTT_MAX / FRAME_SAMPLES], window = 0, best_sum = 0;
	for (size_t f = first; f < frames; f++) {
		double e = 0;
		for (size_t i = 0; i < FRAME_SAMPLES; i++) {
			double x = s[f * FRAME_SAMPLES + i];
			e += x * x;
		}
		energy[f] = e;
		window += e;
		if (f >= first + CUT_FRAMES) {
			window -= energy[f - CUT_FRAMES];
			if (best == frames || window < best_sum) {
				best_sum = window;
				best = f - CUT_FRAMES / 2;
			}
		}
	}
	return best < frames ? best * FRAME_SAMPLES : n;
}

int asr_decoder_run(struct asr_decoder *d, const char *path, const char *language, int (*should_stop)(void),
		    struct sb_transcript *out, double *seconds, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct asr_audio *a = asr_audio_open(path, seconds, err, errlen);
	if (!a)
		return -1;
	struct word_list words = {0};
	size_t have = 0, consumed = 0; /* samples in d->utt; samples decoded before it */
	int rc = 0, eof = 0;
	while (rc == 0 && !eof) {
		long got = asr_audio_read(a, d->utt + have, UTT_MAX - have, err, errlen);
		if (got < 0) {
			rc = -1;
			break;
		}
		have += (size_t)got;
		eof = have < UTT_MAX;
		size_t cut = eof ? have : quiet_cut(d->utt, have);
		if (should_stop && should_stop())
			rc = -2;
		else if (cut >= FRAME_SAMPLES)
			rc = decode_utt(d, cut, (double)consumed / ASR_AUDIO_RATE, &words, err, errlen);
		memmove(d->utt, d->utt + cut, (have - cut) * sizeof *d->utt);
		have -= cut;
		consumed += cut;
	}
	asr_audio_close(a);
	if (rc == 0 && sb_transcript_from_words(out, words.w, words.n, language) != 0) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	word_list_free(&words);
	return rc;
}
