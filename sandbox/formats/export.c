#include "config.h"

#include "export.h"
#include "export_internal.h"
#include "api/spec_tables.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef int (*writer_fn)(const struct sb_render *r);

static const struct {
	const char *format;
	writer_fn write;
} writers[] = {
	{ "txt", sb_write_txt }, { "docx", sb_write_docx }, { "pdf", sb_write_pdf },
	{ "srt", sb_write_srt }, { "vtt", sb_write_vtt }, { "stl", sb_write_stl },
	{ "avid", sb_write_avid }, { "html", sb_write_html }, { "premiere", sb_write_premiere },
	{ "maxqda", sb_write_maxqda }, { "json", sb_write_json }, { "fcp", sb_write_fcp },
};

void sb_render_error(const struct sb_render *r, const char *fmt, ...)
{
	if (!r->err || !r->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
}

int sb_render_word_shown(const struct sb_render *r, const struct sb_word *w)
{
	return !r->opt->show_highlights_only || w->highlighted;
}

static writer_fn export_writer(const char *format)
{
	for (size_t i = 0; format && i < sizeof writers / sizeof writers[0]; i++)
		if (strcmp(writers[i].format, format) == 0)
			return writers[i].write;
	return NULL;
}

int sb_export_render(const char *format, const struct sb_transcript *t, const char *name,
                     const struct sb_export_options *opt, unsigned char **out, size_t *len,
                     char *err, size_t errlen)
{
	static const struct sb_export_options none = { 0 };
	struct sb_buf b = { 0 };
	struct sb_render r = { t, name ? name : "transcription", opt ? opt : &none, &b, err, errlen };
	writer_fn write = export_writer(format);
	*out = NULL;
	*len = 0;
	if (!write || !spec_export_format_find(format)) {
		sb_render_error(&r, "unknown export format '%s'", format ? format : "(null)");
		return -1;
	}
	if (write(&r) < 0) {
		sb_buf_free(&b);
		return -1;
	}
	*out = sb_buf_take(&b, len);
	if (!*out) {
		sb_render_error(&r, "out of memory");
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- ZIP of several */

/* A ZIP entry name from a transcription name: no path separators, no controls,
 * no leading dots, at most ~100 bytes (cut on a UTF-8 boundary). Caller frees. */
static char *export_safe_base(const char *name)
{
	struct sb_buf b = { 0 };
	sb_buf_put_plain(&b, name ? name : "");
	size_t len;
	char *s = (char *)sb_buf_take(&b, &len);
	if (!s)
		return NULL;
	for (char *p = s; *p; p++)
		if (strchr("/\\:*?\"<>|", *p))
			*p = '_';
	size_t a = 0;
	while (s[a] == '.' || s[a] == ' ')
		a++;
	memmove(s, s + a, len - a + 1);
	len -= a;
	if (len > 100) {
		len = 100;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
		s[len] = 0;
	}
	while (len && s[len - 1] == ' ')
		s[--len] = 0;
	if (!len) {
		free(s);
		return strdup("transcription");
	}
	return s;
}

static int export_name_taken(char **names, size_t n, const char *cand)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(names[i], cand) == 0)
			return 1;
	return 0;
}

/* names[i] = unique "<base>.<ext>" or "<base> (k).<ext>". */
static int export_entry_name(char **names, size_t i, const char *name, const char *ext)
{
	char *base = export_safe_base(name);
	if (!base)
		return -1;
	size_t cap = strlen(base) + strlen(ext) + 32;
	char *cand = malloc(cap);
	if (!cand) {
		free(base);
		return -1;
	}
	snprintf(cand, cap, "%s.%s", base, ext);
	for (unsigned k = 2; export_name_taken(names, i, cand); k++)
		snprintf(cand, cap, "%s (%u).%s", base, k, ext);
	free(base);
	names[i] = cand;
	return 0;
}

struct zip_parts {
	char **names;
	unsigned char **data;
	struct sb_zip_entry *entries;
	size_t n;
};

static void export_parts_free(struct zip_parts *p)
{
	for (size_t i = 0; i < p->n; i++) {
		if (p->names)
			free(p->names[i]);
		if (p->data)
			free(p->data[i]);
	}
	free(p->names);
	free(p->data);
	free(p->entries);
}

int sb_export_render_zip(const char *format, const struct sb_transcript *const *ts,
                         const char *const *names, size_t n,
                         const struct sb_export_options *opt, unsigned char **out,
                         size_t *len, char *err, size_t errlen)
{
	const struct spec_export_format *f = spec_export_format_find(format);
	struct zip_parts p = { calloc(n + 1, sizeof(char *)), calloc(n + 1, sizeof(unsigned char *)),
	                       calloc(n + 1, sizeof(struct sb_zip_entry)), n };
	int rc = -1;
	*out = NULL;
	*len = 0;
	if (!f) {
		snprintf(err, errlen, "unknown export format '%s'", format ? format : "(null)");
		goto done;
	}
	if (n == 0) {
		snprintf(err, errlen, "no transcription to export");
		goto done;
	}
	if (!p.names || !p.data || !p.entries) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		size_t l;
		const char *nm = names ? names[i] : NULL;
		if (sb_export_render(format, ts[i], nm, opt, &p.data[i], &l, err, errlen) < 0)
			goto done;
		if (export_entry_name(p.names, i, nm, f->extension) < 0) {
			snprintf(err, errlen, "out of memory");
			goto done;
		}
		p.entries[i] = (struct sb_zip_entry){ p.names[i], p.data[i], l };
	}
	rc = sb_zip_build(p.entries, n, out, len, err, errlen);
done:
	export_parts_free(&p);
	return rc;
}
