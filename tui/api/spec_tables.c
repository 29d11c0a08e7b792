#include "config.h"
#include "api/spec_tables.h"

#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Spec 2.8, in the spec's order; `pro` marks the human-service codes. */
static const struct spec_language languages[] = {
	{"af-ZA", false}, {"am-ET", false}, {"ar-DZ", false}, {"ar-BH", false}, {"ar-EG", false},
	{"ar-IQ", false}, {"ar-IL", false}, {"ar-JO", false}, {"ar-KW", false}, {"ar-LB", false},
	{"ar-MA", false}, {"ar-OM", false}, {"ar-QA", false}, {"ar-SA", false}, {"ar-PS", false},
	{"ar-TN", false}, {"ar-AE", false}, {"ar-YE", false}, {"hy-AM", false}, {"az-AZ", false},
	{"eu-ES", false}, {"bn-BD", false}, {"bn-IN", false}, {"bg-BG", false}, {"ca-ES", false},
	{"yue-Hant-HK", false}, {"cmn-Hans-CN", false}, {"cmn-Hans-HK", false},
	{"cmn-Hant-TW", false}, {"hr-HR", false}, {"cs-CZ", false}, {"da-DK", false}, {"nl-NL", true},
	{"nl-BE", true}, {"en-AU", true}, {"en-CA", true}, {"en-GH", true}, {"en-IN", true},
	{"en-IE", true}, {"en-KE", true}, {"en-NZ", true}, {"en-NG", true}, {"en-PH", true},
	{"en-ZA", true}, {"en-TZ", true}, {"en-HK", true}, {"en-PK", true}, {"en-SG", true},
	{"en-GB", true}, {"en-US", true}, {"fil-PH", false}, {"fi-FI", false}, {"fr-CA", true},
	{"fr-FR", true}, {"fr-BE", true}, {"fr-CH", true}, {"gl-ES", false}, {"ka-GE", false},
	{"de-DE", true}, {"de-AT", true}, {"de-CH", false}, {"el-GR", false}, {"gu-IN", false},
	{"he-IL", false}, {"hi-IN", false}, {"hu-HU", false}, {"is-IS", false}, {"id-ID", false},
	{"it-IT", true}, {"it-CH", true}, {"ja-JP", false}, {"jv-ID", false}, {"kn-IN", false},
	{"km-KH", false}, {"ko-KR", false}, {"lo-LA", false}, {"lv-LV", false}, {"lt-LT", false},
	{"ms-MY", false}, {"ml-IN", false}, {"mr-IN", false}, {"ne-NP", false}, {"nb-NO", false},
	{"fa-IR", false}, {"pl-PL", true}, {"pt-BR", true}, {"pt-PT", true}, {"ro-RO", false},
	{"ru-RU", false}, {"sr-RS", false}, {"si-LK", false}, {"sk-SK", false}, {"sl-SI", false},
	{"es-AR", true}, {"es-BO", true}, {"es-CL", true}, {"es-CO", true}, {"es-CR", true},
	{"es-DO", true}, {"es-EC", true}, {"es-SV", true}, {"es-GT", true}, {"es-HN", true},
	{"es-MX", true}, {"es-NI", true}, {"es-PA", true}, {"es-PY", true}, {"es-PE", true},
	{"es-PR", true}, {"es-ES", true}, {"es-US", true}, {"es-UY", true}, {"es-VE", true},
	{"su-ID", false}, {"sw-KE", false}, {"sw-TZ", false}, {"sv-SE", false}, {"ta-IN", false},
	{"ta-MY", false}, {"ta-SG", false}, {"ta-LK", false}, {"te-IN", false}, {"th-TH", false},
	{"tr-TR", false}, {"uk-UA", false}, {"ur-IN", false}, {"ur-PK", false}, {"vi-VN", false},
	{"zu-ZA", false}, {"sq-AL", false}, {"bs-BA", false}, {"my-MM", false}, {"et-EE", false},
	{"mk-MK", false}, {"mn-MN", false}, {"pa-Guru-IN", false}, {"uz-UZ", false},
};

