#include "config.h"

#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "api/export.h"
#include "api/glossary.h"
#include "api/transcript.h"
#include "api/transcription.h"
#include "api/translation.h"
#include "api/upload.h"

char *api_fixture(const char *name, size_t *len);

static struct steno_error err;

static void setup(void)
{
	steno_error_clear(&err);
}

TestSuite(resources, .init = setup);

#define PARSE_FIXTURE(fn, name, out)                                                \
	do {                                                                        \
		size_t len_;                                                        \
		char *body_ = api_fixture(name, &len_);                             \
		cr_assert_eq(fn(body_, len_, out, &err), 0, "%s: %s", name, err.message); \
		free(body_);                                                        \
	} while (0)

#define PARSE_STR(fn, s, out) fn(s, strlen(s), out, &err)

Test(resources, transcription_list_current_form)
{
	struct steno_transcription_page p;
	PARSE_FIXTURE(steno_transcription_page_parse, "transcription_list.json", &p);
	cr_assert_eq(p.n, 3);
	cr_assert_eq(p.form, STENO_FORM_CURRENT);
	cr_assert_str_eq(p.next_url,
			 "https://www.example.com/api/v1/transcriptions?organization_id=6411621&page=1");
	const struct steno_transcription *t = &p.items[0];
	cr_assert_str_eq(t->id, "0123456789abcdef0123456789abcdef");
	cr_assert_str_eq(t->name, "Interview mit Anna");
	cr_assert_str_eq(t->state, "automatic_done");
	cr_assert_str_eq(t->language, "de-DE");
	cr_assert_eq(t->created_at.st, STENO_PRESENT);
	cr_assert_eq(t->created_at.ms, INT64_C(1714566645123));
	cr_assert_eq(t->updated_at.ms, INT64_C(1714566645000));   /* +02:00 to UTC */
	cr_assert_eq(t->audio_length_s.v, 754);
	cr_assert_eq(t->cost_cents.st, STENO_PRESENT);
	cr_assert_eq(t->cost_cents.v, 251);
	cr_assert_eq(t->refunded.st, STENO_PRESENT);
	cr_assert_not(t->refunded.v);
	cr_assert_eq(t->tags.n, 2);
	cr_assert_str_eq(t->tags.v[1], "2024");
	cr_assert_str_eq(t->editor_url,
			 "https://www.example.com/transcriptions/0123456789abcdef0123456789abcdef/edit");
	cr_assert_null(t->self_url);
	cr_assert_eq(t->failure_reason_st, STENO_MISSING);
	/* 3600.0 is a double in json-c: accepted as the integer it is. */
	cr_assert_eq(p.items[1].audio_length_s.st, STENO_PRESENT);
	cr_assert_eq(p.items[1].audio_length_s.v, 3600);
	cr_assert(p.items[1].refunded.v);
	cr_assert_eq(p.items[1].tags.st, STENO_PRESENT);
	cr_assert_eq(p.items[1].tags.n, 0);
	/* An unknown state is kept verbatim, unknown fields ignored. */
	cr_assert_str_eq(p.items[2].state, "quantum_superposition");
	steno_transcription_page_free(&p);
	cr_assert_null(p.items);
}

Test(resources, transcription_list_legacy_form)
{
	struct steno_transcription_page p;
	PARSE_FIXTURE(steno_transcription_page_parse, "transcription_list_legacy.json", &p);
	cr_assert_eq(p.n, 1);
	cr_assert_null(p.next_url);
	cr_assert_eq(p.form, STENO_FORM_LEGACY);
	const struct steno_transcription *t = &p.items[0];
	cr_assert_eq(t->cost_cents.st, STENO_MISSING, "missing cost is unknown, not 0");
	cr_assert_eq(t->refunded.st, STENO_MISSING);
	cr_assert_eq(t->tags.st, STENO_MISSING);
	cr_assert_str_eq(t->self_url,
			 "https://www.example.com/api/v1/transcriptions/0123456789abcdef0123456789abcdef");
	cr_assert_str_eq(t->editor_url, t->self_url, "self.url replaces editorUrl (spec 9)");
	steno_transcription_page_free(&p);
}

