#include "config.h"

#include "transcript.h"
#include "transcript_build.h"
#include "buf.h"
#include "wordlists.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ops_hash(const char *s, uint64_t h)
{ /* FNV-1a continued from h */
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static int ops_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Whether a token ends a sentence (ASCII or CJK full stop/question/exclamation). */
static int ops_ends_sentence(const char *w)
{
	size_t n = strlen(w);
	if (n && strchr(".?!", w[n - 1]))
		return 1;
	static const char *const cjk[] = { "。", "？", "！" };
	for (size_t i = 0; i < 3; i++) {
		size_t k = strlen(cjk[i]);
		if (n >= k && strcmp(w + n - k, cjk[i]) == 0)
			return 1;
	}
	return 0;
}

/* Clean copy of a document token: valid UTF-8, no control characters. */
static char *ops_clean_token(const char *p, size_t n)
{
	char *raw = strndup(p, n);
	if (!raw)
		return NULL;
	struct sb_buf b = { 0 };
	sb_buf_put_plain(&b, raw);
	free(raw);
	size_t len;
	return (char *)sb_buf_take(&b, &len);
}

static size_t ops_count_tokens(const char *s)
{
	size_t n = 0;
	while (*s) {
		while (ops_is_space(*s))
			s++;
		if (!*s)
			break;
		n++;
		while (*s && !ops_is_space(*s))
			s++;
	}
	return n;
}

static int ops_align_token(struct sb_transcript *out, const char *tok, double start, double end,
                           double *prev_end, int *new_block)
{
	if (*new_block) {
		int spk = out->n_blocks % 2 + 1;
		if (!sb_tr_block_add(out, NULL, spk))
			return -1;
		*new_block = 0;
	}
	struct sb_block *b = &out->blocks[out->n_blocks - 1];
	if (b->n_words && sb_tr_word_add(b, " ", "spacing", *prev_end, start, 1.0) < 0)
		return -1;
	if (sb_tr_word_add(b, tok, "word", start, end, 1.0) < 0)
		return -1;
	*prev_end = end;
	/* a new speaker turn every few sentences keeps the blocks readable */
	*new_block = ops_ends_sentence(tok) && b->n_words >= 40;
	return 0;
}

int sb_transcript_align(struct sb_transcript *out, const char *document_text, double media_seconds)
{
	memset(out, 0, sizeof *out);
	if (sb_transcript_set_language(out, "en") < 0)
		return -1;
	const char *s = document_text ? document_text : "";
	size_t n = ops_count_tokens(s), i = 0;
	if (n == 0)
		return 0;
	double slot = media_seconds > 0 ? media_seconds / (double)n : 0, prev_end = 0;
	int new_block = 1;
	while (*s) {
		while (ops_is_space(*s))
			s++;
		if (!*s)
			break;
		size_t len = 0;
		while (s[len] && !ops_is_space(s[len]))
			len++;
		char *tok = ops_clean_token(s, len);
		s += len;
		double start = sb_tr_ms(slot * (double)i);
		double end = i + 1 == n ? sb_tr_ms(slot * (double)n) : sb_tr_ms(slot * ((double)i + 0.85));
		i++;
		int rc = tok ? ops_align_token(out, tok, start, end, &prev_end, &new_block) : -1;
		free(tok);
		if (rc < 0) {
			sb_transcript_free(out);
			return -1;
		}
	}
	sb_tr_finish(out);
	return 0;
}

/* Split trailing punctuation of a word; returns the kind: 0 none, '.', '?', '!', ','. */
static int ops_trailing_punct(const char *w)
{
	size_t n = strlen(w);
	if (n && strchr(".?!,;:", w[n - 1]))
		return w[n - 1] == ';' || w[n - 1] == ':' ? ',' : w[n - 1];
	static const struct { const char *s; int k; } cjk[] = {
		{ "。", '.' }, { "？", '?' }, { "！", '!' }, { "、", ',' }, { "，", ',' },
	};
	for (size_t i = 0; i < sizeof cjk / sizeof cjk[0]; i++) {
		size_t k = strlen(cjk[i].s);
		if (n >= k && strcmp(w + n - k, cjk[i].s) == 0)
			return cjk[i].k;
	}
	return 0;
}

static const char *ops_punct_text(int kind, int cjk)
{
	switch (kind) {
	case '.': return cjk ? "。" : ".";
	case '?': return cjk ? "？" : "?";
	case '!': return cjk ? "！" : "!";
	case ',': return cjk ? "、" : ",";
	default: return "";
	}
}

struct tr_state {
	const struct sb_wordlist *wl;
	uint64_t salt;
	size_t index;
	int sentence_start;
	double prev_end;
};

static int ops_translate_word(struct sb_block *nb, const struct sb_word *w, struct tr_state *st)
{
	char text[160];
	int kind = ops_trailing_punct(w->text);
	uint64_t h = ops_hash(w->text, st->salt ^ (st->index++ * 0x9e3779b97f4a7c15ULL));
	snprintf(text, sizeof text, "%s%s", st->wl->words[h % st->wl->n_words],
	         ops_punct_text(kind, st->wl->cjk));
	if (st->sentence_start && !st->wl->cjk && text[0] >= 'a' && text[0] <= 'z')
		text[0] = (char)(text[0] - 'a' + 'A');
	st->sentence_start = kind == '.' || kind == '?' || kind == '!';
	if (nb->n_words && !st->wl->cjk &&
	    sb_tr_word_add(nb, " ", "spacing", st->prev_end, w->start, 1.0) < 0)
		return -1;
	if (sb_tr_word_add(nb, text, "word", w->start, w->end, w->confidence) < 0)
		return -1;
	nb->words[nb->n_words - 1].highlighted = w->highlighted;
	st->prev_end = w->end;
	return 0;
}

static int ops_translate_block(struct sb_transcript *out, const struct sb_block *b,
                               struct tr_state *st)
{
	struct sb_block *nb = sb_tr_block_add(out, b->speaker, b->speaker_number);
	if (!nb)
		return -1;
	nb->start = b->start; /* kept for a block without words */
	nb->end = b->end;
	if (b->comment) {
		nb->comment = strdup(st->wl->comments[ops_hash(b->comment, st->salt) % st->wl->n_comments]);
		if (!nb->comment)
			return -1;
	}
	st->sentence_start = 1;
	for (size_t j = 0; j < b->n_words; j++) {
		if (strcmp(b->words[j].type, "word") != 0)
			continue; /* spacing is rebuilt for the target script */
		if (ops_translate_word(nb, &b->words[j], st) < 0)
			return -1;
	}
	return 0;
}

int sb_transcript_translate(struct sb_transcript *out, const struct sb_transcript *src,
                            const char *target_language)
{
	int found;
	memset(out, 0, sizeof *out);
	struct tr_state st = { 0 };
	st.wl = sb_wordlist_for(target_language, &found);
	st.salt = ops_hash(target_language, 0xcbf29ce484222325ULL);
	if (sb_transcript_set_language(out, target_language) < 0)
		return -1;
	for (size_t i = 0; i < src->n_blocks; i++) {
		if (ops_translate_block(out, &src->blocks[i], &st) < 0) {
			sb_transcript_free(out);
			return -1;
		}
	}
	sb_tr_finish(out);
	return 0;
}
