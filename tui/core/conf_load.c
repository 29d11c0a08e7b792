#include "config.h"
#include "core/conf.h"
#include "core/conf_internal.h"
#include "api/utf8.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FILE_MAX (1024 * 1024)
#define LINE_MAX_LEN 4096
#define LONG_MARK "\x1f" /* stands for a value too long for libinih's line buffer */

/* libinih (Debian build) has a fixed 200-byte line buffer and splits longer lines. We hand it
 * one line at a time through a reader and give it a short stand-in for long values, which the
 * handler swaps back. The reader also knows the line number (this libinih does not pass it). */
struct load_ctx {
	struct steno_config *cfg;
	const char *file;
	const char *text;
	size_t len, pos;
	int line;               /* line number of the line last handed to inih */
	char *long_value;       /* full value of the current line when it was too long */
	int limit;              /* bytes inih accepts per line, incl. "\n\0" */
};

static const char *line_problem(const char *s, size_t n)
{
	if (n > LINE_MAX_LEN)
		return "line longer than 4096 bytes";
	for (size_t i = 0; i < n;) {
		if (s[i] == '\0')
			return "NUL byte in line";
		size_t k = steno_utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0)
			return "invalid UTF-8";
		i += k;
	}
	return NULL;
}

static bool is_bind_line(const char *s, size_t n)
{
	if (n < 5 || strncmp(s, "bind", 4) != 0 || (s[4] != ' ' && s[4] != '\t'))
		return false;
	size_t i = 4;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && s[i] != '=' && s[i] != ':';
}

/* Where an inline comment (" ;") starts, as libinih sees it, or n. */
static size_t comment_start(const char *s, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (s[i] == ';' && (s[i - 1] == ' ' || s[i - 1] == '\t'))
			return i;
	return n;
}

static const char *shape_problem(const char *s, size_t n)
{
	if (n == 0 || s[0] == ';' || s[0] == '#')
		return NULL;
	if (s[0] == '[') {
		const char *close = memchr(s, ']', comment_start(s, n));
		if (!close)
			return "section header without ']'";
		for (const char *p = close + 1; p < s + n && *p != ';' && *p != '#'; p++)
			if (*p != ' ' && *p != '\t')
				return "text after a section header";
		return (close - s) > 100 ? "section name longer than 100 bytes" : NULL;
	}
	if (is_bind_line(s, n))
		return NULL;
	size_t c = comment_start(s, n);
	const char *eq = memchr(s, '=', c);
	const char *colon = memchr(s, ':', c);
	if (!eq && !colon)
		return "expected \"key = value\", \"[section]\" or \"bind KEY ACTION\"";
	const char *sep = (eq && (!colon || eq < colon)) ? eq : colon;
	if (sep == s)
		return "a key name is missing before '='";
	return (sep - s) > 100 ? "key name longer than 100 bytes" : NULL;
}

static void line_bounds(const struct load_ctx *c, size_t pos, size_t *start, size_t *n,
			size_t *next)
{
	const char *nl = memchr(c->text + pos, '\n', c->len - pos);
	size_t end = nl ? (size_t)(nl - c->text) : c->len;
	*next = nl ? end + 1 : end;
	/* Leading blanks are dropped so that libinih never sees a continuation line. */
	while (pos < end && (c->text[pos] == ' ' || c->text[pos] == '\t'))
		pos++;
	while (end > pos && (c->text[end - 1] == '\r' || c->text[end - 1] == ' ' ||
			     c->text[end - 1] == '\t'))
		end--;
	*start = pos;
	*n = end - pos;
}

/* Pass one: the whole file must be well-formed before any of it is applied. */
static int validate(struct load_ctx *c)
{
	int line = 0, bad = 0;
	for (size_t pos = 0; pos < c->len;) {
		size_t start, n, next;
		line_bounds(c, pos, &start, &n, &next);
		line++;
		const char *why = line_problem(c->text + start, n);
		if (!why)
			why = shape_problem(c->text + start, n);
		if (why) {
			config_diag_add(c->cfg, c->file, line, CONFIG_ERROR, "%s", why);
			bad++;
		}
		pos = next;
	}
	return bad;
}

