#include "config.h"

#include "export_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W_NS "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#define XML_DECL "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"

static const char docx_rels[] =
	XML_DECL
	"<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
	"<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
	"relationships/officeDocument\" Target=\"word/document.xml\"/></Relationships>\n";

static const char docx_types_head[] =
	XML_DECL
	"<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
	"<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
	"<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
	"<Override PartName=\"/word/document.xml\" ContentType=\"application/"
	"vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>";

static const char docx_types_comments[] =
	"<Override PartName=\"/word/comments.xml\" ContentType=\"application/"
	"vnd.openxmlformats-officedocument.wordprocessingml.comments+xml\"/>";

static const char docx_doc_rels_head[] =
	XML_DECL "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">";

static const char docx_doc_rels_comments[] =
	"<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
	"relationships/comments\" Target=\"comments.xml\"/>";

/* The parts being written. */
struct docx {
	const struct sb_render *r;
	struct sb_buf doc, comments;
	int n_comments;
	double next_tc;
};

static void docx_run(struct sb_buf *b, const char *rpr, const char *text)
{
	sb_buf_puts(b, "<w:r>");
	if (rpr && *rpr)
		sb_buf_printf(b, "<w:rPr>%s</w:rPr>", rpr);
	sb_buf_puts(b, "<w:t xml:space=\"preserve\">");
	sb_buf_put_xml(b, text);
	sb_buf_puts(b, "</w:t></w:r>");
}

static void docx_time_run(struct sb_buf *b, double t, const char *suffix, const char *rpr)
{
	struct sb_buf s = { 0 };
	sb_buf_puts(&s, "[");
	sb_buf_put_time(&s, t, '.');
	sb_buf_puts(&s, "]");
	sb_buf_puts(&s, suffix);
	docx_run(b, rpr, s.data ? (const char *)s.data : "");
	sb_buf_free(&s);
}

static void docx_header(struct docx *d, const struct sb_block *b)
{
	const struct sb_export_options *o = d->r->opt;
	if (!o->show_timestamps && !o->show_speakers)
		return;
	sb_buf_puts(&d->doc, "<w:p>");
	if (o->show_timestamps)
		docx_time_run(&d->doc, b->start, o->show_speakers ? " - " : "", "<w:b/>");
	if (o->show_speakers)
		docx_run(&d->doc, "<w:b/>", b->speaker);
	sb_buf_puts(&d->doc, "</w:p>");
}

static int docx_block_shown(const struct sb_render *r, const struct sb_block *b)
{
	for (size_t j = 0; j < b->n_words; j++)
		if (strcmp(b->words[j].type, "spacing") != 0 && sb_render_word_shown(r, &b->words[j]))
			return 1;
	return 0;
}

static void docx_words(struct docx *d, const struct sb_block *b)
{
	const struct sb_export_options *o = d->r->opt;
	int mark = o->show_highlights || o->show_highlights_only;
	for (size_t j = 0; j < b->n_words; j++) {
		const struct sb_word *w = &b->words[j];
		int is_word = strcmp(w->type, "word") == 0;
		if (!sb_render_word_shown(d->r, w))
			continue;
		if (o->timestamps_frequency_s > 0 && is_word && w->start >= d->next_tc) {
			docx_time_run(&d->doc, w->start, " ", "<w:color w:val=\"808080\"/>");
			d->next_tc = (floor(w->start / o->timestamps_frequency_s) + 1) * o->timestamps_frequency_s;
		}
		docx_run(&d->doc, mark && w->highlighted ? "<w:highlight w:val=\"yellow\"/>" : NULL, w->text);
		if (o->show_highlights_only)
			docx_run(&d->doc, NULL, " "); /* words of a highlight-only digest stay apart */
	}
}

