#include "config.h"

#include "export_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* EBU Tech 3264 (EBU-STL): a 1024-byte GSI block then one 128-byte TTI block per
 * subtitle. 25 fps, Teletext level-1 display, character code table 00 (Latin,
 * ISO 6937): accented Latin letters become a diacritic byte + base letter;
 * anything the table lacks (CJK, emoji...) becomes '?'. */
#define STL_FPS 25
#define STL_GSI 1024
#define STL_TTI 128
#define STL_TF 112          /* text field bytes of a TTI block */
#define STL_MAX_BLOCKS 99999 /* TNB has 5 digits */

/* Language codes of EBU Tech 3264 appendix 3, and a country for the CO field. */
static const struct { const char *lang, *code, *country; } stl_langs[] = {
	{ "en", "09", "GBR" }, { "fr", "0F", "FRA" }, { "de", "08", "DEU" }, { "es", "0A", "ESP" },
	{ "it", "15", "ITA" }, { "nl", "1D", "NLD" }, { "pt", "21", "PRT" }, { "ja", "69", "JPN" },
	{ "zh", "75", "CHN" }, { "cmn", "75", "CHN" }, { "ru", "56", "RUS" }, { "pl", "20", "POL" },
	{ "sv", "28", "SWE" }, { "da", "07", "DNK" }, { "fi", "27", "FIN" }, { "no", "1E", "NOR" },
};

/* ISO 6937 for U+00C0..U+00FF: diacritic (0 = none, special byte in base) and base. */
static const char stl_latin1_base[] = "AAAAAA?CEEEEIIIIDNOOOOO?OUUUUY??aaaaaa?ceeeeiiiidnooooo?ouuuuy?y";
static const unsigned char stl_latin1_mark[64] = {
	0xC1, 0xC2, 0xC3, 0xC4, 0xC8, 0xCA, 0, 0xCB, 0xC1, 0xC2, 0xC3, 0xC8, 0xC1, 0xC2, 0xC3, 0xC8,
	0, 0xC4, 0xC1, 0xC2, 0xC3, 0xC4, 0xC8, 0, 0, 0xC1, 0xC2, 0xC3, 0xC8, 0xC2, 0, 0,
	0xC1, 0xC2, 0xC3, 0xC4, 0xC8, 0xCA, 0, 0xCB, 0xC1, 0xC2, 0xC3, 0xC8, 0xC1, 0xC2, 0xC3, 0xC8,
	0, 0xC4, 0xC1, 0xC2, 0xC3, 0xC4, 0xC8, 0, 0, 0xC1, 0xC2, 0xC3, 0xC8, 0xC2, 0, 0xC8,
};

/* Single-byte ISO 6937 characters outside ASCII. */
static const struct { unsigned cp; unsigned char b; } stl_specials[] = {
	{ '$', 0xA4 }, { 0xA4, 0x24 }, { 0xA1, 0xA1 }, { 0xA3, 0xA3 }, { 0xA7, 0xA7 }, { 0xAB, 0xAB }, { 0xB0, 0xB0 },
	{ 0xBB, 0xBB }, { 0xBF, 0xBF }, { 0xC6, 0xE1 }, { 0xD0, 0xE2 }, { 0xD8, 0xE9 },
	{ 0xDE, 0xEC }, { 0xDF, 0xFB }, { 0xE6, 0xF1 }, { 0xF0, 0xF3 }, { 0xF8, 0xF9 },
	{ 0xFE, 0xFC }, { 0x152, 0xEA }, { 0x153, 0xFA }, { 0x2018, 0xA9 }, { 0x2019, 0xB9 },
	{ 0x201C, 0xAA }, { 0x201D, 0xBA }, { 0x2013, 0xD0 }, { 0x2014, 0xD0 }, { 0x3002, '.' },
	{ 0xFF1F, '?' }, { 0xFF01, '!' }, { 0x3001, ',' }, { 0xFF0C, ',' },
};

/* Append cp in the STL code table; returns bytes written (0 when no room). */
static size_t stl_put_cp(unsigned cp, unsigned char *out, size_t room)
{
	if (cp >= 0x20 && cp < 0x7f && cp != '$' && room >= 1) {
		out[0] = (unsigned char)cp; /* 0x24 is the currency sign in ISO 6937 */
		return 1;
	}
	for (size_t i = 0; i < sizeof stl_specials / sizeof stl_specials[0]; i++)
		if (stl_specials[i].cp == cp && room >= 1) {
			out[0] = stl_specials[i].b;
			return 1;
		}
	if (cp >= 0xC0 && cp <= 0xFF && stl_latin1_mark[cp - 0xC0] && room >= 2) {
		out[0] = stl_latin1_mark[cp - 0xC0];
		out[1] = (unsigned char)stl_latin1_base[cp - 0xC0];
		return 2;
	}
	if (room >= 1) {
		out[0] = '?';
		return 1;
	}
	return 0;
}

static void stl_field(unsigned char *gsi, size_t off, size_t len, const char *value)
{
	size_t n = strlen(value);
	memset(gsi + off, ' ', len);
	memcpy(gsi + off, value, n < len ? n : len);
}

/* GSI text fields are in code page 850; we write their ASCII subset only,
 * anything else as '?'. */
static void stl_ascii_field(unsigned char *dst, size_t len, const char *utf8)
{
	size_t pos = 0;
	const unsigned char *p = (const unsigned char *)utf8;
	memset(dst, ' ', len);
	while (*p && pos < len) {
		unsigned cp = sb_utf8_next(&p);
		dst[pos++] = cp >= 0x20 && cp < 0x7f ? (unsigned char)cp : '?';
	}
}

