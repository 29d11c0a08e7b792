#include "config.h"

#include "api/transcription.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

static void check(const struct steno_transcription *t)
{
	fuzz_check_str(t->id);
	fuzz_check_str(t->name);
	fuzz_check_str(t->state);
	fuzz_check_str(t->language);
	fuzz_check_str(t->failure_reason);
	fuzz_check_str(t->failure_message);
	fuzz_check_str(t->editor_url);
	fuzz_check_str(t->self_url);
	fuzz_check_str(t->download_url);
	fuzz_check_strings(&t->tags);
}

/* Transcription object and list envelope; the copy function too. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_error err;
	struct steno_transcription t, c;
	struct steno_transcription_page p;

	if (steno_transcription_parse((const char *)data, size, &t, &err) == 0) {
		check(&t);
		if (steno_transcription_copy(&c, &t, &err) == 0)
			steno_transcription_free(&c);
		steno_transcription_free(&t);
	}
	if (steno_transcription_page_parse((const char *)data, size, &p, &err) == 0) {
		for (size_t i = 0; i < p.n; i++)
			check(&p.items[i]);
		fuzz_check_str(p.next_url);
		steno_transcription_page_free(&p);
	}
	return 0;
}
