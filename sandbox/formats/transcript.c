#include "config.h"

#include "transcript.h"
#include "transcript_build.h"
#include "buf.h"
#include "wordlists.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Generated transcripts keep at most this many words, stretching the slots
 * for very long media so memory and JSON size stay bounded. */
#define GEN_MAX_WORDS 20000
#define GEN_MIN_SLOT 0.45

static uint64_t rng_next(uint64_t *s)
{ /* splitmix64: tiny, good enough, identical on every platform */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t hash_str(const char *s)
{ /* FNV-1a */
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

double sb_tr_ms(double x)
{
	return round(x * 1000.0) / 1000.0;
}

struct sb_block *sb_tr_block_add(struct sb_transcript *t, const char *speaker, int number)
{
	char def[32];
	if (!speaker) {
		snprintf(def, sizeof def, "Speaker %d", number);
		speaker = def;
	}
	struct sb_block *nb = realloc(t->blocks, (t->n_blocks + 1) * sizeof *nb);
	if (!nb)
		return NULL;
	t->blocks = nb;
	struct sb_block *b = &nb[t->n_blocks];
	memset(b, 0, sizeof *b);
	b->speaker = strdup(speaker);
	if (!b->speaker)
		return NULL;
	b->speaker_number = number;
	t->n_blocks++;
	return b;
}

int sb_tr_word_add(struct sb_block *b, const char *text, const char *type, double start,
                   double end, double confidence)
{
	if (b->n_words % 64 == 0) {
		struct sb_word *nw = realloc(b->words, (b->n_words + 64) * sizeof *nw);
		if (!nw)
			return -1;
		b->words = nw;
	}
	struct sb_word *w = &b->words[b->n_words];
	memset(w, 0, sizeof *w);
	w->text = strdup(text);
	w->type = strdup(type);
	if (!w->text || !w->type) {
		free(w->text);
		free(w->type);
		return -1;
	}
	w->start = start;
	w->end = end < start ? start : end;
	w->confidence = confidence;
	b->n_words++;
	return 0;
}

void sb_tr_finish(struct sb_transcript *t)
{
	for (size_t i = 0; i < t->n_blocks; i++) {
		struct sb_block *b = &t->blocks[i];
		if (b->n_words) {
			b->start = b->words[0].start;
			b->end = b->words[b->n_words - 1].end;
		}
	}
}

int sb_transcript_set_language(struct sb_transcript *t, const char *language)
{
	char *l = strdup(language ? language : "en");
	if (!l)
		return -1;
	free(t->language);
	t->language = l;
	return 0;
}

void sb_transcript_free(struct sb_transcript *t)
{
	for (size_t i = 0; i < t->n_blocks; i++) {
		struct sb_block *b = &t->blocks[i];
		for (size_t j = 0; j < b->n_words; j++) {
			free(b->words[j].text);
			free(b->words[j].type);
		}
		free(b->words);
		free(b->speaker);
		free(b->comment);
	}
	free(t->blocks);
	free(t->language);
	memset(t, 0, sizeof *t);
}

size_t sb_transcript_word_count(const struct sb_transcript *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n_blocks; i++)
		for (size_t j = 0; j < t->blocks[i].n_words; j++)
			n += strcmp(t->blocks[i].words[j].type, "word") == 0;
	return n;
}

char *sb_transcript_text(const struct sb_transcript *t)
{
	struct sb_buf b = { 0 };
	for (size_t i = 0; i < t->n_blocks; i++) {
		if (i)
			sb_buf_puts(&b, "\n");
		for (size_t j = 0; j < t->blocks[i].n_words; j++)
			sb_buf_puts(&b, t->blocks[i].words[j].text);
	}
	size_t len;
	return (char *)sb_buf_take(&b, &len);
}

/* State of the generator between words. */
struct gen {
	uint64_t rng;
	const struct sb_wordlist *wl;
	int n_speakers, speaker;
	int sentence_left, sentences_in_block;
	double prev_end;
};

static int gen_new_block(struct sb_transcript *t, struct gen *g)
{
	struct sb_block *b = sb_tr_block_add(t, NULL, g->speaker);
	if (!b)
		return -1;
	g->sentences_in_block = 0;
	if (rng_next(&g->rng) % 3 == 0) {
		b->comment = strdup(g->wl->comments[rng_next(&g->rng) % g->wl->n_comments]);
		if (!b->comment)
			return -1;
	}
	return 0;
}

/* Word text: list word, capitalized at a sentence start, punctuated at its end. */
static void gen_word_text(struct gen *g, int sentence_start, int last, char *out, size_t outlen)
{
	const char *w = g->wl->words[rng_next(&g->rng) % g->wl->n_words];
	const char *punct = "";
	if (--g->sentence_left <= 0 || last) {
		int q = rng_next(&g->rng) % 6 == 0;
		punct = g->wl->cjk ? (q ? "？" : "。") : (q ? "?" : ".");
	}
	snprintf(out, outlen, "%s%s", w, punct);
	if (sentence_start && !g->wl->cjk && out[0] >= 'a' && out[0] <= 'z')
		out[0] = (char)(out[0] - 'a' + 'A');
}

static int gen_word(struct sb_transcript *t, struct gen *g, double start, double end, int last)
{
	struct sb_block *b = &t->blocks[t->n_blocks - 1];
	char text[128];
	int sentence_start = g->sentence_left <= 0;
	if (sentence_start)
		g->sentence_left = 4 + (int)(rng_next(&g->rng) % 9);
	gen_word_text(g, sentence_start, last, text, sizeof text);
	if (b->n_words && !g->wl->cjk && sb_tr_word_add(b, " ", "spacing", g->prev_end, start, 1.0) < 0)
		return -1;
	double conf = sb_tr_ms(0.6 + (double)(rng_next(&g->rng) % 400) / 1000.0);
	if (sb_tr_word_add(b, text, "word", start, end, conf) < 0)
		return -1;
	b->words[b->n_words - 1].highlighted = rng_next(&g->rng) % 23 == 0;
	g->prev_end = end;
	if (g->sentence_left > 0 || last)
		return 0;
	g->sentences_in_block++;
	if (rng_next(&g->rng) % 2 == 0 || b->n_words >= 120) {
		g->speaker = (g->speaker + (int)(rng_next(&g->rng) % (uint64_t)(g->n_speakers - 1))) %
		                 g->n_speakers + 1;
		return gen_new_block(t, g);
	}
	return 0;
}

int sb_transcript_generate(struct sb_transcript *out, uint64_t seed, double media_seconds,
                           const char *language)
{
	int found;
	memset(out, 0, sizeof *out);
	struct gen g = { .rng = seed ^ hash_str(language), .speaker = 1 };
	g.wl = sb_wordlist_for(language, &found);
	g.n_speakers = 2 + (int)(rng_next(&g.rng) % 2);
	if (sb_transcript_set_language(out, language) < 0)
		return -1;
	if (!(media_seconds > 0) || !isfinite(media_seconds))
		return 0;
	double slot = fmax(GEN_MIN_SLOT, media_seconds / GEN_MAX_WORDS);
	size_t n = (size_t)(media_seconds / slot);
	if (n == 0)
		n = 1;
	slot = media_seconds / (double)n;
	if (gen_new_block(out, &g) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		double base = slot * (double)i;
		double jitter = (double)(rng_next(&g.rng) % 200) / 1000.0;
		double start = i ? sb_tr_ms(base + slot * 0.05) : 0.0;
		double end = i + 1 == n ? sb_tr_ms(media_seconds) : sb_tr_ms(base + slot * (0.7 + jitter));
		if (gen_word(out, &g, start, end, i + 1 == n) < 0)
			goto fail;
	}
	sb_tr_finish(out);
	return 0;
fail:
	sb_transcript_free(out);
	return -1;
}
