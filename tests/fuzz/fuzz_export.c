#include "config.h"

#include "api/export.h"
#include "api/translation.h"
#include "api/upload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

/* Export, translation task and upload: the small job resources. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_error err;
	struct steno_export e;
	struct steno_translation_task t;
	struct steno_upload u;
	const char *body = (const char *)data;

	if (steno_export_parse(body, size, &e, &err) == 0) {
		fuzz_check_str(e.state);
		fuzz_check_str(e.download_link);
		fuzz_check_strings(&e.transcription_ids);
		steno_export_free(&e);
	}
	if (steno_translation_task_parse(body, size, &t, &err) == 0) {
		fuzz_check_str(t.state);
		fuzz_check_str(t.translated_transcription_id);
		steno_translation_task_free(&t);
	}
	if (steno_upload_parse(body, size, &u, &err) == 0) {
		if (!u.signed_url)
			abort();
		fuzz_check_str(u.signed_url);
		steno_upload_free(&u);
	}
	return 0;
}
