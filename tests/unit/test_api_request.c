#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/request.h"
#include "api/spec_tables.h"

/* Every validation rule has a test here that breaks exactly that rule on an otherwise
 * valid request, and checks the field named. */

static struct steno_error err;

static void setup(void)
{
	steno_error_clear(&err);
}

TestSuite(request, .init = setup);

static const char *const tags2[] = {"board", "q2"};
static const char *const ids1[] = {"0123456789abcdef0123456789abcdef"};

static struct steno_transcription_create_req tr_ok(void)
{
	return (struct steno_transcription_create_req){
		.name = "meeting.mp3", .language = "en-US",
		.tmp_url = "https://storage.example.com/u/meeting.mp3", .organization_id = "6411621",
	};
}

static struct steno_export_create_req ex_ok(void)
{
	return (struct steno_export_create_req){
		.format = "txt", .transcription_ids = ids1, .n_transcription_ids = 1,
	};
}

static struct steno_order_create_req or_ok(void)
{
	return (struct steno_order_create_req){
		.url = "https://media.example.com/a.mp3", .language = "en-US", .organization_id = "6411621",
	};
}

static const char *const fr_de[] = {"fr", "de"};

static struct steno_translation_order_req to_ok(void)
{
	return (struct steno_translation_order_req){
		.source_transcription_id = "0123456789abcdef0123456789abcdef",
		.target_languages = fr_de, .n_target_languages = 2,
	};
}

#define REJECTS(call, fld)                                                             \
	do {                                                                           \
		steno_error_clear(&err);                                               \
		cr_assert_eq(call, -1, "accepted, expected a rule on %s", fld);        \
		cr_assert_eq(err.kind, STENO_ERR_INVALID);                             \
		cr_assert_str_eq(err.field, fld, "message: %s", err.message);          \
		cr_assert_neq(err.message[0], '\0');                                   \
	} while (0)

#define ACCEPTS(call)                                                                  \
	do {                                                                           \
		steno_error_clear(&err);                                               \
		cr_assert_eq(call, 0, "%s: %s", err.field, err.message);               \
	} while (0)

static struct json_object *built(const char *json)
{
	struct json_object *o = json_tokener_parse(json);
	cr_assert_not_null(o, "not JSON: %s", json);
	return o;
}

static const char *member_str(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x;
	cr_assert(json_object_object_get_ex(o, a, &x), "no %s", a);
	if (b)
		cr_assert(json_object_object_get_ex(x, b, &x), "no %s.%s", a, b);
	return json_object_get_string(x);
}

Test(request, transcription_create_body)
{
	struct steno_transcription_create_req r = tr_ok();
	r.tags = tags2;
	r.n_tags = 2;
	r.service = "pro";
	r.is_subtitle = true;
	char *json;
	ACCEPTS(steno_build_transcription_create(&r, &json, &err));
	struct json_object *o = built(json);
	struct json_object *t;
	cr_assert(json_object_object_get_ex(o, "transcription", &t));
	cr_assert_str_eq(member_str(t, "name", NULL), "meeting.mp3");
	cr_assert_str_eq(member_str(t, "organization_id", NULL), "6411621");
	cr_assert_str_eq(member_str(t, "service", NULL), "pro");
	cr_assert_str_eq(member_str(t, "tmp_url", NULL), "https://storage.example.com/u/meeting.mp3");
	struct json_object *x;
	cr_assert(json_object_object_get_ex(t, "tags", &x));
	cr_assert_eq(json_object_array_length(x), 2);
	cr_assert(json_object_object_get_ex(t, "is_subtitle", &x));
	cr_assert(json_object_get_boolean(x));
	cr_assert_not(json_object_object_get_ex(t, "sharing_enabled", &x), "false is not sent");
	cr_assert_not(json_object_object_get_ex(t, "document_url", &x));
	json_object_put(o);
	free(json);
}

