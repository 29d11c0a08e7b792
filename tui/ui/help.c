/* Help overlay lines from the actions table. */
#include "config.h"

#include "ui/help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void keys_join(const struct keymap *km, enum action_id id, char *buf, size_t size)
{
	ui_key keys[6];
	size_t n = keymap_keys_for(km, id, keys, 6), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char name[32];
		keys_name(keys[i], name, sizeof name);
		/* Stop before a name that would not fit whole. */
		if (len + strlen(name) + 2 > size)
			break;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", name);
	}
	if (!n)
		snprintf(buf, size, "(unbound)");
}

/* How the transcriptions' `/` filter and `s` picker work, after the keys. */
static const char *const help_notes[] = {
	"/ narrows the list on each key: words (name, id, tag)  state:failed  lang:fr",
	"  tag:x  cost>100 (also <, >=, <=, =)  -word excludes; terms all hold",
	"  Tab loads every page, Enter keeps, Esc undoes, Up/Down: lines entered before",
	"s picks the sort key; the current one again reverses it; names in natural order",
	"  (n°2 before n°10); A loads every page when sort or filter should see them all",
};
#define HELP_NOTES (sizeof help_notes / sizeof help_notes[0])

static size_t help_add_notes(struct help_line *lines, size_t n)
{
	lines[n++] = (struct help_line){ .kind = HELP_BLANK, .notes = 1 };
	lines[n] = (struct help_line){ .kind = HELP_SECTION, .notes = 1, .help = "",
				       .name = "Filter and sort of the transcriptions" };
	n++;
	for (size_t i = 0; i < HELP_NOTES; i++)
		lines[n++] = (struct help_line){ .kind = HELP_NOTE, .notes = 1, .help = "",
						 .name = help_notes[i] };
	return n;
}

struct help_line *help_build(const struct keymap *km, int read_only, size_t *count)
{
	/* Each action takes one line; each section at most two more; then the notes. */
	struct help_line *lines = calloc(ACT_COUNT * 3 + 6 + HELP_NOTES, sizeof *lines);
	const char *section = NULL;
	size_t n = 0;

	if (!lines)
		return NULL;
	if (read_only) {
		lines[n].kind = HELP_SECTION;
		lines[n].name = ACTION_READ_ONLY_RULE;
		lines[n++].help = "";
		lines[n].kind = HELP_SECTION;
		lines[n].name = ACTION_READ_ONLY_ALLOWED;
		lines[n++].help = "";
		lines[n++].kind = HELP_BLANK;
	}
	for (int id = ACT_NONE + 1; id < ACT_COUNT; id++) {
		const struct action_info *a = action_info(id);
		if (!section || strcmp(section, a->section)) {
			if (section)
				lines[n++].kind = HELP_BLANK;
			section = a->section;
			lines[n].kind = HELP_SECTION;
			lines[n].name = section;
			lines[n++].help = "";
		}
		struct help_line *l = &lines[n++];
		l->kind = HELP_ACTION;
		l->inactive = !action_allowed(a->id, read_only);
		l->why = read_only ? action_refusal(a->id) : NULL;
		l->name = a->name;
		l->help = a->help;
		keys_join(km, a->id, l->keys, sizeof l->keys);
	}
	n = help_add_notes(lines, n);
	*count = n;
	return lines;
}

char *help_format_line(const struct help_line *l, int key_cols, int name_cols, char *buf, size_t size)
{
	switch (l->kind) {
	case HELP_BLANK:
		snprintf(buf, size, "%s", "");
		break;
	case HELP_SECTION:
		snprintf(buf, size, "%s", l->name);
		break;
	case HELP_NOTE:
		snprintf(buf, size, "  %s", l->name);
		break;
	case HELP_ACTION:
		snprintf(buf, size, "  %-*s  %-*s  %s%s%s%s", key_cols, l->keys, name_cols, l->name,
			 l->help, l->why ? " (read-only: " : "", l->why ? l->why : "",
			 l->why ? ")" : "");
		break;
	}
	return buf;
}

/* roff needs backslashes doubled and a leading dot or quote escaped. */
static void roff_put(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

int help_write(FILE *out, const struct keymap *km, enum help_output fmt)
{
	size_t n;
	struct help_line *lines = help_build(km, 0, &n);
	char buf[256];

	if (!lines)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct help_line *l = &lines[i];
		if (l->notes)
			break;   /* the key table only; the man page says the rest in prose */
		if (fmt == HELP_OUT_TEXT) {
			fprintf(out, "%s\n", help_format_line(l, 20, 20, buf, sizeof buf));
		} else if (l->kind == HELP_SECTION) {
			fputs(".SS ", out);
			roff_put(out, l->name);
			fputc('\n', out);
		} else if (l->kind == HELP_ACTION) {
			fputs(".TP\n.B ", out);
			roff_put(out, l->keys);
			fputs("\n", out);
			roff_put(out, l->name);
			fputs(": ", out);
			roff_put(out, l->help);
			const struct action_info *a = action_info(action_by_name(l->name));
			if (a->flags & (ACTION_WRITES | ACTION_LOCAL)) {
				fputs(a->flags & ACTION_WRITES ? " (refused with \\-\\-read\\-only: " :
				      " (with \\-\\-read\\-only ", out);
				roff_put(out, action_refusal(a->id));
				fputs(")", out);
			}
			fputs("\n", out);
		}
	}
	free(lines);
	return ferror(out) ? -1 : 0;
}
