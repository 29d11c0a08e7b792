#include "config.h"

#include "export_internal.h"

#include <stdlib.h>
#include <string.h>

static size_t cues_cp_len(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static int cues_ends_sentence(const char *s)
{
	size_t n = strlen(s);
	if (n && strchr(".?!", s[n - 1]))
		return 1;
	return n >= 3 && (strcmp(s + n - 3, "。") == 0 || strcmp(s + n - 3, "？") == 0 ||
	                  strcmp(s + n - 3, "！") == 0);
}

/* Trim spaces, make sure the cue has a positive duration. */
static int cues_push(struct sb_cue **arr, size_t *n, struct sb_buf *text, double start,
                     double end, const struct sb_block *b)
{
	size_t len;
	char *s = (char *)sb_buf_take(text, &len);
	if (!s)
		return -1;
	size_t a = 0;
	while (s[a] == ' ')
		a++;
	while (len > a && s[len - 1] == ' ')
		s[--len] = 0;
	if (len == a) {
		free(s);
		return 0;
	}
	memmove(s, s + a, len - a + 1);
	if (*n % 64 == 0) {
		struct sb_cue *na = realloc(*arr, (*n + 64) * sizeof *na);
		if (!na) {
			free(s);
			return -1;
		}
		*arr = na;
	}
	if (*n && start < (*arr)[*n - 1].end)
		start = (*arr)[*n - 1].end;
	if (end < start + 0.001)
		end = start + 0.001;
	(*arr)[(*n)++] = (struct sb_cue){ start, end, s, b };
	return 0;
}

static int cues_block(const struct sb_block *b, struct sb_cue **arr, size_t *n)
{
	struct sb_buf text = { 0 };
	size_t chars = 0;
	double start = 0, end = 0;
	int open = 0;
	for (size_t j = 0; j < b->n_words; j++) {
		const struct sb_word *w = &b->words[j];
		struct sb_buf clean = { 0 };
		sb_buf_put_plain(&clean, w->text);
		const char *ct = clean.data ? (const char *)clean.data : "";
		size_t wl = cues_cp_len(ct);
		int is_word = strcmp(w->type, "spacing") != 0;
		if (open && is_word && (chars + wl > SB_CUE_MAX_CHARS || w->end - start > SB_CUE_MAX_SECONDS)) {
			if (cues_push(arr, n, &text, start, end, b) < 0)
				goto fail;
			open = 0;
			chars = 0;
		}
		if (!open && !is_word) {
			sb_buf_free(&clean);
			continue;
		}
		if (!open)
			start = w->start;
		open = 1;
		sb_buf_puts(&text, ct);
		chars += wl;
		if (is_word)
			end = w->end;
		int sentence = is_word && cues_ends_sentence(ct);
		sb_buf_free(&clean);
		if (sentence) {
			if (cues_push(arr, n, &text, start, end, b) < 0)
				goto fail;
			open = 0;
			chars = 0;
		}
	}
	if (open && cues_push(arr, n, &text, start, end, b) < 0)
		goto fail;
	sb_buf_free(&text);
	return 0;
fail:
	sb_buf_free(&text);
	return -1;
}

int sb_cues_build(const struct sb_transcript *t, struct sb_cue **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < t->n_blocks; i++) {
		if (cues_block(&t->blocks[i], out, n) < 0) {
			sb_cues_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
	}
	return 0;
}

void sb_cues_free(struct sb_cue *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].text);
	free(c);
}
