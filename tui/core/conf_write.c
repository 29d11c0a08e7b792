/* Writing one global setting back into the config file, the rest of the file kept as it is. */
#include "config.h"

#include "core/conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FILE_MAX (1024 * 1024)

/* Whether the line [s, s+n) is `key = ...` or `key : ...` (spaces allowed around the key). */
static int line_sets(const char *s, size_t n, const char *key)
{
	size_t i = 0, k = strlen(key);
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (n - i < k || strncmp(s + i, key, k) != 0)
		return 0;
	i += k;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && (s[i] == '=' || s[i] == ':');
}

/* For a section header line: 1 when its settings are global ([general], [keys]), 0 for
 * another section; -1 when the line is no section header. */
static int section_kind(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= n || s[i] != '[')
		return -1;
	const char *close = memchr(s + i, ']', n - i);
	size_t k = close ? (size_t)(close - (s + i + 1)) : 0;
	return (k == 7 && !strncmp(s + i + 1, "general", 7)) || (k == 4 && !strncmp(s + i + 1, "keys", 4));
}

/* text with the global `key` set to `line` (ending in "\n"): the first such line where
 * settings are global (before any section, [general], [keys]) replaced and later ones there
 * dropped (a later one would win), or the line added before the first section (at the end
 * when there is none). Returns a malloc'd string or NULL. */
static char *with_setting(const char *text, size_t len, const char *key, const char *line)
{
	size_t cap = len + strlen(line) + 2, o = 0, i = 0;
	char *out = malloc(cap);
	int done = 0, global = 1, found = 0;

	if (!out)
		return NULL;
	for (size_t j = 0; j < len && !found;) {   /* is there one to replace? */
		const char *nl = memchr(text + j, '\n', len - j);
		size_t n = nl ? (size_t)(nl - (text + j)) : len - j;
		int sec = section_kind(text + j, n);
		global = sec < 0 ? global : sec;
		found = global && sec < 0 && line_sets(text + j, n, key);
		j = nl ? j + n + 1 : len;
	}
	global = 1;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		size_t next = nl ? i + n + 1 : len;
		int sec = section_kind(text + i, n);
		if (sec >= 0 && !done && !found) {
			o += (size_t)sprintf(out + o, "%s", line);
			done = 1;
		}
		global = sec < 0 ? global : sec;
		if (sec < 0 && global && line_sets(text + i, n, key)) {
			if (!done)
				o += (size_t)sprintf(out + o, "%s", line);
			done = 1;
		} else {
			memcpy(out + o, text + i, next - i);
			o += next - i;
			if (!nl)
				out[o++] = '\n';
		}
		i = next;
	}
	if (!done)
		o += (size_t)sprintf(out + o, "%s", line);
	out[o] = '\0';
	return out;
}

int config_set_global(const char *file, const char *key, const char *value, struct steno_error *err)
{
	char *text = NULL, *line = NULL, *out = NULL, *real = NULL;
	size_t len = 0;
	mode_t mode = 0600;
	struct stat st;
	int rc = -1;

	if (!file || !file[0])
		return steno_error_set(err, STENO_ERR_CONFIG, "no config file to save %s in", key);
	if (strpbrk(value, "\r\n") || strpbrk(key, "\r\n=:[ "))
		return steno_error_set(err, STENO_ERR_INVALID, "%s: not a value for one line", key);
	if (paths_read_file(file, FILE_MAX, &text, &len, err) != 0) {
		if (errno != ENOENT)
			return -1;
		text = NULL;
		len = 0;
		if (err)
			steno_error_clear(err);
	} else if (memchr(text, '\0', len)) {
		steno_error_set(err, STENO_ERR_CONFIG, "%s holds a NUL byte: not rewritten", file);
		goto out;
	}
	if (stat(file, &st) == 0)
		mode = st.st_mode & 0777;
	/* a config file kept elsewhere and linked (dotfiles) is written where it lives: the
	 * rename of the atomic save would replace the link itself */
	real = realpath(file, NULL);
	size_t ln = strlen(key) + strlen(value) + 5;
	line = malloc(ln);
	if (!line) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		goto out;
	}
	snprintf(line, ln, "%s = %s\n", key, value);
	out = with_setting(text ? text : "", len, key, line);
	if (!out) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		goto out;
	}
	rc = paths_save_atomic(real ? real : file, out, strlen(out), mode, err);
out:
	if (text)
		explicit_bzero(text, len);   /* it may hold an api_key */
	free(text);
	free(line);
	free(real);
	if (out)
		explicit_bzero(out, strlen(out));
	free(out);
	return rc;
}