Test(resources, transcription_create_and_retrieve)
{
	struct steno_transcription t;
	PARSE_FIXTURE(steno_transcription_parse, "transcription_create.json", &t);
	cr_assert_str_eq(t.state, "ingesting");
	cr_assert_eq(t.audio_length_s.st, STENO_MISSING);
	cr_assert_eq(t.cost_cents.st, STENO_MISSING);
	cr_assert_eq(t.form, STENO_FORM_CURRENT);
	steno_transcription_free(&t);

	PARSE_FIXTURE(steno_transcription_parse, "transcription_retrieve.json", &t);
	cr_assert_eq(t.failure_reason_st, STENO_NULL);
	cr_assert_null(t.failure_reason);
	cr_assert_str_eq(t.download_url, "https://www.example.com/api/v1/transcriptions/"
					 "0123456789abcdef0123456789abcdef/download");
	cr_assert_str_eq(t.soundwave_url, "https://cdn.example.com/soundwave/0123.json");
	cr_assert_eq(t.cost_cents.v, 21);
	struct steno_transcription c;
	cr_assert_eq(steno_transcription_copy(&c, &t, &err), 0);
	steno_transcription_free(&t);
	cr_assert_str_eq(c.download_url, "https://www.example.com/api/v1/transcriptions/"
					 "0123456789abcdef0123456789abcdef/download");
	cr_assert_str_eq(c.tags.v[1], "q2");
	steno_transcription_free(&c);

	PARSE_FIXTURE(steno_transcription_parse, "transcription_failed.json", &t);
	cr_assert_eq(t.failure_reason_st, STENO_PRESENT);
	cr_assert_str_eq(t.failure_reason, "download_failed");
	cr_assert_str_eq(t.failure_message, "The file at tmp_url answered 404.");
	steno_transcription_free(&t);
}

Test(resources, transcription_retrieve_legacy_form)
{
	struct steno_transcription t;
	PARSE_FIXTURE(steno_transcription_parse, "transcription_retrieve_legacy.json", &t);
	cr_assert_eq(t.form, STENO_FORM_LEGACY);
	cr_assert_str_eq(t.editor_url,
			 "https://www.example.com/transcriptions/0123456789abcdef0123456789abcdef/edit");
	cr_assert_not_null(t.self_url);
	cr_assert_null(t.download_url);
	cr_assert_eq(t.failure_reason_st, STENO_MISSING);
	cr_assert_eq(t.cost_cents.st, STENO_MISSING);
	steno_transcription_free(&t);
}

Test(resources, transcription_wrong_types_everywhere)
{
	const char *doc = "{\"id\":[],\"name\":5,\"createdAt\":12,\"updatedAt\":\"soon\","
			  "\"state\":{},\"sharingEnabled\":\"yes\",\"language\":true,"
			  "\"audioLengthInSeconds\":\"61\",\"costInCents\":1.5,\"refunded\":0,"
			  "\"tags\":\"a,b\",\"failureReason\":7,\"failureMessage\":[],"
			  "\"soundwaveUrl\":false,\"_links\":{\"self\":\"x\",\"editor\":[]}}";
	struct steno_transcription t;
	cr_assert_eq(PARSE_STR(steno_transcription_parse, doc, &t), 0, "%s", err.message);
	cr_assert_null(t.id);
	cr_assert_null(t.name);
	cr_assert_null(t.state);
	cr_assert_null(t.language);
	cr_assert_eq(t.created_at.st, STENO_BAD_TYPE);
	cr_assert_eq(t.updated_at.st, STENO_BAD_TYPE);
	cr_assert_eq(t.sharing_enabled.st, STENO_BAD_TYPE);
	cr_assert_eq(t.audio_length_s.st, STENO_BAD_TYPE);
	cr_assert_eq(t.cost_cents.st, STENO_BAD_TYPE);
	cr_assert_eq(t.refunded.st, STENO_BAD_TYPE);
	cr_assert_eq(t.tags.st, STENO_BAD_TYPE);
	cr_assert_eq(t.failure_reason_st, STENO_BAD_TYPE);
	cr_assert_null(t.failure_message);
	cr_assert_null(t.soundwave_url);
	cr_assert_null(t.editor_url);
	cr_assert_eq(t.form, STENO_FORM_UNKNOWN);
	steno_transcription_free(&t);
}