static char *trimmed_dup(const char *s, size_t n)
{
	while (n && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return strndup(s, n);
}

/* Writes the line as libinih should see it into out (size num). */
static void stage_line(struct load_ctx *c, const char *s, size_t n, char *out, int num)
{
	size_t cap = (size_t)num - 2;
	free(c->long_value);
	c->long_value = NULL;
	if (n == 0 || s[0] == ';' || s[0] == '#') {
		strcpy(out, "\n");
		return;
	}
	if (s[0] == '[') {
		/* validate() saw the ']' within 100 bytes */
		size_t close = (size_t)((const char *)memchr(s, ']', n) - s);
		snprintf(out, (size_t)num, "%.*s\n", (int)close + 1, s);
		return;
	}
	bool bind = is_bind_line(s, n);
	if (!bind && n <= cap) {
		memcpy(out, s, n);
		out[n] = '\n';
		out[n + 1] = '\0';
		return;
	}
	/* "bind KEY ACTION" becomes "bind = KEY ACTION"; long values are passed by stand-in. */
	size_t name_len, val_at;
	if (bind) {
		name_len = 4;
		val_at = 4;
	} else {
		size_t cut = comment_start(s, n);
		const char *eq = memchr(s, '=', cut), *colon = memchr(s, ':', cut);
		const char *sep = (eq && (!colon || eq < colon)) ? eq : colon;
		name_len = (size_t)(sep - s);
		val_at = name_len + 1;
	}
	size_t vn = comment_start(s + val_at, n - val_at);
	if (name_len + 4 + vn <= cap) {
		snprintf(out, (size_t)num, "%.*s = %.*s\n", (int)name_len, s, (int)vn, s + val_at);
		return;
	}
	c->long_value = trimmed_dup(s + val_at, vn);
	snprintf(out, (size_t)num, "%.*s = " LONG_MARK "\n", (int)name_len, s);
}

static char *reader(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	if (c->pos >= c->len || num < 110)
		return NULL;
	size_t start, n, next;
	line_bounds(c, c->pos, &start, &n, &next);
	c->pos = next;
	c->line++;
	stage_line(c, c->text + start, n, str, num);
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *c = user;
	if (c->long_value && strcmp(value, LONG_MARK) == 0)
		value = c->long_value;
	config_apply(c->cfg, c->file, c->line, section, name, value);
	return 1;
}

/* Drops every setting read so far but keeps the diags and the file name. */
static void reset_to_defaults(struct steno_config *cfg)
{
	struct steno_config fresh;
	config_init_defaults(&fresh, NULL);
	fresh.file = cfg->file;
	fresh.diags = cfg->diags;
	fresh.n_diags = cfg->n_diags;
	fresh.n_errors = cfg->n_errors;
	cfg->file = NULL;
	cfg->diags = NULL;
	config_free(cfg);
	*cfg = fresh;
}

int config_load_string(struct steno_config *cfg, const char *name, const char *text, size_t len,
		       struct steno_error *err)
{
	/* A UTF-8 byte order mark (some editors write one) is not part of the first line. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	struct load_ctx c = { .cfg = cfg, .file = name, .text = text, .len = len };
	size_t diags_before = cfg->n_diags;
	if (len > FILE_MAX || validate(&c) > 0) {
		if (len > FILE_MAX)
			config_diag_add(cfg, name, 0, CONFIG_ERROR, "file larger than 1 MiB");
		reset_to_defaults(cfg);
		cfg->file_loaded = false;
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "%s: malformed, using the defaults; first problem: %s",
				       name, diags_before < cfg->n_diags ? cfg->diags[diags_before].text : "");
	}
	int r = ini_parse_stream(reader, &c, handler, &c);
	free(c.long_value);
	if (r != 0) {
		config_diag_add(cfg, name, r, CONFIG_ERROR, "syntax error");
		reset_to_defaults(cfg);
		return steno_error_set(err, STENO_ERR_CONFIG, "%s:%d: syntax error, using the defaults",
				       name, r);
	}
	cfg->file_loaded = true;
	return 0;
}

/* An inline api_key in a file others can read is as exposed as a world-readable key file;
 * unlike a key file it is not refused (the file holds everything else too), but said loudly. */
static void warn_exposed_keys(struct steno_config *cfg, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || (st.st_mode & 077) == 0)
		return;
	for (size_t i = 0; i < cfg->n_profiles; i++)
		if (cfg->profiles[i].api_key) {
			config_diag_add(cfg, path, 0, CONFIG_WARNING,
					"holds an api_key (profile %s) but has mode %04o; run: chmod 600 %s",
					cfg->profiles[i].name, (unsigned)(st.st_mode & 07777), path);
			return;
		}
}

int config_load(struct steno_config *cfg, const struct steno_paths *paths, const char *path,
		struct steno_error *err)
{
	if (!path)
		path = paths->config_file;
	char *copy = strdup(path);
	if (!copy)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	free(cfg->file);
	cfg->file = copy;
	char *text;
	size_t len;
	struct steno_error rerr;
	steno_error_clear(&rerr);
	if (paths_read_file(path, FILE_MAX, &text, &len, &rerr) != 0) {
		if (errno == ENOENT)
			return 0;
		config_diag_add(cfg, path, 0, CONFIG_ERROR, "%s", rerr.message);
		if (err)
			*err = rerr;
		return -1;
	}
	int rc = config_load_string(cfg, path, text, len, err);
	explicit_bzero(text, len);
	free(text);
	warn_exposed_keys(cfg, path);
	return rc;
}
