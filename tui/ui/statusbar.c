/* The status bar pane. */
#include "config.h"

#include "ui/statusbar.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/keys.h"
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

char *statusbar_left(const struct status_info *s, int ascii, enum status_left part, char *buf,
		     size_t size)
{
	char num[64];

	if (!size)
		return buf;
	buf[0] = '\0';
	append(buf, size, " ", s->profile[0] ? s->profile : "steno", (char *)NULL);
	if (s->org[0] && part == STATUS_LEFT_ALL)
		append(buf, size, ascii ? " > " : " \u203A ", s->org, (char *)NULL);
	if (s->folder[0] && part == STATUS_LEFT_ALL)
		append(buf, size, " / ", s->folder, (char *)NULL);
	append(buf, size, "  ", ascii ? "*" : "\u25CF", " ", health_name(s->health), (char *)NULL);
	if (s->in_flight > 0 && part != STATUS_LEFT_HEALTH) {
		snprintf(num, sizeof num, "%d", s->in_flight);
		append(buf, size, "  ", num, " req", (char *)NULL);
	}
	if (s->rate_wait_s > 0) {
		snprintf(num, sizeof num, "%.0fs", ceil(s->rate_wait_s));
		append(buf, size, "  rate-limited ", num, (char *)NULL);
		if (s->rate_asked_s > s->rate_wait_s + 1) {
			snprintf(num, sizeof num, "%.0fs", s->rate_asked_s < 1e9 ? s->rate_asked_s : 1e9);
			append(buf, size, " (server asked ", num, ", R: retry now)", (char *)NULL);
		}
	}
	if (s->cache[0])
		append(buf, size, "  ", s->cache, (char *)NULL);
	if (s->indexing[0] && part != STATUS_LEFT_HEALTH)
		append(buf, size, "  ", s->indexing, (char *)NULL);
	if (s->read_only && part != STATUS_LEFT_HEALTH)
		append(buf, size, "  read-only", (char *)NULL);
	return buf;
}

struct status_hint { enum action_id act; const char *what; };

/* "?:help  q:quit" from the keymap, or while a dialog is open (where q is typed into a
 * field) the dialog's "<Esc>:cancel  <Enter>:submit". Remapped keys show as bound; an
 * unbound action is left out. Returns buf ("" when none is bound). */
static char *statusbar_hint(const struct keymap *km, unsigned overlay_scope, char *buf,
			    size_t size)
{
	static const struct status_hint browse[] = {
		{ ACT_HELP, "help" }, { ACT_QUIT, "quit" }, { ACT_NONE, NULL },
	};
	static const struct status_hint dialog[] = {
		{ ACT_CANCEL, "cancel" }, { ACT_SUBMIT, "submit" }, { ACT_NONE, NULL },
	};
	const struct status_hint *hints = overlay_scope == SCOPE_DIALOG ? dialog : browse;
	char name[32];
	ui_key k;

	buf[0] = '\0';
	for (size_t i = 0; km && hints[i].what; i++) {
		if (keymap_keys_for(km, hints[i].act, &k, 1) < 1 || !keys_name(k, name, sizeof name))
			continue;
		append(buf, size, buf[0] ? "  " : "", name, ":", hints[i].what, (char *)NULL);
	}
	return buf;
}

/* Cells of s as drawn; out of memory counts as none. */
static int utf8_width(const char *s, unsigned flags)
{
	int n = text_width_utf8(s, flags);

	return n > 0 ? n : 0;
}

static void statusbar_draw(struct pane *p)
{
	const struct status_info *s = p->data;
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	char left[512], hint[64];
	int lw, rw;

	style_bkgd(p->win, THEME_STATUS);
	werase(p->win);
	style_set(p->win, THEME_STATUS);
	if (!s)
		return;
	/* the message on the right is read whole if the left part, cut down by steps, leaves
	 * the room; otherwise it gets what the least of it leaves, at least a third */
	const char *msg = s->error[0] ? s->error : s->notice;
	int need = utf8_width(msg, flags);
	wchar_t *lt = NULL;
	for (enum status_left part = STATUS_LEFT_ALL; part <= STATUS_LEFT_HEALTH; part++) {
		free(lt);
		lt = text_sanitize(statusbar_left(s, p->ctx->ascii, part, left, sizeof left), flags);
		lw = text_width(lt);
		if (!need || lw + 2 + need <= p->cols)
			break;
	}
	if (lw > p->cols)
		lw = p->cols;
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
	/* the key hint for new users, right-aligned; the first thing dropped when narrow:
	 * it shows only when the left part and the whole message still fit beside it */
	statusbar_hint(p->ctx->keymap, p->ctx->overlay_scope, hint, sizeof hint);
	int hw = utf8_width(hint, flags), end = p->cols - 1;
	if (hw && lw + 2 + (need ? need + 2 : 0) + hw < p->cols) {
		style_set(p->win, THEME_STATUS);
		draw_text(p->win, 0, end - hw, hw, hint, TEXT_RIGHT, flags);
		end -= hw + 2;
	}
	if (rw <= 0)
		return;
	if (s->error[0]) {
		style_set(p->win, THEME_STATUS_ERROR);
		draw_text(p->win, 0, end - rw, rw, s->error, TEXT_RIGHT, flags);
	} else if (s->notice[0]) {
		style_set(p->win, THEME_STATUS_WARN);
		draw_text(p->win, 0, end - rw, rw, s->notice, TEXT_RIGHT, flags);
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