Test(resources, transcription_rejects_non_objects)
{
	struct steno_transcription t;
	const char *bad[] = {"null", "[]", "\"x\"", "42", "{", "{}garbage"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		steno_error_clear(&err);
		cr_assert_eq(PARSE_STR(steno_transcription_parse, bad[i], &t), -1, "%s", bad[i]);
		cr_assert_eq(err.kind, STENO_ERR_PARSE);
		cr_assert_null(t.id);
	}
	cr_assert_eq(steno_transcription_parse("", 0, &t, &err), -1);
}

Test(resources, page_tolerance)
{
	struct steno_transcription_page p;
	cr_assert_eq(PARSE_STR(steno_transcription_page_parse,
			       "{\"results\":[1,null,{\"id\":\"a\"},\"x\"],\"_links\":{\"next\":null}}", &p),
		     0);
	cr_assert_eq(p.n, 1);
	cr_assert_eq(p.skipped, 3);
	cr_assert_null(p.next_url);
	steno_transcription_page_free(&p);
	cr_assert_eq(PARSE_STR(steno_transcription_page_parse, "{\"results\":[]}", &p), 0);
	cr_assert_eq(p.n, 0);
	steno_transcription_page_free(&p);
	cr_assert_eq(PARSE_STR(steno_transcription_page_parse, "{\"results\":{}}", &p), -1);
	cr_assert_eq(PARSE_STR(steno_transcription_page_parse, "[]", &p), -1);
	cr_assert_eq(PARSE_STR(steno_transcription_page_parse, "null", &p), -1);
}

Test(resources, upload)
{
	struct steno_upload u;
	PARSE_FIXTURE(steno_upload_parse, "upload.json", &u);
	cr_assert(strstr(u.signed_url, "X-Amz-Signature=deadbeef"));
	steno_upload_free(&u);
	cr_assert_eq(PARSE_STR(steno_upload_parse, "{}", &u), -1);
	cr_assert_eq(PARSE_STR(steno_upload_parse, "{\"signedUrl\":null}", &u), -1);
	cr_assert_eq(PARSE_STR(steno_upload_parse, "{\"signedUrl\":5}", &u), -1);
	cr_assert_eq(PARSE_STR(steno_upload_parse, "{\"signedUrl\":\"file:///etc/passwd\"}", &u), -1);
	cr_assert_null(u.signed_url);
	cr_assert_eq(PARSE_STR(steno_upload_parse, "null", &u), -1);
}

Test(resources, export_pending_and_ready)
{
	struct steno_export e;
	PARSE_FIXTURE(steno_export_parse, "export_pending.json", &e);
	cr_assert_str_eq(e.state, "pending");
	cr_assert_str_eq(e.format, "txt");
	cr_assert(e.show_timestamps.v);
	cr_assert_eq(e.show_highlights_only.st, STENO_MISSING);
	cr_assert_eq(e.transcription_ids.n, 2);
	cr_assert_null(e.download_link);
	steno_export_free(&e);
	PARSE_FIXTURE(steno_export_parse, "export_ready.json", &e);
	cr_assert_str_eq(e.state, "ready");
	cr_assert_str_eq(e.download_link, "https://downloads.example.com/exports/cccc.docx?sig=1");
	cr_assert_str_eq(e.timestamps_frequency, "30s");
	cr_assert(e.show_highlights_only.v);
	steno_export_free(&e);
	cr_assert_eq(PARSE_STR(steno_export_parse, "{\"state\":\"vaporized\",\"show_speakers\":\"y\"}",
			       &e), 0);
	cr_assert_str_eq(e.state, "vaporized");
	cr_assert_eq(e.show_speakers.st, STENO_BAD_TYPE);
	steno_export_free(&e);
	cr_assert_eq(PARSE_STR(steno_export_parse, "[1]", &e), -1);
}

