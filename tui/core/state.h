#ifndef STENO_CORE_STATE_H
#define STENO_CORE_STATE_H

/* steno's own remembered state ($XDG_STATE_HOME/steno/state.json): the folders learned from
 * orders and creations, per organization, because the API lists no folders. Loaded on start,
 * saved atomically. A corrupt file is kept as FILE.bad, reported, and steno starts empty. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"

/* Ownership: strings malloc'd, freed by state_free. */
struct state_folder {
	char *org_id;
	char *folder_id;        /* numeric id, or NULL when only the path is known */
	char *path;             /* "/Podcasts/2024" as typed at creation, or NULL */
	int64_t learned_ms;     /* wall clock, ms since the epoch */
};

struct steno_state {
	struct state_folder *folders;
	size_t n_folders;
	bool dirty;             /* changed since load/save */
};

void state_init(struct steno_state *st);
void state_free(struct steno_state *st);

/* Loads `path`. A missing file gives an empty state and 0. A file that is not ours (bad JSON,
 * wrong shape) is renamed to PATH.bad, the state starts empty, and the function returns 1 with
 * a warning in err (kind STENO_ERR_CONFIG) that the caller shows. -1 only on no memory. */
int state_load(struct steno_state *st, const char *path, struct steno_error *err);

/* Saves atomically (0600, directory 0700) and clears dirty. */
int state_save(struct steno_state *st, const char *path, struct steno_error *err);

/* Remembers a folder of an organization. Either folder_id or path may be NULL (not both).
 * An entry with the same org and id (or same path when no id) is updated: a path learned
 * later fills in a known id. Returns 1 when something new was learned, 0 when known, -1 on
 * no memory or invalid arguments. */
int state_folder_learn(struct steno_state *st, const char *org_id, const char *folder_id,
		       const char *path, int64_t now_ms, struct steno_error *err);

/* Indices of the folders of one organization, in the order learned. *out is malloc'd (free it);
 * returns the count, or -1 on no memory. */
long state_folders_of(const struct steno_state *st, const char *org_id, size_t **out);

#endif
