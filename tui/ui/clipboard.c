/* OSC 52 clipboard copy, in the form the terminal (or tmux, or screen) in between takes. */
#include "config.h"

#include "ui/clipboard.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/utf8.h"
#include "ui/text.h"

#define OSC52_MAX_TEXT 74994
/* screen drops DCS strings longer than its buffer (768 bytes); chunks stay under it */
#define SCREEN_CHUNK 700

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

static bool url_char(unsigned char c)
{
	/* RFC 3986: unreserved, reserved and '%' */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("-._~:/?#[]@!$&'()*+,;=%", c));
}

bool clipboard_check(const char *text, bool url, char *why, size_t size)
{
	why[0] = '\0';
	if (!url) {
		if (text_is_clean(text))
			return true;
		snprintf(why, size, "it holds control, bidi or invalid characters");
		return false;
	}
	size_t scheme = strncasecmp(text, "https://", 8) == 0 ? 8
			: strncasecmp(text, "http://", 7) == 0 ? 7 : 0;
	if (!scheme) {
		snprintf(why, size, "it is not an http(s) URL");
		return false;
	}
	if (!text[scheme] || strchr("/?#", text[scheme])) {
		snprintf(why, size, "the URL has no host");
		return false;
	}
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (!url_char(*p)) {
			snprintf(why, size, "the URL holds a %s (byte 0x%02x)",
				 *p <= 0x20 || *p == 0x7f ? "control or space character"
							  : "character a URL cannot hold", *p);
			return false;
		}
	}
	return true;
}

/* Appends one code point to out: as it is when the screen shows it as it is, else \uXXXX
 * (a surrogate pair above U+FFFF). n == 0: not UTF-8 there, written as \ufffd. */
static void json_put_cp(FILE *out, const char *bytes, size_t n, uint32_t cp)
{
	char one[5] = "";

	if (n)
		memcpy(one, bytes, n);
	if (n && cp >= 0x20 && text_is_clean(one)) {
		fwrite(bytes, 1, n, out);
	} else if (cp > 0xFFFF) {
		cp -= 0x10000;
		fprintf(out, "\\u%04x\\u%04x", (unsigned)(0xD800 + (cp >> 10)),
			(unsigned)(0xDC00 + (cp & 0x3FF)));
	} else {
		fprintf(out, "\\u%04x", (unsigned)(n ? cp : 0xFFFD));
	}
}

