#ifndef STENO_CORE_DOWNLOAD_NAME_H
#define STENO_CORE_DOWNLOAD_NAME_H

/* One naming pattern for every download (the config's download_name, `steno export`,
 * `steno download`, the browser's export dialog), and the check of a destination before any
 * server work starts. No curses, no network.
 *
 * Fields of a pattern: {name} the transcription's name (several: the first one's; unknown:
 * "export"), {id} its id (several: "FIRST+N"), {ext} the file's extension ("zip" for several;
 * "avid.txt" and "maxqda.txt" for the two text formats that are not plain text, so that no two
 * formats share a name), {format} the export format. Anything else is copied; the result is
 * reduced to a safe basename (api/url.h: no control, bidi or format character, no '/', no
 * leading '-' or '.'). */

#include <stdbool.h>
#include <stddef.h>

#include "api/error.h"

#define DOWNLOAD_NAME_DEFAULT "{name}-{id}.{ext}"
#define DOWNLOAD_CODE_EXISTS "exists"   /* err->code of download_dest_check's "exists" */

struct download_name_req {
	const char *pattern;   /* NULL: DOWNLOAD_NAME_DEFAULT */
	const char *name;      /* the first transcription's name, NULL when unknown */
	const char *id;        /* the first transcription's id */
	size_t count;          /* transcriptions in the export (> 1: a ZIP) */
	const char *format;    /* the export format ("txt", "docx" ...) */
};

/* 0 when `pattern` uses only the fields above and has text outside them or a field; else -1
 * with err (STENO_ERR_INVALID, field "download_name"). */
int download_name_check(const char *pattern, struct steno_error *err);
/* True when the pattern (NULL: the default) uses {name}: the caller must find the name. */
bool download_name_wants_name(const char *pattern);
/* Fills out with the file name. 0, or -1 with err (a bad pattern, a name that does not fit). */
int download_name_make(const struct download_name_req *r, char *out, size_t size,
		       struct steno_error *err);
/* Before any request: `dir` is a directory steno may write in, and `dir/name` does not exist
 * unless `overwrite`. 0, or -1 with err (STENO_ERR_IO) naming the problem; code
 * DOWNLOAD_CODE_EXISTS when the file is there. */
int download_dest_check(const char *dir, const char *name, bool overwrite,
			struct steno_error *err);

#endif
