#include "config.h"
#include "core/textfold.h"

size_t textfold_next(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	uint32_t c;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	} else if (u[0] >= 0xC2 && u[0] <= 0xDF) {
		len = 2;
		c = u[0] & 0x1F;
	} else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
		len = 3;
		c = u[0] & 0x0F;
	} else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
		len = 4;
		c = u[0] & 0x07;
	} else {
		*cp = u[0];
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xC0) != 0x80) {
			*cp = u[0];
			return 1;
		}
		c = (c << 6) | (u[i] & 0x3F);
	}
	/* Overlong forms and surrogates are invalid: byte by byte. */
	if ((len == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10FFFF))) {
		*cp = u[0];
		return 1;
	}
	*cp = c;
	return len;
}

uint32_t textfold_lower(uint32_t cp)
{
	if (cp >= 'A' && cp <= 'Z')
		return cp + 32;
	if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)          /* Latin-1: À..Þ except × */
		return cp + 32;
	if (cp >= 0x100 && cp <= 0x137 && cp % 2 == 0)       /* Latin Extended-A pairs */
		return cp + 1;
	if (cp >= 0x139 && cp <= 0x148 && cp % 2 == 1)
		return cp + 1;
	if (cp >= 0x14A && cp <= 0x177 && cp % 2 == 0)
		return cp + 1;
	if (cp == 0x178)
		return 0xFF;
	if (cp >= 0x179 && cp <= 0x17E && cp % 2 == 1)
		return cp + 1;
	if (cp == 0x386)                                      /* Greek: Ά, Έ..Ί, Ό, Ύ Ώ */
		return 0x3AC;
	if (cp >= 0x388 && cp <= 0x38A)
		return cp + 37;
	if (cp == 0x38C)
		return 0x3CC;
	if (cp == 0x38E || cp == 0x38F)
		return cp + 63;
	if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2)        /* Α..Ϋ */
		return cp + 32;
	if (cp >= 0x400 && cp <= 0x40F)                       /* Cyrillic Ѐ..Џ */
		return cp + 80;
	if (cp >= 0x410 && cp <= 0x42F)                       /* А..Я */
		return cp + 32;
	return cp;
}

static bool is_word_char(uint32_t cp)
{
	if (cp < 0x80)
		return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
		       (cp >= 'A' && cp <= 'Z');
	/* Non-ASCII: letters of every script, except the few punctuation marks names use. */
	return !(cp == 0xA0 || (cp >= 0x2000 && cp <= 0x206F) || cp == 0x3001 ||
		 (cp >= 0xFF08 && cp <= 0xFF09) || cp == 0xFF0C || cp == 0x060C);
}

bool textfold_has_prefix(const char *hay, const char *needle)
{
	if (!needle)
		return true;
	if (!hay)
		hay = "";
	while (*needle) {
		uint32_t a, b;
		if (!*hay)
			return false;
		hay += textfold_next(hay, &a);
		needle += textfold_next(needle, &b);
		if (textfold_lower(a) != textfold_lower(b))
			return false;
	}
	return true;
}

bool textfold_word_prefix(const char *hay, const char *needle)
{
	if (!hay)
		return !needle || !*needle;
	bool at_start = true;
	while (*hay) {
		uint32_t cp;
		if (at_start && textfold_has_prefix(hay, needle))
			return true;
		hay += textfold_next(hay, &cp);
		at_start = !is_word_char(cp);
	}
	return !needle || !*needle;
}

bool textfold_contains(const char *hay, const char *needle)
{
	if (!hay)
		return !needle || !*needle;
	while (*hay) {
		uint32_t cp;
		if (textfold_has_prefix(hay, needle))
			return true;
		hay += textfold_next(hay, &cp);
	}
	return !needle || !*needle;
}
