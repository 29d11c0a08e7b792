/* The transcription list's column names: parsed from and written back to the config file. */
#include "config.h"

#include "core/columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const names[LISTCOL_COUNT] = {
	[LISTCOL_NAME] = "name", [LISTCOL_STATE] = "state", [LISTCOL_LANGUAGE] = "language",
	[LISTCOL_LENGTH] = "length", [LISTCOL_COST] = "cost", [LISTCOL_CREATED] = "created",
	[LISTCOL_TAGS] = "tags",
};

const char *listcol_name(enum list_column c)
{
	return (unsigned)c < LISTCOL_COUNT ? names[c] : NULL;
}

static int find(const char *word, size_t n)
{
	for (int c = 0; c < LISTCOL_COUNT; c++)
		if (strlen(names[c]) == n && !strncasecmp(word, names[c], n))
			return c;
	return -1;
}

int listcol_parse(const char *text, unsigned *shown, char *bad, size_t bad_size)
{
	unsigned set = LISTCOL_BIT(LISTCOL_NAME);
	const char *p = text;

	for (;;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, ",");
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		int c = find(p, n);
		if (c < 0) {
			if (bad && bad_size)
				snprintf(bad, bad_size, "%.*s", (int)n, p);
			return -1;
		}
		set |= LISTCOL_BIT(c);
		p += strcspn(p, ",");
		if (!*p)
			break;
		p++;
	}
	*shown = set;
	return 0;
}

void listcol_format(unsigned shown, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return;
	buf[0] = '\0';
	shown |= LISTCOL_BIT(LISTCOL_NAME);
	for (int c = 0; c < LISTCOL_COUNT && len < size; c++)
		if (shown & LISTCOL_BIT(c))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "", names[c]);
}
