/* Transcript content: generation, alignment, translation, JSON. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "formats/transcript.h"

static void check_timings(const struct sb_transcript *t, double media)
{
	double prev = 0;
	cr_assert_gt(t->n_blocks, 0);
	cr_assert_eq(t->blocks[0].words[0].start, 0.0);
	for (size_t i = 0; i < t->n_blocks; i++) {
		const struct sb_block *b = &t->blocks[i];
		cr_assert_gt(b->n_words, 0, "block %zu has no words", i);
		cr_assert_geq(b->speaker_number, 1);
		cr_assert_eq(b->start, b->words[0].start);
		cr_assert_eq(b->end, b->words[b->n_words - 1].end);
		for (size_t j = 0; j < b->n_words; j++) {
			const struct sb_word *w = &b->words[j];
			cr_assert_geq(w->start, prev - 1e-9, "block %zu word %zu starts before its predecessor", i, j);
			cr_assert_geq(w->end, w->start);
			cr_assert_leq(w->end, media + 1e-9);
			prev = w->end;
		}
	}
	const struct sb_block *last = &t->blocks[t->n_blocks - 1];
	cr_assert_float_eq(last->words[last->n_words - 1].end, media, 1e-6, "timings must reach the media end");
}

Test(transcript, generate_is_deterministic_and_spans_media)
{
	struct sb_transcript a, b, c;
	cr_assert_eq(sb_transcript_generate(&a, 42, 125.5, "en"), 0);
	cr_assert_eq(sb_transcript_generate(&b, 42, 125.5, "en"), 0);
	cr_assert_eq(sb_transcript_generate(&c, 43, 125.5, "en"), 0);
	char *ja = sb_transcript_to_json(&a, SB_JSON_STORAGE), *jb = sb_transcript_to_json(&b, SB_JSON_STORAGE);
	char *jc = sb_transcript_to_json(&c, SB_JSON_STORAGE);
	cr_assert_str_eq(ja, jb, "same seed must give the same content");
	cr_assert_str_neq(ja, jc, "another seed gives other content");
	check_timings(&a, 125.5);
	cr_assert_gt(sb_transcript_word_count(&a), 150);
	cr_assert_lt(sb_transcript_word_count(&a), 300);
	free(ja);
	free(jb);
	free(jc);
	sb_transcript_free(&a);
	sb_transcript_free(&b);
	sb_transcript_free(&c);
}

Test(transcript, generate_has_two_or_three_speakers_and_spacing)
{
	struct sb_transcript t;
	cr_assert_eq(sb_transcript_generate(&t, 7, 300, "en-US"), 0);
	int seen[8] = { 0 }, n = 0, spacing = 0;
	for (size_t i = 0; i < t.n_blocks; i++) {
		int s = t.blocks[i].speaker_number;
		cr_assert(s >= 1 && s <= 3);
		if (i)
			cr_assert_neq(s, t.blocks[i - 1].speaker_number, "consecutive blocks change speaker");
		n += !seen[s];
		seen[s] = 1;
		for (size_t j = 0; j < t.blocks[i].n_words; j++)
			spacing += strcmp(t.blocks[i].words[j].type, "spacing") == 0;
	}
	cr_assert(n >= 2 && n <= 3, "%d speakers", n);
	cr_assert_gt(spacing, 0);
	cr_assert_str_eq(t.language, "en-US");
	sb_transcript_free(&t);
}

Test(transcript, generate_cjk_has_no_spacing_items)
{
	struct sb_transcript t;
	cr_assert_eq(sb_transcript_generate(&t, 1, 60, "ja"), 0);
	char *text = sb_transcript_text(&t);
	cr_assert(strstr(text, "。") || strstr(text, "？"));
	cr_assert_null(strchr(text, ' '), "CJK text has no spaces: %s", text);
	free(text);
	check_timings(&t, 60);
	sb_transcript_free(&t);
}

Test(transcript, generate_edge_lengths)
{
	struct sb_transcript t;
	cr_assert_eq(sb_transcript_generate(&t, 1, 0, "fr"), 0);
	cr_assert_eq(t.n_blocks, 0);
	sb_transcript_free(&t);
	cr_assert_eq(sb_transcript_generate(&t, 1, 0.2, "xx"), 0);
	check_timings(&t, 0.2);
	sb_transcript_free(&t);
	/* a long media keeps a bounded number of words but still spans it */
	cr_assert_eq(sb_transcript_generate(&t, 1, 36000, "de"), 0);
	check_timings(&t, 36000);
	cr_assert_leq(sb_transcript_word_count(&t), 20000);
	sb_transcript_free(&t);
}

