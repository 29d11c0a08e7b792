#ifndef STENO_CORE_STATE_H
#define STENO_CORE_STATE_H

/* steno's own remembered state ($XDG_STATE_HOME/steno/state.json; --sandbox has its own,
 * beside the sandbox's data): the folders learned from orders and creations, per server
 * origin and organization, because the API lists no folders; and the orders, exports and
 * translation tasks steno watches (the TUI's or created by the commands), per origin and
 * organization, so the activity pane shows them again after a restart, each with how the
 * last job on it ended (core/jobs_extra.h jobs_extra_remember). Loaded on start;
 * saved by reading the file again, merging, and renaming a new file over it, all under an
 * exclusive lock on FILE.lock, so that two steno processes saving at once lose nothing. A
 * corrupt file is kept as FILE.bad, reported, and steno starts empty. Files of the previous
 * format (folders without an origin) load: state_set_origin gives those folders to the first
 * server that opens their organization. The dialogs' remembered choices and recent
 * languages (core/choices.h) are kept here too, per origin and organization; files without
 * them load. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"

/* Ownership: strings malloc'd, freed by state_free. */
struct state_folder {
	char *origin;           /* scheme://host[:port]; "" for the previous format's, until adopted */
	char *org_id;
	char *folder_id;        /* numeric id, or NULL when only the path is known */
	char *path;             /* "/Podcasts/2024" as typed at creation, or NULL */
	int64_t learned_ms;     /* wall clock, ms since the epoch */
};

enum state_watch_kind { STATE_WATCH_ORDER, STATE_WATCH_EXPORT, STATE_WATCH_TASK };

/* At most this many watched items are kept; the oldest (final ones first) make room. */
#define STATE_WATCHED_MAX 200
/* A final item is forgotten this long after it became final. */
#define STATE_WATCH_KEEP_MS (7LL * 24 * 3600 * 1000)

/* Ownership: strings malloc'd, freed by state_free. Never holds the API key: the origin is
 * scheme://host[:port] of the base URL. */
struct state_watch {
	char *origin;
	char *org_id;           /* "" when no organization was chosen */
	enum state_watch_kind kind;
	char *id;
	int64_t added_ms;       /* wall clock, ms since the epoch */
	int64_t final_ms;       /* when it was seen in a final state; 0 while not final */
	/* How the last job on it ended (core/jobs.h jobs_end_text), so that the activity pane
	 * says it again after a restart: */
	char *job_end;          /* "downloaded to PATH"...; NULL: none, or that job said nothing */
	bool job_end_failed;    /* ... that job failed */
	char *job_end_state;    /* the item's state when it ended; NULL: unknown */
	int64_t job_end_ms;     /* wall clock when it ended; 0: no job ended on it */
	/* An export whose download the user asked for and that was not ready when steno quit:
	 * downloaded at the next start once ready (state_watch_download). */
	char *download_dir;     /* NULL: no download waits */
	char *download_name;    /* NULL: the link's own name */
	bool download_overwrite;
};

/* The recorded end of a job (state_watch_job_end); strings borrowed. */
struct state_job_end {
	const char *text;       /* NULL or "": the job had nothing to say (clears an earlier one) */
	bool failed;
	const char *state;      /* the item's state then; NULL: unknown */
	int64_t ended_ms;       /* wall clock, ms since the epoch */
};

/* A job end's text is cut to fewer bytes than this (at a character boundary). */
#define STATE_JOB_END_MAX 600

/* A remembered choice (core/choices.h). Ownership: strings malloc'd, freed by state_free.
 * Key: origin, org_id, dialog, field; the later used_ms wins. */
struct state_choice {
	char *origin;
	char *org_id;           /* "" for a choice of the whole server */
	char *dialog;           /* "transcribe", "order", "translate", "export", or
	                         * "recent-language" (then field is the code, value "") */
	char *field;
	char *value;
	int64_t used_ms;        /* wall clock, ms since the epoch */
};

/* A creation of this user's steno processes (core/jobs_resolve.c), so that the lookup after a
 * lost reply never takes another process's item for its own. Ownership: strings malloc'd,
 * freed by state_free. Merged by token; kept STATE_CLAIM_KEEP_MS. */
struct state_claim {
	char *origin;
	char *org_id;           /* "" when none */
	char *token;            /* the creation's own random token */
	char *key;              /* what the list shows of what was sent (name, language...) */
	char *id;               /* the item, once known (the reply, or a claim); NULL before */
	long pid;               /* the process that sends it (same host) */
	int64_t started_ms;     /* wall clock when the job started */
	bool resolving;         /* its reply was lost: it looks for its item */
	bool done;              /* over: id known, or the lookup gave up */
};

#define STATE_CLAIM_KEEP_MS (24LL * 3600 * 1000)

struct steno_state {
	struct state_claim *claims;    /* core/state_claims.c */
	size_t n_claims;
	struct state_folder *folders;
	size_t n_folders;
	struct state_watch *watched;   /* oldest first */
	size_t n_watched;
	struct state_watch *forgotten; /* dropped since the last save (state_watch_forget) */
	size_t n_forgotten;
	struct state_choice *choices;  /* core/choices.h */
	size_t n_choices;
	char *origin;           /* the server folders are read and learned for (state_set_origin) */
	bool dirty;             /* changed since load/save */
};

void state_init(struct steno_state *st);
void state_free(struct steno_state *st);

/* Loads `path`. A missing file gives an empty state and 0. A file that is not ours (bad JSON,
 * wrong shape) is renamed to PATH.bad, the state starts empty, and the function returns 1 with
 * a warning in err (kind STENO_ERR_CONFIG) that the caller shows. -1 only on no memory. */