Test(request, transcription_create_rules)
{
	struct steno_transcription_create_req r;
	static char sentinel[] = "untouched";
	char *json;
#define TR(mod, fld) r = tr_ok(); json = sentinel; mod; REJECTS(steno_build_transcription_create(&r, &json, &err), fld); \
	cr_assert_null(json)
	TR(r.name = NULL, "name");
	TR(r.name = "", "name");
	TR(r.language = NULL, "language");
	TR(r.language = "en", "language");
	TR(r.language = "klingon", "language");
	TR(r.tmp_url = NULL, "tmp_url");
	TR(r.tmp_url = "ftp://x/y.mp3", "tmp_url");
	TR(r.tmp_url = "https://", "tmp_url");
	TR(r.organization_id = NULL, "organization_id");
	TR(r.service = "human", "service");
	TR((r.service = "pro", r.language = "ja-JP"), "language");
	TR((r.service = "pro", r.language = "de-CH"), "language");
	TR(r.service = "alignment", "document_url");
	TR((r.service = "alignment", r.document_url = "file:///doc.txt"), "document_url");
	TR(r.document_url = "https://x/doc.txt", "document_url");
	TR(r.use_vocabulary = true, "use_vocabulary");
	TR(r.name = "bad \xff utf8", "name");
	TR(r.folder = "a/\xff", "folder");
	TR(r.folder_id = "\xc3", "folder_id");
	TR(r.organization_id = "6\xfe", "organization_id");
	TR((r.tags = tags2, r.n_tags = 2, r.tags = (const char *const[]){"ok", ""}), "tags");
	TR(r.n_tags = 1, "tags");
	/* The earlier form (spec 9): folder_id required, no folder, no tags. */
	TR(r.form = STENO_FORM_LEGACY, "folder_id");
	TR((r.form = STENO_FORM_LEGACY, r.folder_id = "12", r.organization_id = NULL), "organization_id");
	TR((r.form = STENO_FORM_LEGACY, r.folder_id = "12", r.folder = "a/b"), "folder");
	TR((r.form = STENO_FORM_LEGACY, r.folder_id = "12", r.tags = tags2, r.n_tags = 2), "tags");
#undef TR
	r = tr_ok();
	r.service = "alignment";
	r.document_url = "https://x/doc.txt";
	r.language = "ja-JP";   /* alignment is not limited to pro languages */
	ACCEPTS(steno_validate_transcription_create(&r, &err));
	r = tr_ok();
	r.form = STENO_FORM_LEGACY;
	r.folder_id = "12";
	r.use_vocabulary = true;
	ACCEPTS(steno_validate_transcription_create(&r, &err));
	r = tr_ok();
	r.service = "pro";
	r.language = "es-VE";
	ACCEPTS(steno_validate_transcription_create(&r, &err));
}

Test(request, export_create_body)
{
	struct steno_export_create_req r = ex_ok();
	r.format = "docx";
	r.show_timestamps = true;
	r.show_highlights_only = true;
	r.timestamps_frequency = "15s";
	char *json;
	ACCEPTS(steno_build_export_create(&r, &json, &err));
	struct json_object *o = built(json);
	cr_assert_str_eq(member_str(o, "export", "format"), "docx");
	cr_assert_str_eq(member_str(o, "export", "timestamps_frequency"), "15s");
	cr_assert_str_eq(member_str(o, "export", "show_highlights_only"), "true");
	struct json_object *e, *x;
	json_object_object_get_ex(o, "export", &e);
	cr_assert_not(json_object_object_get_ex(e, "show_speakers", &x));
	cr_assert(json_object_object_get_ex(e, "transcription_ids", &x));
	cr_assert_str_eq(json_object_get_string(json_object_array_get_idx(x, 0)), ids1[0]);
	json_object_put(o);
	free(json);
}

