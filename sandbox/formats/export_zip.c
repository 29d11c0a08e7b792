#include "config.h"

#include "export_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <zip.h>

/* Fixed entry time (2000-01-01T00:00:00Z) so the same content gives the same bytes. */
#define ZIP_FIXED_MTIME 946684800

static int zip_fail(zip_error_t *ze, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", what, zip_error_strerror(ze));
	return -1;
}

static int zip_add_entries(zip_t *za, const struct sb_zip_entry *e, size_t n, char *err,
                           size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		zip_source_t *s = zip_source_buffer(za, e[i].data, e[i].len, 0);
		zip_int64_t idx = s ? zip_file_add(za, e[i].name, s, ZIP_FL_ENC_UTF_8) : -1;
		if (idx < 0) {
			zip_source_free(s);
			return zip_fail(zip_get_error(za), err, errlen, "zip add");
		}
		zip_file_set_mtime(za, (zip_uint64_t)idx, ZIP_FIXED_MTIME, 0);
	}
	return 0;
}

/* Copy the finished archive out of the in-memory source. */
static int zip_read_out(zip_source_t *src, unsigned char **out, size_t *len, char *err,
                        size_t errlen)
{
	zip_stat_t st;
	if (zip_source_stat(src, &st) < 0 || zip_source_open(src) < 0)
		return zip_fail(zip_source_error(src), err, errlen, "zip read");
	unsigned char *buf = malloc(st.size ? st.size : 1);
	zip_int64_t got = buf ? zip_source_read(src, buf, st.size) : -1;
	zip_source_close(src);
	if (got < 0 || (zip_uint64_t)got != st.size) {
		free(buf);
		snprintf(err, errlen, "zip read failed");
		return -1;
	}
	*out = buf;
	*len = (size_t)st.size;
	return 0;
}

int sb_zip_build(const struct sb_zip_entry *e, size_t n, unsigned char **out, size_t *len,
                 char *err, size_t errlen)
{
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_buffer_create(NULL, 0, 0, &ze);
	if (!src) {
		zip_fail(&ze, err, errlen, "zip create");
		zip_error_fini(&ze);
		return -1;
	}
	zip_t *za = zip_open_from_source(src, ZIP_TRUNCATE, &ze);
	if (!za) {
		zip_fail(&ze, err, errlen, "zip open");
		zip_source_free(src);
		zip_error_fini(&ze);
		return -1;
	}
	zip_error_fini(&ze);
	zip_source_keep(src);
	if (zip_add_entries(za, e, n, err, errlen) < 0) {
		zip_discard(za);
		zip_source_free(src);
		return -1;
	}
	if (zip_close(za) < 0) {
		zip_fail(zip_get_error(za), err, errlen, "zip close");
		zip_discard(za);
		zip_source_free(src);
		return -1;
	}
	int rc = zip_read_out(src, out, len, err, errlen);
	zip_source_free(src);
	return rc;
}
