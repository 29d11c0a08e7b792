#ifndef STENO_UI_ACTIONS_H
#define STENO_UI_ACTIONS_H

/* The actions table (tig's REQ_INFO idea): ids, names, scopes, flags, default keys
 * and help, all from actions.def. Pure data and lookups, no curses. */

#include <stddef.h>

enum action_scope {
	SCOPE_GLOBAL         = 1u << 0,  /* everywhere except dialogs */
	SCOPE_ORGS           = 1u << 1,
	SCOPE_TRANSCRIPTIONS = 1u << 2,
	SCOPE_DETAILS        = 1u << 3,
	SCOPE_ACTIVITY       = 1u << 4,
	SCOPE_PREVIEW        = 1u << 5,
	SCOPE_LOG            = 1u << 6,
	SCOPE_HELP           = 1u << 7,
	SCOPE_DIALOG         = 1u << 8,
	SCOPE_DESCRIBE       = 1u << 9,  /* the describe view */
	/* Unions used by the table. */
	SCOPE_LIST   = SCOPE_ORGS | SCOPE_TRANSCRIPTIONS | SCOPE_DETAILS | SCOPE_ACTIVITY |
	               SCOPE_PREVIEW | SCOPE_LOG | SCOPE_HELP | SCOPE_DESCRIBE,
	SCOPE_ITEM   = SCOPE_TRANSCRIPTIONS | SCOPE_DETAILS,
	SCOPE_BROWSE = SCOPE_ORGS | SCOPE_TRANSCRIPTIONS | SCOPE_DETAILS,
};

enum action_flags {
	ACTION_WRITES = 1u << 0,   /* changes or spends on the server */
	ACTION_LOCAL  = 1u << 1,   /* writes local files of what already exists */
	ACTION_ARG    = 1u << 2,   /* takes the rest of the `:` line as its argument */
};

#define SECTION(title)
#define ACTION(id, name, scope, flags, keys, help) ACT_##id,
enum action_id {
	ACT_NONE = 0,
#include "ui/actions.def"
	ACT_COUNT
};
#undef ACTION
#undef SECTION

struct action_info {
	enum action_id id;
	const char *name;
	unsigned scope;
	unsigned flags;
	const char *keys;      /* default keys, space-separated key names */
	const char *help;
	const char *section;   /* help section title */
};

/* The info of id, or NULL for ACT_NONE and out-of-range ids. */
const struct action_info *action_info(enum action_id id);

/* Exact name lookup; ACT_NONE if unknown. */
enum action_id action_by_name(const char *name);

/* The `:` prompt: an exact name, else the only action whose name starts with
 * prefix. Returns the id, ACT_NONE when nothing matches, or -1 when several match
 * (then *count says how many). */
int action_resolve(const char *prefix, size_t *count);

/* Longest common completion of prefix among action names into buf (size bytes).
 * Returns the number of candidates. Candidates can be listed with action_complete_nth. */
size_t action_complete(const char *prefix, char *buf, size_t size);
const char *action_complete_nth(const char *prefix, size_t nth);

/* Whether the action may run: writes are refused in read-only mode. */
int action_allowed(enum action_id id, int read_only);

/* Why --read-only refuses an ACTION_WRITES action ("it creates an export on the server"),
 * or what it still allows for an ACTION_LOCAL one; NULL for the others. */
const char *action_refusal(enum action_id id);

/* What --read-only means, in two lines (the help overlay). */
#define ACTION_READ_ONLY_RULE "--read-only: nothing that changes or spends anything on the server is sent;"
#define ACTION_READ_ONLY_ALLOWED "downloading a ready export and reading transcripts are allowed"

/* Scope names for `bind SCOPE KEY ACTION`: "global", "list", "organizations",
 * "transcriptions", "details", "activity", "preview", "log", "help", "dialog".
 * Returns the mask or 0 if unknown; action_scope_name names a single bit or union. */
unsigned action_scope_by_name(const char *name);
const char *action_scope_name(unsigned scope);

#endif
