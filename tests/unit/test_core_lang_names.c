/* tui/core language names (generated from iso-codes) and the UTF-8 case folding they use. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "api/spec_tables.h"
#include "core/lang_names.h"
#include "core/recent.h"
#include "core/textfold.h"

Test(lang_names, english_and_native_names_of_ja_JP)
{
	cr_assert_str_eq(lang_name_english("ja-JP"), "Japanese (Japan)");
	cr_assert_str_eq(lang_name_native("ja-JP"), "日本語 (日本)");
	cr_assert_str_eq(lang_name_english("ja"), "Japanese");
	cr_assert_str_eq(lang_name_native("ja"), "日本語");
	cr_assert_str_eq(lang_name_english("pa-Guru-IN"), "Panjabi (Gurmukhi, India)");
	cr_assert_str_eq(lang_name_english("fil-PH"), "Filipino (Philippines)");
	cr_assert_str_eq(lang_name_native("fr-CH"), "français (Suisse)");
	cr_assert_str_eq(lang_name_native("en-GB"), "English (United Kingdom)");
}

Test(lang_names, unknown_and_untranslated_codes_give_null)
{
	cr_assert_null(lang_name_english("xx-YY"));
	cr_assert_null(lang_name_english(NULL));
	cr_assert_null(lang_name_find("JA-JP"));   /* exact, as the API is */
	cr_assert_null(lang_name_native("xx"));
	/* iso-codes has no Armenian catalogue: no native name invented */
	cr_assert_not_null(lang_name_english("hy-AM"));
	cr_assert_null(lang_name_native("hy-AM"));
}

Test(lang_names, every_spec_code_has_an_english_name)
{
	for (size_t i = 0; i < spec_language_count(); i++)
		cr_assert_not_null(lang_name_english(spec_language_at(i)->code), "%s",
				   spec_language_at(i)->code);
	for (size_t i = 0; i < spec_target_language_count(); i++)
		cr_assert_not_null(lang_name_english(spec_target_language_at(i)), "%s",
				   spec_target_language_at(i));
	for (size_t i = 0; i < spec_source_language_count(); i++)
		cr_assert_not_null(lang_name_english(spec_source_language_at(i)), "%s",
				   spec_source_language_at(i));
}

Test(lang_names, table_is_sorted_for_bsearch)
{
	for (size_t i = 1; i < lang_names_table_count; i++)
		cr_assert_lt(strcmp(lang_names_table[i - 1].code, lang_names_table[i].code), 0);
}

Test(lang_names, search_by_code_english_or_native_name)
{
	cr_assert_eq(lang_name_match("ja-JP", "ja"), LANG_MATCH_CODE);
	cr_assert_eq(lang_name_match("ja-JP", "JA-j"), LANG_MATCH_CODE);
	cr_assert_eq(lang_name_match("ja-JP", "japanese"), LANG_MATCH_ENGLISH);
	cr_assert_eq(lang_name_match("ja-JP", "JAPAN"), LANG_MATCH_ENGLISH);
	cr_assert_eq(lang_name_match("ja-JP", "日本"), LANG_MATCH_NATIVE);
	cr_assert_eq(lang_name_match("cmn-Hans-CN", "chinese"), LANG_MATCH_ENGLISH);
	cr_assert_eq(lang_name_match("de-AT", "österr"), LANG_MATCH_NATIVE);
	cr_assert_eq(lang_name_match("de-AT", "ÖSTERR"), LANG_MATCH_NATIVE);
	cr_assert_eq(lang_name_match("el-GR", "ΕΛΛΗΝ"), LANG_MATCH_NATIVE);
	cr_assert_eq(lang_name_match("ru-RU", "РУССК"), LANG_MATCH_NATIVE);
	cr_assert_eq(lang_name_match("ja-JP", "apan"), LANG_MATCH_NONE);   /* word starts only */
	cr_assert_eq(lang_name_match("ja-JP", "french"), LANG_MATCH_NONE);
	cr_assert_eq(lang_name_match("xx-YY", "xx"), LANG_MATCH_CODE);
	cr_assert_eq(lang_name_match("xx-YY", "japanese"), LANG_MATCH_NONE);
	cr_assert_eq(lang_name_match("ja-JP", ""), LANG_MATCH_CODE);
}

