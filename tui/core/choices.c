/* Remembered choices of the dialogs and recent languages, per server and organization, kept
 * in the state's choices list (struct state_choice): what is kept, under which key, and how
 * two processes' lists merge. */
#include "config.h"
#include "core/choices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "core/state_internal.h"

#define RECENT_DIALOG "recent-language"
#define CHOICE_VALUE_MAX 4096
/* Room for every dialog field of many servers and organizations; beyond it nothing new. */
#define STATE_CHOICES_MAX 4000

static const char *const dialog_names[] = { "transcribe", "order", "translate", "export" };

/* Per organization: what belongs to an account (its folders, its services, its languages);
 * for the whole server: the export directory, a path on this machine. */
static const struct choice_field transcribe_fields[] = {
	{ "language", true, true }, { "service", true, false }, { "folder_pick", true, false },
	{ "folder", true, false }, { "is_subtitle", true, false },
	{ "sharing_enabled", true, false },
};
static const struct choice_field order_fields[] = {
	{ "kind", true, false }, { "language", true, true }, { "service", true, false },
	{ "folder_pick", true, false }, { "folder", true, false },
};
static const struct choice_field translate_fields[] = {
	{ "method", true, false }, { "targets", true, true }, { "service", true, false },
};
static const struct choice_field export_fields[] = {
	{ "format", true, false }, { "show_timestamps", true, false },
	{ "show_speakers", true, false }, { "show_comments", true, false },
	{ "show_highlights", true, false }, { "show_highlights_only", true, false },
	{ "timestamps_frequency", true, false }, { "dir", false, false },
};

const struct choice_field *choices_fields(enum choice_dialog d, size_t *n)
{
	switch (d) {
	case CHOICE_TRANSCRIBE:
		*n = sizeof transcribe_fields / sizeof *transcribe_fields;
		return transcribe_fields;
	case CHOICE_ORDER:
		*n = sizeof order_fields / sizeof *order_fields;
		return order_fields;
	case CHOICE_TRANSLATE:
		*n = sizeof translate_fields / sizeof *translate_fields;
		return translate_fields;
	case CHOICE_EXPORT:
		*n = sizeof export_fields / sizeof *export_fields;
		return export_fields;
	}
	*n = 0;
	return NULL;
}

static const struct choice_field *field_of(enum choice_dialog d, const char *field)
{
	size_t n;
	const struct choice_field *fs = choices_fields(d, &n);
	for (size_t i = 0; field && i < n; i++)
		if (strcmp(fs[i].field, field) == 0)
			return &fs[i];
	return NULL;
}

void choices_report_add(struct choice_report *r, const char *field, const char *value)
{
	if (r->n >= CHOICE_VALUES_MAX)
		return;
	r->values[r->n].field = field;
	r->values[r->n].value = value;
	r->n++;
}


/* ---- the list in the state ---- */

static void choice_free(struct state_choice *c)
{
	free(c->origin);
	free(c->org_id);
	free(c->dialog);
	free(c->field);
	free(c->value);
}

void state_choices_free(struct steno_state *st)
{
	for (size_t i = 0; i < st->n_choices; i++)
		choice_free(&st->choices[i]);
	free(st->choices);
	st->choices = NULL;
	st->n_choices = 0;
}

static long choice_find(const struct steno_state *st, const struct choice_in *key)
{
	for (size_t i = 0; i < st->n_choices; i++) {
		const struct state_choice *c = &st->choices[i];
		if (!strcmp(c->field, key->field) && !strcmp(c->dialog, key->dialog) &&
		    !strcmp(c->org_id, key->org) && !strcmp(c->origin, key->origin))
			return (long)i;
	}
	return -1;
}

static void choice_drop(struct steno_state *st, size_t i)
{
	choice_free(&st->choices[i]);
	memmove(&st->choices[i], &st->choices[i + 1], (st->n_choices - i - 1) * sizeof *st->choices);
	st->n_choices--;
	st->dirty = true;
}

