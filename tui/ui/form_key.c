/* The keys of a form (pure, no curses): moving between fields, each kind of field's keys,
 * and the picker's while it is open (form_pick.c). Above form.c and form_pick.c: neither
 * calls it. */
#include "config.h"

#include "ui/form.h"

#include <curses.h>   /* KEY_* codes only */

static enum form_event radio_key(struct form_field *fl, ui_key key)
{
	if (!fl->n_opts)
		return FORM_EV_NONE;
	int n = (int)fl->n_opts, c = fl->choice < 0 ? 0 : fl->choice;
	if (key == (KEYS_FN | KEY_LEFT))
		fl->choice = (c + n - 1) % n;
	else if (key == (KEYS_FN | KEY_RIGHT) || key == ' ')
		fl->choice = (c + 1) % n;
	else
		return FORM_EV_NONE;
	return FORM_EV_USED;
}

static enum form_event field_key(struct form *f, struct form_field *fl, ui_key key)
{
	switch (fl->kind) {
	case FORM_TEXT:
	case FORM_FILE:
		if (fl->kind == FORM_FILE && key == 15)  /* C-o: browse */
			return form_pick_open(f, f->focus, 0) == 0 ? FORM_EV_USED : FORM_EV_NONE;
		{
			int r = form_edit_key(fl, key);
			if (r < 0)
				f->nomem = true;
			if (r > 0)
				fl->error[0] = '\0';
			return r != 0 || key >= 32 ? FORM_EV_USED : FORM_EV_NONE;
		}
	case FORM_CHECK:
		if (key != ' ')
			return FORM_EV_NONE;
		fl->checked = !fl->checked;
		fl->error[0] = '\0';
		return FORM_EV_USED;
	case FORM_RADIO:
		fl->error[0] = '\0';
		return radio_key(fl, key);
	case FORM_PICK:
	case FORM_MULTI:
		if (key == ' ' || key == (KEYS_FN | KEY_RIGHT))
			return form_pick_open(f, f->focus, 0) == 0 ? FORM_EV_USED : FORM_EV_NONE;
		if (key > ' ' && !KEYS_IS_FN(key))
			return form_pick_open(f, f->focus, (wchar_t)key) == 0 ? FORM_EV_USED :
				FORM_EV_NONE;
		return FORM_EV_NONE;
	case FORM_BUTTON:
		if (key != ' ')
			return FORM_EV_NONE;
		f->pressed = fl->key;
		return FORM_EV_BUTTON;
	case FORM_NOTE:
		break;
	}
	return FORM_EV_NONE;
}

static enum form_event form_key_once(struct form *f, enum action_id act, ui_key key);

enum form_event form_key(struct form *f, enum action_id act, ui_key key)
{
	enum form_event ev = form_key_once(f, act, key);
	form_drop_stale_message(f);
	return ev;
}

static enum form_event form_key_once(struct form *f, enum action_id act, ui_key key)
{
	if (f->pick.active)
		return form_pick_key(f, act, key);
	if (f->focus < 0 || (size_t)f->focus >= f->n || !form_focusable(&f->fields[f->focus]))
		form_focus_move(f, 1);
	struct form_field *fl = f->n ? &f->fields[f->focus] : NULL;
	switch (act) {
	case ACT_FIELD_NEXT: form_focus_move(f, 1); return FORM_EV_USED;
	case ACT_FIELD_PREV: form_focus_move(f, -1); return FORM_EV_USED;
	case ACT_CANCEL: return FORM_EV_CANCEL;
	case ACT_SUBMIT_FORM:
		return FORM_EV_SUBMIT;
	case ACT_SUBMIT:
		if (fl && fl->kind == FORM_BUTTON) {
			f->pressed = fl->key;
			return FORM_EV_BUTTON;
		}
		/* Enter on a picker field opens its picker, never submits */
		if (fl && (fl->kind == FORM_PICK || fl->kind == FORM_MULTI))
			return form_pick_open(f, f->focus, 0) == 0 ? FORM_EV_USED : FORM_EV_NONE;
		return FORM_EV_SUBMIT;
	default:
		break;
	}
	return fl ? field_key(f, fl, key) : FORM_EV_NONE;
}