Test(request, export_create_rules)
{
	struct steno_export_create_req r;
	char *json;
#define EX(mod, fld) r = ex_ok(); mod; REJECTS(steno_build_export_create(&r, &json, &err), fld)
	EX(r.format = NULL, "format");
	EX(r.format = "doc", "format");
	EX(r.n_transcription_ids = 0, "transcription_ids");
	EX(r.transcription_ids = (const char *const[]){""}, "transcription_ids");
	EX((r.format = "srt", r.show_timestamps = true), "show_timestamps");
	EX((r.format = "json", r.show_speakers = true), "show_speakers");
	EX((r.format = "vtt", r.show_comments = true), "show_comments");
	EX((r.format = "txt", r.show_highlights = true), "show_highlights");
	EX((r.format = "txt", r.show_highlights_only = true), "show_highlights_only");
	EX(r.timestamps_frequency = "25s", "timestamps_frequency");
	EX((r.format = "srt", r.timestamps_frequency = "5s"), "timestamps_frequency");
	EX((r.form = STENO_FORM_LEGACY, r.timestamps_frequency = "5s"), "timestamps_frequency");
	EX((r.form = STENO_FORM_LEGACY, r.format = "pdf", r.show_highlights_only = true),
	   "show_highlights_only");
#undef EX
	r = ex_ok();
	r.format = "pdf";
	r.show_timestamps = r.show_speakers = r.show_comments = r.show_highlights = true;
	r.timestamps_frequency = "60s";
	ACCEPTS(steno_validate_export_create(&r, &err));
	r = ex_ok();
	r.format = "srt";   /* false options are fine for any format */
	ACCEPTS(steno_validate_export_create(&r, &err));
	r.show_highlights = true;
	REJECTS(steno_validate_export_create(&r, &err), "show_highlights");
	cr_assert(strstr(err.message, "docx, pdf"), "says what is allowed: %s", err.message);
}

Test(request, translation_task)
{
	struct steno_translation_task_req r = {.source_transcription_id = "abc",
					       .target_language = "pt-BR"};
	char *json;
	ACCEPTS(steno_build_translation_task(&r, &json, &err));
	struct json_object *o = built(json);
	cr_assert_str_eq(member_str(o, "source_transcription_id", NULL), "abc");
	cr_assert_str_eq(member_str(o, "target_language", NULL), "pt-BR");
	json_object_put(o);
	free(json);
	r.source_language = "en-US";
	ACCEPTS(steno_validate_translation_task(&r, &err));
	r.source_language = "yue-Hant-HK";
	REJECTS(steno_build_translation_task(&r, &json, &err), "source_transcription_id");
	r.source_language = NULL;
	r.target_language = "pt";
	REJECTS(steno_build_translation_task(&r, &json, &err), "target_language");
	r.target_language = "cmn-Hans-CN";
	REJECTS(steno_build_translation_task(&r, &json, &err), "target_language");
	r.target_language = NULL;
	REJECTS(steno_build_translation_task(&r, &json, &err), "target_language");
	r.target_language = "fr";
	r.source_transcription_id = "";
	REJECTS(steno_build_translation_task(&r, &json, &err), "source_transcription_id");
}

Test(request, order_create_body)
{
	struct steno_order_create_req r = or_ok();
	const int64_t gl[] = {12, 13};
	r.service = "pro";
	r.confirm = true;
	r.glossary_ids = gl;
	r.n_glossary_ids = 2;
	r.has_style_guide = true;
	r.style_guide_id = 7;
	r.style_verbatim = true;
	r.webhook_url = "http://127.0.0.1:9/hook";
	char *json;
	ACCEPTS(steno_build_order_create(&r, &json, &err));
	struct json_object *o = built(json);
	cr_assert_str_eq(member_str(o, "order", "url"), "https://media.example.com/a.mp3");
	cr_assert_str_eq(member_str(o, "order", "confirm"), "true");
	cr_assert_str_eq(member_str(o, "order", "style_guide_id"), "7");
	cr_assert_str_eq(member_str(o, "order", "webhook_url"), "http://127.0.0.1:9/hook");
	struct json_object *ord, *x;
	json_object_object_get_ex(o, "order", &ord);
	cr_assert(json_object_object_get_ex(ord, "glossary_ids", &x));
	cr_assert(json_object_is_type(json_object_array_get_idx(x, 1), json_type_int));
	cr_assert_not(json_object_object_get_ex(ord, "boost", &x));
	json_object_put(o);
	free(json);
}

