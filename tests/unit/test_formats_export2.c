/* Export formats, part 2: XML formats, docx and pdf, checked with real tools. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "formats/export.h"
#include "formats/transcript.h"
#include "test_formats_util.h"

TestSuite(export2, .fini = tf_cleanup);

Test(export2, xml_formats_are_well_formed_and_escaped)
{
	static const char *const fmts[] = { "html", "premiere", "fcp" };
	struct sb_transcript t;
	size_t len;
	tf_tricky(&t);
	for (size_t i = 0; i < 3; i++) {
		char name[32];
		char *s = (char *)tf_render(fmts[i], &t, "Name <&> \"x\"", NULL, &len);
		snprintf(name, sizeof name, "tricky.%s.xml", fmts[i]);
		cr_assert(tf_xml_ok(name, s, len), "%s is not well-formed", fmts[i]);
		cr_assert_null(strstr(s, "<b>"), "%s: raw markup from the transcript", fmts[i]);
		cr_assert_null(strchr(s, '\x01'), "%s: control byte", fmts[i]);
		cr_assert_not_null(strstr(s, "&lt;b&gt;Été"), "%s", fmts[i]);
		free(s);
	}
	sb_transcript_free(&t);
	tf_generate(&t, 6, 80, "zh");
	for (size_t i = 0; i < 3; i++) {
		char *s = (char *)tf_render(fmts[i], &t, "会议", NULL, &len);
		cr_assert(tf_xml_ok("gen.xml", s, len), "%s is not well-formed", fmts[i]);
		free(s);
	}
	sb_transcript_free(&t);
}

Test(export2, html_has_timed_words)
{
	struct sb_transcript t;
	size_t len;
	tf_generate(&t, 6, 30, "en");
	char *s = (char *)tf_render("html", &t, "n", NULL, &len);
	cr_assert_eq(strncmp(s, "<!DOCTYPE html>\n<html lang=\"en\">", 32), 0);
	cr_assert_not_null(strstr(s, "<meta charset=\"utf-8\"/>"));
	cr_assert_not_null(strstr(s, "class=\"w\" data-start=\"0.000\" data-end=\""));
	cr_assert_not_null(strstr(s, "<script>"));
	if (tf_have("xmllint")) { /* the HTML parser must not complain about structure either */
		char cmd[600];
		snprintf(cmd, sizeof cmd, "xmllint --html --noout '%s' 2>&1",
		         tf_write("p.html", s, len));
		char *out;
		tf_run(cmd, &out);
		cr_assert_str_eq(out, "", "html parser: %s", out);
		free(out);
	}
	free(s);
	sb_transcript_free(&t);
}

Test(export2, premiere_and_fcp_structure)
{
	struct sb_transcript t;
	size_t len;
	tf_generate(&t, 6, 30, "en");
	char *s = (char *)tf_render("premiere", &t, "n", NULL, &len);
	cr_assert_not_null(strstr(s, "<xmeml version=\"4\">"));
	cr_assert_not_null(strstr(s, "<marker>"));
	cr_assert_not_null(strstr(s, "<in>0</in>"));
	free(s);
	s = (char *)tf_render("fcp", &t, "n", NULL, &len);
	cr_assert_not_null(strstr(s, "<fcpxml version=\"1.8\">"));
	cr_assert_not_null(strstr(s, "<title ref=\"r2\" lane=\"1\" offset=\"0/25s\""));
	cr_assert_not_null(strstr(s, "duration=\"750/25s\""), "sequence spans 30 s");
	free(s);
	sb_transcript_free(&t);
}

/* The bytes of one entry of a ZIP held in memory (NULL when absent). */
static char *zip_entry(const unsigned char *zipb, size_t len, const char *name)
{
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_buffer_create(zipb, len, 0, &ze);
	zip_t *z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	cr_assert_not_null(z, "docx is not a ZIP: %s", zip_error_strerror(&ze));
	zip_error_fini(&ze);
	zip_stat_t st;
	char *data = NULL;
	if (zip_stat(z, name, 0, &st) == 0) {
		zip_file_t *f = zip_fopen(z, name, 0);
		cr_assert_not_null(f);
		data = calloc(1, st.size + 1);
		cr_assert_eq(zip_fread(f, data, st.size), (zip_int64_t)st.size);
		zip_fclose(f);
	}
	zip_close(z);
	return data;
}

