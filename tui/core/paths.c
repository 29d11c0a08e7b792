#include "config.h"
#include "core/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/steno"
#endif

char *paths_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *s = malloc(a + b + 2);
	if (!s)
		return NULL;
	memcpy(s, dir, a);
	size_t n = a;
	if (n == 0 || s[n - 1] != '/')
		s[n++] = '/';
	memcpy(s + n, name, b + 1);
	return s;
}

static const char *home_dir(void)
{
	const char *h = getenv("HOME");
	return (h && h[0] == '/') ? h : NULL;
}

/* $VAR/steno when VAR is absolute, else $HOME/fallback/steno. */
static char *xdg_dir(const char *var, const char *fallback, struct steno_error *err)
{
	const char *v = getenv(var);
	char *base;
	if (v && v[0] == '/') {
		base = strdup(v);
	} else {
		const char *h = home_dir();
		if (!h) {
			steno_error_set(err, STENO_ERR_CONFIG,
					"neither %s nor HOME is set to an absolute path", var);
			return NULL;
		}
		base = paths_join(h, fallback);
	}
	if (!base) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	char *dir = paths_join(base, "steno");
	free(base);
	if (!dir)
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	return dir;
}

void paths_free(struct steno_paths *p)
{
	if (!p)
		return;
	free(p->config_file);
	free(p->config_dir);
	free(p->state_dir);
	free(p->cache_dir);
	free(p->user_themes_dir);
	free(p->system_themes_dir);
	free(p->state_file);
	memset(p, 0, sizeof(*p));
}

int paths_resolve(struct steno_paths *p, struct steno_error *err)
{
	memset(p, 0, sizeof(*p));
	p->config_dir = xdg_dir("XDG_CONFIG_HOME", ".config", err);
	p->state_dir = p->config_dir ? xdg_dir("XDG_STATE_HOME", ".local/state", err) : NULL;
	p->cache_dir = p->state_dir ? xdg_dir("XDG_CACHE_HOME", ".cache", err) : NULL;
	if (!p->cache_dir)
		goto fail;
	const char *cf = getenv("STENO_CONFIG");
	if (cf && cf[0])
		p->config_file = paths_expand_home(cf, err);
	else
		p->config_file = paths_join(p->config_dir, "config");
	const char *td = getenv("STENO_THEMES_DIR");
	p->system_themes_dir = strdup(td && td[0] ? td : PKGDATADIR "/themes");
	p->user_themes_dir = paths_join(p->config_dir, "themes");
	p->state_file = paths_join(p->state_dir, "state.json");
	if (!p->config_file || !p->system_themes_dir || !p->user_themes_dir || !p->state_file) {
		if (!err || err->kind == STENO_ERR_NONE)
			steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		goto fail;
	}
	return 0;
fail:
	paths_free(p);
	return -1;
}

char *paths_expand_home(const char *path, struct steno_error *err)
{
	char *r;
	if (path[0] == '~' && (path[1] == '\0' || path[1] == '/')) {
		const char *h = home_dir();
		if (!h) {
			steno_error_set(err, STENO_ERR_CONFIG, "cannot expand \"~\": HOME is not set");
			return NULL;
		}
		r = path[1] ? paths_join(h, path + 2) : strdup(h);
	} else {
		r = strdup(path);
	}
	if (!r)
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	return r;
}

bool paths_exists(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0;
}

int paths_mkdir_private(const char *dir, struct steno_error *err)
{
	char *copy = strdup(dir);
	if (!copy)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	/* Create each missing component from the root down. */
	for (char *p = copy + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(copy, 0700) != 0 && errno != EEXIST) {
			int e = errno;
			steno_error_set(err, STENO_ERR_IO, "cannot create directory %s: %s", copy,
					strerror(e));
			free(copy);
			return -1;
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
	free(copy);
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return steno_error_set(err, STENO_ERR_IO, "%s is not a directory", dir);
	return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		/* Best effort: some file systems refuse fsync on directories. */
		(void)fsync(fd);
		close(fd);
	}
}

int paths_save_atomic(const char *path, const void *data, size_t len, mode_t mode,
		      struct steno_error *err)
{
	char *dcopy = strdup(path);
	char *tmpl = malloc(strlen(path) + 16);
	if (!dcopy || !tmpl) {
		free(dcopy);
		free(tmpl);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	const char *dir = dirname(dcopy);
	int rc = -1;
	sprintf(tmpl, "%s.tmp-XXXXXX", path);
	if (paths_mkdir_private(dir, err) != 0)
		goto out;
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		steno_error_set(err, STENO_ERR_IO, "cannot create a temporary file beside %s: %s",
				path, strerror(errno));
		goto out;
	}
	if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		steno_error_set(err, STENO_ERR_IO, "cannot write %s: %s", tmpl, strerror(errno));
		close(fd);
		unlink(tmpl);
		goto out;
	}
	if (close(fd) != 0 || rename(tmpl, path) != 0) {
		steno_error_set(err, STENO_ERR_IO, "cannot save %s: %s", path, strerror(errno));
		unlink(tmpl);
		goto out;
	}
	fsync_dir(dir);
	rc = 0;
out:
	free(dcopy);
	free(tmpl);
	return rc;
}

int paths_read_file(const char *path, size_t max, char **out, size_t *len,
		    struct steno_error *err)
{
	*out = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		steno_error_set(err, STENO_ERR_IO, "cannot open %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		close(fd);
		errno = EINVAL;
		return steno_error_set(err, STENO_ERR_IO, "%s is not a regular file of at most %zu bytes",
				       path, max);
	}
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}
