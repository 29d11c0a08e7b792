/* Key names: parsing and printing. */
#include "config.h"

#include "ui/keys.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui/text.h"

static const struct { const char *name; ui_key key; } named[] = {
	{ "Enter", '\n' }, { "Tab", '\t' }, { "Esc", 27 }, { "Space", ' ' },
	{ "lt", '<' }, { "Bslash", '\\' },
	{ "S-Tab", KEYS_FN | KEY_BTAB }, { "BS", KEYS_FN | KEY_BACKSPACE },
	{ "Del", KEYS_FN | KEY_DC }, { "Ins", KEYS_FN | KEY_IC },
	{ "Up", KEYS_FN | KEY_UP }, { "Down", KEYS_FN | KEY_DOWN },
	{ "Left", KEYS_FN | KEY_LEFT }, { "Right", KEYS_FN | KEY_RIGHT },
	{ "PgUp", KEYS_FN | KEY_PPAGE }, { "PgDn", KEYS_FN | KEY_NPAGE },
	{ "Home", KEYS_FN | KEY_HOME }, { "End", KEYS_FN | KEY_END },
	{ "Resize", KEYS_FN | KEY_RESIZE }, { "Mouse", KEYS_FN | KEY_MOUSE },
	/* Aliases accepted when parsing; printing uses the first name above. */
	{ "CR", '\n' }, { "Return", '\n' }, { "Escape", 27 }, { "Backspace", KEYS_FN | KEY_BACKSPACE },
	{ "Delete", KEYS_FN | KEY_DC }, { "Insert", KEYS_FN | KEY_IC },
	{ "PageUp", KEYS_FN | KEY_PPAGE }, { "PageDown", KEYS_FN | KEY_NPAGE },
};

/* Decodes exactly one UTF-8 character filling all of s; -1 otherwise. */
static long one_char(const char *s)
{
	wchar_t *w = text_sanitize(s, 0);
	long cp = -1;

	if (w && w[0] && !w[1] && w[0] != 0xFFFD && text_char_width(w[0]) > 0)
		cp = w[0];
	free(w);
	return cp;
}

static ui_key parse_bracket(const char *in, size_t len)
{
	char name[32];

	if (len >= sizeof name)
		return KEYS_NONE;
	memcpy(name, in, len);
	name[len] = '\0';
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (!strcasecmp(named[i].name, name))
			return named[i].key;
	if ((name[0] == 'F' || name[0] == 'f') && name[1]) {
		char *end;
		long n = strtol(name + 1, &end, 10);
		if (!*end && n >= 1 && n <= 24)
			return KEYS_FN | KEY_F(n);
	}
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3]) {
		int c = name[2];
		if (c >= 'a' && c <= 'z')
			c -= 32;
		if (c >= '@' && c <= '_')
			return c - '@';
	}
	return KEYS_NONE;
}

ui_key keys_parse(const char *name)
{
	size_t len;

	if (!name || !*name)
		return KEYS_NONE;
	len = strlen(name);
	if (name[0] == '<' && len > 2 && name[len - 1] == '>')
		return parse_bracket(name + 1, len - 2);
	long cp = one_char(name);
	return cp < 0 ? KEYS_NONE : (ui_key)cp;
}

int keys_parse_list(const char *list, ui_key *out, size_t max, const char **bad)
{
	size_t n = 0;
	const char *p = list ? list : "";

	while (*p) {
		char word[64];
		size_t len = strcspn(p, " \t");
		if (len == 0) {
			p++;
			continue;
		}
		ui_key k = KEYS_NONE;
		if (len < sizeof word) {
			memcpy(word, p, len);
			word[len] = '\0';
			k = keys_parse(word);
		}
		if (k == KEYS_NONE || n >= max) {
			if (bad)
				*bad = p;
			return -1;
		}
		out[n++] = k;
		p += len;
	}
	return (int)n;
}

char *keys_name(ui_key key, char *buf, size_t size)
{
	if (!size)
		return buf;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (named[i].key == key) {
			snprintf(buf, size, "<%s>", named[i].name);
			return buf;
		}
	}
	if (KEYS_IS_FN(key)) {
		int k = key & ~KEYS_FN;
		if (k >= KEY_F(1) && k <= KEY_F(24))
			snprintf(buf, size, "<F%d>", k - KEY_F0);
		else
			snprintf(buf, size, "<Key-%d>", k);
	} else if (key >= 0 && key < 32) {
		/* <C-d> for letters, <C-@> <C-[> ... for the rest */
		int c = key + '@';
		snprintf(buf, size, "<C-%c>", (char)(c >= 'A' && c <= 'Z' ? c + 32 : c));
	} else if (key > 32 && key != 127 && key < 0x110000) {
		char u[5];
		u[text_utf8_put(u, (unsigned long)key)] = '\0';
		snprintf(buf, size, "%s", u);
	} else {
		snprintf(buf, size, "<U+%04X>", (unsigned)key);
	}
	return buf;
}

ui_key keys_from_wch(int rc, wint_t wc)
{
	if (rc == KEY_CODE_YES) {
		if (wc == KEY_ENTER)
			return '\n';
		return KEYS_FN | (int)wc;
	}
	if (wc == '\r')
		return '\n';
	if (wc == 127 || wc == 8)
		return KEYS_FN | KEY_BACKSPACE;
	return (ui_key)wc;
}
