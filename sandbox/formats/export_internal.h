/* Internal interface between export.c (dispatch, ZIP) and the format writers. */
#ifndef SANDBOX_FORMATS_EXPORT_INTERNAL_H
#define SANDBOX_FORMATS_EXPORT_INTERNAL_H

#include <stddef.h>

#include "buf.h"
#include "export.h"

/* One subtitle cue: a run of words of one block, at most SB_CUE_MAX_CHARS code
 * points, ending at a sentence end or after SB_CUE_MAX_SECONDS. */
#define SB_CUE_MAX_CHARS 40
#define SB_CUE_MAX_SECONDS 6.0

/* Owned by the array from sb_cues_build; free with sb_cues_free. */
struct sb_cue {
	double start, end;        /* end > start */
	char *text;               /* clean UTF-8, no controls, trimmed */
	const struct sb_block *block;
};

int sb_cues_build(const struct sb_transcript *t, struct sb_cue **out, size_t *n);
void sb_cues_free(struct sb_cue *c, size_t n);

/* Everything a writer gets; writers append to out and return 0 or -1 with err. */
struct sb_render {
	const struct sb_transcript *t;
	const char *name;                    /* never NULL */
	const struct sb_export_options *opt; /* never NULL */
	struct sb_buf *out;
	char *err;
	size_t errlen;
};

void sb_render_error(const struct sb_render *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int sb_write_txt(const struct sb_render *r);
int sb_write_srt(const struct sb_render *r);
int sb_write_vtt(const struct sb_render *r);
int sb_write_avid(const struct sb_render *r);
int sb_write_maxqda(const struct sb_render *r);
int sb_write_json(const struct sb_render *r);
int sb_write_html(const struct sb_render *r);
int sb_write_premiere(const struct sb_render *r);
int sb_write_fcp(const struct sb_render *r);
int sb_write_docx(const struct sb_render *r);
int sb_write_pdf(const struct sb_render *r);
int sb_write_stl(const struct sb_render *r);

/* Whether word w of block b is shown under show_highlights_only. */
int sb_render_word_shown(const struct sb_render *r, const struct sb_word *w);

/* Build a ZIP in memory from n named entries; *out malloc'ed. 0 or -1 with err. */
struct sb_zip_entry {
	const char *name;
	const unsigned char *data;
	size_t len;
};
int sb_zip_build(const struct sb_zip_entry *e, size_t n, unsigned char **out, size_t *len,
                 char *err, size_t errlen);

#endif
