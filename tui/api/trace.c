#include "config.h"
#include "api/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "api/jget.h"
#include "api/url.h"

/* Owned by the opener; freed by steno_trace_close. */
struct steno_trace {
	FILE *fp;
	char *secret;
};

int steno_trace_open(const char *path, struct steno_trace **out, struct steno_error *err)
{
	*out = NULL;
	struct steno_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0 || !(t->fp = fdopen(fd, "a"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		free(t);
		return steno_error_set(err, STENO_ERR_IO, "cannot open trace file %s: %s", path,
				       strerror(e));
	}
	setvbuf(t->fp, NULL, _IOLBF, 0);
	*out = t;
	return 0;
}

void steno_trace_close(struct steno_trace *t)
{
	if (!t)
		return;
	fclose(t->fp);
	free(t->secret);
	free(t);
}

int steno_trace_set_secret(struct steno_trace *t, const char *secret)
{
	free(t->secret);
	t->secret = NULL;
	if (!secret || !*secret)
		return 0;
	t->secret = strdup(secret);
	return t->secret ? 0 : -1;
}

static void scrub_secret(char *s, const char *secret)
{
	if (!secret || !*secret)
		return;
	size_t n = strlen(secret);
	for (char *p = strstr(s, secret); p; p = strstr(p + n, secret))
		memset(p, '*', n);
}

/* As the log pane shows it: a server's URL may hold C0/C1 controls, bidi characters or
 * invalid UTF-8, none of which reaches a file someone will `cat`. Each becomes one '?'
 * (C0 a space), in place: the line only shrinks. */
static void clean_line(char *s)
{
	size_t left = strlen(s), o = 0;
	for (size_t i = 0; left;) {
		size_t len;
		long cp = jget_utf8_next(s + i, left, &len);
		if (cp >= 0 && cp < 0x20)
			s[o++] = ' ';
		else if (cp < 0 || jget_char_unsafe(cp))
			s[o++] = '?';
		else
			memmove(s + o, s + i, len), o += len;
		i += len;
		left -= len;
	}
	s[o] = '\0';
}

void steno_trace_format(const struct steno_trace_entry *e, const char *secret, char *out,
			size_t size)
{
	char url[2048];
	steno_url_redact(e->url, url, sizeof(url));
	if (e->status > 0)
		snprintf(out, size, "%s %s %ld %zuB %ldms retries=%d", e->method, url, e->status,
			 e->bytes, e->ms, e->retries);
	else
		snprintf(out, size, "%s %s ERR(%s) %zuB %ldms retries=%d", e->method, url,
			 e->error ? e->error : "?", e->bytes, e->ms, e->retries);
	clean_line(out);
	scrub_secret(out, secret);
}

void steno_trace_write(struct steno_trace *t, const struct steno_trace_entry *e)
{
	if (!t)
		return;
	char line[3072], stamp[32];
	struct timeval tv;
	struct tm tm;
	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	steno_trace_format(e, t->secret, line, sizeof(line));
	fprintf(t->fp, "%s.%03ldZ %s\n", stamp, (long)(tv.tv_usec / 1000), line);
}
