/* Key bindings: defaults from the actions table, remapping from config lines. */
#include "config.h"

#include "ui/keymap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Precedence of a scope: global lowest, then the wider the union the lower. */
static int scope_rank(unsigned scope)
{
	if (scope & SCOPE_GLOBAL)
		return 0;
	return 32 - __builtin_popcount(scope);
}

/* Global bindings apply in every pane (not in dialogs). */
static int scopes_overlap(unsigned a, unsigned b)
{
	if (a & SCOPE_GLOBAL)
		a |= SCOPE_LIST;
	if (b & SCOPE_GLOBAL)
		b |= SCOPE_LIST;
	return (a & b) != 0;
}

static int keymap_add(struct keymap *km, ui_key key, unsigned scope, enum action_id action)
{
	if (km->count == km->cap) {
		size_t cap = km->cap ? km->cap * 2 : 128;
		struct keymap_entry *e = realloc(km->entries, cap * sizeof *e);
		if (!e)
			return -1;
		km->entries = e;
		km->cap = cap;
	}
	km->entries[km->count++] = (struct keymap_entry){ key, scope, action };
	return 0;
}

int keymap_init(struct keymap *km)
{
	memset(km, 0, sizeof *km);
	for (int id = ACT_NONE + 1; id < ACT_COUNT; id++) {
		const struct action_info *a = action_info(id);
		ui_key keys[8];
		int n = keys_parse_list(a->keys, keys, 8, NULL);
		/* A bad default key is a bug in actions.def; the unit tests catch it. */
		for (int i = 0; i < n; i++) {
			if (keymap_add(km, keys[i], a->scope, a->id) < 0) {
				keymap_free(km);
				return -1;
			}
		}
	}
	return 0;
}

void keymap_free(struct keymap *km)
{
	if (!km)
		return;
	free(km->entries);
	memset(km, 0, sizeof *km);
}

static const struct keymap_entry *keymap_find(const struct keymap *km, ui_key key, unsigned ctx)
{
	const struct keymap_entry *best = NULL;

	for (size_t i = 0; i < km->count; i++) {
		const struct keymap_entry *e = &km->entries[i];
		if (e->key != key || !(e->scope & ctx))
			continue;
		if (!best || scope_rank(e->scope) > scope_rank(best->scope))
			best = e;
	}
	return best;
}

enum action_id keymap_lookup(const struct keymap *km, ui_key key, unsigned ctx)
{
	const struct keymap_entry *e = keymap_find(km, key, ctx);

	return e ? e->action : ACT_NONE;
}

/* Where actions of a scope work, most specific first: the first whose every pane an action's
 * scope holds names it. */
static const struct {
	unsigned scope;
	const char *where;
} where_table[] = {
	{ SCOPE_ITEM, "on a transcription: select one in the list" },
	{ SCOPE_TRANSCRIPTIONS, "in the transcriptions list" },
	{ SCOPE_ACTIVITY, "in the activity pane (orders, exports, tasks)" },
	{ SCOPE_PREVIEW, "in a transcript's preview" },
	{ SCOPE_DESCRIBE, "in a describe view (Enter on a row)" },
	{ SCOPE_ORGS, "in the organizations pane" },
	{ SCOPE_DETAILS, "in the details pane" },
	{ SCOPE_LOG, "in the log pane" },
	{ SCOPE_HELP, "in the help" },
};

int keymap_explain(const struct keymap *km, ui_key key, unsigned ctx, char *buf, size_t size)
{
	char kn[32];
	if (key == KEYS_NONE || keymap_lookup(km, key, ctx) != ACT_NONE)
		return 0;
	for (size_t w = 0; w < sizeof where_table / sizeof *where_table; w++)
		for (size_t i = 0; i < km->count; i++) {
			const struct keymap_entry *e = &km->entries[i];
			if (e->key != key || e->action == ACT_NONE || (e->scope & where_table[w].scope) != where_table[w].scope ||
			    keymap_lookup(km, key, where_table[w].scope | SCOPE_GLOBAL) != e->action)
				continue;
			snprintf(buf, size, "%s works %s", action_info(e->action)->name,
				 where_table[w].where);
			return 1;
		}
	snprintf(buf, size, "%s does nothing here (? lists the keys)", keys_name(key, kn, sizeof kn));
	return 1;
}

static void note_overlaps(const struct keymap *km, const struct keymap_entry *added,
	const char *origin, int line, struct ui_diag *d)
{
	char kn[32];

	for (size_t i = 0; i < km->count; i++) {
		const struct keymap_entry *e = &km->entries[i];
		if (e == added || e->key != added->key || !scopes_overlap(e->scope, added->scope) ||
		    e->action == added->action || e->action == ACT_NONE)
			continue;
		const struct action_info *other = action_info(e->action);
		if (scope_rank(e->scope) > scope_rank(added->scope))
			ui_diag_add(d, origin, line, "%s stays bound to %s in scope %s (more specific)",
				keys_name(added->key, kn, sizeof kn), other->name, action_scope_name(e->scope));
		else if (scope_rank(e->scope) == scope_rank(added->scope))
			ui_diag_add(d, origin, line, "%s conflicts with %s in scope %s",
				keys_name(added->key, kn, sizeof kn), other->name, action_scope_name(e->scope));
	}
}

