#include "config.h"

#include "api/error_body.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

/* Error bodies and the Retry-After header (the first line of the input). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_error err;
	char header[64];
	const char *nl = memchr(data, '\n', size < sizeof(header) ? size : sizeof(header) - 1);
	size_t hlen = nl ? (size_t)(nl - (const char *)data) : 0;

	memcpy(header, data, hlen);
	header[hlen] = '\0';
	steno_error_from_response(429, (const char *)data, size, nl ? header : NULL, &err);
	if (err.kind != STENO_ERR_HTTP || !err.message[0])
		abort();
	fuzz_check_str(err.message);
	fuzz_check_str(err.code);
	fuzz_check_str(err.field);
	for (const unsigned char *p = (const unsigned char *)err.message; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
	if (err.retry_after_s != err.retry_after_s)   /* NaN */
		abort();
	return 0;
}
