#include "config.h"

#include "export_internal.h"

#include <math.h>
#include <string.h>

/* Frame rate of the Premiere and Final Cut sequences. */
#define XML_FPS 25

/* ---------------------------------------------------------------- html */

/* Served as a standalone page; written as polyglot HTML5 (also well-formed XML)
 * so both browsers and XML tools read it. The script has no '<' or '&' so it
 * needs no CDATA. */
static const char html_head_style[] =
	"<style>body{font-family:sans-serif;max-width:48em;margin:2em auto;line-height:1.6}"
	".speaker{font-weight:bold;margin-top:1em}.time{color:#777;font-size:.85em;margin-left:.5em}"
	".w{cursor:pointer}.w.hl{background:#ff0}.w.on{background:#9cf}.comment{color:#a60;font-style:italic}"
	"#now{position:sticky;top:0;background:#eee;padding:.3em}</style>\n";

static const char html_script[] =
	"<script>\n"
	"document.addEventListener('click', function (e) {\n"
	"  var w = e.target.closest('.w');\n"
	"  if (!w) return;\n"
	"  document.querySelectorAll('.w.on').forEach(function (x) { x.classList.remove('on'); });\n"
	"  w.classList.add('on');\n"
	"  document.getElementById('now').textContent = 'Word at ' + w.dataset.start + ' s - ' + w.dataset.end + ' s';\n"
	"});\n"
	"</script>\n";

static void html_word(const struct sb_render *r, const struct sb_word *w)
{
	if (strcmp(w->type, "word") != 0) {
		sb_buf_put_xml(r->out, w->text);
		return;
	}
	sb_buf_printf(r->out, "<span class=\"w%s\" data-start=\"%.3f\" data-end=\"%.3f\">",
	              w->highlighted ? " hl" : "", w->start, w->end);
	sb_buf_put_xml(r->out, w->text);
	sb_buf_puts(r->out, "</span>");
}

int sb_write_html(const struct sb_render *r)
{
	struct sb_buf *o = r->out;
	sb_buf_puts(o, "<!DOCTYPE html>\n<html lang=\"");
	sb_buf_put_xml(o, r->t->language ? r->t->language : "en");
	sb_buf_puts(o, "\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>");
	sb_buf_put_xml(o, r->name);
	sb_buf_puts(o, "</title>\n");
	sb_buf_puts(o, html_head_style);
	sb_buf_puts(o, "</head>\n<body>\n<h1>");
	sb_buf_put_xml(o, r->name);
	sb_buf_puts(o, "</h1>\n<div id=\"now\">Click a word to see its time.</div>\n<div id=\"transcript\">\n");
	for (size_t i = 0; i < r->t->n_blocks; i++) {
		const struct sb_block *b = &r->t->blocks[i];
		sb_buf_printf(o, "<div class=\"block\" data-start=\"%.3f\" data-end=\"%.3f\" "
		                 "data-speaker-number=\"%d\">\n<div class=\"speaker\">",
		              b->start, b->end, b->speaker_number);
		sb_buf_put_xml(o, b->speaker);
		sb_buf_puts(o, "<span class=\"time\">");
		sb_buf_put_time(o, b->start, '.');
		sb_buf_puts(o, "</span></div>\n<p>");
		for (size_t j = 0; j < b->n_words; j++)
			html_word(r, &b->words[j]);
		sb_buf_puts(o, "</p>\n");
		if (b->comment) {
			sb_buf_puts(o, "<p class=\"comment\">");
			sb_buf_put_xml(o, b->comment);
			sb_buf_puts(o, "</p>\n");
		}
		sb_buf_puts(o, "</div>\n");
	}
	sb_buf_puts(o, "</div>\n");
	sb_buf_puts(o, html_script);
	sb_buf_puts(o, "</body>\n</html>\n");
	return 0;
}

/* ---------------------------------------------------------------- premiere */

static long long xml_frames(double t)
{
	return llround((t > 0 ? t : 0) * XML_FPS);
}

static double xml_duration(const struct sb_transcript *t)
{
	return t->n_blocks ? t->blocks[t->n_blocks - 1].end : 0;
}

static void premiere_marker(const struct sb_render *r, const struct sb_cue *c)
{
	long long in = xml_frames(c->start), out = xml_frames(c->end);
	sb_buf_puts(r->out, "    <marker>\n      <name>");
	sb_buf_put_xml(r->out, c->block->speaker);
	sb_buf_puts(r->out, "</name>\n      <comment>");
	sb_buf_put_xml(r->out, c->text);
	sb_buf_printf(r->out, "</comment>\n      <in>%lld</in>\n      <out>%lld</out>\n    </marker>\n",
	              in, out > in ? out : in + 1);
}

