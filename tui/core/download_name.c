#include "config.h"
#include "core/download_name.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/spec_tables.h"
#include "api/url.h"
#include "api/utf8.h"

static const char *const fields[] = {"name", "id", "ext", "format"};

/* The field at p (just after '{'), or -1 when p does not start a known "field}". */
static int field_at(const char *p, size_t *len)
{
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(fields[i]);
		if (strncmp(p, fields[i], n) == 0 && p[n] == '}') {
			*len = n + 1;
			return i;
		}
	}
	return -1;
}

int download_name_check(const char *pattern, struct steno_error *err)
{
	if (!pattern || !*pattern)
		return steno_error_invalid(err, "download_name", "the pattern is empty");
	for (const char *p = pattern; *p; p++) {
		size_t len;
		if (*p == '{' && field_at(p + 1, &len) < 0)
			return steno_error_invalid(err, "download_name",
						   "unknown field at \"%.*s\" (known: {name} {id} {ext} {format})",
						   STENO_UTF8_CUT(p, 20));
		if (*p == '{')
			p += len;
		if (*p == '/' || *p == '\\')
			return steno_error_invalid(err, "download_name", "a name, not a path: no '/'");
		if (!*p)
			break;
	}
	return 0;
}

bool download_name_wants_name(const char *pattern)
{
	return strstr(pattern ? pattern : DOWNLOAD_NAME_DEFAULT, "{name}") != NULL;
}

/* Appends s with '/' and '\\' turned into '_' (a field is never a path). */
static void put(char *out, size_t size, size_t *o, const char *s)
{
	for (; s && *s && *o + 1 < size; s++)
		out[(*o)++] = (*s == '/' || *s == '\\') ? '_' : *s;
	out[*o] = '\0';
}

static void ext_of(const struct download_name_req *r, char *ext, size_t size)
{
	const struct spec_export_format *f = r->format ? spec_export_format_find(r->format) : NULL;
	if (r->count > 1)
		snprintf(ext, size, "zip");
	else if (!f)
		snprintf(ext, size, "%s", r->format && *r->format ? r->format : "download");
	else if (strcmp(f->extension, f->name) != 0 && strcmp(f->extension, "txt") == 0)
		snprintf(ext, size, "%s.%s", f->name, f->extension); /* avid.txt, maxqda.txt */
	else
		snprintf(ext, size, "%s", f->extension);
}

int download_name_make(const struct download_name_req *r, char *out, size_t size,
		       struct steno_error *err)
{
	const char *pattern = r->pattern ? r->pattern : DOWNLOAD_NAME_DEFAULT;
	if (download_name_check(pattern, err) != 0)
		return -1;
	char buf[1024], ext[64], id[160];
	size_t o = 0;
	ext_of(r, ext, sizeof ext);
	const char *rid = r->id ? r->id : "";
	if (r->count > 1)
		snprintf(id, sizeof id, "%.*s+%zu", STENO_UTF8_CUT(rid, 120), r->count - 1);
	else
		snprintf(id, sizeof id, "%.*s", STENO_UTF8_CUT(rid, 150));
	const char *values[] = {r->name && *r->name ? r->name : "export", id, ext, r->format};
	buf[0] = '\0';
	for (const char *p = pattern; *p;) {
		size_t len;
		int f = *p == '{' ? field_at(p + 1, &len) : -1;
		if (f >= 0) {
			put(buf, sizeof buf, &o, values[f]);
			p += len + 1;
		} else if (o + 1 < sizeof buf) {
			buf[o++] = *p++;
			buf[o] = '\0';
		} else {
			p++;
		}
	}
	char fallback[96];
	snprintf(fallback, sizeof fallback, "export.%s", ext);
	return steno_url_safe_basename(buf, fallback, out, size, err);
}

int download_dest_check(const char *dir, const char *name, bool overwrite,
			struct steno_error *err)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return steno_error_set(err, STENO_ERR_IO, "cannot use %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return steno_error_set(err, STENO_ERR_IO, "%s is not a directory", dir);
	if (access(dir, W_OK | X_OK) != 0)
		return steno_error_set(err, STENO_ERR_IO, "cannot write in %s: %s", dir,
				       strerror(errno));
	char path[4096];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		return steno_error_set(err, STENO_ERR_IO, "the path in %s is too long", dir);
	if (!overwrite && lstat(path, &st) == 0) {
		steno_error_set(err, STENO_ERR_IO, "%s exists (--force replaces it)", path);
		if (err)
			snprintf(err->code, sizeof(err->code), "%s", DOWNLOAD_CODE_EXISTS);
		return -1;
	}
	if (overwrite && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return steno_error_set(err, STENO_ERR_IO, "%s is a directory", path);
	return 0;
}