static void stl_lang(const char *language, const char **code, const char **country)
{
	size_t n = language ? strcspn(language, "-_") : 0;
	*code = "00";
	*country = "   ";
	for (size_t i = 0; i < sizeof stl_langs / sizeof stl_langs[0]; i++)
		if (n && strlen(stl_langs[i].lang) == n && strncasecmp(stl_langs[i].lang, language, n) == 0) {
			*code = stl_langs[i].code;
			*country = stl_langs[i].country;
		}
}

static void stl_tc_string(char *out, size_t size, double t)
{
	long long f = llround((t > 0 ? t : 0) * STL_FPS);
	snprintf(out, size, "%02d%02d%02d%02d", (int)(f / (3600LL * STL_FPS) % 24),
	         (int)(f / (60LL * STL_FPS) % 60), (int)(f / STL_FPS % 60), (int)(f % STL_FPS));
}

static void stl_gsi(const struct sb_render *r, unsigned char *g, size_t n, double first)
{
	const char *lc, *co;
	char tmp[64];
	time_t when = r->opt->created_unix ? (time_t)r->opt->created_unix : 946684800;
	struct tm tm;
	gmtime_r(&when, &tm);
	memset(g, ' ', STL_GSI);
	stl_field(g, 0, 3, "850");        /* CPN: code page of the GSI text */
	stl_field(g, 3, 8, "STL25.01");   /* DFC: 25 fps */
	g[11] = '1';                      /* DSC: Teletext level 1 */
	stl_field(g, 12, 2, "00");        /* CCT: Latin, ISO 6937 */
	stl_lang(r->t->language, &lc, &co);
	stl_field(g, 14, 2, lc);
	stl_ascii_field(g + 16, 32, r->name); /* OPT */
	stl_ascii_field(g + 80, 32, r->name); /* TPT */
	snprintf(tmp, sizeof tmp, "%02d%02d%02d", tm.tm_year % 100, tm.tm_mon + 1, tm.tm_mday);
	stl_field(g, 224, 6, tmp);        /* CD */
	stl_field(g, 230, 6, tmp);        /* RD */
	stl_field(g, 236, 2, "00");       /* RN */
	snprintf(tmp, sizeof tmp, "%05zu", n);
	stl_field(g, 238, 5, tmp);        /* TNB */
	stl_field(g, 243, 5, tmp);        /* TNS */
	stl_field(g, 248, 3, "001");      /* TNG */
	stl_field(g, 251, 2, "40");       /* MNC */
	stl_field(g, 253, 2, "23");       /* MNR */
	g[255] = '1';                     /* TCS: time codes intended for use */
	stl_field(g, 256, 8, "00000000"); /* TCP */
	stl_tc_string(tmp, sizeof tmp, first);
	stl_field(g, 264, 8, tmp);        /* TCF */
	g[272] = '1';                     /* TND */
	g[273] = '1';                     /* DSN */
	stl_field(g, 274, 3, co);         /* CO */
	stl_field(g, 277, 32, "steno-sandbox"); /* PUB */
}

static void stl_tc(unsigned char *out, double t)
{
	long long f = llround((t > 0 ? t : 0) * STL_FPS);
	out[0] = (unsigned char)(f / (3600LL * STL_FPS) % 24);
	out[1] = (unsigned char)(f / (60LL * STL_FPS) % 60);
	out[2] = (unsigned char)(f / STL_FPS % 60);
	out[3] = (unsigned char)(f % STL_FPS);
}

static void stl_tti(unsigned char *b, size_t sn, const struct sb_cue *c)
{
	b[0] = 0;                          /* SGN */
	b[1] = (unsigned char)(sn & 0xff); /* SN, little endian */
	b[2] = (unsigned char)(sn >> 8 & 0xff);
	b[3] = 0xff;                       /* EBN: last (only) block of this subtitle */
	b[4] = 0;                          /* CS: not cumulative */
	stl_tc(b + 5, c->start);
	stl_tc(b + 9, c->end);
	b[13] = 22;                        /* VP: row 22 of 23 */
	b[14] = 2;                         /* JC: centred */
	b[15] = 0;                         /* CF: subtitle data */
	memset(b + 16, 0x8f, STL_TF);      /* unused space */
	size_t pos = 0;
	const unsigned char *p = (const unsigned char *)c->text;
	while (*p) {
		size_t w = stl_put_cp(sb_utf8_next(&p), b + 16 + pos, STL_TF - 1 - pos);
		if (!w)
			break;
		pos += w;
	}
}

int sb_write_stl(const struct sb_render *r)
{
	struct sb_cue *cues;
	size_t n;
	if (sb_cues_build(r->t, &cues, &n) < 0) {
		sb_render_error(r, "out of memory");
		return -1;
	}
	/* the format cannot count more blocks; later cues are dropped */
	size_t shown = n > STL_MAX_BLOCKS ? STL_MAX_BLOCKS : n;
	unsigned char gsi[STL_GSI], tti[STL_TTI];
	stl_gsi(r, gsi, shown, n ? cues[0].start : 0);
	sb_buf_append(r->out, gsi, sizeof gsi);
	for (size_t i = 0; i < shown; i++) {
		stl_tti(tti, i, &cues[i]);
		sb_buf_append(r->out, tti, sizeof tti);
	}
	sb_cues_free(cues, n);
	return r->out->failed ? -1 : 0;
}
