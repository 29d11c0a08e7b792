/* content: transcript content from the row. */
#include "config.h"

#include "content.h"

#include "asr.h"

#include <string.h>

#define CONTENT_MAX_DEPTH 8

static int content_build_depth(const struct tr_row *t, struct sb_transcript *out, int depth)
{
	memset(out, 0, sizeof *out);
	if (depth > CONTENT_MAX_DEPTH)
		return -1;
	if (t->source_rid > 0) {
		struct tr_row src;
		struct sb_transcript s;
		if (tr_load_rid(t->source_rid, &src) != 0)
			return -1;
		int rc = content_build_depth(&src, &s, depth + 1);
		tr_row_free(&src);
		if (rc != 0)
			return -1;
		rc = sb_transcript_translate(out, &s, t->language);
		sb_transcript_free(&s);
		return rc;
	}
	if (t->document && strcmp(t->service, "alignment") == 0) {
		if (sb_transcript_align(out, t->document, (double)t->audio_seconds) != 0)
			return -1;
		return sb_transcript_set_language(out, t->language);
	}
	int recognised = asr_transcript(t->rid, out);
	if (recognised != 0)
		return recognised > 0 ? sb_transcript_set_language(out, t->language) : -1;
	return sb_transcript_generate(out, (uint64_t)t->seed, (double)t->audio_seconds, t->language);
}

int content_build(const struct tr_row *t, struct sb_transcript *out)
{
	return content_build_depth(t, out, 0);
}
