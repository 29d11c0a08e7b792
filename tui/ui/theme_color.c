/* Colour names, the xterm palette and reduction to 16 or 8 colours. */
#include "config.h"

#include "ui/theme.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const basic[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"
};

/* xterm's default RGB values of the 16 basic colours. */
static const unsigned char base16[16][3] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
	{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
	{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
};

void theme_color_rgb(int c, int rgb[3])
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };

	if (c < 0 || c > 255) {
		rgb[0] = rgb[1] = rgb[2] = 0;
	} else if (c < 16) {
		for (int i = 0; i < 3; i++)
			rgb[i] = base16[c][i];
	} else if (c < 232) {
		c -= 16;
		rgb[0] = level[c / 36];
		rgb[1] = level[c / 6 % 6];
		rgb[2] = level[c % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
	}
}

static int nearest(const int rgb[3], int first, int count)
{
	long best = -1;
	int pick = first;

	for (int c = first; c < first + count; c++) {
		int p[3];
		long dist = 0;
		theme_color_rgb(c, p);
		for (int i = 0; i < 3; i++)
			dist += (long)(p[i] - rgb[i]) * (p[i] - rgb[i]);
		if (best < 0 || dist < best) {
			best = dist;
			pick = c;
		}
	}
	return pick;
}

int theme_color_reduce(int color, int ncolors)
{
	int rgb[3];

	if (color < 0 || color < ncolors)
		return color;
	if (ncolors < 8)
		return THEME_COLOR_DEFAULT;
	if (color < 16 && ncolors < 16)
		return color - 8;   /* bright -> its basic colour, as terminals do */
	theme_color_rgb(color, rgb);
	return nearest(rgb, 0, ncolors >= 16 ? 16 : 8);
}

static int parse_hex(const char *s)
{
	int rgb[3];
	char part[3] = { 0 };

	if (strlen(s) != 7)
		return -2;
	for (int i = 0; i < 3; i++) {
		char *end;
		memcpy(part, s + 1 + 2 * i, 2);
		rgb[i] = (int)strtol(part, &end, 16);
		if (*end)
			return -2;
	}
	return nearest(rgb, 16, 240);   /* the cube and greys: the first 16 vary by terminal */
}

int theme_parse_color(const char *s)
{
	int bright = 0;

	if (!s || !*s)
		return -2;
	if (!strcasecmp(s, "default"))
		return THEME_COLOR_DEFAULT;
	if (s[0] == '#')
		return strspn(s + 1, "0123456789abcdefABCDEF") == 6 ? parse_hex(s) : -2;
	if (!strncasecmp(s, "bright-", 7) || !strncasecmp(s, "bright", 6)) {
		bright = 8;
		s += s[6] == '-' ? 7 : 6;
	}
	for (int i = 0; i < 8; i++)
		if (!strcasecmp(s, basic[i]))
			return i + bright;
	if (bright)
		return -2;
	if (!strncasecmp(s, "color", 5))
		s += 5;
	if (*s && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 3) {
		int n = atoi(s);
		return n <= 255 ? n : -2;
	}
	return -2;
}

int theme_parse_attr(const char *s)
{
	static const struct { const char *name; int bit; } attrs[] = {
		{ "normal", 0 }, { "bold", THEME_A_BOLD }, { "dim", THEME_A_DIM },
		{ "underline", THEME_A_UNDERLINE }, { "reverse", THEME_A_REVERSE },
		{ "standout", THEME_A_STANDOUT }, { "blink", THEME_A_BLINK },
		{ "italic", THEME_A_ITALIC },
	};

	for (size_t i = 0; s && i < sizeof attrs / sizeof attrs[0]; i++)
		if (!strcasecmp(s, attrs[i].name))
			return attrs[i].bit;
	return -1;
}
