#include "config.h"

#include <criterion/criterion.h>

#include <string.h>

#include "api/spec_tables.h"

Test(spec_tables, languages_match_spec)
{
	cr_assert_eq(spec_language_count(), 137);
	size_t pro = 0;
	for (size_t i = 0; i < spec_language_count(); i++)
		pro += spec_language_at(i)->pro;
	cr_assert_eq(pro, 49);
	cr_assert_null(spec_language_at(spec_language_count()));
	cr_assert(spec_language_is_valid("en-US"));
	cr_assert(spec_language_is_valid("yue-Hant-HK"));
	cr_assert(spec_language_is_valid("pa-Guru-IN"));
	cr_assert_not(spec_language_is_valid("en"));
	cr_assert_not(spec_language_is_valid("en-us"));   /* exact, as the API is */
	cr_assert_not(spec_language_is_valid(""));
	cr_assert_not(spec_language_is_valid(NULL));
	cr_assert_str_eq(spec_language_find("ja-JP")->code, "ja-JP");
}

Test(spec_tables, pro_availability)
{
	cr_assert(spec_language_is_pro("en-US"));
	cr_assert(spec_language_is_pro("es-VE"));
	cr_assert(spec_language_is_pro("nl-BE"));
	cr_assert(spec_language_is_pro("pt-PT"));
	cr_assert_not(spec_language_is_pro("de-CH"));   /* de-DE, de-AT only */
	cr_assert_not(spec_language_is_pro("ja-JP"));
	cr_assert_not(spec_language_is_pro("xx-XX"));
	cr_assert_not(spec_language_is_pro(NULL));
}

Test(spec_tables, verbatim_and_sdh_by_language)
{
	cr_assert(spec_language_verbatim_ok("en-GB"));
	cr_assert(spec_language_verbatim_ok("de-AT"));
	cr_assert(spec_language_verbatim_ok("es-MX"));
	cr_assert(spec_language_verbatim_ok("fr-CA"));
	cr_assert_not(spec_language_verbatim_ok("it-IT"));
	cr_assert_not(spec_language_verbatim_ok("el-GR"));  /* "e..." but not en/es */
	cr_assert(spec_language_sdh_ok("fr-FR"));
	cr_assert(spec_language_sdh_ok("es-ES"));
	cr_assert_not(spec_language_sdh_ok("de-DE"));
	cr_assert_not(spec_language_sdh_ok("en"));         /* not a transcription code */
	cr_assert_not(spec_language_sdh_ok(NULL));
}

Test(spec_tables, translation_languages)
{
	cr_assert_eq(spec_target_language_count(), 72);
	cr_assert_eq(spec_source_language_count(), 73);
	cr_assert(spec_target_language_is_valid("zh"));
	cr_assert(spec_target_language_is_valid("pt-BR"));
	cr_assert_not(spec_target_language_is_valid("pt"));
	cr_assert_not(spec_target_language_is_valid("cmn-Hans-CN"));
	cr_assert(spec_source_language_is_valid("pt"));
	cr_assert(spec_source_language_is_valid("cmn-Hant-TW"));
	cr_assert_not(spec_source_language_is_valid("zh"));
	cr_assert_not(spec_source_language_is_valid("pt-BR"));
	cr_assert_not(spec_target_language_is_valid(NULL));
}

Test(spec_tables, translation_source_rule)
{
	cr_assert_str_eq(spec_translation_source_for("en-US"), "en");
	cr_assert_str_eq(spec_translation_source_for("pt-BR"), "pt");
	cr_assert_str_eq(spec_translation_source_for("pt-PT"), "pt");
	cr_assert_str_eq(spec_translation_source_for("cmn-Hans-HK"), "cmn-Hans-HK");
	cr_assert_str_eq(spec_translation_source_for("pa-Guru-IN"), "pa");
	cr_assert_str_eq(spec_translation_source_for("fil-PH"), "fil");
	cr_assert_str_eq(spec_translation_source_for("nb-NO"), "no");
	cr_assert_str_eq(spec_translation_source_for("fr"), "fr");
	cr_assert_null(spec_translation_source_for("yue-Hant-HK"));
	cr_assert_null(spec_translation_source_for("zh"));
	cr_assert_null(spec_translation_source_for("xx-YY"));
	cr_assert_null(spec_translation_source_for(NULL));
}

Test(spec_tables, export_formats)
{
	cr_assert_eq(spec_export_format_count(), 12);
	const char *names[] = {"txt", "docx", "pdf", "srt", "vtt", "stl", "avid", "html",
			       "premiere", "maxqda", "json", "fcp"};
	for (size_t i = 0; i < 12; i++) {
		const struct spec_export_format *f = spec_export_format_find(names[i]);
		cr_assert_not_null(f, "%s", names[i]);
		cr_assert_not_null(f->extension);
		cr_assert_not_null(f->content_type);
	}
	cr_assert_str_eq(spec_export_format_find("premiere")->extension, "xml");
	cr_assert_str_eq(spec_export_format_find("avid")->extension, "txt");
	cr_assert_null(spec_export_format_find("doc"));
	cr_assert_null(spec_export_format_find(NULL));
}

