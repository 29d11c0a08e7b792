#include "config.h"
#include "api/request.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api/jget.h"
#include "api/spec_tables.h"
#include "api/utf8.h"

/* Validation of request bodies before anything is sent (api/request.h). Every failure
 * names the request field and says what is allowed. */

#define PRO_LANGS "Dutch, English, French, German, Italian, Polish, Portuguese and Spanish codes " \
	"(e.g. en-US, fr-FR, es-MX)"

static bool is_blank(const char *s)
{
	return !s || !*s;
}

static int check_text(const char *field, const char *s, struct steno_error *err)
{
	if (s && !jget_utf8_valid(s, strlen(s)))
		return steno_error_invalid(err, field, "%s must be valid UTF-8 text", field);
	return 0;
}

static int check_required(const char *field, const char *s, struct steno_error *err)
{
	if (is_blank(s))
		return steno_error_invalid(err, field, "%s is required", field);
	return check_text(field, s, err);
}

static bool is_http_url(const char *s)
{
	return s && ((strncasecmp(s, "http://", 7) == 0 && s[7]) ||
		     (strncasecmp(s, "https://", 8) == 0 && s[8]));
}

/* An optional URL: NULL is fine, anything else must be http(s). */
static int check_url(const char *field, const char *s, bool required, struct steno_error *err)
{
	if (!s && !required)
		return 0;
	if (check_required(field, s, err) < 0)
		return -1;
	if (!is_http_url(s))
		return steno_error_invalid(err, field, "%s must be an http:// or https:// URL", field);
	return 0;
}

static int check_list(const char *field, const char *const *v, size_t n, struct steno_error *err)
{
	if (n && !v)
		return steno_error_invalid(err, field, "%s has %zu entries but no array", field, n);
	for (size_t i = 0; i < n; i++)
		if (check_required(field, v[i], err) < 0)
			return steno_error_invalid(err, field, "every entry of %s must be non-empty UTF-8 text",
						   field);
	return 0;
}

/* A known code is checked with its rules; with `any`, a well-formed unknown one (the real
 * service takes "en") is left to the server, rules included. */
static bool language_left_to_server(const char *lang, bool any)
{
	return any && lang && !spec_language_is_valid(lang) && spec_language_is_well_formed(lang);
}

static int check_transcription_language(const char *lang, bool any, struct steno_error *err)
{
	if (check_required("language", lang, err) < 0)
		return -1;
	if (!spec_language_is_valid(lang) && !language_left_to_server(lang, any))
		return steno_error_invalid(err, "language",
					   "\"%.*s\" is not a transcription language; use a BCP-47 code "
					   "of the API such as en-US, fr-FR, de-DE, cmn-Hans-CN",
					   STENO_UTF8_CUT(lang, 32));
	return 0;
}

/* service: NULL (auto) or a service valid for this endpoint; pro needs a pro language. */
static int check_service(const char *service, bool for_order, const char *lang,
			 struct steno_error *err)
{
	if (!service)
		return 0;
	const struct spec_service *s = spec_service_find(service);
	if (!s || (for_order ? !s->order : !s->transcription))
		return steno_error_invalid(err, "service", "service must be %s",
					   for_order ? "auto or pro" : "auto, pro or alignment");
	if (lang && strcmp(service, "pro") == 0 && !spec_language_is_pro(lang))
		return steno_error_invalid(err, "language",
					   "the pro service is not available for %.*s; it is for "
					   PRO_LANGS, STENO_UTF8_CUT(lang, 32));
	return 0;
}

/* Verbatim and SDH come from the style guide (spec 2.7, 8). */
static int check_style(bool verbatim, bool sdh, const char *service, const char *lang,
		       struct steno_error *err)
{
	bool pro = service && strcmp(service, "pro") == 0;
	if (verbatim && (!pro || !spec_language_verbatim_ok(lang)))
		return steno_error_invalid(err, "style_guide_id",
					   "verbatim style guides need the pro service and an English, "
					   "Spanish, French or German language");
	if (sdh && (!pro || !spec_language_sdh_ok(lang)))
		return steno_error_invalid(err, "style_guide_id",
					   "SDH style guides need the pro service and an English, "
					   "Spanish or French language");
	return 0;
}

static int check_source_language(const char *lang, struct steno_error *err)
{
	if (lang && !spec_translation_source_for(lang))
		return steno_error_invalid(err, "source_transcription_id",
					   "a transcription in %.*s cannot be translated; supported "
					   "sources are the target languages with Chinese as cmn-Hans-CN, "
					   "cmn-Hans-HK or cmn-Hant-TW and Portuguese as pt",
					   STENO_UTF8_CUT(lang, 32));
	return 0;
}