Test(transcript, align_uses_document_words)
{
	struct sb_transcript t;
	const char *doc = "Hello world, this is\tthe  document.\nSecond sentence here!";
	cr_assert_eq(sb_transcript_align(&t, doc, 20.0), 0);
	char *text = sb_transcript_text(&t);
	cr_assert_str_eq(text, "Hello world, this is the document. Second sentence here!");
	cr_assert_eq(sb_transcript_word_count(&t), 9);
	check_timings(&t, 20.0);
	free(text);
	sb_transcript_free(&t);
	cr_assert_eq(sb_transcript_align(&t, "  \n ", 20.0), 0);
	cr_assert_eq(t.n_blocks, 0);
	sb_transcript_free(&t);
	/* invalid UTF-8 and controls are cleaned */
	cr_assert_eq(sb_transcript_align(&t, "ok \xff\x01x", 2.0), 0);
	text = sb_transcript_text(&t);
	cr_assert_str_eq(text, "ok \xEF\xBF\xBDx");
	free(text);
	sb_transcript_free(&t);
}

Test(transcript, translate_changes_language_keeps_timings)
{
	struct sb_transcript src, fr, zh, en;
	cr_assert_eq(sb_transcript_generate(&src, 5, 90, "en"), 0);
	cr_assert_eq(sb_transcript_translate(&fr, &src, "fr"), 0);
	cr_assert_eq(sb_transcript_translate(&zh, &src, "zh"), 0);
	cr_assert_eq(sb_transcript_translate(&en, &zh, "en"), 0);
	cr_assert_str_eq(fr.language, "fr");
	cr_assert_eq(fr.n_blocks, src.n_blocks);
	cr_assert_eq(sb_transcript_word_count(&fr), sb_transcript_word_count(&src));
	cr_assert_eq(sb_transcript_word_count(&zh), sb_transcript_word_count(&src));
	for (size_t i = 0; i < src.n_blocks; i++) {
		cr_assert_str_eq(fr.blocks[i].speaker, src.blocks[i].speaker);
		cr_assert_eq(fr.blocks[i].start, src.blocks[i].start);
		cr_assert_eq(fr.blocks[i].end, src.blocks[i].end);
		cr_assert_eq(zh.blocks[i].end, src.blocks[i].end);
	}
	char *ts = sb_transcript_text(&src), *tf = sb_transcript_text(&fr), *tz = sb_transcript_text(&zh);
	char *te = sb_transcript_text(&en);
	cr_assert_str_neq(ts, tf);
	cr_assert_null(strchr(tz, ' '), "no spacing in Chinese");
	cr_assert_not_null(strchr(te, ' '), "spacing rebuilt for English");
	free(ts);
	free(tf);
	free(tz);
	free(te);
	sb_transcript_free(&src);
	sb_transcript_free(&fr);
	sb_transcript_free(&zh);
	sb_transcript_free(&en);
}

Test(transcript, translate_to_language_without_list_still_changes_text)
{
	struct sb_transcript src, sw;
	cr_assert_eq(sb_transcript_generate(&src, 5, 30, "fr"), 0);
	cr_assert_eq(sb_transcript_translate(&sw, &src, "sw"), 0);
	cr_assert_str_eq(sw.language, "sw");
	char *a = sb_transcript_text(&src), *b = sb_transcript_text(&sw);
	cr_assert_str_neq(a, b);
	cr_assert_eq(sb_transcript_word_count(&sw), sb_transcript_word_count(&src));
	free(a);
	free(b);
	sb_transcript_free(&src);
	sb_transcript_free(&sw);
}

