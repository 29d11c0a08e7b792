/* Setting up and tearing down a TUI run. */
#include "config.h"

#include "ui/session.h"

#include <string.h>

#include "ui/style.h"
#include "ui/text.h"

int ui_session_open(struct ui_session *s, const struct ui_session_opts *o)
{
	struct term_opts to = { .mouse = o->mouse, .force_ascii = o->ascii, .term = o->term,
		.out = o->out, .in = o->in };

	memset(s, 0, sizeof *s);
	if (term_open(&s->term, &to) < 0)
		return -1;
	theme_load(&s->theme, o->theme, &s->diag);
	style_apply(&s->theme, style_want_colors(&s->theme));
	if (keymap_init(&s->km) < 0) {
		term_close(&s->term);
		return -1;
	}
	if (o->key_lines)
		keymap_apply_text(&s->km, o->key_lines, o->key_origin ? o->key_origin : "config", &s->diag);
	frame_init(&s->frame, &s->km, s->term.ascii, o->read_only);
	s->status.read_only = o->read_only;
	if (s->diag.count)
		text_copy(s->status.error, sizeof s->status.error, s->diag.msg[0]);
	s->status_pane = pane_new(&statusbar_pane_ops, &s->frame.ctx, &s->status);
	if (frame_add(&s->frame, s->status_pane) < 0) {
		ui_session_close(s);
		return -1;
	}
	frame_resize(&s->frame);
	return 0;
}

void ui_session_close(struct ui_session *s)
{
	frame_free(&s->frame);
	keymap_free(&s->km);
	term_close(&s->term);
}

int ui_session_add(struct ui_session *s, struct pane *p)
{
	if (frame_add(&s->frame, p) < 0)
		return -1;
	frame_resize(&s->frame);
	return 0;
}

void ui_session_on_result(void *session, unsigned result)
{
	struct ui_session *s = session;

	if (result & PANE_REFUSED) {
		text_copy(s->status.notice, sizeof s->status.notice, s->frame.notice);
		s->status.error[0] = '\0';   /* the newer message wins, as app_status */
		pane_dirty(s->status_pane);
	}
}

int ui_session_run(struct ui_session *s, ui_wait_fn wait, void *wait_ctx, int timeout_ms)
{
	struct ui_loop l = {
		.frame = &s->frame, .in_fd = fileno(s->term.in),
		.wait = wait, .wait_ctx = wait_ctx, .timeout_ms = timeout_ms,
		.on_result = ui_session_on_result, .result_ctx = s,
	};

	return ui_loop_run(&l);
}

int ui_session_set_theme(struct ui_session *s, const char *name, char *msg, size_t size)
{
	struct theme t;
	struct ui_diag d;

	memset(&d, 0, sizeof d);
	if (!name || !*name) {
		text_format(msg, size, "theme: give its name (:theme NAME; Tab lists them)");
		return -1;
	}
	if (theme_load(&t, name, &d) < 0) {
		text_format(msg, size, "theme %s: %s", name, d.count ? d.msg[0] : "not found");
		return -1;
	}
	s->theme = t;
	style_apply(&s->theme, style_want_colors(&s->theme));
	clearok(curscr, TRUE);
	s->frame.all_dirty = 1;
	if (d.count)   /* loaded, with lines it skipped */
		text_format(msg, size, "theme %s: %s", name, d.msg[0]);
	else
		text_format(msg, size, "theme %s", name);
	return 0;
}