static int check_target(const char *field, const char *t, struct steno_error *err)
{
	if (check_required(field, t, err) < 0)
		return -1;
	if (!spec_target_language_is_valid(t))
		return steno_error_invalid(err, field,
					   "\"%.*s\" is not a target translation language; use a code "
					   "such as fr, de, es, pt-BR, pt-PT, zh", STENO_UTF8_CUT(t, 32));
	return 0;
}

/* A translation into the transcription's own language (en-US into en, cmn-Hans-CN into zh)
 * would give the same text back: refused. */
static int check_not_source(const char *field, const char *target, const char *source_lang,
			    struct steno_error *err)
{
	const char *src = spec_translation_source_for(source_lang);
	if (!src || !target)
		return 0;
	size_t tn = strcspn(target, "-"), sn = strcspn(src, "-");
	bool chinese = (tn == 2 && !strncmp(target, "zh", 2)) &&
		       (!strncmp(src, "cmn", 3) || !strncmp(src, "yue", 3));
	bool same = strcmp(target, src) == 0 ||
		    (tn == sn && !strncmp(target, src, tn) && strcmp(src, "pt") != 0) || chinese;
	if (same)
		return steno_error_invalid(err, field, "%.*s is the transcription's own language "
					   "(%.*s): a translation needs another one",
					   STENO_UTF8_CUT(target, 32), STENO_UTF8_CUT(source_lang, 32));
	return 0;
}

int steno_validate_transcription_create(const struct steno_transcription_create_req *r,
					struct steno_error *err)
{
	bool legacy = r->form == STENO_FORM_LEGACY;
	bool alignment = r->service && strcmp(r->service, "alignment") == 0;

	if (check_required("name", r->name, err) < 0 ||
	    check_transcription_language(r->language, r->any_language, err) < 0 ||
	    check_url("tmp_url", r->tmp_url, true, err) < 0 ||
	    check_service(r->service, false,
			  language_left_to_server(r->language, r->any_language) ? NULL : r->language,
			  err) < 0)
		return -1;
	/* Both forms need organization_id; the earlier one also folder_id (spec 9). */
	if (check_required("organization_id", r->organization_id, err) < 0 ||
	    (legacy && check_required("folder_id", r->folder_id, err) < 0))
		return -1;
	if (check_text("folder_id", r->folder_id, err) < 0 || check_text("folder", r->folder, err) < 0)
		return -1;
	if (alignment && check_url("document_url", r->document_url, true, err) < 0)
		return -1;
	if (!alignment && r->document_url)
		return steno_error_invalid(err, "document_url",
					   "document_url is only for the alignment service");
	if (legacy && r->folder)
		return steno_error_invalid(err, "folder", "the earlier API form has no folder; use folder_id");
	if (legacy && r->n_tags)
		return steno_error_invalid(err, "tags", "the earlier API form has no tags");
	if (!legacy && r->use_vocabulary)
		return steno_error_invalid(err, "use_vocabulary",
					   "use_vocabulary exists only in the earlier API form");
	return check_list("tags", r->tags, r->n_tags, err);
}

/* The formats that allow an option, e.g. "txt, docx, pdf". */
static void formats_allowing(unsigned bit, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < spec_export_format_count(); i++) {
		const struct spec_export_format *f = spec_export_format_at(i);
		if (!(f->options & bit))
			continue;
		int k = snprintf(buf + o, size - o, "%s%s", o ? ", " : "", f->name);
		if (k < 0 || (size_t)k >= size - o)
			break;
		o += (size_t)k;
	}
}

static int check_export_option(const struct spec_export_format *f, unsigned bit, bool on,
			       struct steno_error *err)
{
	char list[64];
	if (!on || (f->options & bit))
		return 0;
	formats_allowing(bit, list, sizeof(list));
	return steno_error_invalid(err, spec_export_option_name(bit), "%s is only for the formats %s",
				   spec_export_option_name(bit), list);
}

static int check_export_legacy(const struct steno_export_create_req *r, struct steno_error *err)
{
	if (r->form != STENO_FORM_LEGACY)
		return 0;
	if (r->timestamps_frequency)
		return steno_error_invalid(err, "timestamps_frequency",
					   "the earlier API form has no timestamps_frequency");
	if (r->show_highlights_only)
		return steno_error_invalid(err, "show_highlights_only",
					   "the earlier API form has no show_highlights_only");
	return 0;
}