Test(transcript, json_export_form_and_round_trip)
{
	struct sb_transcript t, back;
	char err[128];
	cr_assert_eq(sb_transcript_generate(&t, 9, 45.25, "es"), 0);
	char *js = sb_transcript_to_json(&t, SB_JSON_EXPORT);
	cr_assert_eq(js[0], '[');
	cr_assert_not_null(strstr(js, "\"speaker\":\"Speaker "));
	cr_assert_not_null(strstr(js, "\"data_start\":0.0"));
	cr_assert_not_null(strstr(js, "\"type\":\"spacing\""));
	cr_assert_null(strstr(js, "highlighted"), "export form has no annotations");
	cr_assert_eq(sb_transcript_from_json(&back, js, "es", err, sizeof err), 0, "%s", err);
	char *js2 = sb_transcript_to_json(&back, SB_JSON_EXPORT);
	cr_assert_str_eq(js, js2, "round trip");
	free(js2);
	sb_transcript_free(&back);
	char *st = sb_transcript_to_json(&t, SB_JSON_STORAGE);
	cr_assert_eq(sb_transcript_from_json(&back, st, NULL, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(back.language, "es");
	js2 = sb_transcript_to_json(&back, SB_JSON_STORAGE);
	cr_assert_str_eq(st, js2, "storage round trip keeps annotations");
	free(js2);
	free(st);
	free(js);
	sb_transcript_free(&back);
	sb_transcript_free(&t);
}

Test(transcript, json_reader_is_strict_on_types_and_takes_bom)
{
	struct sb_transcript t;
	char err[128] = "";
	cr_assert_eq(sb_transcript_from_json(&t, "\xEF\xBB\xBF[{\"speaker\":\"A\",\"speaker_number\":2,"
	             "\"words\":[{\"text\":\"Hi\",\"data_start\":1,\"data_end\":1.5}]}]", "en", err, sizeof err), 0, "%s", err);
	cr_assert_eq(t.n_blocks, 1);
	cr_assert_str_eq(t.blocks[0].speaker, "A");
	cr_assert_str_eq(t.blocks[0].words[0].type, "word");
	cr_assert_eq(t.blocks[0].words[0].end, 1.5);
	sb_transcript_free(&t);
	cr_assert_lt(sb_transcript_from_json(&t, "{\"a\":1}", "en", err, sizeof err), 0);
	cr_assert_lt(sb_transcript_from_json(&t, "[{\"words\":[{\"text\":1}]}]", "en", err, sizeof err), 0);
	cr_assert_lt(sb_transcript_from_json(&t, "[{\"words\":[{\"text\":\"a\",\"data_start\":\"x\"}]}]", "en", err, sizeof err), 0);
	cr_assert_lt(sb_transcript_from_json(&t, "[{\"words\":[{\"text\":\"a\",\"data_start\":NaN}]}]", "en", err, sizeof err), 0);
	cr_assert_lt(sb_transcript_from_json(&t, "[{\"words\":[{\"text\":\"a\",\"data_end\":-1}]}]", "en", err, sizeof err), 0);
	cr_assert_lt(sb_transcript_from_json(&t, "[{\"data_start\":1e300}]", "en", err, sizeof err), 0);
	cr_assert_lt(sb_transcript_from_json(&t, "[{", "en", err, sizeof err), 0);
	cr_assert_neq(err[0], 0);
	cr_assert_eq(t.n_blocks, 0);
}

/* Recognised words: a pause of SB_SENTENCE_PAUSE ends a sentence, one of SB_BLOCK_PAUSE a
 * block too; the pronoun i is capitalised; spacing items span the silences. */
Test(transcript, from_words_sentences_and_blocks_at_pauses)
{
	const struct sb_rec_word w[] = {
		{"hello", 0.0, 0.4, 0.91}, {"world", 0.45, 0.9, 0.5},
		{"this", 0.9 + SB_SENTENCE_PAUSE, 1.5, 0.8}, {"is", 1.5, 1.6, 0.7}, {"what", 1.6, 1.7, 0.6},
		{"i'm", 1.7, 1.9, 0.9999}, {"saying", 1.9, 2.3, 0.3},
		{"again", 2.3 + SB_BLOCK_PAUSE, 4.0, 0.2},
	};
	struct sb_transcript t;
	cr_assert_eq(sb_transcript_from_words(&t, w, sizeof w / sizeof w[0], "en-GB"), 0);
	cr_assert_str_eq(t.language, "en-GB");
	char *text = sb_transcript_text(&t);
	cr_assert_str_eq(text, "Hello world. This is what I'm saying.\nAgain.");
	free(text);
	cr_assert_eq(t.n_blocks, 2);
	for (size_t i = 0; i < 2; i++) {
		cr_assert_str_eq(t.blocks[i].speaker, "Speaker 1");
		cr_assert_eq(t.blocks[i].speaker_number, 1);
	}
	const struct sb_block *b = &t.blocks[0];
	cr_assert_eq(b->n_words, 13); /* 7 words, 6 spacings */
	cr_assert_str_eq(b->words[1].type, "spacing");
	cr_assert_float_eq(b->words[1].start, 0.4, 1e-9);
	cr_assert_float_eq(b->words[1].end, 0.45, 1e-9);
	cr_assert_float_eq(b->words[10].confidence, 1.0, 1e-9, "confidence in whole thousandths");
	cr_assert_float_eq(b->start, 0.0, 1e-9);
	cr_assert_float_eq(b->end, 2.3, 1e-9);
	cr_assert_float_eq(t.blocks[1].start, 2.3 + SB_BLOCK_PAUSE, 1e-9);
	cr_assert_float_eq(t.blocks[1].words[0].confidence, 0.2, 1e-9);
	sb_transcript_free(&t);
	/* Just under the thresholds: one sentence, one block. */
	const struct sb_rec_word close[] = {{"so", 0, 0.2, 1}, {"close", 0.2 + SB_SENTENCE_PAUSE - 0.01, 0.9, 1}};
	cr_assert_eq(sb_transcript_from_words(&t, close, 2, "en"), 0);
	text = sb_transcript_text(&t);
	cr_assert_str_eq(text, "So close.");
	free(text);
	sb_transcript_free(&t);
	cr_assert_eq(sb_transcript_from_words(&t, NULL, 0, "en"), 0);
	cr_assert_eq(t.n_blocks, 0);
	sb_transcript_free(&t);
}

/* sb_transcript_to_json writes the JSON itself (no json-c tree): what it writes is what json-c
 * writes for the same values, escapes and times included, so a reader sees no difference. */
Test(transcript, json_is_what_json_c_writes)
{
	struct sb_transcript t;
	cr_assert_eq(sb_transcript_generate(&t, 11, 90, "fr"), 0);
	cr_assert_geq(t.blocks[0].n_words, 2);
	free(t.blocks[0].words[0].text);
	t.blocks[0].words[0].text = strdup("a\"b\\c/d\b\f\n\r\t\x01\x1f\x7f é 語");
	t.blocks[0].words[1].start = 1.0005;   /* not a whole ms: printed as %.3f */
	t.blocks[0].words[1].end = 12345.5;
	free(t.blocks[0].speaker);
	t.blocks[0].speaker = strdup("Zoë \"Z\"");
	for (unsigned flags = 0; flags <= SB_JSON_STORAGE; flags++) {
		char *mine = sb_transcript_to_json(&t, flags);
		cr_assert_not_null(mine);
		json_object *o = json_tokener_parse(mine);
		cr_assert_not_null(o, "not JSON: %.200s", mine);
		const char *theirs = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								     JSON_C_TO_STRING_NOSLASHESCAPE);
		cr_assert_str_eq(mine, theirs);
		cr_assert_not_null(strstr(mine, "\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0001\\u001f\x7f é 語\""));
		cr_assert_not_null(strstr(mine, "\"data_start\":1.0,\"data_end\":12345.5"), "%.300s", mine);
		json_object_put(o);
		free(mine);
	}
	sb_transcript_free(&t);
}