static char *docx_part(const struct sb_transcript *t, const struct sb_export_options *o,
                       const char *part)
{
	size_t len;
	unsigned char *d = tf_render("docx", t, "Doc & <title>", o, &len);
	char *x = zip_entry(d, len, part);
	if (x)
		cr_assert(tf_xml_ok("part.xml", x, strlen(x)), "%s not well-formed", part);
	free(d);
	return x;
}

Test(export2, docx_is_an_ooxml_package)
{
	struct sb_transcript t;
	size_t len;
	tf_tricky(&t);
	unsigned char *d = tf_render("docx", &t, "n", NULL, &len);
	static const char *const parts[] = { "[Content_Types].xml", "_rels/.rels",
	                                     "word/_rels/document.xml.rels", "word/document.xml" };
	for (size_t i = 0; i < 4; i++) {
		char *x = zip_entry(d, len, parts[i]);
		cr_assert_not_null(x, "missing %s", parts[i]);
		cr_assert(tf_xml_ok("p.xml", x, strlen(x)), "%s not well-formed", parts[i]);
		free(x);
	}
	if (tf_have("unzip")) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "unzip -tq '%s'", tf_write("t.docx", d, len));
		cr_assert_eq(tf_run(cmd, NULL), 0, "unzip -t");
	}
	free(d);
	sb_transcript_free(&t);
}

Test(export2, docx_options_are_honoured)
{
	struct sb_transcript t;
	struct sb_export_options o = { 0 };
	tf_tricky(&t);
	char *x = docx_part(&t, &o, "word/document.xml");
	cr_assert_null(strstr(x, "Anne"), "no speakers unless asked");
	cr_assert_null(strstr(x, "[00:"), "no timestamps unless asked");
	cr_assert_null(strstr(x, "w:highlight"));
	cr_assert_null(strstr(x, "commentReference"));
	cr_assert_not_null(strstr(x, "&lt;b&gt;Été"));
	free(x);
	o = (struct sb_export_options){ .show_speakers = 1, .show_timestamps = 1, .show_comments = 1,
	                                .show_highlights = 1, .timestamps_frequency_s = 5 };
	x = docx_part(&t, &o, "word/document.xml");
	cr_assert_not_null(strstr(x, "[00:00:00.500] - </w:t>"));
	cr_assert_not_null(strstr(x, "Anne &lt;&amp;&gt; &quot;Ré&quot;"));
	cr_assert_not_null(strstr(x, "<w:highlight w:val=\"yellow\"/>"));
	cr_assert_not_null(strstr(x, "<w:commentReference w:id=\"0\"/>"));
	cr_assert_not_null(strstr(x, "<w:color w:val=\"808080\"/></w:rPr><w:t xml:space=\"preserve\">[00:00:00.500] </w:t>"),
	                   "inline timecode before the first word");
	free(x);
	x = docx_part(&t, &o, "word/comments.xml");
	cr_assert_not_null(x, "comments part");
	cr_assert_not_null(strstr(x, "a &lt;note&gt; &amp; more"));
	free(x);
	o = (struct sb_export_options){ .show_highlights_only = 1 };
	x = docx_part(&t, &o, "word/document.xml");
	cr_assert_not_null(strstr(x, "straße"));
	cr_assert_null(strstr(x, "quoted"), "only highlighted words");
	free(x);
	sb_transcript_free(&t);
}

static char *pdf_text(const unsigned char *pdf, size_t len)
{
	if (!tf_have("pdfinfo") || !tf_have("pdftotext"))
		cr_skip_test("poppler-utils (pdfinfo, pdftotext) not installed");
	char *path = tf_write("t.pdf", pdf, len);
	char cmd[600], *out;
	snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>&1", path);
	int rc = tf_run(cmd, &out);
	cr_assert_eq(rc, 0, "pdfinfo: %s", out);
	cr_assert_not_null(strstr(out, "Pages:"));
	free(out);
	/* stderr dropped: libharu 2.4's UTF-8 ToUnicode CMap makes poppler warn
	 * ("Invalid 'begincidrange'") although it extracts the text fine */
	snprintf(cmd, sizeof cmd, "pdftotext -enc UTF-8 '%s' - 2>/dev/null", path);
	cr_assert_eq(tf_run(cmd, &out), 0);
	return out;
}

