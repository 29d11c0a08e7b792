/* Colour names, the xterm palette and reduction to 16 or 8 colours. */
#include "config.h"

#include "ui/theme.h"

#include <math.h>
#include <stdbool.h>
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

/* A grey for the eye: little chroma or saturation (a cream, a stone), or too dark to show
 * a hue. Greys never turn into a hue when colours are reduced (xterm's 244 grey is nearest
 * to yellow among 8 colours by plain RGB distance: the "yellow labels" of 8-colour
 * terminals). */
static bool achromatic(const int rgb[3]);

bool theme_color_is_grey(int c)
{
	int rgb[3];
	theme_color_rgb(c, rgb);
	return achromatic(rgb);
}

static bool achromatic(const int rgb[3])
{
	int mx = rgb[0], mn = rgb[0];
	for (int i = 1; i < 3; i++) {
		mx = rgb[i] > mx ? rgb[i] : mx;
		mn = rgb[i] < mn ? rgb[i] : mn;
	}
	return mx - mn < 48 || mx < 80 || (mx - mn) * 100 < mx * 35;
}

/* The nearest of colours first..first+count-1 of the same kind (grey or hue) as rgb. */
static int nearest(const int rgb[3], int first, int count)
{
	long best = -1;
	int pick = first;
	bool grey = achromatic(rgb);

	for (int pass = 0; pass < 2 && best < 0; pass++)
		for (int c = first; c < first + count; c++) {
			int p[3];
			long dist = 0;
			theme_color_rgb(c, p);
			if (pass == 0 && achromatic(p) != grey)
				continue;
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

static double channel(int v)
{
	double c = v / 255.0;
	return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double theme_color_contrast(int a, int b)
{
	int x[3], y[3];
	theme_color_rgb(a, x);
	theme_color_rgb(b, y);
	double la = 0.2126 * channel(x[0]) + 0.7152 * channel(x[1]) + 0.0722 * channel(x[2]);
	double lb = 0.2126 * channel(y[0]) + 0.7152 * channel(y[1]) + 0.0722 * channel(y[2]);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

void theme_pair_reduce(int *fg, int *bg, int ncolors)
{
	bool reduced = (*fg >= ncolors || *bg >= ncolors) && ncolors < 256;
	bool grey_fg = *fg >= 0 && theme_color_is_grey(*fg);
	*fg = theme_color_reduce(*fg, ncolors);
	*bg = theme_color_reduce(*bg, ncolors);
	if (!reduced || *fg < 0)
		return;
	if (*bg < 0) {
		/* On the terminal's own background, black and white may be that background:
		 * a grey that became one of them is the terminal's text colour instead. */
		if (grey_fg && (*fg == 0 || *fg == 7 || *fg == 15))
			*fg = THEME_COLOR_DEFAULT;
		return;
	}
	if (theme_color_contrast(*fg, *bg) < THEME_MIN_CONTRAST) {
		int white = ncolors >= 16 ? 15 : 7;
		*fg = theme_color_contrast(0, *bg) >= theme_color_contrast(white, *bg) ? 0 : white;
	}
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
