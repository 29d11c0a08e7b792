#include "config.h"

#include "api/transcript.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_error err;
	struct steno_transcript t;

	if (steno_transcript_parse((const char *)data, size, &t, &err) != 0)
		return 0;
	for (size_t i = 0; i < t.n_blocks; i++) {
		char *text;
		for (size_t k = 0; k < t.blocks[i].n_words; k++)
			if (!t.blocks[i].words[k].text)
				abort();
		if (steno_transcript_block_text(&t.blocks[i], &text, &err) == 0) {
			fuzz_check_str(text);
			free(text);
		}
		fuzz_check_str(t.blocks[i].speaker);
	}
	steno_transcript_free(&t);
	return 0;
}
