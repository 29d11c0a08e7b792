/* Theme files: parsing, lookup and loading. */
#include "config.h"

#include "ui/theme.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/steno"
#endif

#define THEME_MAX_BYTES (256 * 1024)

static const struct { const char *name; unsigned mono; } elements[] = {
#define THEME_X_INFO(id, name, mono) { name, mono },
	THEME_ELEMENTS(THEME_X_INFO)
#undef THEME_X_INFO
};

const char *theme_elem_name(enum theme_elem e)
{
	return (unsigned)e < THEME_COUNT ? elements[e].name : "?";
}

int theme_elem_by_name(const char *name)
{
	for (int i = 0; name && i < THEME_COUNT; i++)
		if (!strcmp(elements[i].name, name))
			return i;
	return -1;
}

void theme_init(struct theme *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < THEME_COUNT; i++) {
		t->el[i].fg = t->el[i].bg = THEME_COLOR_DEFAULT;
		t->el[i].attrs = t->el[i].mono = elements[i].mono;
	}
	t->colors_enabled = 1;
	theme_parse(t, theme_builtins[0].text, "builtin", NULL);
	snprintf(t->source, sizeof t->source, "builtin");
}

/* Parses attribute words w[0..n-1] into *out; reports the first bad one. */
static int parse_attrs(char **w, int n, unsigned *out, const char *origin, int line, struct ui_diag *d)
{
	unsigned bits = 0;

	for (int i = 0; i < n; i++) {
		int a = theme_parse_attr(w[i]);
		if (a < 0)
			return ui_diag_add(d, origin, line, "unknown attribute '%s'", w[i]), -1;
		bits |= (unsigned)a;
	}
	*out = bits;
	return 0;
}

static int parse_words(struct theme *t, char **w, int n, const char *origin, int line, struct ui_diag *d)
{
	if (!strcmp(w[0], "set")) {
		if (n == 3 && !strcmp(w[1], "colors") && (!strcmp(w[2], "on") || !strcmp(w[2], "off"))) {
			t->colors_enabled = !strcmp(w[2], "on");
			return 0;
		}
		return ui_diag_add(d, origin, line, "usage: set colors on|off"), -1;
	}
	int is_color = !strcmp(w[0], "color");
	if (!is_color && strcmp(w[0], "mono"))
		return ui_diag_add(d, origin, line, "unknown command '%s' (color, mono, set)", w[0]), -1;
	if (n < (is_color ? 4 : 3))
		return ui_diag_add(d, origin, line, is_color ? "usage: color ELEMENT FG BG [ATTR...]"
			: "usage: mono ELEMENT ATTR..."), -1;
	int e = theme_elem_by_name(w[1]);
	if (e < 0)
		return ui_diag_add(d, origin, line, "unknown element '%s'", w[1]), -1;
	struct theme_style *s = &t->el[e];
	if (!is_color)
		return parse_attrs(w + 2, n - 2, &s->mono, origin, line, d);
	int fg = theme_parse_color(w[2]), bg = theme_parse_color(w[3]);
	if (fg < -1 || bg < -1)
		return ui_diag_add(d, origin, line, "unknown colour '%s'", fg < -1 ? w[2] : w[3]), -1;
	unsigned attrs;
	if (parse_attrs(w + 4, n - 4, &attrs, origin, line, d) < 0)
		return -1;
	s->fg = (short)fg;
	s->bg = (short)bg;
	s->attrs = attrs;
	s->has_color = 1;
	return 0;
}

static int parse_line(struct theme *t, char *line, const char *origin, int lineno, struct ui_diag *d)
{
	char *w[16], *save = NULL;
	int n = 0;

	for (char *tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		/* "#" opens a comment as the first word or as a word of its own; "#rrggbb"
		 * later in the line is a colour */
		if (tok[0] == '#' && (n == 0 || tok[1] == '\0'))
			break;
		if (n == 16)
			return ui_diag_add(d, origin, lineno, "too many words"), -1;
		w[n++] = tok;
	}
	return n ? parse_words(t, w, n, origin, lineno, d) : 0;
}

int theme_parse(struct theme *t, const char *text, const char *origin, struct ui_diag *d)
{
	int bad = 0, lineno = 0;

	while (text && *text) {
		char buf[512];
		size_t len = strcspn(text, "\n");
		lineno++;
		if (len >= sizeof buf) {
			ui_diag_add(d, origin, lineno, "line too long");
			bad++;
		} else {
			memcpy(buf, text, len);
			buf[len] = '\0';
			if (parse_line(t, buf, origin, lineno, d) < 0)
				bad++;
		}
		text += len + (text[len] == '\n');
	}
	return bad;
}

static int try_path(char *buf, size_t size, const char *dir, const char *sub, const char *name)
{
	int n = snprintf(buf, size, "%s%s/%s.theme", dir, sub, name);

	return n > 0 && (size_t)n < size && access(buf, R_OK) == 0 ? 0 : -1;
}

int theme_find(const char *name, char *buf, size_t size)
{
	const char *env;

	if (!name || !*name || !size)
		return -1;
	if (strchr(name, '/')) {
		if ((size_t)snprintf(buf, size, "%s", name) >= size)
			return -1;
		return access(buf, R_OK) == 0 ? 0 : -1;
	}
	if (strstr(name, "..") || name[0] == '.')
		return -1;
	if ((env = getenv("XDG_CONFIG_HOME")) && env[0] == '/') {
		if (try_path(buf, size, env, "/steno/themes", name) == 0)
			return 0;
	} else if ((env = getenv("HOME")) && *env) {
		if (try_path(buf, size, env, "/.config/steno/themes", name) == 0)
			return 0;
	}
	if ((env = getenv("STENO_THEMES_DIR")) && *env && try_path(buf, size, env, "", name) == 0)
		return 0;
	return try_path(buf, size, PKGDATADIR, "/themes", name);
}

/* Reads a whole small text file; caller frees. NULL with a message in d on failure. */
static char *read_small_file(const char *path, struct ui_diag *d)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;

	if (!f)
		return ui_diag_add(d, path, 0, "%s", strerror(errno)), NULL;
	text = malloc(THEME_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		return ui_diag_add(d, path, 0, "out of memory"), NULL;
	}
	n = fread(text, 1, THEME_MAX_BYTES + 1, f);
	if (ferror(f) || n > THEME_MAX_BYTES) {
		ui_diag_add(d, path, 0, ferror(f) ? "read error" : "file too large");
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	text[n] = '\0';
	return text;
}

const char *theme_builtin_text(const char *name)
{
	for (const struct theme_builtin *b = theme_builtins; name && b->name; b++)
		if (!strcmp(b->name, name))
			return b->text;
	return NULL;
}

int theme_load(struct theme *t, const char *name, struct ui_diag *d)
{
	char path[4096];
	char *text;
	const char *builtin;

	theme_init(t);
	if (!name || !*name)
		name = "default";
	if (theme_find(name, path, sizeof path) < 0) {
		if (!strcmp(name, "default"))
			return 0;
		if ((builtin = theme_builtin_text(name))) {
			theme_parse(t, builtin, name, d);
			snprintf(t->source, sizeof t->source, "builtin:%s", name);
			return 0;
		}
		ui_diag_add(d, name, 0, "theme not found");
		return -1;
	}
	if (!(text = read_small_file(path, d)))
		return -1;
	theme_parse(t, text, path, d);
	free(text);
	snprintf(t->source, sizeof t->source, "%s", path);
	return 0;
}