char *clipboard_json_safe(const char *json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const char *s = json ? json : "";

	if (!out)
		return NULL;
	while (*s) {
		if (*s == '\n' || *s == '\r') {   /* a line break: drop it and the next indentation */
			while (*s == '\n' || *s == '\r' || *s == ' ' || *s == '\t')
				s++;
			continue;
		}
		uint32_t cp = 0;
		size_t n = steno_utf8_next(s, &cp);
		json_put_cp(out, s, n, cp);
		s += n ? n : 1;
	}
	if (fclose(out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int clipboard_osc52_seq(const char *text, enum config_clipboard method, char *buf, size_t size)
{
	size_t n = strlen(text), enc = (n + 2) / 3 * 4;
	const char *pre = method == CLIPBOARD_TMUX ? "\033Ptmux;\033\033]52;c;"
			  : method == CLIPBOARD_SCREEN ? "\033P\033]52;c;" : "\033]52;c;";
	const char *post = method == CLIPBOARD_TMUX || method == CLIPBOARD_SCREEN ? "\a\033\\" : "\a";
	size_t chunks = method == CLIPBOARD_SCREEN ? enc / SCREEN_CHUNK : 0; /* "ESC\ ESCP" each */
	size_t need = strlen(pre) + enc + chunks * 4 + strlen(post) + 1;
	if (n > OSC52_MAX_TEXT || need > size)
		return -1;
	char *tmp = malloc(enc + 1);
	if (!tmp)
		return -1;
	b64((const unsigned char *)text, n, tmp);
	size_t o = strlen(pre);
	memcpy(buf, pre, o);
	for (size_t i = 0; i < enc; i += SCREEN_CHUNK) {
		size_t take = enc - i < SCREEN_CHUNK ? enc - i : SCREEN_CHUNK;
		if (i && method == CLIPBOARD_SCREEN) {
			memcpy(buf + o, "\033\\\033P", 4);
			o += 4;
		}
		memcpy(buf + o, tmp + i, take);
		o += take;
	}
	free(tmp);
	memcpy(buf + o, post, strlen(post) + 1);
	return (int)(o + strlen(post));
}

/* The first line `tmux show-options -gv NAME` prints, or "" (no tmux, no such option). */
static void tmux_option(const char *name, char *out, size_t size)
{
	char cmd[96];
	out[0] = '\0';
	snprintf(cmd, sizeof cmd, "tmux show-options -gv %s 2>/dev/null", name);
	FILE *p = popen(cmd, "r");
	if (!p)
		return;
	if (!fgets(out, (int)size, p))
		out[0] = '\0';
	out[strcspn(out, "\r\n")] = '\0';
	pclose(p);
}

/* `tmux load-buffer -w -`: tmux keeps the text and sets the outer terminal's clipboard
 * itself, as its set-clipboard option allows. 0 when tmux took it. */
static int tmux_load_buffer(const char *text)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fd[0], 0);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("tmux", "tmux", "load-buffer", "-w", "-", (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	if (pid < 0) {
		close(fd[1]);
		return -1;
	}
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	size_t n = strlen(text);
	int bad = write(fd[1], text, n) != (ssize_t)n;
	close(fd[1]);
	signal(SIGPIPE, old);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	return !bad && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int write_seq(FILE *tty, enum config_clipboard method, const char *text)
{
	size_t size = (strlen(text) + 2) / 3 * 4 * 2 + 64;
	char *buf = malloc(size);
	if (!buf)
		return -1;
	int n = clipboard_osc52_seq(text, method, buf, size);
	FILE *f = tty ? tty : stdout;
	int rc = n < 0 || fwrite(buf, 1, (size_t)n, f) != (size_t)n || fflush(f) != 0 ? -1 : 0;
	free(buf);
	return rc;
}

/* Inside tmux: let tmux set the clipboard unless set-clipboard is off; then the DCS
 * passthrough if allowed; else nothing can reach the outer terminal. */
static int copy_in_tmux(FILE *tty, const char *text, char *msg, size_t size)
{
	char set[32], pass[32];
	tmux_option("set-clipboard", set, sizeof set);
	if (strcmp(set, "off") != 0) {
		if (tmux_load_buffer(text) == 0) {
			snprintf(msg, size, "tmux");
			return 0;
		}
		snprintf(msg, size, "tmux load-buffer failed");
		return -1;
	}
	tmux_option("allow-passthrough", pass, sizeof pass);
	if (strcmp(pass, "on") == 0 || strcmp(pass, "all") == 0) {
		snprintf(msg, size, "OSC 52 through tmux");
		return write_seq(tty, CLIPBOARD_TMUX, text);
	}
	snprintf(msg, size, "tmux has set-clipboard and allow-passthrough off");
	return -1;
}

int clipboard_copy(FILE *tty, enum config_clipboard method, const char *text, bool url,
		   char *msg, size_t size)
{
	char why[128];
	if (!clipboard_check(text, url, why, sizeof why)) {
		snprintf(msg, size, "%s", why);
		return -1;
	}
	if (method == CLIPBOARD_AUTO) {
		const char *tmux = getenv("TMUX"), *sty = getenv("STY");
		method = tmux && tmux[0] ? CLIPBOARD_TMUX : sty && sty[0] ? CLIPBOARD_SCREEN
									   : CLIPBOARD_OSC52;
	}
	switch (method) {
	case CLIPBOARD_OFF:
		snprintf(msg, size, "the clipboard is off (clipboard = off)");
		return -1;
	case CLIPBOARD_TMUX:
		return copy_in_tmux(tty, text, msg, size);
	case CLIPBOARD_SCREEN:
		snprintf(msg, size, "OSC 52 through screen");
		break;
	default:
		snprintf(msg, size, "OSC 52");
		break;
	}
	if (write_seq(tty, method, text) == 0)
		return 0;
	snprintf(msg, size, "cannot write to the terminal");
	return -1;
}
