#ifndef STENO_UI_KEYMAP_H
#define STENO_UI_KEYMAP_H

/* Key -> action bindings per scope. Defaults come from actions.def; config lines
 * `bind [SCOPE] KEY ACTION` and `unbind [SCOPE] KEY` change them. A lookup in a
 * context (a pane's scope bit | SCOPE_GLOBAL, or SCOPE_DIALOG) picks the binding of
 * the most specific scope: a single pane beats a union (item, list) beats global. */

#include <stddef.h>

#include "ui/actions.h"
#include "ui/diag.h"
#include "ui/keys.h"

struct keymap_entry {
	ui_key key;
	unsigned scope;
	enum action_id action;   /* ACT_NONE: explicitly unbound in this scope */
};

/* Ownership: the keymap owns `entries`; keymap_free releases them. */
struct keymap {
	struct keymap_entry *entries;
	size_t count, cap;
};

/* Fills km with the default keys. Returns 0, or -1 when out of memory. */
int keymap_init(struct keymap *km);
void keymap_free(struct keymap *km);

/* The action for key in context ctx; ACT_NONE if unbound. */
enum action_id keymap_lookup(const struct keymap *km, ui_key key, unsigned ctx);

/* Why key does nothing in context ctx (a pane's scope | SCOPE_GLOBAL), for the status
 * line: when it is bound only in other panes, where its action works ("preview works on a
 * transcription: select one in the list"); when it is bound nowhere, that it does nothing.
 * Writes buf and returns 1; returns 0 (buf untouched) when key is bound in ctx (the pane
 * had nothing to do: its own business) or is no key. */
int keymap_explain(const struct keymap *km, ui_key key, unsigned ctx, char *buf, size_t size);

/* Binds key in scope (0 = the action's own scope) to action, replacing a binding of
 * the same key and scope; ACT_NONE masks broader bindings. Notes shadowing and
 * conflicts in d. Returns 0, or -1 when out of memory. */
int keymap_bind(struct keymap *km, unsigned scope, ui_key key, enum action_id action,
	const char *origin, int line, struct ui_diag *d);

/* Applies one config line ("bind ...", "unbind ...", blank or # comment). Returns 0,
 * or -1 with a message in d (file:line) for a malformed line. */
int keymap_apply_line(struct keymap *km, const char *text, const char *origin, int line,
	struct ui_diag *d);

/* Applies every line of text; returns the number of bad lines. */
int keymap_apply_text(struct keymap *km, const char *text, const char *origin, struct ui_diag *d);

/* Keys bound to action (in any scope), in binding order; returns the count stored. */
size_t keymap_keys_for(const struct keymap *km, enum action_id action, ui_key *out, size_t max);

/* Reports every pair of bindings of one key to different actions in overlapping scopes
 * of equal precedence (the lookup could not choose). Returns their number. */
int keymap_conflicts(const struct keymap *km, struct ui_diag *d);

#endif