static bool text_ok(const char *s, size_t max, bool empty_ok)
{
	if (!s || (!empty_ok && !s[0]) || strlen(s) > max)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* Keeps the RECENT_MAX most recent languages of c's server and organization. */
static void recent_cap(struct steno_state *st, const struct choice_in *c)
{
	for (;;) {
		size_t n = 0;
		long oldest = -1;
		for (size_t i = 0; i < st->n_choices; i++) {
			const struct state_choice *o = &st->choices[i];
			if (strcmp(o->dialog, RECENT_DIALOG) || strcmp(o->org_id, c->org) ||
			    strcmp(o->origin, c->origin))
				continue;
			n++;
			if (oldest < 0 || o->used_ms < st->choices[oldest].used_ms)
				oldest = (long)i;
		}
		if (n <= RECENT_MAX)
			return;
		choice_drop(st, (size_t)oldest);
	}
}

static int choice_append(struct steno_state *st, const struct choice_in *in)
{
	struct state_choice c = { strdup(in->origin), strdup(in->org), strdup(in->dialog),
				  strdup(in->field), strdup(in->value), in->used_ms };
	struct state_choice *cs = c.origin && c.org_id && c.dialog && c.field && c.value
		? realloc(st->choices, (st->n_choices + 1) * sizeof *cs) : NULL;
	if (!cs) {
		choice_free(&c);
		return -1;
	}
	st->choices = cs;
	cs[st->n_choices++] = c;
	return 0;
}

int state_choice_put(struct steno_state *st, const struct choice_in *in, struct steno_error *err)
{
	if (!text_ok(in->origin, 512, false) || !text_ok(in->org, 512, true) ||
	    !text_ok(in->dialog, 64, false) || !text_ok(in->field, 64, false) ||
	    !text_ok(in->value, CHOICE_VALUE_MAX, true))
		return steno_error_set(err, STENO_ERR_INVALID, "invalid remembered choice");
	long i = choice_find(st, in);
	if (i >= 0) {
		struct state_choice *c = &st->choices[i];
		if (in->used_ms < c->used_ms || (in->used_ms == c->used_ms && !strcmp(c->value, in->value)))
			return 0;   /* ours is the later choice */
		char *v = strdup(in->value);
		if (!v)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		free(c->value);
		c->value = v;
		c->used_ms = in->used_ms;
		st->dirty = true;
		return 1;
	}
	if (st->n_choices >= STATE_CHOICES_MAX)
		return 0;
	if (choice_append(st, in) < 0)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	st->dirty = true;
	if (!strcmp(in->dialog, RECENT_DIALOG))
		recent_cap(st, in);
	return 1;
}

int state_choices_merge(struct steno_state *dst, const struct steno_state *src,
			struct steno_error *err)
{
	for (size_t i = 0; i < src->n_choices; i++) {
		const struct state_choice *c = &src->choices[i];
		struct choice_in in = { c->origin, c->org_id, c->dialog, c->field, c->value,
					c->used_ms };
		if (state_choice_put(dst, &in, err) < 0 && err && err->kind == STENO_ERR_NOMEM)
			return -1;
	}
	return 0;
}


/* ---- what the dialogs read and report ---- */

/* The state's server, or NULL when it has none (nothing is read or kept then). */
static const char *server(const struct steno_state *st)
{
	return st && st->origin && st->origin[0] ? st->origin : NULL;
}

const char *choices_get(const struct steno_state *st, const char *org_id, enum choice_dialog d,
			const char *field)
{
	const struct choice_field *cf = field_of(d, field);
	if (!server(st) || !cf)
		return NULL;
	struct choice_in key = { .origin = st->origin, .org = cf->per_org && org_id ? org_id : "",
				 .dialog = dialog_names[d], .field = field };
	long i = choice_find(st, &key);
	return i >= 0 ? st->choices[i].value : NULL;
}

/* Pushes each code of a language value ("ja-JP" or "fr,de") into the recent languages,
 * the first one most recent. */
static int record_languages(struct steno_state *st, const char *org, const char *value,
			    int64_t now_ms, struct steno_error *err)
{
	char codes[CHOICE_VALUE_MAX + 1];
	snprintf(codes, sizeof codes, "%s", value);
	size_t n = 0;
	char *v[RECENT_MAX * 4];
	for (char *save = NULL, *tok = strtok_r(codes, ",", &save); tok && n < sizeof v / sizeof *v;
	     tok = strtok_r(NULL, ",", &save))
		v[n++] = tok;
	/* the first listed gets the latest time: it comes first */
	for (size_t k = n; k-- > 0;) {
		if (strlen(v[k]) >= sizeof((struct recent_list *)0)->items[0])
			continue;
		struct choice_in c = { .origin = st->origin, .org = org,
			.dialog = RECENT_DIALOG, .field = v[k], .value = "",
			.used_ms = now_ms + (int64_t)(n - 1 - k) };
		if (state_choice_put(st, &c, err) < 0)
			return -1;
	}
	return 0;
}

int choices_record(struct steno_state *st, const struct choice_report *r, int64_t now_ms,
		   struct steno_error *err)
{
	if (!server(st))
		return 0;
	const char *org = r->org_id ? r->org_id : "";
	for (size_t i = 0; i < r->n; i++) {
		const struct choice_field *cf = field_of(r->dialog, r->values[i].field);
		const char *value = r->values[i].value;
		if (!cf || !value)
			continue;
		struct choice_in c = { .origin = st->origin, .org = cf->per_org ? org : "",
			.dialog = dialog_names[r->dialog], .field = cf->field, .value = value,
			.used_ms = now_ms };
		if (state_choice_put(st, &c, err) < 0 ||
		    (cf->languages && record_languages(st, org, value, now_ms, err) < 0))
			return -1;
	}
	return 0;
}

void choices_recent_languages(const struct steno_state *st, const char *org_id,
			      struct recent_list *out)
{
	memset(out, 0, sizeof *out);
	if (!server(st))
		return;
	const char *org = org_id ? org_id : "";
	size_t idx[RECENT_MAX + 1], n = 0;
	for (size_t i = 0; i < st->n_choices; i++) {
		const struct state_choice *c = &st->choices[i];
		if (strcmp(c->dialog, RECENT_DIALOG) || strcmp(c->org_id, org) ||
		    strcmp(c->origin, st->origin))
			continue;
		/* insertion by time, the newest first; at most RECENT_MAX kept */
		size_t at = n < RECENT_MAX ? n++ : RECENT_MAX;
		while (at > 0 && st->choices[idx[at - 1]].used_ms < c->used_ms) {
			idx[at] = idx[at - 1];
			at--;
		}
		idx[at] = i;
	}
	/* oldest first: each push puts the newer one before */
	for (size_t k = n; k-- > 0;)
		recent_push(out, st->choices[idx[k]].field);
}