Test(request, order_create_rules)
{
	struct steno_order_create_req r;
	char *json;
	const int64_t bad_gl[] = {3, 0};
#define OR(mod, fld) r = or_ok(); mod; REJECTS(steno_build_order_create(&r, &json, &err), fld)
	OR(r.url = NULL, "url");
	OR(r.url = "media.mp3", "url");
	OR(r.language = NULL, "language");
	OR(r.language = "english", "language");
	OR(r.organization_id = "", "organization_id");
	OR(r.service = "alignment", "service");
	OR((r.service = "pro", r.language = "ko-KR"), "language");
	OR(r.webhook_url = "javascript:alert(1)", "webhook_url");
	OR((r.glossary_ids = bad_gl, r.n_glossary_ids = 2), "glossary_ids");
	OR(r.n_glossary_ids = 1, "glossary_ids");
	OR((r.has_style_guide = true, r.style_guide_id = -4), "style_guide_id");
	/* verbatim: pro only, en/es/fr/de only */
	OR(r.style_verbatim = true, "style_guide_id");
	OR((r.style_verbatim = true, r.service = "pro", r.language = "it-IT"), "style_guide_id");
	/* SDH: pro only, en/es/fr only */
	OR(r.style_sdh = true, "style_guide_id");
	OR((r.style_sdh = true, r.service = "pro", r.language = "de-DE"), "style_guide_id");
	OR(r.tags = (const char *const[]){"x\xc0\xafy"}; r.n_tags = 1, "tags");
	OR(r.name = "\xed\xa0\x80", "name");
	OR(r.folder = "\xff", "folder");
	OR(r.folder_id = "\xff", "folder_id");
	OR(r.n_tags = 2, "tags");
#undef OR
	r = or_ok();
	r.service = "pro";
	r.language = "de-AT";
	r.style_verbatim = true;
	ACCEPTS(steno_validate_order_create(&r, &err));
	r.language = "fr-CA";
	r.style_sdh = true;
	ACCEPTS(steno_validate_order_create(&r, &err));
}

/* Issue 15: real clients send "en"; with any_language a well-formed code outside the spec's
 * list is sent (pro, verbatim and SDH with it are the server's to judge), while known codes
 * keep their rules and a malformed one is still refused. */
