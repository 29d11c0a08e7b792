#ifndef STENO_CORE_CHOICES_H
#define STENO_CORE_CHOICES_H

/* Remembered choices: what each dialog was last submitted with (language, service, folder,
 * format and options, export directory) and the languages chosen lately, per server, in the
 * state file (core/state.h), so that dialogs offer them as defaults, also after a restart.
 *
 * What is remembered is this module's table (choices_fields): per dialog, the fields kept,
 * and for each whether it belongs to the organization (a folder, a service, a language) or
 * to the whole server (the export directory, a local path). Everything is keyed by the
 * state's server (state_set_origin); nothing is read or written without one, so that no
 * choice crosses from one server (or --sandbox) to another. Each value carries the time it
 * was chosen: when two steno processes save, the later choice of a field wins, field by
 * field. Recent languages are kept the same way (at most RECENT_MAX per server and
 * organization, the oldest forgotten). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "core/recent.h"

struct steno_state;

enum choice_dialog { CHOICE_TRANSCRIBE, CHOICE_ORDER, CHOICE_TRANSLATE, CHOICE_EXPORT };

/* One remembered field of a dialog. */
struct choice_field {
	const char *field;      /* the dialog's field name ("language", "dir" ...) */
	bool per_org;           /* kept per organization; else for the whole server */
	bool languages;         /* its value (a code, or codes joined by ',') joins the recent */
};

/* The fields a dialog remembers; *n their count. */
const struct choice_field *choices_fields(enum choice_dialog d, size_t *n);

/* What a dialog was submitted with: values of choices_fields' fields (borrowed; a field
 * left out, or NULL, is not changed). */
#define CHOICE_VALUES_MAX 16
struct choice_report {
	enum choice_dialog dialog;
	const char *org_id;     /* NULL or "": no organization */
	struct {
		const char *field, *value;
	} values[CHOICE_VALUES_MAX];
	size_t n;
};

/* Adds one value to r (ignored when full). */
void choices_report_add(struct choice_report *r, const char *field, const char *value);

/* The value last submitted in dialog d for field on the state's server (and organization
 * org_id for a per_org field), or NULL. Borrowed from st. */
const char *choices_get(const struct steno_state *st, const char *org_id, enum choice_dialog d,
			const char *field);

/* Remembers a submitted dialog on the state's server: each reported field the table names
 * (others are ignored), the languages pushed first in the recent list. An empty value is
 * remembered as empty (a checkbox cleared, no folder). 0 (also when the state has no server:
 * nothing kept), or -1 with err (invalid value, no memory). */
int choices_record(struct steno_state *st, const struct choice_report *r, int64_t now_ms,
		   struct steno_error *err);

/* The recent languages of the state's server and organization, most recent first. */
void choices_recent_languages(const struct steno_state *st, const char *org_id,
			      struct recent_list *out);

#endif
