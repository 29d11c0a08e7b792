/* Export files of the sandbox: one transcript rendered in one of the 12 export
 * formats of the spec (txt docx pdf srt vtt stl avid html premiere maxqda json
 * fcp), or several transcripts as a ZIP of one file each. */
#ifndef SANDBOX_FORMATS_EXPORT_H
#define SANDBOX_FORMATS_EXPORT_H

#include <stddef.h>
#include "transcript.h"

/* Options of an export. Which format honours which option follows the spec:
 * timestamps/speakers/comments for txt, docx, pdf; highlights for docx, pdf.
 * Validation of options against a format is the caller's job (spec_tables);
 * options a format does not take are ignored here. */
struct sb_export_options {
	int show_timestamps;
	int show_speakers;
	int show_comments;
	int show_highlights;
	int show_highlights_only;
	int timestamps_frequency_s; /* inline timecodes every N s; 0 = none */
	/* Creation date written by formats that carry one (stl GSI); 0 = 2000-01-01.
	 * Fixed by the caller so that the same content gives the same bytes. */
	long long created_unix;
};

/* Render t as format (spec value, e.g. "srt"). name is the transcription name
 * (used for titles; may be NULL). On success *out (malloc'ed, caller frees) holds
 * *len bytes and 0 is returned. On failure returns -1 and writes a message to err
 * (unknown format, allocation failure, library error). */
int sb_export_render(const char *format, const struct sb_transcript *t, const char *name,
                     const struct sb_export_options *opt, unsigned char **out, size_t *len,
                     char *err, size_t errlen);

/* Render n transcripts as a ZIP with one entry per transcript, named from
 * names[i] (reduced to a safe basename, made unique with " (2)" suffixes) plus
 * the format's extension. names[i] may be NULL ("transcription"). Same ownership
 * and return convention as sb_export_render. */
int sb_export_render_zip(const char *format, const struct sb_transcript *const *ts,
                         const char *const *names, size_t n,
                         const struct sb_export_options *opt, unsigned char **out,
                         size_t *len, char *err, size_t errlen);

/* Extensions and content types of the formats come from tui/api/spec_tables.h. */

#endif
