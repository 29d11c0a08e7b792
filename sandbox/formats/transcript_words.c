/* A transcript from recognised words: sentences and speaker blocks from the pauses. */
#include "config.h"

#include "transcript.h"
#include "transcript_build.h"

#include <stdio.h>
#include <string.h>

/* Times are whole 10 ms frames: a pause equal to a threshold must count despite rounding. */
#define PAUSE_EPSILON 1e-6

/* The English pronoun and its contractions keep their capital in running text. */
static int is_pronoun_i(const char *w)
{
	static const char *const forms[] = {"i", "i'm", "i'll", "i've", "i'd"};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (strcmp(w, forms[i]) == 0)
			return 1;
	return 0;
}

static void word_text(const char *w, int sentence_start, int sentence_end, char *out, size_t n)
{
	snprintf(out, n, "%s%s", w, sentence_end ? "." : "");
	if ((sentence_start || is_pronoun_i(w)) && out[0] >= 'a' && out[0] <= 'z')
		out[0] = (char)(out[0] - 'a' + 'A');
}

int sb_transcript_from_words(struct sb_transcript *out, const struct sb_rec_word *words, size_t n,
                             const char *language)
{
	memset(out, 0, sizeof *out);
	if (sb_transcript_set_language(out, language) < 0)
		return -1;
	struct sb_block *b = NULL;
	int sentence_start = 1;
	for (size_t i = 0; i < n; i++) {
		double pause_after = i + 1 < n ? words[i + 1].start - words[i].end : SB_BLOCK_PAUSE;
		double pause_before = i ? words[i].start - words[i - 1].end : SB_BLOCK_PAUSE;
		if (pause_before >= SB_BLOCK_PAUSE - PAUSE_EPSILON) {
			if (!(b = sb_tr_block_add(out, NULL, 1)))
				goto fail;
		} else if (sb_tr_word_add(b, " ", "spacing", sb_tr_ms(words[i - 1].end), sb_tr_ms(words[i].start),
		                          1.0) < 0) {
			goto fail;
		}
		char text[256];
		int sentence_end = pause_after >= SB_SENTENCE_PAUSE - PAUSE_EPSILON;
		word_text(words[i].text, sentence_start, sentence_end, text, sizeof text);
		if (sb_tr_word_add(b, text, "word", sb_tr_ms(words[i].start), sb_tr_ms(words[i].end),
		                   sb_tr_ms(words[i].confidence)) < 0)
			goto fail;
		sentence_start = sentence_end;
	}
	sb_tr_finish(out);
	return 0;
fail:
	sb_transcript_free(out);
	return -1;
}