Test(export2, pdf_is_valid_and_shows_words)
{
	struct sb_transcript t;
	struct sb_export_options o = { 0 };
	size_t len;
	tf_tricky(&t);
	unsigned char *p = tf_render("pdf", &t, "Entretien é", &o, &len);
	cr_assert_eq(memcmp(p, "%PDF-", 5), 0);
	char *text = pdf_text(p, len);
	cr_assert_not_null(strstr(text, "<b>Été"), "pdftotext: %s", text);
	cr_assert_not_null(strstr(text, "straße"), "pdftotext: %s", text);
	cr_assert_not_null(strstr(text, "Entretien é"));
	cr_assert_null(strstr(text, "Anne"), "no speaker unless asked");
	free(text);
	free(p);
	o = (struct sb_export_options){ .show_speakers = 1, .show_timestamps = 1, .show_comments = 1,
	                                .show_highlights = 1 };
	p = tf_render("pdf", &t, "n", &o, &len);
	text = pdf_text(p, len);
	cr_assert_not_null(strstr(text, "[00:00:00.500] - Anne"), "pdftotext: %s", text);
	cr_assert_not_null(strstr(text, "a <note> & more"));
	free(text);
	free(p);
	sb_transcript_free(&t);
}

Test(export2, pdf_long_transcript_has_many_pages)
{
	struct sb_transcript t;
	size_t len;
	tf_generate(&t, 6, 900, "en");
	unsigned char *p = tf_render("pdf", &t, "n", NULL, &len);
	char *text = pdf_text(p, len);
	cr_assert_not_null(strstr(text, t.blocks[t.n_blocks - 1].words[0].text));
	free(text);
	char cmd[600], *out;
	snprintf(cmd, sizeof cmd, "pdfinfo '%s/t.pdf' | grep Pages:", tf_dir());
	tf_run(cmd, &out);
	cr_assert_gt(atoi(out + 6), 3, "%s", out);
	free(out);
	free(p);
	sb_transcript_free(&t);
}

/* Every byte value (raw, so also invalid UTF-8) and every control character in
 * a word, a speaker and a comment: the XML formats stay well-formed. */
Test(export2, hostile_bytes_stay_well_formed)
{
	char json[2048], text[600];
	size_t k = 0;
	for (int c = 1; c < 256; c++) {
		if (c < 0x20)
			k += (size_t)snprintf(text + k, sizeof text - k, "\\u%04x", c);
		else if (c == '"' || c == '\\')
			k += (size_t)snprintf(text + k, sizeof text - k, "\\%c", c);
		else
			text[k++] = (char)c;
	}
	text[k] = 0;
	snprintf(json, sizeof json, "[{\"speaker\":\"%s\",\"speaker_number\":1,\"comment\":\"%s\","
	         "\"words\":[{\"text\":\"%s\",\"type\":\"word\",\"data_start\":0,\"data_end\":1}]}]",
	         text, text, text);
	struct sb_transcript t;
	struct sb_export_options o = { .show_speakers = 1, .show_comments = 1, .show_timestamps = 1 };
	char err[128] = "";
	cr_assert_eq(sb_transcript_from_json(&t, json, "en", err, sizeof err), 0, "%s", err);
	static const char *const fmts[] = { "html", "premiere", "fcp" };
	for (size_t i = 0; i < 3; i++) {
		size_t len;
		char *s = (char *)tf_render(fmts[i], &t, text, &o, &len);
		cr_assert(tf_xml_ok("hostile.xml", s, len), "%s", fmts[i]);
		free(s);
	}
	char *x = docx_part(&t, &o, "word/document.xml");
	free(x);
	x = docx_part(&t, &o, "word/comments.xml");
	free(x);
	size_t len;
	unsigned char *p = tf_render("pdf", &t, text, &o, &len);
	free(pdf_text(p, len));
	free(p);
	sb_transcript_free(&t);
}