static const char *const target_languages[] = {
	"af", "sq", "am", "ar", "hy", "az", "eu", "bn", "bs", "bg", "ca", "zh", "hr", "cs", "da",
	"nl", "en", "et", "fil", "fi", "fr", "gl", "ka", "de", "el", "gu", "he", "hi", "hu", "is",
	"id", "it", "ja", "jv", "kn", "km", "ko", "lo", "lv", "lt", "mk", "ms", "ml", "mr", "mn",
	"my", "ne", "no", "fa", "pl", "pt-PT", "pt-BR", "pa", "ro", "ru", "sr", "si", "sk", "sl",
	"es", "su", "sw", "sv", "ta", "te", "th", "tr", "uk", "ur", "uz", "vi", "zu",
};

/* The target list with zh -> three Chinese codes and pt-PT/pt-BR -> pt (spec 2.8). */
static const char *const source_languages[] = {
	"af", "sq", "am", "ar", "hy", "az", "eu", "bn", "bs", "bg", "ca", "cmn-Hans-CN",
	"cmn-Hans-HK", "cmn-Hant-TW", "hr", "cs", "da", "nl", "en", "et", "fil", "fi", "fr", "gl",
	"ka", "de", "el", "gu", "he", "hi", "hu", "is", "id", "it", "ja", "jv", "kn", "km", "ko",
	"lo", "lv", "lt", "mk", "ms", "ml", "mr", "mn", "my", "ne", "no", "fa", "pl", "pt", "pa",
	"ro", "ru", "sr", "si", "sk", "sl", "es", "su", "sw", "sv", "ta", "te", "th", "tr", "uk",
	"ur", "uz", "vi", "zu",
};

static const struct spec_export_format export_formats[] = {
#define TDC (SPEC_EXPORT_OPT_SHOW_TIMESTAMPS | SPEC_EXPORT_OPT_SHOW_SPEAKERS | \
	     SPEC_EXPORT_OPT_SHOW_COMMENTS | SPEC_EXPORT_OPT_TIMESTAMPS_FREQUENCY)
#define HL (SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS | SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS_ONLY)
	{"txt", "txt", "text/plain; charset=utf-8", "Text document", TDC},
	{"docx", "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	 "Word document", TDC | HL},
	{"pdf", "pdf", "application/pdf", "PDF document", TDC | HL},
	{"srt", "srt", "application/x-subrip; charset=utf-8", "SubRip subtitles", 0},
	{"vtt", "vtt", "text/vtt; charset=utf-8", "WebVTT subtitles", 0},
	{"stl", "stl", "application/octet-stream", "EBU-STL subtitles", 0},
	{"avid", "txt", "text/plain; charset=utf-8", "Avid markers", 0},
	{"html", "html", "text/html; charset=utf-8", "Interactive transcript", 0},
	{"premiere", "xml", "application/xml", "Premiere Pro (beta)", 0},
	{"maxqda", "txt", "text/plain; charset=utf-8", "MAXQDA", 0},
	{"json", "json", "application/json", "JSON", 0},
	{"fcp", "fcp", "application/xml", "Final Cut Pro", 0},
#undef TDC
#undef HL
};

static const struct {
	const char *name;
	unsigned bit;
} export_options[] = {
	{"show_timestamps", SPEC_EXPORT_OPT_SHOW_TIMESTAMPS},
	{"show_speakers", SPEC_EXPORT_OPT_SHOW_SPEAKERS},
	{"show_comments", SPEC_EXPORT_OPT_SHOW_COMMENTS},
	{"show_highlights", SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS},
	{"show_highlights_only", SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS_ONLY},
	{"timestamps_frequency", SPEC_EXPORT_OPT_TIMESTAMPS_FREQUENCY},
};

static const struct {
	const char *value;
	int seconds;
} frequencies[] = {
	{"5s", 5}, {"10s", 10}, {"15s", 15}, {"20s", 20}, {"30s", 30}, {"60s", 60},
};

/* name, final, failure, needs_action */
static const struct spec_state transcription_states[] = {
	{"initial", false, false, false},
	{"ingesting", false, false, false},
	{"automatic_transcribing", false, false, false},
	{"automatic_done", true, false, false},
	{"aligning", false, false, false},
	{"locked", false, false, true},
	{"failed", true, true, false},
	{"demo", true, false, false},
};

