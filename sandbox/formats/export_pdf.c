#include "config.h"

#include "export_internal.h"

#include <hpdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* DejaVu Sans from fonts-dejavu-core, embedded in UTF-8 mode so any Latin,
 * Greek or Cyrillic text shows. It has no CJK glyphs: libharu then draws the
 * font's .notdef box for those characters, but the text stays in the content
 * stream with a ToUnicode map, so the file stays valid and pdftotext/search
 * still find the words. Without the font file, the built-in Helvetica is used
 * and every non-ASCII character is drawn as '?'.
 * libharu 2.4 embeds the whole font file (no subsetting: ~290 KB per PDF), so
 * only one face is embedded and bold is drawn as fill-then-stroke text. */
#define PDF_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

#define PDF_W 595.0f  /* A4 in points */
#define PDF_H 842.0f
#define PDF_MARGIN 56.0f
#define PDF_SIZE 11.0f
#define PDF_LEAD 15.0f

struct pdf {
	const struct sb_render *r;
	HPDF_Doc doc;
	HPDF_Page page;
	HPDF_Font font, bold; /* bold == font when bold is simulated */
	int utf8;             /* fonts take UTF-8; else ASCII only */
	float x, y;
	double next_tc;
	HPDF_STATUS error;    /* first error seen by the handler */
};

static void pdf_on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user_data)
{
	struct pdf *p = user_data;
	(void)detail_no;
	if (!p->error)
		p->error = error_no;
}

static void pdf_new_page(struct pdf *p)
{
	p->page = HPDF_AddPage(p->doc);
	if (!p->page)
		return;
	HPDF_Page_SetWidth(p->page, PDF_W);
	HPDF_Page_SetHeight(p->page, PDF_H);
	p->x = PDF_MARGIN;
	p->y = PDF_H - PDF_MARGIN;
}

/* Text as the font can take it: clean UTF-8, or ASCII with '?' when no TTF. */
static void pdf_clean(const struct pdf *p, const char *s, struct sb_buf *out)
{
	if (p->utf8) {
		sb_buf_put_plain(out, s);
		return;
	}
	const unsigned char *q = (const unsigned char *)s;
	while (*q) {
		unsigned cp = sb_utf8_next(&q);
		char c = cp >= 0x20 && cp < 0x7f ? (char)cp : cp == '\n' || cp == '\t' ? ' ' : '?';
		sb_buf_append(out, &c, 1);
	}
}

static void pdf_newline(struct pdf *p, float lead)
{
	p->x = PDF_MARGIN;
	p->y -= lead;
	if (p->y < PDF_MARGIN)
		pdf_new_page(p);
}

/* Draw one piece of text at the cursor, wrapping before it when it does not fit. */
static void pdf_text(struct pdf *p, int bold, const char *raw, int highlight, int grey)
{
	HPDF_Font font = bold ? p->bold : p->font;
	int fake_bold = bold && p->bold == p->font;
	struct sb_buf b = { 0 };
	pdf_clean(p, raw, &b);
	const char *s = b.data ? (const char *)b.data : "";
	if (p->error || !p->page || !*s) {
		sb_buf_free(&b);
		return;
	}
	HPDF_Page_SetFontAndSize(p->page, font, PDF_SIZE);
	float w = HPDF_Page_TextWidth(p->page, s);
	if (p->x + w > PDF_W - PDF_MARGIN && p->x > PDF_MARGIN) {
		pdf_newline(p, PDF_LEAD);
		if (strcmp(s, " ") == 0 || !p->page) {
			sb_buf_free(&b);
			return;
		}
		HPDF_Page_SetFontAndSize(p->page, font, PDF_SIZE);
	}
	if (highlight) {
		HPDF_Page_SetRGBFill(p->page, 1.0f, 1.0f, 0.0f);
		HPDF_Page_Rectangle(p->page, p->x, p->y - 3.0f, w, PDF_SIZE + 2.0f);
		HPDF_Page_Fill(p->page);
	}
	HPDF_Page_SetGrayFill(p->page, grey ? 0.45f : 0.0f);
	if (fake_bold) {
		HPDF_Page_SetGrayStroke(p->page, 0.0f);
		HPDF_Page_SetLineWidth(p->page, 0.35f);
	}
	HPDF_Page_BeginText(p->page);
	HPDF_Page_SetTextRenderingMode(p->page, fake_bold ? HPDF_FILL_THEN_STROKE : HPDF_FILL);
	HPDF_Page_TextOut(p->page, p->x, p->y, s);
	HPDF_Page_EndText(p->page);
	p->x += w;
	sb_buf_free(&b);
}

static void pdf_time(struct pdf *p, int bold, double t, const char *suffix, int grey)
{
	struct sb_buf b = { 0 };
	sb_buf_puts(&b, "[");
	sb_buf_put_time(&b, t, '.');
	sb_buf_puts(&b, "]");
	sb_buf_puts(&b, suffix);
	if (b.data)
		pdf_text(p, bold, (const char *)b.data, 0, grey);
	sb_buf_free(&b);
}