Test(resources, translation_task_progress_null_vs_number)
{
	struct steno_translation_task t;
	PARSE_FIXTURE(steno_translation_task_parse, "translation_task_created.json", &t);
	cr_assert_str_eq(t.state, "working");
	cr_assert_eq(t.progress_percent.st, STENO_NULL);
	cr_assert_null(t.translated_transcription_id);
	steno_translation_task_free(&t);
	PARSE_FIXTURE(steno_translation_task_parse, "translation_task_done.json", &t);
	cr_assert_eq(t.progress_percent.st, STENO_PRESENT);
	cr_assert_float_eq(t.progress_percent.v, 100.0, 1e-9);
	cr_assert_str_eq(t.translated_transcription_id, "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
	steno_translation_task_free(&t);
	PARSE_FIXTURE(steno_translation_task_parse, "translation_task_failed.json", &t);
	cr_assert_str_eq(t.failure_reason, "internal_error");
	cr_assert_float_eq(t.progress_percent.v, 37.0, 1e-9);
	cr_assert_str_eq(t.target_language, "de");
	steno_translation_task_free(&t);
	cr_assert_eq(PARSE_STR(steno_translation_task_parse, "{\"progressPercent\":\"50%\"}", &t), 0);
	cr_assert_eq(t.progress_percent.st, STENO_BAD_TYPE);
	steno_translation_task_free(&t);
}

Test(resources, glossaries_and_style_guides)
{
	struct steno_glossary_list g;
	PARSE_FIXTURE(steno_glossary_list_parse, "glossaries.json", &g);
	cr_assert_eq(g.n, 2);
	cr_assert_eq(g.items[0].id.v, 12);
	cr_assert_str_eq(g.items[0].source_language, "en");
	cr_assert_eq(g.items[0].target_languages.n, 2);
	cr_assert(g.items[0].organization_default.v);
	cr_assert(g.items[1].imported.v);
	steno_glossary_list_free(&g);
	struct steno_style_guide_list s;
	PARSE_FIXTURE(steno_style_guide_list_parse, "style_guides.json", &s);
	cr_assert_eq(s.n, 2);
	cr_assert(s.items[0].verbatim.v);
	cr_assert_not(s.items[0].sdh.v);
	cr_assert(s.items[1].sdh.v);
	cr_assert_str_eq(s.items[1].operation, "subtitles");
	cr_assert_str_eq(s.items[1].speaker_id, "description");
	cr_assert_str_eq(s.items[1].notation_tags, "custom");
	steno_style_guide_list_free(&s);
	cr_assert_eq(PARSE_STR(steno_glossary_list_parse, "{\"style_guides\":[]}", &g), -1);
	cr_assert_eq(PARSE_STR(steno_style_guide_list_parse, "{\"glossaries\":[]}", &s), -1);
	cr_assert_eq(PARSE_STR(steno_glossary_list_parse,
			       "{\"glossaries\":[7,{\"id\":\"12\",\"name\":[],\"target_languages\":[1,\"fr\"]}]}",
			       &g), 0);
	cr_assert_eq(g.n, 1);
	cr_assert_eq(g.skipped, 1);
	cr_assert_eq(g.items[0].id.v, 12);
	cr_assert_null(g.items[0].name);
	cr_assert_eq(g.items[0].target_languages.n, 1);
	cr_assert_eq(g.items[0].target_languages.skipped, 1);
	steno_glossary_list_free(&g);
}

/* GET /organizations as the real service sends it (open-points): integer ids; a numeric
 * string id is accepted, an organization without a usable id is left out and counted. */
Test(resources, organizations)
{
	struct steno_organization_list o;
	cr_assert_eq(PARSE_STR(steno_organization_list_parse,
			       "{\"organizations\":[{\"id\":6411621,\"name\":\"Acme\",\"role\":\"admin\","
			       "\"plan\":\"business\"},{\"id\":\"77\",\"name\":\"B\"},{\"name\":\"no id\"},"
			       "{\"id\":\"x1\"},3]}", &o), 0);
	cr_assert_eq(o.n, 2);
	cr_assert_eq(o.skipped, 3);
	cr_assert_eq(o.items[0].id.v, 6411621);
	cr_assert_str_eq(o.items[0].name, "Acme");
	cr_assert_str_eq(o.items[0].role, "admin");
	cr_assert_eq(o.items[1].id.v, 77);
	cr_assert_null(o.items[1].role);
	steno_organization_list_free(&o);
	cr_assert_eq(PARSE_STR(steno_organization_list_parse, "{\"orgs\":[]}", &o), -1);
	cr_assert_eq(PARSE_STR(steno_organization_list_parse, "{\"organizations\":[]}", &o), 0);
	cr_assert_eq(o.n, 0);
	steno_organization_list_free(&o);
}

Test(resources, transcript_blocks_and_words)
{
	struct steno_transcript t;
	PARSE_FIXTURE(steno_transcript_parse, "transcript.json", &t);
	cr_assert_eq(t.n_blocks, 2);
	cr_assert_str_eq(t.blocks[0].speaker, "Speaker 1");
	cr_assert_eq(t.blocks[0].speaker_number.v, 1);
	cr_assert_float_eq(t.blocks[0].start.v, 1.25, 1e-9);
	cr_assert_eq(t.blocks[0].n_words, 3);
	cr_assert_str_eq(t.blocks[0].words[1].type, "spacing");
	cr_assert_eq(t.blocks[0].words[1].confidence.st, STENO_MISSING);
	cr_assert_float_eq(t.blocks[0].words[2].confidence.v, 1.0, 1e-9);
	char *text;
	cr_assert_eq(steno_transcript_block_text(&t.blocks[0], &text, &err), 0);
	cr_assert_str_eq(text, "Hello world.");
	free(text);
	cr_assert_eq(steno_transcript_block_text(&t.blocks[1], &text, &err), 0);
	cr_assert_str_eq(text, "Bonjour, \xc3\xa7" "a va ?");   /* joined as given */
	free(text);
	steno_transcript_free(&t);
}

Test(resources, transcript_bom_and_tolerance)
{
	struct steno_transcript t;
	PARSE_FIXTURE(steno_transcript_parse, "transcript_bom.json", &t);
	cr_assert_eq(t.n_blocks, 1);
	cr_assert_str_eq(t.blocks[0].words[0].text, "Hi");
	steno_transcript_free(&t);
	cr_assert_eq(PARSE_STR(steno_transcript_parse, "[]", &t), 0);
	cr_assert_eq(t.n_blocks, 0);
	steno_transcript_free(&t);
	cr_assert_eq(PARSE_STR(steno_transcript_parse,
			       "[1,{\"words\":[null,{\"data_start\":\"x\"}],\"speaker\":3}]", &t), 0);
	cr_assert_eq(t.n_blocks, 1);
	cr_assert_eq(t.skipped, 2);
	cr_assert_null(t.blocks[0].speaker);
	cr_assert_str_eq(t.blocks[0].words[0].text, "");
	cr_assert_eq(t.blocks[0].words[0].start.st, STENO_BAD_TYPE);
	steno_transcript_free(&t);
	cr_assert_eq(PARSE_STR(steno_transcript_parse, "{\"words\":[]}", &t), -1);
	cr_assert_eq(PARSE_STR(steno_transcript_parse, "\xef\xbb\xbf", &t), -1);
	cr_assert_eq(PARSE_STR(steno_transcript_parse, "null", &t), -1);
}
