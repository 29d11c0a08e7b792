#include "config.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>

/* Shared by the test_api_* binaries: the prototype is repeated in each of them. */
char *api_fixture(const char *name, size_t *len);

/* Reads $STENO_FIXTURES/json/NAME whole; fails the test when it cannot. Caller frees. */
char *api_fixture(const char *name, size_t *len)
{
	const char *dir = getenv("STENO_FIXTURES");
	char path[4096];
	cr_assert(dir, "STENO_FIXTURES is not set");
	snprintf(path, sizeof(path), "%s/json/%s", dir, name);
	FILE *f = fopen(path, "rb");
	cr_assert(f, "cannot open %s", path);
	cr_assert(fseek(f, 0, SEEK_END) == 0);
	long n = ftell(f);
	cr_assert(n >= 0);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	cr_assert(buf);
	cr_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}