static void pdf_words(struct pdf *p, const struct sb_block *b)
{
	const struct sb_export_options *o = p->r->opt;
	int mark = o->show_highlights || o->show_highlights_only;
	for (size_t j = 0; j < b->n_words; j++) {
		const struct sb_word *w = &b->words[j];
		if (!sb_render_word_shown(p->r, w))
			continue;
		if (o->timestamps_frequency_s > 0 && strcmp(w->type, "word") == 0 && w->start >= p->next_tc) {
			pdf_time(p, 0, w->start, " ", 1);
			p->next_tc = (floor(w->start / o->timestamps_frequency_s) + 1) * o->timestamps_frequency_s;
		}
		pdf_text(p, 0, w->text, mark && w->highlighted, 0);
		if (o->show_highlights_only)
			pdf_text(p, 0, " ", 0, 0);
	}
}

static int pdf_block_shown(const struct sb_render *r, const struct sb_block *b)
{
	for (size_t j = 0; j < b->n_words; j++)
		if (strcmp(b->words[j].type, "spacing") != 0 && sb_render_word_shown(r, &b->words[j]))
			return 1;
	return 0;
}

static void pdf_block(struct pdf *p, const struct sb_block *b)
{
	const struct sb_export_options *o = p->r->opt;
	if (!pdf_block_shown(p->r, b))
		return;
	if (o->show_timestamps)
		pdf_time(p, 1, b->start, o->show_speakers ? " - " : "", 0);
	if (o->show_speakers)
		pdf_text(p, 1, b->speaker, 0, 0);
	if (o->show_timestamps || o->show_speakers)
		pdf_newline(p, PDF_LEAD);
	pdf_words(p, b);
	if (o->show_comments && b->comment) {
		pdf_newline(p, PDF_LEAD);
		pdf_text(p, 0, "Comment: ", 0, 1);
		pdf_text(p, 0, b->comment, 0, 1);
	}
	pdf_newline(p, PDF_LEAD * 1.6f);
}

static int pdf_fonts(struct pdf *p)
{
	if (access(PDF_FONT, R_OK) == 0 && HPDF_UseUTFEncodings(p->doc) == HPDF_OK &&
	    HPDF_SetCurrentEncoder(p->doc, "UTF-8") == HPDF_OK) {
		const char *n = HPDF_LoadTTFontFromFile(p->doc, PDF_FONT, HPDF_TRUE);
		p->font = n ? HPDF_GetFont(p->doc, n, "UTF-8") : NULL;
		p->bold = p->font;
		p->utf8 = 1;
	} else {
		p->font = HPDF_GetFont(p->doc, "Helvetica", NULL);
		p->bold = HPDF_GetFont(p->doc, "Helvetica-Bold", NULL);
	}
	return p->font && p->bold && !p->error ? 0 : -1;
}

static int pdf_save(struct pdf *p)
{
	if (HPDF_SaveToStream(p->doc) != HPDF_OK || p->error)
		return -1;
	HPDF_ResetStream(p->doc);
	for (;;) {
		unsigned char chunk[8192];
		HPDF_UINT32 n = sizeof chunk;
		HPDF_STATUS st = HPDF_ReadFromStream(p->doc, chunk, &n);
		sb_buf_append(p->r->out, chunk, n);
		if (st == HPDF_STREAM_EOF)
			break;
		if (st != HPDF_OK)
			return -1;
	}
	return p->r->out->failed ? -1 : 0;
}

static void pdf_content(struct pdf *p)
{
	HPDF_SetCompressionMode(p->doc, HPDF_COMP_ALL);
	struct sb_buf title = { 0 };
	pdf_clean(p, p->r->name, &title);
	if (title.data && p->utf8)
		HPDF_SetInfoAttr(p->doc, HPDF_INFO_TITLE, (const char *)title.data);
	sb_buf_free(&title);
	HPDF_SetInfoAttr(p->doc, HPDF_INFO_CREATOR, "steno-sandbox");
	pdf_new_page(p);
	pdf_text(p, 1, p->r->name, 0, 0);
	pdf_newline(p, PDF_LEAD * 2);
	for (size_t i = 0; i < p->r->t->n_blocks && !p->error; i++)
		pdf_block(p, &p->r->t->blocks[i]);
}

/* A4 pages of wrapped text; speaker/timestamp line above each turn when asked,
 * highlights as yellow boxes behind the words, comments in grey. */
int sb_write_pdf(const struct sb_render *r)
{
	struct pdf p = { .r = r };
	p.doc = HPDF_New(pdf_on_error, &p);
	if (!p.doc) {
		sb_render_error(r, "pdf: cannot create document");
		return -1;
	}
	int rc = pdf_fonts(&p);
	if (rc == 0) {
		pdf_content(&p);
		rc = p.error || !p.page ? -1 : pdf_save(&p);
	}
	if (rc < 0)
		sb_render_error(r, "pdf: libharu error 0x%04lx", (unsigned long)p.error);
	HPDF_Free(p.doc);
	return rc;
}