static void docx_block(struct docx *d, const struct sb_block *b)
{
	if (!docx_block_shown(d->r, b))
		return;
	int comment = d->r->opt->show_comments && b->comment;
	int id = d->n_comments;
	docx_header(d, b);
	sb_buf_puts(&d->doc, "<w:p>");
	if (comment)
		sb_buf_printf(&d->doc, "<w:commentRangeStart w:id=\"%d\"/>", id);
	docx_words(d, b);
	if (!comment) {
		sb_buf_puts(&d->doc, "</w:p>");
		return;
	}
	sb_buf_printf(&d->doc, "<w:commentRangeEnd w:id=\"%d\"/>"
	                       "<w:r><w:commentReference w:id=\"%d\"/></w:r></w:p>", id, id);
	sb_buf_printf(&d->comments, "<w:comment w:id=\"%d\" w:author=\"steno\" w:initials=\"st\">"
	                            "<w:p><w:r><w:t xml:space=\"preserve\">", id);
	sb_buf_put_xml(&d->comments, b->comment);
	sb_buf_puts(&d->comments, "</w:t></w:r></w:p></w:comment>");
	d->n_comments++;
}

static void docx_document(struct docx *d)
{
	sb_buf_puts(&d->doc, XML_DECL "<w:document xmlns:w=\"" W_NS "\"><w:body><w:p>");
	docx_run(&d->doc, "<w:b/><w:sz w:val=\"32\"/>", d->r->name);
	sb_buf_puts(&d->doc, "</w:p>");
	for (size_t i = 0; i < d->r->t->n_blocks; i++)
		docx_block(d, &d->r->t->blocks[i]);
	sb_buf_puts(&d->doc, "<w:sectPr><w:pgSz w:w=\"11906\" w:h=\"16838\"/></w:sectPr></w:body></w:document>\n");
}

static int docx_package(struct docx *d)
{
	struct sb_buf types = { 0 }, doc_rels = { 0 };
	sb_buf_puts(&types, docx_types_head);
	sb_buf_puts(&doc_rels, docx_doc_rels_head);
	if (d->n_comments) {
		sb_buf_puts(&types, docx_types_comments);
		sb_buf_puts(&doc_rels, docx_doc_rels_comments);
	}
	sb_buf_puts(&types, "</Types>\n");
	sb_buf_puts(&doc_rels, "</Relationships>\n");
	struct sb_zip_entry e[5] = {
		{ "[Content_Types].xml", types.data, types.len },
		{ "_rels/.rels", (const unsigned char *)docx_rels, sizeof docx_rels - 1 },
		{ "word/_rels/document.xml.rels", doc_rels.data, doc_rels.len },
		{ "word/document.xml", d->doc.data, d->doc.len },
		{ "word/comments.xml", d->comments.data, d->comments.len },
	};
	int rc = -1;
	unsigned char *zip;
	size_t len;
	if (types.failed || doc_rels.failed || d->doc.failed || d->comments.failed)
		sb_render_error(d->r, "out of memory");
	else if (sb_zip_build(e, d->n_comments ? 5 : 4, &zip, &len, d->r->err, d->r->errlen) == 0) {
		sb_buf_append(d->r->out, zip, len);
		free(zip);
		rc = d->r->out->failed ? -1 : 0;
	}
	sb_buf_free(&types);
	sb_buf_free(&doc_rels);
	return rc;
}

/* A WordprocessingML package: [Content_Types].xml, _rels/.rels,
 * word/document.xml (+ word/comments.xml and its relationship when comments are
 * shown). Speakers and timestamps go in a bold line above each turn; highlights
 * use w:highlight; comments are real Word comments anchored on the turn. */
int sb_write_docx(const struct sb_render *r)
{
	struct docx d = { .r = r };
	sb_buf_puts(&d.comments, XML_DECL "<w:comments xmlns:w=\"" W_NS "\">");
	docx_document(&d);
	sb_buf_puts(&d.comments, "</w:comments>\n");
	int rc = docx_package(&d);
	sb_buf_free(&d.doc);
	sb_buf_free(&d.comments);
	return rc;
}