/* Final Cut Pro 7 XML interchange (xmeml v4), which Premiere Pro imports: one
 * sequence with a marker per subtitle cue. */
int sb_write_premiere(const struct sb_render *r)
{
	struct sb_cue *cues;
	size_t n;
	if (sb_cues_build(r->t, &cues, &n) < 0) {
		sb_render_error(r, "out of memory");
		return -1;
	}
	struct sb_buf *o = r->out;
	sb_buf_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE xmeml>\n"
	               "<xmeml version=\"4\">\n  <sequence id=\"sequence-1\">\n    <name>");
	sb_buf_put_xml(o, r->name);
	sb_buf_printf(o, "</name>\n    <duration>%lld</duration>\n"
	                 "    <rate>\n      <timebase>%d</timebase>\n      <ntsc>FALSE</ntsc>\n    </rate>\n"
	                 "    <timecode>\n      <rate>\n        <timebase>%d</timebase>\n"
	                 "        <ntsc>FALSE</ntsc>\n      </rate>\n      <string>00:00:00:00</string>\n"
	                 "      <frame>0</frame>\n      <displayformat>NDF</displayformat>\n"
	                 "    </timecode>\n    <media>\n      <video>\n        <track/>\n"
	                 "      </video>\n    </media>\n",
	              xml_frames(xml_duration(r->t)), XML_FPS, XML_FPS);
	for (size_t i = 0; i < n; i++)
		premiere_marker(r, &cues[i]);
	sb_buf_puts(o, "  </sequence>\n</xmeml>\n");
	sb_cues_free(cues, n);
	return 0;
}

/* ---------------------------------------------------------------- fcp */

static void fcp_title(const struct sb_render *r, const struct sb_cue *c, size_t i)
{
	long long in = xml_frames(c->start), out = xml_frames(c->end);
	if (out <= in)
		out = in + 1;
	sb_buf_printf(r->out, "            <title ref=\"r2\" lane=\"1\" offset=\"%lld/%ds\" "
	                      "duration=\"%lld/%ds\" start=\"0s\" name=\"",
	              in, XML_FPS, out - in, XML_FPS);
	sb_buf_put_xml(r->out, c->text);
	sb_buf_printf(r->out, "\">\n              <text>\n                <text-style ref=\"ts%zu\">", i + 1);
	sb_buf_put_xml(r->out, c->text);
	sb_buf_printf(r->out, "</text-style>\n              </text>\n"
	                      "              <text-style-def id=\"ts%zu\">\n"
	                      "                <text-style font=\"Helvetica\" fontSize=\"48\" "
	                      "alignment=\"center\"/>\n              </text-style-def>\n"
	                      "            </title>\n", i + 1);
}

/* FCPXML 1.8: one project whose spine holds a gap spanning the media, with a
 * Basic Title per subtitle cue on lane 1. */
int sb_write_fcp(const struct sb_render *r)
{
	struct sb_cue *cues;
	size_t n;
	if (sb_cues_build(r->t, &cues, &n) < 0) {
		sb_render_error(r, "out of memory");
		return -1;
	}
	struct sb_buf *o = r->out;
	long long total = xml_frames(xml_duration(r->t));
	if (n && xml_frames(cues[n - 1].end) > total)
		total = xml_frames(cues[n - 1].end);
	sb_buf_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE fcpxml>\n"
	               "<fcpxml version=\"1.8\">\n  <resources>\n"
	               "    <format id=\"r1\" name=\"FFVideoFormat1080p25\" frameDuration=\"1/25s\" "
	               "width=\"1920\" height=\"1080\"/>\n"
	               "    <effect id=\"r2\" name=\"Basic Title\" uid=\".../Titles.localized/"
	               "Bumper:Opener.localized/Basic Title.localized/Basic Title.moti\"/>\n"
	               "  </resources>\n  <library>\n    <event name=\"steno\">\n      <project name=\"");
	sb_buf_put_xml(o, r->name);
	sb_buf_printf(o, "\">\n        <sequence format=\"r1\" duration=\"%lld/%ds\" tcStart=\"0s\" "
	                 "tcFormat=\"NDF\">\n          <spine>\n"
	                 "            <gap name=\"Gap\" offset=\"0s\" duration=\"%lld/%ds\" start=\"0s\">\n",
	              total, XML_FPS, total, XML_FPS);
	for (size_t i = 0; i < n; i++)
		fcp_title(r, &cues[i], i);
	sb_buf_puts(o, "            </gap>\n          </spine>\n        </sequence>\n      </project>\n"
	               "    </event>\n  </library>\n</fcpxml>\n");
	sb_cues_free(cues, n);
	return 0;
}
