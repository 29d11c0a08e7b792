/* The actions table and its lookups. */
#include "config.h"

#include "ui/actions.h"

#include <string.h>

static const struct action_info table[] = {
	{ ACT_NONE, "none", 0, 0, "", "Do nothing (unbinds a key)", "" },
#define SECTION(title) /* the section of the following rows, via section_of */
#define ACTION(id, name, scope, flags, keys, help) \
	{ ACT_##id, name, scope, flags, keys, help, NULL },
#include "ui/actions.def"
#undef ACTION
#undef SECTION
};

/* Section titles in table order: a second expansion records, per action, the last
 * SECTION seen, so the .def file needs no section column. */
static const char *const sections[] = {
	"",
#define SECTION(title) title,
#define ACTION(id, name, scope, flags, keys, help)
#include "ui/actions.def"
#undef ACTION
#undef SECTION
};

static const unsigned char section_index[] = {
	0,
#define SECTION(title) 1 +
#define ACTION(id, name, scope, flags, keys, help) 0,
#include "ui/actions.def"
#undef ACTION
#undef SECTION
};

_Static_assert(sizeof table / sizeof table[0] == ACT_COUNT, "actions table size");

const struct action_info *action_info(enum action_id id)
{
	static struct action_info copy[ACT_COUNT];
	static int ready;

	if ((int)id <= ACT_NONE || id >= ACT_COUNT)
		return NULL;
	if (!ready) {
		/* section_index holds "+1 ... 0" sums: each SECTION adds one to the next
		 * action's entry; accumulate them into section numbers once. */
		unsigned s = 0;
		for (size_t i = 0; i < ACT_COUNT; i++) {
			copy[i] = table[i];
			s += section_index[i];
			copy[i].section = sections[s];
		}
		ready = 1;
	}
	return &copy[id];
}

enum action_id action_by_name(const char *name)
{
	if (!name)
		return ACT_NONE;
	for (size_t i = 1; i < ACT_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return table[i].id;
	return ACT_NONE;
}

const char *action_complete_nth(const char *prefix, size_t nth)
{
	size_t len = prefix ? strlen(prefix) : 0;

	for (size_t i = 1; i < ACT_COUNT; i++)
		if (!strncmp(table[i].name, prefix ? prefix : "", len) && nth-- == 0)
			return table[i].name;
	return NULL;
}

size_t action_complete(const char *prefix, char *buf, size_t size)
{
	size_t count = 0, common = 0;
	const char *first = NULL, *name;

	while ((name = action_complete_nth(prefix, count))) {
		if (!first) {
			first = name;
			common = strlen(name);
		} else {
			size_t k = 0;
			while (k < common && first[k] == name[k])
				k++;
			common = k;
		}
		count++;
	}
	if (size) {
		if (!first)
			common = 0;
		if (common >= size)
			common = size - 1;
		if (first)
			memcpy(buf, first, common);
		buf[common] = '\0';
	}
	return count;
}

int action_resolve(const char *prefix, size_t *count)
{
	enum action_id exact = action_by_name(prefix);
	char dummy[2];
	size_t n = action_complete(prefix, dummy, sizeof dummy);

	if (count)
		*count = exact ? 1 : n;
	if (exact)
		return exact;
	if (n == 1)
		return action_by_name(action_complete_nth(prefix, 0));
	return n ? -1 : ACT_NONE;
}

int action_allowed(enum action_id id, int read_only)
{
	const struct action_info *a = action_info(id);

	return a && !(read_only && (a->flags & ACTION_WRITES));
}

const char *action_refusal(enum action_id id)
{
	switch (id) {
	case ACT_NEW_TRANSCRIPTION: return "it spends credit";
	case ACT_NEW_ORDER: return "it spends credit";
	case ACT_CONFIRM_ORDER: return "it spends credit";
	case ACT_TRANSLATE: return "it spends credit";
	case ACT_EXPORT: return "it creates an export";
	case ACT_DELETE: return "it deletes on the server";
	case ACT_DOWNLOAD: return "a transcription needs a new export; ready ones download from activity (4)";
	default: return NULL;
	}
}

static const struct { const char *name; unsigned mask; } scope_names[] = {
	{ "global", SCOPE_GLOBAL }, { "list", SCOPE_LIST },
	{ "organizations", SCOPE_ORGS }, { "transcriptions", SCOPE_TRANSCRIPTIONS },
	{ "details", SCOPE_DETAILS }, { "activity", SCOPE_ACTIVITY },
	{ "preview", SCOPE_PREVIEW }, { "log", SCOPE_LOG }, { "help", SCOPE_HELP },
	{ "dialog", SCOPE_DIALOG }, { "item", SCOPE_ITEM }, { "browse", SCOPE_BROWSE },
	{ "describe", SCOPE_DESCRIBE },
};

unsigned action_scope_by_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof scope_names / sizeof scope_names[0]; i++)
		if (!strcmp(scope_names[i].name, name))
			return scope_names[i].mask;
	return 0;
}

const char *action_scope_name(unsigned scope)
{
	for (size_t i = 0; i < sizeof scope_names / sizeof scope_names[0]; i++)
		if (scope_names[i].mask == scope)
			return scope_names[i].name;
	return "several";
}