Test(textfold, decodes_utf8_and_takes_invalid_bytes_one_by_one)
{
	uint32_t cp;
	cr_assert_eq(textfold_next("é", &cp), 2);
	cr_assert_eq(cp, 0xE9);
	cr_assert_eq(textfold_next("日", &cp), 3);
	cr_assert_eq(cp, 0x65E5);
	cr_assert_eq(textfold_next("\xF0\x9F\x98\x80", &cp), 4);
	cr_assert_eq(cp, 0x1F600);
	cr_assert_eq(textfold_next("\xC3(", &cp), 1);      /* truncated */
	cr_assert_eq(cp, 0xC3);
	cr_assert_eq(textfold_next("\xC0\xAF", &cp), 1);   /* overlong */
	cr_assert_eq(textfold_next("\xED\xA0\x80", &cp), 1); /* surrogate */
	cr_assert_eq(textfold_next("\x9B", &cp), 1);
}

Test(textfold, folds_latin_greek_cyrillic)
{
	cr_assert_eq(textfold_lower('Q'), 'q');
	cr_assert_eq(textfold_lower(0xC9), 0xE9);      /* É */
	cr_assert_eq(textfold_lower(0xD7), 0xD7);      /* × is not a letter */
	cr_assert_eq(textfold_lower(0x160), 0x161);    /* Š */
	cr_assert_eq(textfold_lower(0x141), 0x142);    /* Ł */
	cr_assert_eq(textfold_lower(0x391), 0x3B1);    /* Α */
	cr_assert_eq(textfold_lower(0x388), 0x3AD);    /* Έ */
	cr_assert_eq(textfold_lower(0x401), 0x451);    /* Ё */
	cr_assert_eq(textfold_lower(0x42F), 0x44F);    /* Я */
	cr_assert_eq(textfold_lower(0x65E5), 0x65E5);
	cr_assert(textfold_contains("Commande n°10", "N°1"));
	cr_assert_not(textfold_contains("abc", "abd"));
	cr_assert(textfold_contains(NULL, ""));
	cr_assert(textfold_word_prefix("Norwegian Bokmål (Norway)", "BOKMÅL"));
	cr_assert(textfold_word_prefix("中文 (简体中文, 中国)", "中国"));
}

Test(recent, most_recent_first_without_duplicates_and_bounded)
{
	struct recent_list r = {0};
	recent_push(&r, "fr-FR");
	recent_push(&r, "ja-JP");
	recent_push(&r, "fr-FR");
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.items[0], "fr-FR");
	cr_assert_str_eq(r.items[1], "ja-JP");
	cr_assert_eq(recent_rank(&r, "ja-JP"), 1);
	cr_assert_eq(recent_rank(&r, "de-DE"), -1);
	cr_assert_eq(recent_rank(NULL, "de-DE"), -1);
	recent_push(&r, "");
	recent_push(&r, NULL);
	char big[80];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	recent_push(&r, big);
	cr_assert_eq(r.n, 2);
	char code[16];
	for (int i = 0; i < RECENT_MAX + 3; i++) {
		snprintf(code, sizeof code, "c%d", i);
		recent_push(&r, code);
	}
	cr_assert_eq(r.n, RECENT_MAX);
	snprintf(code, sizeof code, "c%d", RECENT_MAX + 2);
	cr_assert_str_eq(r.items[0], code);
	cr_assert_str_eq(r.items[RECENT_MAX - 1], "c3");
	cr_assert_eq(recent_rank(&r, "fr-FR"), -1);
}
