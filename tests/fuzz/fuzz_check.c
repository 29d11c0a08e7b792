#include "config.h"

/* Checks shared by the fuzz targets (linked into each; prototypes repeated there). */

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"
#include "api/model.h"

void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

/* Every string a parser hands out must be valid UTF-8: a violation is a bug. */
void fuzz_check_str(const char *s)
{
	if (s && !jget_utf8_valid(s, strlen(s)))
		abort();
}

void fuzz_check_strings(const struct steno_strings *s)
{
	if (s->n && !s->v)
		abort();
	for (size_t i = 0; i < s->n; i++) {
		if (!s->v[i])
			abort();
		fuzz_check_str(s->v[i]);
	}
}
