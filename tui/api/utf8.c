#include "config.h"
#include "api/utf8.h"

size_t steno_utf8_next(const char *s, uint32_t *cp)
{
	const unsigned char *b = (const unsigned char *)s;
	if (b[0] < 0x80) {
		*cp = b[0];
		return 1;
	}
	size_t len;
	uint32_t v, least;
	if ((b[0] & 0xE0) == 0xC0)
		len = 2, v = b[0] & 0x1Fu, least = 0x80;
	else if ((b[0] & 0xF0) == 0xE0)
		len = 3, v = b[0] & 0x0Fu, least = 0x800;
	else if ((b[0] & 0xF8) == 0xF0)
		len = 4, v = b[0] & 0x07u, least = 0x10000;
	else
		return 0; /* a continuation byte or 0xF8.. where a character should start */
	for (size_t k = 1; k < len; k++) {
		if ((b[k] & 0xC0) != 0x80)
			return 0; /* also stops at the NUL of a cut sequence */
		v = (v << 6) | (b[k] & 0x3Fu);
	}
	if (v < least || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return len;
}

size_t steno_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned min, cp;

	if (c == 0)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; min = 0x80; cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; min = 0x800; cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; min = 0x10000; cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool steno_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		size_t k = steno_utf8_seq(p + i, len - i);
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

int steno_cp_is_hidden(uint32_t cp)
{
	static const uint32_t ranges[][2] = {
		{0x0000, 0x001F}, {0x007F, 0x009F}, /* C0, DEL, C1 */
		{0x00AD, 0x00AD}, {0x061C, 0x061C}, /* soft hyphen, Arabic letter mark */
		{0x180E, 0x180E}, {0x200B, 0x200F}, /* Mongolian vowel sep., ZWSP..RLM */
		{0x2028, 0x202E}, {0x2060, 0x206F}, /* separators, embeddings, isolates... */
		{0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, /* variation selectors, BOM */
		{0xFFF9, 0xFFFB}, {0xFDD0, 0xFDEF}, /* interlinear annotation, noncharacters */
		{0xE000, 0xF8FF}, {0xE0000, 0xE0FFF}, /* private use, tags + selectors */
		{0xF0000, 0x10FFFF},                   /* private use planes */
	};
	if ((cp & 0xFFFE) == 0xFFFE)
		return 1; /* U+xxFFFE, U+xxFFFF: noncharacters in every plane */
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return 1;
	return 0;
}

size_t steno_utf8_prefix(const char *s, size_t max)
{
	size_t at = 0;
	uint32_t cp;

	while (s[at]) {
		size_t n = steno_utf8_next(s + at, &cp);
		if (!n)
			n = 1;
		if (at + n > max)
			break;
		at += n;
	}
	return at;
}

size_t steno_utf8_uncut(const char *s, size_t len)
{
	const unsigned char *b = (const unsigned char *)s;
	size_t at = len, cont = 0;
	while (at > 0 && cont < 3 && (b[at - 1] & 0xC0) == 0x80)
		at--, cont++;
	if (at == 0 || b[at - 1] < 0xC0 || b[at - 1] > 0xF4) /* not a lead byte */
		return len;
	unsigned lead = b[at - 1];
	size_t need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
	return cont < need ? at - 1 : len;
}