static const struct spec_state order_states[] = {
	{"incomplete", false, false, true},
	{"waiting_for_payment", false, false, false},
	{"submitted", false, false, false},
	{"locked", false, false, true},
	{"fulfilled", true, false, false},
	{"failed", true, true, false},
	{"canceled", true, true, false},
	{"expired", true, true, false},
	{"free_trial_submitted", false, false, false},
	{"free_trial_fulfilled", true, false, false},
};

static const struct spec_state export_states[] = {
	{"pending", false, false, false},
	{"processing", false, false, false},
	{"ready", true, false, false},
	{"expired", true, true, false},
	{"failed", true, true, false},
};

static const struct spec_state task_states[] = {
	{"initial", false, false, false},
	{"working", false, false, false},
	{"failed", true, true, false},
	{"done", true, false, false},
};

static const struct spec_state ingestion_states[] = {
	{"transferring", false, false, false},
	{"done", true, false, false},
	{"failed", true, true, false},
};

static const struct spec_service services[] = {
	{"auto", true, true},
	{"pro", true, true},
	{"alignment", true, false},
};

static bool str_eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static long find_string(const char *const *set, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (str_eq(set[i], s))
			return (long)i;
	return -1;
}

size_t spec_language_count(void)
{
	return COUNT(languages);
}

const struct spec_language *spec_language_at(size_t i)
{
	return i < COUNT(languages) ? &languages[i] : NULL;
}

const struct spec_language *spec_language_find(const char *code)
{
	for (size_t i = 0; code && i < COUNT(languages); i++)
		if (strcmp(languages[i].code, code) == 0)
			return &languages[i];
	return NULL;
}