Test(request, unknown_language_is_left_to_the_server)
{
	struct steno_transcription_create_req t = tr_ok();
	char *json = NULL;
	t.any_language = true;
	t.language = "en";
	cr_assert_eq(steno_build_transcription_create(&t, &json, &err), 0, "%s", err.message);
	cr_assert(strstr(json, "\"language\":\"en\""), "%s", json);
	free(json);
	t.service = "pro";
	cr_assert_eq(steno_validate_transcription_create(&t, &err), 0, "%s", err.message);
	t.language = "ja-JP";   /* known: its rules hold */
	cr_assert_eq(steno_validate_transcription_create(&t, &err), -1);
	t.language = "e n";
	t.service = NULL;
	cr_assert_eq(steno_validate_transcription_create(&t, &err), -1);
	t.language = "english";
	cr_assert_eq(steno_validate_transcription_create(&t, &err), -1);

	struct steno_order_create_req o = or_ok();
	o.any_language = true;
	o.language = "fr";
	o.service = "pro";
	o.style_verbatim = true;
	cr_assert_eq(steno_validate_order_create(&o, &err), 0, "%s", err.message);
	o.any_language = false;   /* --strict */
	cr_assert_eq(steno_validate_order_create(&o, &err), -1);
	cr_assert_str_eq(err.field, "language");

	static const char *const good[] = {"en", "fr-CA", "sr-Latn-RS", "yue-Hant-HK", "es-419"};
	static const char *const bad[] = {"", "e", "english", "en-", "en--US", "en_US", "fr-ABCDEFGHI", "1a"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		cr_expect(spec_language_is_well_formed(good[i]), "%s", good[i]);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_expect_not(spec_language_is_well_formed(bad[i]), "%s", bad[i]);
}

/* Issue 15: a translation into the transcription's own language, and a subtitles style guide
 * on a transcription order, are refused before sending. */
Test(request, own_language_and_subtitles_guide_refused)
{
	struct steno_translation_task_req t = {.source_transcription_id = "abc",
					       .target_language = "en", .source_language = "en-US"};
	char *json = NULL;
	REJECTS(steno_build_translation_task(&t, &json, &err), "target_language");
	cr_assert(strstr(err.message, "own language"), "%s", err.message);
	t.target_language = "zh";
	t.source_language = "cmn-Hans-CN";
	REJECTS(steno_build_translation_task(&t, &json, &err), "target_language");
	t.target_language = "fr";
	ACCEPTS(steno_validate_translation_task(&t, &err));
	struct steno_translation_order_req o = to_ok();
	const char *targets[] = {"de", "fr"};
	o.source_language = "fr-CA";
	o.target_languages = targets;
	o.n_target_languages = 2;
	REJECTS(steno_build_translation_order(&o, &json, &err), "target_languages");

	struct steno_order_create_req c = or_ok();
	c.has_style_guide = true;
	c.style_guide_id = 3;
	c.style_subtitles = true;
	REJECTS(steno_build_order_create(&c, &json, &err), "style_guide_id");
	c.is_subtitle = true;
	ACCEPTS(steno_validate_order_create(&c, &err));
}

Test(request, translation_order)
{
	struct steno_translation_order_req r = to_ok();
	r.service = "pro";
	r.confirm = true;
	char *json;
	ACCEPTS(steno_build_translation_order(&r, &json, &err));
	struct json_object *o = built(json);
	cr_assert_str_eq(member_str(o, "order", "source_transcription_id"),
			 "0123456789abcdef0123456789abcdef");
	struct json_object *ord, *x;
	json_object_object_get_ex(o, "order", &ord);
	cr_assert(json_object_object_get_ex(ord, "target_languages", &x));
	cr_assert_eq(json_object_array_length(x), 2);
	json_object_put(o);
	free(json);
#define TO(mod, fld) r = to_ok(); mod; REJECTS(steno_build_translation_order(&r, &json, &err), fld)
	TO(r.source_transcription_id = NULL, "source_transcription_id");
	TO(r.n_target_languages = 0, "target_languages");
	TO((r.target_languages = (const char *const[]){"fr", "xx"}), "target_languages");
	TO((r.target_languages = (const char *const[]){"fr", "fr"}), "target_languages");
	TO((r.target_languages = (const char *const[]){"fr", "pt"}), "target_languages");
	TO(r.service = "alignment", "service");
	TO(r.webhook_url = "", "webhook_url");
	TO((r.tags = (const char *const[]){"a", ""}, r.n_tags = 2), "tags");
	TO(r.target_languages = NULL, "target_languages");
	TO(r.source_language = "yue-Hant-HK", "source_transcription_id");
#undef TO
	r = to_ok();
	r.source_language = "cmn-Hant-TW";
	ACCEPTS(steno_validate_translation_order(&r, &err));
}

Test(request, json_escaping_of_hostile_strings)
{
	struct steno_transcription_create_req r = tr_ok();
	r.name = "quote\" back\\slash \n newline </script> \xe2\x82\xac";
	char *json;
	ACCEPTS(steno_build_transcription_create(&r, &json, &err));
	struct json_object *o = built(json);
	cr_assert_str_eq(member_str(o, "transcription", "name"), r.name);
	json_object_put(o);
	free(json);
}
