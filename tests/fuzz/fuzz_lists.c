#include "config.h"

#include "api/glossary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

/* Glossary, style-guide and organization lists. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_error err;
	struct steno_glossary_list g;
	struct steno_style_guide_list s;
	struct steno_organization_list o;

	if (steno_glossary_list_parse((const char *)data, size, &g, &err) == 0) {
		for (size_t i = 0; i < g.n; i++) {
			fuzz_check_str(g.items[i].name);
			fuzz_check_strings(&g.items[i].target_languages);
		}
		steno_glossary_list_free(&g);
	}
	if (steno_style_guide_list_parse((const char *)data, size, &s, &err) == 0) {
		for (size_t i = 0; i < s.n; i++)
			fuzz_check_str(s.items[i].speaker_id);
		steno_style_guide_list_free(&s);
	}
	if (steno_organization_list_parse((const char *)data, size, &o, &err) == 0) {
		for (size_t i = 0; i < o.n; i++) {
			fuzz_check_str(o.items[i].name);
			fuzz_check_str(o.items[i].role);
		}
		steno_organization_list_free(&o);
	}
	return 0;
}
