#include "config.h"

/* Fuzzes the sandbox's transcript JSON reader (sb_transcript_from_json, both the export
 * array form and the storage object form) and the export writers on what it accepts.
 * Byte 0 picks the export format and options, the rest is the JSON text.
 * Invariants: a parsed transcript serializes, and that JSON reads back to the same JSON
 * (storage form); every format renders it (container formats to a non-empty file). */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/formats/export.h"
#include "sandbox/formats/transcript.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const formats[] = {
	"txt", "srt", "vtt", "json", "html", "avid", "premiere", "maxqda", "fcp", "stl", "docx", "pdf",
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

static void check_round_trip(const struct sb_transcript *t)
{
	char err[256];
	char *j1 = sb_transcript_to_json(t, SB_JSON_STORAGE);
	if (!j1)
		return;
	struct sb_transcript t2;
	if (sb_transcript_from_json(&t2, j1, NULL, err, sizeof err) != 0)
		abort(); /* our own output must read back */
	char *j2 = sb_transcript_to_json(&t2, SB_JSON_STORAGE);
	if (j2 && strcmp(j1, j2) != 0) {
		/* the first write rounds times to ms; from then on it must be stable */
		struct sb_transcript t3;
		if (sb_transcript_from_json(&t3, j2, NULL, err, sizeof err) != 0)
			abort();
		char *j3 = sb_transcript_to_json(&t3, SB_JSON_STORAGE);
		if (j3 && strcmp(j2, j3) != 0)
			abort();
		free(j3);
		sb_transcript_free(&t3);
	}
	free(j2);
	free(j1);
	sb_transcript_free(&t2);
}

static void check_render(const struct sb_transcript *t, uint8_t sel)
{
	struct sb_export_options opt = {
		.show_timestamps = sel >> 4 & 1, .show_speakers = sel >> 5 & 1,
		.show_comments = sel >> 6 & 1, .show_highlights = sel >> 7 & 1,
		.show_highlights_only = (sel & 0x90) == 0x90,
		.timestamps_frequency_s = (sel >> 4 & 1) ? 5 * (sel >> 6) : 0,
		.created_unix = 1700000000,
	};
	unsigned char *out = NULL;
	size_t len = 0;
	char err[256];
	const char *fmt = formats[(sel & 0x0f) % N_FORMATS];
	if (sb_export_render(fmt, t, "fuzz", &opt, &out, &len, err, sizeof err) != 0)
		abort(); /* any transcript the reader accepts must export */
	/* an empty transcript may give an empty text file; container formats never are empty */
	if ((len && !out) || (len == 0 && strchr("dpshjf", fmt[0]) && strcmp(fmt, "srt") != 0))
		abort();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *json = malloc(size);
	if (!json)
		return 0;
	memcpy(json, data + 1, size - 1);
	json[size - 1] = '\0';

	struct sb_transcript t;
	char err[256];
	if (sb_transcript_from_json(&t, json, "en", err, sizeof err) == 0) {
		if (!t.language)
			abort();
		check_round_trip(&t);
		check_render(&t, data[0]);
		sb_transcript_free(&t);
	} else if (!memchr(err, '\0', sizeof err) || !err[0]) {
		abort();
	}
	free(json);
	return 0;
}