int state_load(struct steno_state *st, const char *path, struct steno_error *err);

/* Saves: under an exclusive lock on PATH.lock, reads the file again, merges st into what is
 * there (another process's folders and items are kept; an item's earliest final time wins,
 * and its latest job end; the watched list is capped again), writes it atomically (0600, directory 0700), and makes
 * st that merged state (its origin kept). Clears dirty. 0, or -1 with err. */
int state_save(struct steno_state *st, const char *path, struct steno_error *err);

/* The server (origin from state_origin, or NULL) whose folders state_folder_learn and
 * state_folders_of use; folders of the previous format of org_id (may be NULL) are given to
 * it. Call after state_load. */
void state_set_origin(struct steno_state *st, const char *origin, const char *org_id);

/* Remembers a folder of an organization on the current server (state_set_origin). Either
 * folder_id or path may be NULL (not both).
 * An entry with the same org and id (or same path when no id) is updated: a path learned
 * later fills in a known id. Returns 1 when something new was learned, 0 when known, -1 on
 * no memory or invalid arguments. */
int state_folder_learn(struct steno_state *st, const char *org_id, const char *folder_id,
		       const char *path, int64_t now_ms, struct steno_error *err);

/* Indices of the folders of one organization on the current server, in the order learned. *out is malloc'd (free it);
 * returns the count, or -1 on no memory. */
long state_folders_of(const struct steno_state *st, const char *org_id, size_t **out);

/* The origin of a base URL ("https://api.example.com:8443", scheme and host lowercased, no
 * user info, path, query or fragment) into buf. Returns buf, or NULL when it is not an
 * absolute http(s) URL or does not fit. */
char *state_origin(const char *base_url, char *buf, size_t size);

/* Remembers a watched item (origin from state_origin; org_id may be NULL: ""). A known one is
 * kept as it is. Final items older than STATE_WATCH_KEEP_MS are dropped first; when the list
 * is full the oldest final item (else the oldest) makes room. Returns 1 when new, 0 when known,
 * -1 on invalid arguments (err kind STENO_ERR_INVALID) or no memory. */
int state_watch_add(struct steno_state *st, const char *origin, const char *org_id,
		    enum state_watch_kind kind, const char *id, int64_t now_ms,
		    struct steno_error *err);

/* Notes that an item reached a final state (the first time only: it is kept
 * STATE_WATCH_KEEP_MS from then). Unknown items are ignored. */
void state_watch_final(struct steno_state *st, const char *origin, const char *org_id,
		       enum state_watch_kind kind, const char *id, int64_t now_ms);

/* Records how the last job on a watched item ended (unknown items are ignored): its text,
 * control characters made spaces and cut below STATE_JOB_END_MAX bytes, replaces the one
 * recorded; the same end again (text, failure and state) keeps its first time. */
void state_watch_job_end(struct steno_state *st, const char *origin, const char *org_id,
			 enum state_watch_kind kind, const char *id,
			 const struct state_job_end *end);

/* Drops a watched item (dismissed by the user, or gone from the server: 404/410) and keeps
 * its key until the next save, so that the save's merge does not bring it back from the
 * file. Unknown items are ignored. */
void state_watch_forget(struct steno_state *st, const char *origin, const char *org_id,
			enum state_watch_kind kind, const char *id);

/* Notes the download an export's job waits to make (dir NULL: none waits any more) on a
 * watched item (unknown items are ignored). Saved with it, so that a restart downloads it. */
void state_watch_download(struct steno_state *st, const char *origin, const char *org_id,
			  enum state_watch_kind kind, const char *id, const char *dir,
			  const char *name, bool overwrite);
/* The watched item (NULL: unknown). */
const struct state_watch *state_watch_get(const struct steno_state *st, const char *origin,
					  const char *org_id, enum state_watch_kind kind,
					  const char *id);

/* Drops final items older than STATE_WATCH_KEEP_MS. */
void state_watch_prune(struct steno_state *st, int64_t now_ms);

/* Indices of the watched items of one origin and organization, oldest first. *out is malloc'd
 * (free it); returns the count, or -1 on no memory. */
long state_watched_of(const struct steno_state *st, const char *origin, const char *org_id,
		      size_t **out);

/* Runs fn on the state file's content under its exclusive lock (PATH.lock), then writes it
 * back when fn returns >= 0 and changed it (dirty): a read-modify-write no other steno
 * process interleaves with. Returns fn's result, or -1 with err (the file could not be
 * locked, read or written). The claims (state_claim_*) are changed this way. */
typedef int (*state_update_fn)(struct steno_state *disk, void *ud);
int state_file_update(const char *path, state_update_fn fn, void *ud, struct steno_error *err);

/* A claim's fields, borrowed: what state_claim_put copies. */
struct state_claim_in {
	const char *origin, *org_id, *token, *key, *id;
	long pid;
	int64_t started_ms;
	bool resolving, done;
};
/* A claim record into st (a known token: its id, resolving and done are filled in). 0 or -1
 * (no memory, or no token). */
int state_claim_put(struct steno_state *st, const struct state_claim_in *c);
/* Drops the claims older than STATE_CLAIM_KEEP_MS before now_ms. */
void state_claims_prune(struct steno_state *st, int64_t now_ms);
/* The claim of a token, or NULL. */
struct state_claim *state_claim_find(struct steno_state *st, const char *token);
/* Whether the item id of origin/org is recorded by any claim other than `token`'s. */
bool state_claim_taken(const struct steno_state *st, const char *origin, const char *org_id,
		       const char *id, const char *token);

#endif
