/* Word lists per language for generated and translated transcripts. */
#ifndef SANDBOX_FORMATS_WORDLISTS_H
#define SANDBOX_FORMATS_WORDLISTS_H

#include <stddef.h>

/* Static data; nothing to free. */
struct sb_wordlist {
	const char *code;            /* primary language subtag, "" for the fallback */
	int cjk;                     /* no spacing items, CJK full stop */
	const char *const *words;
	size_t n_words;
	const char *const *comments; /* annotation texts */
	size_t n_comments;
};

/* The list for language (primary subtag matched case-insensitively: "fr-CA" ->
 * fr). found is set to 1 when the language has its own list; else the fallback
 * (Latin placeholder words) is returned and found is 0. Never NULL. */
const struct sb_wordlist *sb_wordlist_for(const char *language, int *found);

#endif