bool spec_language_is_valid(const char *code)
{
	return spec_language_find(code) != NULL;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool spec_language_is_well_formed(const char *code)
{
	if (!code || strlen(code) > 35)
		return false;
	size_t primary = 0;
	while (is_alpha(code[primary]))
		primary++;
	if (primary < 2 || primary > 3 || (code[primary] && code[primary] != '-'))
		return false;
	for (const char *p = code + primary; *p;) {
		size_t n = 0;
		p++; /* the '-' */
		while (is_alpha(p[n]) || (p[n] >= '0' && p[n] <= '9'))
			n++;
		if (n < 1 || n > 8 || (p[n] && p[n] != '-'))
			return false;
		p += n;
	}
	return true;
}

bool spec_language_is_pro(const char *code)
{
	const struct spec_language *l = spec_language_find(code);
	return l && l->pro;
}

static bool has_primary(const char *code, const char *primary)
{
	size_t n = strlen(primary);
	return strncmp(code, primary, n) == 0 && (code[n] == '-' || code[n] == '\0');
}

bool spec_language_verbatim_ok(const char *code)
{
	if (!spec_language_is_valid(code))
		return false;
	return has_primary(code, "en") || has_primary(code, "es") || has_primary(code, "fr") ||
	       has_primary(code, "de");
}

bool spec_language_sdh_ok(const char *code)
{
	if (!spec_language_is_valid(code))
		return false;
	return has_primary(code, "en") || has_primary(code, "es") || has_primary(code, "fr");
}

size_t spec_target_language_count(void)
{
	return COUNT(target_languages);
}

const char *spec_target_language_at(size_t i)
{
	return i < COUNT(target_languages) ? target_languages[i] : NULL;
}

bool spec_target_language_is_valid(const char *code)
{
	return find_string(target_languages, COUNT(target_languages), code) >= 0;
}

size_t spec_source_language_count(void)
{
	return COUNT(source_languages);
}

const char *spec_source_language_at(size_t i)
{
	return i < COUNT(source_languages) ? source_languages[i] : NULL;
}

bool spec_source_language_is_valid(const char *code)
{
	return find_string(source_languages, COUNT(source_languages), code) >= 0;
}

const char *spec_translation_source_for(const char *lang)
{
	long i;

	if (!lang)
		return NULL;
	i = find_string(source_languages, COUNT(source_languages), lang);
	if (i >= 0)
		return source_languages[i];
	if (!spec_language_is_valid(lang))
		return NULL;
	if (has_primary(lang, "nb"))
		return "no";
	/* Match the primary subtag against the single-subtag source codes. */
	size_t plen = strcspn(lang, "-");
	for (size_t k = 0; k < COUNT(source_languages); k++) {
		const char *s = source_languages[k];
		if (strlen(s) == plen && strncmp(s, lang, plen) == 0)
			return s;
	}
	return NULL;
}

size_t spec_export_format_count(void)
{
	return COUNT(export_formats);
}

const struct spec_export_format *spec_export_format_at(size_t i)
{
	return i < COUNT(export_formats) ? &export_formats[i] : NULL;
}

const struct spec_export_format *spec_export_format_find(const char *name)
{
	for (size_t i = 0; name && i < COUNT(export_formats); i++)
		if (strcmp(export_formats[i].name, name) == 0)
			return &export_formats[i];
	return NULL;
}

unsigned spec_export_option_bit(const char *option)
{
	for (size_t i = 0; option && i < COUNT(export_options); i++)
		if (strcmp(export_options[i].name, option) == 0)
			return export_options[i].bit;
	return 0;
}

const char *spec_export_option_name(unsigned bit)
{
	for (size_t i = 0; i < COUNT(export_options); i++)
		if (export_options[i].bit == bit)
			return export_options[i].name;
	return NULL;
}

bool spec_export_option_allowed(const char *format, const char *option)
{
	const struct spec_export_format *f = spec_export_format_find(format);
	unsigned bit = spec_export_option_bit(option);
	return f && bit && (f->options & bit);
}

size_t spec_timestamps_frequency_count(void)
{
	return COUNT(frequencies);
}

const char *spec_timestamps_frequency_at(size_t i)
{
	return i < COUNT(frequencies) ? frequencies[i].value : NULL;
}

int spec_timestamps_frequency_seconds(const char *value)
{
	for (size_t i = 0; value && i < COUNT(frequencies); i++)
		if (strcmp(frequencies[i].value, value) == 0)
			return frequencies[i].seconds;
	return 0;
}

bool spec_timestamps_frequency_is_valid(const char *value)
{
	return spec_timestamps_frequency_seconds(value) > 0;
}

static const struct spec_state *state_table(enum spec_state_kind kind, size_t *n)
{
	switch (kind) {
	case SPEC_STATE_TRANSCRIPTION: *n = COUNT(transcription_states); return transcription_states;
	case SPEC_STATE_ORDER: *n = COUNT(order_states); return order_states;
	case SPEC_STATE_EXPORT: *n = COUNT(export_states); return export_states;
	case SPEC_STATE_TRANSLATION_TASK: *n = COUNT(task_states); return task_states;
	case SPEC_STATE_INGESTION: *n = COUNT(ingestion_states); return ingestion_states;
	}
	*n = 0;
	return NULL;
}

size_t spec_state_count(enum spec_state_kind kind)
{
	size_t n;
	state_table(kind, &n);
	return n;
}

const struct spec_state *spec_state_at(enum spec_state_kind kind, size_t i)
{
	size_t n;
	const struct spec_state *t = state_table(kind, &n);
	return t && i < n ? &t[i] : NULL;
}

const struct spec_state *spec_state_find(enum spec_state_kind kind, const char *name)
{
	size_t n;
	const struct spec_state *t = state_table(kind, &n);
	for (size_t i = 0; t && name && i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

bool spec_state_is_known(enum spec_state_kind kind, const char *name)
{
	return spec_state_find(kind, name) != NULL;
}

bool spec_state_is_final(enum spec_state_kind kind, const char *name)
{
	const struct spec_state *s = spec_state_find(kind, name);
	return s && s->final;
}

bool spec_state_is_failure(enum spec_state_kind kind, const char *name)
{
	const struct spec_state *s = spec_state_find(kind, name);
	return s && s->failure;
}

bool spec_state_needs_action(enum spec_state_kind kind, const char *name)
{
	const struct spec_state *s = spec_state_find(kind, name);
	return s && s->needs_action;
}

size_t spec_service_count(void)
{
	return COUNT(services);
}

const struct spec_service *spec_service_at(size_t i)
{
	return i < COUNT(services) ? &services[i] : NULL;
}

const struct spec_service *spec_service_find(const char *name)
{
	for (size_t i = 0; name && i < COUNT(services); i++)
		if (strcmp(services[i].name, name) == 0)
			return &services[i];
	return NULL;
}