int steno_validate_export_create(const struct steno_export_create_req *r, struct steno_error *err)
{
	if (check_required("format", r->format, err) < 0)
		return -1;
	const struct spec_export_format *f = spec_export_format_find(r->format);
	if (!f)
		return steno_error_invalid(err, "format",
					   "format must be one of txt, docx, pdf, srt, vtt, stl, avid, "
					   "html, premiere, maxqda, json, fcp");
	if (r->n_transcription_ids == 0)
		return steno_error_invalid(err, "transcription_ids",
					   "transcription_ids needs at least one transcription");
	if (check_list("transcription_ids", r->transcription_ids, r->n_transcription_ids, err) < 0 ||
	    check_export_legacy(r, err) < 0 ||
	    check_export_option(f, SPEC_EXPORT_OPT_SHOW_TIMESTAMPS, r->show_timestamps, err) < 0 ||
	    check_export_option(f, SPEC_EXPORT_OPT_SHOW_SPEAKERS, r->show_speakers, err) < 0 ||
	    check_export_option(f, SPEC_EXPORT_OPT_SHOW_COMMENTS, r->show_comments, err) < 0 ||
	    check_export_option(f, SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS, r->show_highlights, err) < 0 ||
	    check_export_option(f, SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS_ONLY, r->show_highlights_only,
				err) < 0)
		return -1;
	if (!r->timestamps_frequency)
		return 0;
	if (!spec_timestamps_frequency_is_valid(r->timestamps_frequency))
		return steno_error_invalid(err, "timestamps_frequency",
					   "timestamps_frequency must be one of 5s, 10s, 15s, 20s, 30s, 60s");
	return check_export_option(f, SPEC_EXPORT_OPT_TIMESTAMPS_FREQUENCY, true, err);
}

int steno_validate_translation_task(const struct steno_translation_task_req *r,
				    struct steno_error *err)
{
	if (check_required("source_transcription_id", r->source_transcription_id, err) < 0 ||
	    check_target("target_language", r->target_language, err) < 0 ||
	    check_source_language(r->source_language, err) < 0 ||
	    check_not_source("target_language", r->target_language, r->source_language, err) < 0)
		return -1;
	return 0;
}

int steno_validate_order_create(const struct steno_order_create_req *r, struct steno_error *err)
{
	if (check_url("url", r->url, true, err) < 0 ||
	    check_transcription_language(r->language, r->any_language, err) < 0 ||
	    check_required("organization_id", r->organization_id, err) < 0 ||
	    check_service(r->service, true,
			  language_left_to_server(r->language, r->any_language) ? NULL : r->language,
			  err) < 0 ||
	    check_url("webhook_url", r->webhook_url, false, err) < 0 ||
	    check_text("folder_id", r->folder_id, err) < 0 || check_text("folder", r->folder, err) < 0 ||
	    check_text("name", r->name, err) < 0 || check_list("tags", r->tags, r->n_tags, err) < 0)
		return -1;
	if (r->n_glossary_ids && !r->glossary_ids)
		return steno_error_invalid(err, "glossary_ids", "glossary_ids has entries but no array");
	for (size_t i = 0; i < r->n_glossary_ids; i++)
		if (r->glossary_ids[i] <= 0)
			return steno_error_invalid(err, "glossary_ids",
						   "glossary ids are positive integers");
	if (r->has_style_guide && r->style_guide_id <= 0)
		return steno_error_invalid(err, "style_guide_id", "style_guide_id is a positive integer");
	if (r->style_subtitles && !r->is_subtitle)
		return steno_error_invalid(err, "style_guide_id", "a subtitles style guide goes with a "
					   "subtitling order (is_subtitle), not a transcription order");
	if (language_left_to_server(r->language, r->any_language))
		return 0;
	return check_style(r->style_verbatim, r->style_sdh, r->service, r->language, err);
}

int steno_validate_translation_order(const struct steno_translation_order_req *r,
				     struct steno_error *err)
{
	if (check_required("source_transcription_id", r->source_transcription_id, err) < 0 ||
	    check_service(r->service, true, NULL, err) < 0 ||
	    check_url("webhook_url", r->webhook_url, false, err) < 0 ||
	    check_list("tags", r->tags, r->n_tags, err) < 0 ||
	    check_source_language(r->source_language, err) < 0)
		return -1;
	if (r->n_target_languages == 0 || !r->target_languages)
		return steno_error_invalid(err, "target_languages",
					   "target_languages needs at least one target language");
	for (size_t i = 0; i < r->n_target_languages; i++) {
		if (check_target("target_languages", r->target_languages[i], err) < 0 ||
		    check_not_source("target_languages", r->target_languages[i], r->source_language,
				     err) < 0)
			return -1;
		for (size_t k = 0; k < i; k++)
			if (strcmp(r->target_languages[k], r->target_languages[i]) == 0)
				return steno_error_invalid(err, "target_languages",
							   "%s is listed twice in target_languages",
							   r->target_languages[i]);
	}
	return 0;
}
