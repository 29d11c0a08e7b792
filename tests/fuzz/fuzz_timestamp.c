#include "config.h"

#include "api/timestamp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

/* A parsed timestamp formats and parses back to the same instant. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t ms, again;
	char buf[32];

	if (steno_timestamp_parse_n((const char *)data, size, &ms) != 0)
		return 0;
	if (steno_timestamp_format(ms, buf, sizeof(buf)) != 0)
		return 0;   /* outside years 0..9999 after the zone offset */
	if (steno_timestamp_parse(buf, &again) != 0 || again != ms)
		abort();
	return 0;
}