int keymap_bind(struct keymap *km, unsigned scope, ui_key key, enum action_id action,
	const char *origin, int line, struct ui_diag *d)
{
	const struct action_info *a = action_info(action);
	size_t j = 0;

	if (!scope)
		scope = a ? a->scope : SCOPE_GLOBAL;
	if (a && !(a->scope & scope) && !(a->scope & SCOPE_GLOBAL))
		ui_diag_add(d, origin, line, "%s does not apply in scope %s",
			a->name, action_scope_name(scope));
	for (size_t i = 0; i < km->count; i++)
		if (!(km->entries[i].key == key && km->entries[i].scope == scope))
			km->entries[j++] = km->entries[i];
	km->count = j;
	if (keymap_add(km, key, scope, action) < 0)
		return -1;
	note_overlaps(km, &km->entries[km->count - 1], origin, line, d);
	return 0;
}

static void keymap_unbind_all(struct keymap *km, ui_key key)
{
	size_t j = 0;

	for (size_t i = 0; i < km->count; i++)
		if (km->entries[i].key != key)
			km->entries[j++] = km->entries[i];
	km->count = j;
}

/* Splits line into at most max whitespace-separated words (modifies line). */
static int split_words(char *line, char **words, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return max + 1;
		words[n++] = tok;
	}
	return n;
}

static int apply_words(struct keymap *km, char **w, int n, const char *origin, int line,
	struct ui_diag *d)
{
	int is_bind = !strcmp(w[0], "bind");
	int want = is_bind ? 3 : 2;
	unsigned scope = 0;

	if (n != want && n != want + 1)
		return ui_diag_add(d, origin, line, is_bind ? "usage: bind [SCOPE] KEY ACTION"
			: "usage: unbind [SCOPE] KEY"), -1;
	if (n == want + 1 && !(scope = action_scope_by_name(w[1])))
		return ui_diag_add(d, origin, line, "unknown scope '%s'", w[1]), -1;
	const char *kname = w[n - (is_bind ? 2 : 1)];
	ui_key key = keys_parse(kname);
	if (key == KEYS_NONE)
		return ui_diag_add(d, origin, line, "unknown key '%s'", kname), -1;
	if (!is_bind && !scope) {
		keymap_unbind_all(km, key);
		return 0;
	}
	enum action_id act = ACT_NONE;
	if (is_bind && strcmp(w[n - 1], "none") && !(act = action_by_name(w[n - 1])))
		return ui_diag_add(d, origin, line, "unknown action '%s'", w[n - 1]), -1;
	if (!scope && act == ACT_NONE) {
		keymap_unbind_all(km, key);
		return 0;
	}
	if (keymap_bind(km, scope, key, act, origin, line, d) < 0)
		return ui_diag_add(d, origin, line, "out of memory"), -1;
	return 0;
}

int keymap_apply_line(struct keymap *km, const char *text, const char *origin, int line,
	struct ui_diag *d)
{
	char buf[256], *w[6];
	size_t len = strlen(text);
	int n;

	if (len >= sizeof buf)
		return ui_diag_add(d, origin, line, "line too long"), -1;
	memcpy(buf, text, len + 1);
	n = split_words(buf, w, 5);
	if (n == 0 || w[0][0] == '#')
		return 0;
	if (strcmp(w[0], "bind") && strcmp(w[0], "unbind"))
		return ui_diag_add(d, origin, line, "unknown command '%s'", w[0]), -1;
	return apply_words(km, w, n, origin, line, d);
}

int keymap_apply_text(struct keymap *km, const char *text, const char *origin, struct ui_diag *d)
{
	int bad = 0, line = 0;

	while (text && *text) {
		char buf[256];
		size_t len = strcspn(text, "\n");
		line++;
		if (len >= sizeof buf) {
			ui_diag_add(d, origin, line, "line too long");
			bad++;
		} else {
			memcpy(buf, text, len);
			buf[len] = '\0';
			bad += keymap_apply_line(km, buf, origin, line, d) < 0;
		}
		text += len + (text[len] == '\n');
	}
	return bad;
}

size_t keymap_keys_for(const struct keymap *km, enum action_id action, ui_key *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < km->count && n < max; i++) {
		if (km->entries[i].action != action)
			continue;
		size_t k = 0;
		while (k < n && out[k] != km->entries[i].key)
			k++;
		if (k == n)
			out[n++] = km->entries[i].key;
	}
	return n;
}

int keymap_conflicts(const struct keymap *km, struct ui_diag *d)
{
	int n = 0;
	char kn[32];

	for (size_t i = 0; i < km->count; i++) {
		for (size_t j = i + 1; j < km->count; j++) {
			const struct keymap_entry *a = &km->entries[i], *b = &km->entries[j];
			if (a->key != b->key || !scopes_overlap(a->scope, b->scope) || a->action == b->action ||
			    scope_rank(a->scope) != scope_rank(b->scope))
				continue;
			ui_diag_add(d, "keys", 0, "%s is bound to both %s and %s",
				keys_name(a->key, kn, sizeof kn), action_info(a->action) ?
				action_info(a->action)->name : "none", action_info(b->action) ?
				action_info(b->action)->name : "none");
			n++;
		}
	}
	return n;
}
