/* OSC 52 clipboard copy. */
#include "config.h"

#include "ui/clipboard.h"

#include <stdlib.h>
#include <string.h>

#define OSC52_MAX_TEXT 74994

static size_t b64(const unsigned char *in, size_t n, char *out)
{
	static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		out[o++] = tbl[(v >> 18) & 63];
		out[o++] = tbl[(v >> 12) & 63];
		out[o++] = i + 1 < n ? tbl[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? tbl[v & 63] : '=';
	}
	out[o] = '\0';
	return o;
}

int clipboard_osc52_seq(const char *text, int tmux, char *buf, size_t size)
{
	size_t n = strlen(text);
	const char *pre = tmux ? "\033Ptmux;\033\033]52;c;" : "\033]52;c;";
	const char *post = tmux ? "\a\033\\" : "\a";
	size_t need = strlen(pre) + (n + 2) / 3 * 4 + strlen(post) + 1;
	if (n > OSC52_MAX_TEXT || need > size)
		return -1;
	size_t o = strlen(pre);
	memcpy(buf, pre, o);
	o += b64((const unsigned char *)text, n, buf + o);
	memcpy(buf + o, post, strlen(post) + 1);
	return (int)(o + strlen(post));
}

int clipboard_copy(FILE *out, const char *text)
{
	size_t size = (strlen(text) + 2) / 3 * 4 + 32;
	char *buf = malloc(size);
	const char *tmux = getenv("TMUX");
	if (!buf)
		return -1;
	int n = clipboard_osc52_seq(text, tmux && tmux[0], buf, size);
	FILE *f = out ? out : stdout;
	int rc = n < 0 || fwrite(buf, 1, (size_t)n, f) != (size_t)n || fflush(f) != 0 ? -1 : 0;
	free(buf);
	return rc;
}
