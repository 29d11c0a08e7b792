#include "config.h"
#include "api/transcript.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"

#define IS_OBJECT(o) ((o) && json_object_is_type((o), json_type_object))

void steno_transcript_free(struct steno_transcript *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_blocks; i++) {
		struct steno_speaker_block *b = &t->blocks[i];
		for (size_t k = 0; k < b->n_words; k++) {
			free(b->words[k].text);
			free(b->words[k].type);
		}
		free(b->words);
		free(b->speaker);
	}
	free(t->blocks);
	memset(t, 0, sizeof(*t));
}

static int word_read(struct json_object *j, struct steno_word *w, struct steno_error *err)
{
	if (jget_opt_string(j, "text", &w->text, err) < 0 ||
	    jget_opt_string(j, "type", &w->type, err) < 0)
		return -1;
	if (!w->text && !(w->text = strdup("")))
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory reading a transcript");
	jget_opt_num(j, "data_start", &w->start);
	jget_opt_num(j, "data_end", &w->end);
	jget_opt_num(j, "confidence", &w->confidence);
	return 0;
}

static int block_read(struct json_object *j, struct steno_speaker_block *b, size_t *skipped,
		      struct steno_error *err)
{
	size_t n;
	struct json_object *words = jget_array(j, "words", &n);

	if (jget_opt_string(j, "speaker", &b->speaker, err) < 0)
		return -1;
	jget_opt_int(j, "speaker_number", &b->speaker_number);
	jget_opt_num(j, "data_start", &b->start);
	jget_opt_num(j, "data_end", &b->end);
	if (jget_alloc_array(n, sizeof(*b->words), (void **)&b->words, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *w = json_object_array_get_idx(words, i);
		if (!IS_OBJECT(w)) {
			(*skipped)++;
			continue;
		}
		b->n_words++;
		if (word_read(w, &b->words[b->n_words - 1], err) < 0)
			return -1;
	}
	return 0;
}

static int transcript_read(struct json_object *root, struct steno_transcript *t,
			   struct steno_error *err)
{
	if (!root || !json_object_is_type(root, json_type_array))
		return steno_error_set(err, STENO_ERR_PARSE,
				       "a transcript is not a JSON array of speaker blocks");
	size_t n = json_object_array_length(root);
	if (jget_alloc_array(n, sizeof(*t->blocks), (void **)&t->blocks, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(root, i);
		if (!IS_OBJECT(j)) {
			t->skipped++;
			continue;
		}
		t->n_blocks++;
		if (block_read(j, &t->blocks[t->n_blocks - 1], &t->skipped, err) < 0)
			return -1;
	}
	return 0;
}

int steno_transcript_parse(const char *body, size_t len, struct steno_transcript *out,
			   struct steno_error *err)
{
	struct json_object *root;
	memset(out, 0, sizeof(*out));
	/* JSON files inside a ZIP export may start with a UTF-8 BOM (open-points.md). */
	if (body && len >= 3 && memcmp(body, "\xef\xbb\xbf", 3) == 0) {
		body += 3;
		len -= 3;
	}
	if (jget_parse(body, len, &root, err) < 0)
		return -1;
	int rc = transcript_read(root, out, err);
	json_object_put(root);
	if (rc < 0)
		steno_transcript_free(out);
	return rc;
}

int steno_transcript_block_text(const struct steno_speaker_block *b, char **out,
				struct steno_error *err)
{
	size_t total = 1;
	for (size_t i = 0; i < b->n_words; i++)
		total += strlen(b->words[i].text);
	*out = malloc(total);
	if (!*out)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory joining a transcript");
	size_t o = 0;
	for (size_t i = 0; i < b->n_words; i++) {
		size_t k = strlen(b->words[i].text);
		memcpy(*out + o, b->words[i].text, k);
		o += k;
	}
	(*out)[o] = '\0';
	return 0;
}
