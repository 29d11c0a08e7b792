/* Transcript content of the sandbox: speaker blocks of timed words.
 * Generated deterministically from a seed, aligned from a document, translated,
 * and serialized in the JSON export form of open-points.md (also used to store
 * the content in SQLite). Not thread-safe per object; no global state. */
#ifndef SANDBOX_FORMATS_TRANSCRIPT_H
#define SANDBOX_FORMATS_TRANSCRIPT_H

#include <stddef.h>
#include <stdint.h>

/* One item of a block. Owned by its block: text and type are freed by
 * sb_transcript_free. text may carry its own spacing/punctuation; join texts as
 * given. type is "word" or "spacing" here (any string when read back from JSON). */
struct sb_word {
	char *text;
	char *type;
	double start;       /* seconds */
	double end;         /* seconds, >= start */
	double confidence;  /* 0..1 */
	int highlighted;    /* annotation: shown by show_highlights(_only) exports */
};

/* One speaker turn. Owned by its transcript. */
struct sb_block {
	char *speaker;          /* "Speaker 1" ... */
	int speaker_number;     /* 1-based */
	double start, end;      /* seconds: first word start, last word end */
	char *comment;          /* annotation, NULL when none; shown by show_comments */
	struct sb_word *words;  /* n_words items */
	size_t n_words;
};

/* A whole transcript. The caller owns it (stack or heap) and releases its
 * contents with sb_transcript_free (which does not free the struct itself). */
struct sb_transcript {
	char *language;         /* BCP-47 code as given */
	struct sb_block *blocks;
	size_t n_blocks;
};

/* Fill *out with plausible content: 2-3 speakers, words with timings ordered
 * and spanning [0, media_seconds]. Same (seed, media_seconds, language) gives the
 * same content. Word lists for en, fr, de, es, it, pt, nl, ja, zh (CJK text,
 * no spacing items); other languages use a fallback list. A few highlights and
 * comments are set. media_seconds <= 0 gives an empty transcript (no blocks).
 * Returns 0, or -1 on allocation failure (*out is then empty). */
int sb_transcript_generate(struct sb_transcript *out, uint64_t seed,
                           double media_seconds, const char *language);

/* Fill *out with the words of document_text (UTF-8, split on whitespace, kept
 * in order with their punctuation) timed evenly over [0, media_seconds],
 * in blocks alternating between 2 speakers (a new turn at the first sentence
 * end after 20 words). An empty
 * document gives an empty transcript. Returns 0 or -1 (allocation). */
int sb_transcript_align(struct sb_transcript *out, const char *document_text,
                        double media_seconds);

/* One word as a speech recognizer gives it: lower-case text without punctuation (borrowed),
 * times in seconds from the start of the media, confidence 0..1. */
struct sb_rec_word {
	const char *text;
	double start, end, confidence;
};

/* Pauses that shape a recognised transcript (no punctuation model exists here):
 * a silence of at least SB_SENTENCE_PAUSE between two words ends a sentence (a "." after
 * the word before it, a capital letter on the next), and one of at least SB_BLOCK_PAUSE
 * also starts a new block. */
#define SB_SENTENCE_PAUSE 0.3
#define SB_BLOCK_PAUSE 1.5

/* Fill *out with words[0..n) (ordered by start) in blocks of "Speaker 1" split at pauses as
 * above; the last word ends a sentence; the pronoun "i" (and i'm, i'll, i've, i'd) is written
 * with a capital; spacing items between words span the silences. n == 0 gives an empty
 * transcript. Returns 0 or -1 (allocation). */
int sb_transcript_from_words(struct sb_transcript *out, const struct sb_rec_word *words, size_t n,
                             const char *language);

/* Replace t's language (copied). Returns 0 or -1 (allocation; t unchanged).
 * sb_transcript_align sets "en"; the caller sets the transcription's language. */
int sb_transcript_set_language(struct sb_transcript *t, const char *language);

/* Fill *out with a translation of src into target_language: same blocks,
 * speakers and word timings; each word replaced deterministically from the
 * target language's word list (a language without a list gets Latin placeholder
 * words), punctuation kept in the target script; spacing items rebuilt (none for
 * CJK). Comments and highlights carried over. Returns 0 or -1 (allocation). */
int sb_transcript_translate(struct sb_transcript *out, const struct sb_transcript *src,
                            const char *target_language);

/* Number of items of type "word" (used for translation durations). */
size_t sb_transcript_word_count(const struct sb_transcript *t);

/* Plain text of the whole transcript, block texts joined by "\n".
 * Caller frees. NULL on allocation failure. */
char *sb_transcript_text(const struct sb_transcript *t);

/* Serialization flags. */
#define SB_JSON_EXPORT 0u       /* exactly the open-points.md JSON export form */
#define SB_JSON_ANNOTATIONS 1u  /* also "comment" on blocks and "highlighted" on words (storage form) */
#define SB_JSON_LANGUAGE 2u     /* wrap as {"language":..,"blocks":[..]} (storage form) */
#define SB_JSON_STORAGE (SB_JSON_ANNOTATIONS | SB_JSON_LANGUAGE)

/* JSON text of t (UTF-8, no BOM). Caller frees. NULL on allocation failure. */
char *sb_transcript_to_json(const struct sb_transcript *t, unsigned flags);

/* Parse either form produced by sb_transcript_to_json (a top-level array, or
 * the storage object). language is used when the JSON does not carry one
 * (may be NULL -> "en"). Returns 0, or -1 with a message in err. */
int sb_transcript_from_json(struct sb_transcript *out, const char *json,
                            const char *language, char *err, size_t errlen);

/* Release everything t owns and leave it empty. Safe on an empty/zeroed struct. */
void sb_transcript_free(struct sb_transcript *t);

#endif
