/* The status bar pane. */
#include "config.h"

#include "ui/statusbar.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/style.h"

static const char *health_name(enum status_health h)
{
	switch (h) {
	case STATUS_ONLINE: return "online";
	case STATUS_SLOW: return "slow";
	case STATUS_OFFLINE: return "offline";
	case STATUS_UNKNOWN: break;
	}
	return "connecting";
}

/* Appends the NULL-terminated list of strings to buf (cut to fit). */
static void append(char *buf, size_t size, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	const char *part;

	va_start(ap, size);
	while ((part = va_arg(ap, const char *)) != NULL && len + 1 < size) {
		size_t n = strlen(part);
		if (n > size - 1 - len)
			n = size - 1 - len;
		memcpy(buf + len, part, n);
		len += n;
		buf[len] = '\0';
	}
	va_end(ap);
}

char *statusbar_left(const struct status_info *s, int ascii, char *buf, size_t size)
{
	char num[64];

	if (!size)
		return buf;
	buf[0] = '\0';
	append(buf, size, " ", s->profile[0] ? s->profile : "steno", (char *)NULL);
	if (s->org[0])
		append(buf, size, ascii ? " > " : " \u203A ", s->org, (char *)NULL);
	if (s->folder[0])
		append(buf, size, " / ", s->folder, (char *)NULL);
	append(buf, size, "  ", ascii ? "*" : "\u25CF", " ", health_name(s->health), (char *)NULL);
	if (s->in_flight > 0) {
		snprintf(num, sizeof num, "%d", s->in_flight);
		append(buf, size, "  ", num, " req", (char *)NULL);
	}
	if (s->rate_wait_s > 0) {
		snprintf(num, sizeof num, "%.0fs", ceil(s->rate_wait_s));
		append(buf, size, "  rate-limited ", num, (char *)NULL);
	}
	if (s->read_only)
		append(buf, size, "  read-only", (char *)NULL);
	return buf;
}

static void statusbar_draw(struct pane *p)
{
	const struct status_info *s = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	char left[512];
	int lw, rw;

	style_bkgd(p->win, THEME_STATUS);
	werase(p->win);
	style_set(p->win, THEME_STATUS);
	if (!s)
		return;
	statusbar_left(s, p->ctx->ascii, left, sizeof left);
	wchar_t *lt = text_sanitize(left, flags);
	lw = text_width(lt);
	if (lw > p->cols)
		lw = p->cols;
	/* the message on the right gets what the left part leaves, at least a third */
	const char *msg = s->error[0] ? s->error : s->notice;
	wchar_t *mt = text_sanitize(msg, flags);
	int need = text_width(mt);
	free(mt);
	rw = p->cols - lw - 2;
	if (rw > need)
		rw = need;
	if (rw < p->cols / 3 && need > rw) {
		rw = need < p->cols / 3 ? need : p->cols / 3;
		lw = p->cols - rw - 2;
	}
	if (lt)
		draw_wtext(p->win, 0, 0, lw, lt, TEXT_LEFT, flags);
	free(lt);
	if (rw <= 0)
		return;
	if (s->error[0]) {
		style_set(p->win, THEME_STATUS_ERROR);
		draw_text(p->win, 0, p->cols - rw - 1, rw, s->error, TEXT_RIGHT, flags);
	} else if (s->notice[0]) {
		style_set(p->win, THEME_STATUS_WARN);
		draw_text(p->win, 0, p->cols - rw - 1, rw, s->notice, TEXT_RIGHT, flags);
	}
	style_set(p->win, THEME_STATUS);
}

static int statusbar_open(struct pane *p, void *arg)
{
	p->data = arg;
	return 0;
}

const struct pane_ops statusbar_pane_ops = {
	.name = "status",
	.scope = 0,
	.place = PANE_PLACE_STATUS,
	.open = statusbar_open,
	.draw = statusbar_draw,
};