Test(spec_tables, export_options_per_format)
{
	const char *tdc[] = {"show_timestamps", "show_speakers", "show_comments",
			     "timestamps_frequency"};
	const char *hl[] = {"show_highlights", "show_highlights_only"};
	for (size_t i = 0; i < spec_export_format_count(); i++) {
		const char *f = spec_export_format_at(i)->name;
		bool text = !strcmp(f, "txt") || !strcmp(f, "docx") || !strcmp(f, "pdf");
		bool rich = !strcmp(f, "docx") || !strcmp(f, "pdf");
		for (size_t k = 0; k < 4; k++)
			cr_assert_eq(spec_export_option_allowed(f, tdc[k]), text, "%s %s", f, tdc[k]);
		for (size_t k = 0; k < 2; k++)
			cr_assert_eq(spec_export_option_allowed(f, hl[k]), rich, "%s %s", f, hl[k]);
	}
	cr_assert_not(spec_export_option_allowed("txt", "show_everything"));
	cr_assert_not(spec_export_option_allowed("nope", "show_speakers"));
	cr_assert_eq(spec_export_option_bit("show_comments"), SPEC_EXPORT_OPT_SHOW_COMMENTS);
	cr_assert_str_eq(spec_export_option_name(SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS_ONLY),
			 "show_highlights_only");
}

Test(spec_tables, timestamps_frequency)
{
	cr_assert_eq(spec_timestamps_frequency_count(), 6);
	cr_assert(spec_timestamps_frequency_is_valid("5s"));
	cr_assert(spec_timestamps_frequency_is_valid("60s"));
	cr_assert_eq(spec_timestamps_frequency_seconds("15s"), 15);
	cr_assert_not(spec_timestamps_frequency_is_valid("25s"));
	cr_assert_not(spec_timestamps_frequency_is_valid("5"));
	cr_assert_not(spec_timestamps_frequency_is_valid(NULL));
}

Test(spec_tables, states)
{
	cr_assert_eq(spec_state_count(SPEC_STATE_TRANSCRIPTION), 8);
	cr_assert_eq(spec_state_count(SPEC_STATE_ORDER), 10);
	cr_assert_eq(spec_state_count(SPEC_STATE_EXPORT), 5);
	cr_assert_eq(spec_state_count(SPEC_STATE_TRANSLATION_TASK), 4);
	cr_assert(spec_state_is_final(SPEC_STATE_TRANSCRIPTION, "automatic_done"));
	cr_assert(spec_state_is_final(SPEC_STATE_TRANSCRIPTION, "failed"));
	cr_assert(spec_state_is_failure(SPEC_STATE_TRANSCRIPTION, "failed"));
	cr_assert_not(spec_state_is_final(SPEC_STATE_TRANSCRIPTION, "ingesting"));
	cr_assert(spec_state_needs_action(SPEC_STATE_TRANSCRIPTION, "locked"));
	cr_assert(spec_state_is_final(SPEC_STATE_ORDER, "fulfilled"));
	cr_assert(spec_state_is_final(SPEC_STATE_ORDER, "canceled"));
	cr_assert_not(spec_state_is_final(SPEC_STATE_ORDER, "submitted"));
	cr_assert(spec_state_needs_action(SPEC_STATE_ORDER, "incomplete"));
	cr_assert(spec_state_is_final(SPEC_STATE_EXPORT, "ready"));
	cr_assert_not(spec_state_is_failure(SPEC_STATE_EXPORT, "ready"));
	cr_assert(spec_state_is_final(SPEC_STATE_TRANSLATION_TASK, "done"));
	cr_assert_not(spec_state_is_final(SPEC_STATE_TRANSLATION_TASK, "working"));
	cr_assert(spec_state_is_final(SPEC_STATE_INGESTION, "done"));
	/* Unknown states: kept by the parsers, non-final here so polling goes on. */
	cr_assert_not(spec_state_is_known(SPEC_STATE_ORDER, "teleporting"));
	cr_assert_not(spec_state_is_final(SPEC_STATE_ORDER, "teleporting"));
	cr_assert_not(spec_state_is_failure(SPEC_STATE_ORDER, "teleporting"));
	cr_assert_not(spec_state_is_final(SPEC_STATE_EXPORT, NULL));
	/* A name final in one kind is not assumed in another. */
	cr_assert_not(spec_state_is_known(SPEC_STATE_EXPORT, "done"));
}

Test(spec_tables, services)
{
	cr_assert_eq(spec_service_count(), 3);
	cr_assert(spec_service_find("alignment")->transcription);
	cr_assert_not(spec_service_find("alignment")->order);
	cr_assert(spec_service_find("pro")->order);
	cr_assert_null(spec_service_find("human"));
	cr_assert_null(spec_service_at(3));
}
