#include "config.h"

#include "export_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Frame rate of the timecodes of the editing-software formats. */
#define AVID_FPS 25

/* Inline timecodes: "[HH:MM:SS.mmm] " before the first word at or after each
 * multiple of timestamps_frequency. */
static void text_inline_time(const struct sb_render *r, const struct sb_word *w, double *next_tc)
{
	int f = r->opt->timestamps_frequency_s;
	if (f <= 0 || strcmp(w->type, "word") != 0 || w->start < *next_tc)
		return;
	sb_buf_puts(r->out, "[");
	sb_buf_put_time(r->out, w->start, '.');
	sb_buf_puts(r->out, "] ");
	*next_tc = (floor(w->start / f) + 1) * f;
}

static void text_block_header(const struct sb_render *r, const struct sb_block *b)
{
	const struct sb_export_options *o = r->opt;
	if (o->show_timestamps) {
		sb_buf_puts(r->out, "[");
		sb_buf_put_time(r->out, b->start, '.');
		sb_buf_puts(r->out, "]");
	}
	if (o->show_timestamps && o->show_speakers)
		sb_buf_puts(r->out, " - ");
	if (o->show_speakers)
		sb_buf_put_plain(r->out, b->speaker);
	if (o->show_timestamps || o->show_speakers)
		sb_buf_puts(r->out, "\n");
}

int sb_write_txt(const struct sb_render *r)
{
	double next_tc = 0;
	for (size_t i = 0; i < r->t->n_blocks; i++) {
		const struct sb_block *b = &r->t->blocks[i];
		text_block_header(r, b);
		for (size_t j = 0; j < b->n_words; j++) {
			text_inline_time(r, &b->words[j], &next_tc);
			sb_buf_put_plain(r->out, b->words[j].text);
		}
		if (r->opt->show_comments && b->comment) {
			sb_buf_puts(r->out, "\n[Comment: ");
			sb_buf_put_plain(r->out, b->comment);
			sb_buf_puts(r->out, "]");
		}
		sb_buf_puts(r->out, "\n\n");
	}
	return 0;
}

/* Shared loop of the cue formats. */
static int text_cues(const struct sb_render *r, void (*emit)(const struct sb_render *r,
                                                            const struct sb_cue *c, size_t i))
{
	struct sb_cue *cues;
	size_t n;
	if (sb_cues_build(r->t, &cues, &n) < 0) {
		sb_render_error(r, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		emit(r, &cues[i], i);
	sb_cues_free(cues, n);
	return 0;
}

/* SRT has no escaping; "-->" in a text line would confuse readers that look
 * for the timing arrow anywhere, so it is shortened to "->". */
static void srt_text(struct sb_buf *b, const char *s)
{
	for (; *s; s++) {
		if (strncmp(s, "-->", 3) == 0)
			s++;
		sb_buf_append(b, s, 1);
	}
}

static void srt_emit(const struct sb_render *r, const struct sb_cue *c, size_t i)
{
	sb_buf_printf(r->out, "%zu\n", i + 1);
	sb_buf_put_time(r->out, c->start, ',');
	sb_buf_puts(r->out, " --> ");
	sb_buf_put_time(r->out, c->end, ',');
	sb_buf_puts(r->out, "\n");
	srt_text(r->out, c->text);
	sb_buf_puts(r->out, "\n\n");
}

int sb_write_srt(const struct sb_render *r)
{
	return text_cues(r, srt_emit);
}

/* WebVTT cue text: & < > are markup, so escape them; "-->" cannot occur then. */
static void vtt_text(struct sb_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			sb_buf_puts(b, "&amp;");
		else if (*s == '<')
			sb_buf_puts(b, "&lt;");
		else if (*s == '>')
			sb_buf_puts(b, "&gt;");
		else
			sb_buf_append(b, s, 1);
	}
}

static void vtt_emit(const struct sb_render *r, const struct sb_cue *c, size_t i)
{
	sb_buf_printf(r->out, "%zu\n", i + 1);
	sb_buf_put_time(r->out, c->start, '.');
	sb_buf_puts(r->out, " --> ");
	sb_buf_put_time(r->out, c->end, '.');
	sb_buf_puts(r->out, "\n<v ");
	vtt_text(r->out, c->block->speaker);
	sb_buf_puts(r->out, ">");
	vtt_text(r->out, c->text);
	sb_buf_puts(r->out, "\n\n");
}

int sb_write_vtt(const struct sb_render *r)
{
	sb_buf_puts(r->out, "WEBVTT\n\n");
	return text_cues(r, vtt_emit);
}

static void avid_tc(struct sb_buf *b, double t)
{
	long long f = llround((t > 0 ? t : 0) * AVID_FPS);
	sb_buf_printf(b, "%02lld:%02lld:%02lld:%02lld", f / (3600LL * AVID_FPS),
	              f / (60LL * AVID_FPS) % 60, f / AVID_FPS % 60, f % AVID_FPS);
}

/* Avid Media Composer marker list (tab separated, as its Markers window exports
 * and imports): user, timecode, track, colour, comment, duration in frames. */
static void avid_emit(const struct sb_render *r, const struct sb_cue *c, size_t i)
{
	long long dur = llround((c->end - c->start) * AVID_FPS);
	sb_buf_puts(r->out, "steno\t");
	avid_tc(r->out, c->start);
	sb_buf_puts(r->out, "\tV1\tyellow\t");
	sb_buf_put_plain(r->out, c->block->speaker);
	sb_buf_puts(r->out, ": ");
	sb_buf_puts(r->out, c->text);
	sb_buf_printf(r->out, "\t%lld\n", dur > 0 ? dur : 1);
}

int sb_write_avid(const struct sb_render *r)
{
	return text_cues(r, avid_emit);
}

/* MAXQDA transcript: one paragraph per speaker turn, opened by a MAXQDA time
 * stamp "#hh:mm:ss-t#" (t = tenths), then "Speaker: text". */
int sb_write_maxqda(const struct sb_render *r)
{
	for (size_t i = 0; i < r->t->n_blocks; i++) {
		const struct sb_block *b = &r->t->blocks[i];
		long long ds = llround((b->start > 0 ? b->start : 0) * 10);
		sb_buf_printf(r->out, "#%02lld:%02lld:%02lld-%lld# ", ds / 36000, ds / 600 % 60,
		              ds / 10 % 60, ds % 10);
		sb_buf_put_plain(r->out, b->speaker);
		sb_buf_puts(r->out, ": ");
		for (size_t j = 0; j < b->n_words; j++)
			sb_buf_put_plain(r->out, b->words[j].text);
		sb_buf_puts(r->out, "\n\n");
	}
	return 0;
}

int sb_write_json(const struct sb_render *r)
{
	char *s = sb_transcript_to_json(r->t, SB_JSON_EXPORT);
	if (!s) {
		sb_render_error(r, "out of memory");
		return -1;
	}
	sb_buf_puts(r->out, s);
	free(s);
	return 0;
}
