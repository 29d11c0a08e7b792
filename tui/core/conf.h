#ifndef STENO_CORE_CONF_H
#define STENO_CORE_CONF_H

/* steno's configuration file (INI, read with libinih; syntax in docs/steno.conf.5), profiles,
 * environment overrides and the list of paths steno touches. No curses, no network. */

#include <stdbool.h>
#include <stddef.h>

#include "api/error.h"
#include "core/paths.h"

#define STENO_DEFAULT_BASE_URL "https://www.happyscribe.com/api/v1"
#define CONFIG_REFRESH_MIN_S 1.0      /* refresh_interval below this is raised to it */
#define CONFIG_REFRESH_DEFAULT_S 2.0
#define CONFIG_REFRESH_MAX_DEFAULT_S 60.0
#define CONFIG_RPS_DEFAULT 5.0
#define CONFIG_LIVE_DEFAULT_S 20.0    /* `refresh`: the list on screen re-read this often */
#define CONFIG_LIVE_MIN_S 5.0         /* ... never more often (0 turns it off) */

#define CONFIG_RETRY_MAX_WAIT_DEFAULT_S 30
#define CONFIG_MIN_SPEED_DEFAULT 1024            /* bytes per second */
#define CONFIG_STALL_TIME_DEFAULT_S 30
#define CONFIG_DOWNLOAD_MAX_DEFAULT (4LL << 30)  /* 4 GiB */
#define CONFIG_DOWNLOAD_MIN_RATE_DEFAULT 16384   /* bytes per second */

/* How `y`/`Y` reach the clipboard (`clipboard = ...`; see ui/clipboard.h). */
enum config_clipboard { CLIPBOARD_AUTO, CLIPBOARD_OSC52, CLIPBOARD_TMUX, CLIPBOARD_SCREEN,
			CLIPBOARD_OFF };

/* A `bind KEY ACTION` line, kept raw: the ui keymap parses KEY and checks ACTION. */
struct config_binding {
	char *key;
	char *action;
	int line;              /* for the ui's own file:line messages */
};

/* `org.NAME = ID` */
struct config_org {
	char *name;
	char *id;
};

/* `folder.NAME = ORG:FOLDER_ID` (org = an id or an org.NAME) or `folder.NAME = ORG:/a/path`. */
struct config_folder {
	char *name;
	char *org;             /* as written; resolve with config_org_id() */
	char *folder_id;       /* numeric id, or NULL when `path` is set */
	char *path;            /* "/a/path" (a folder path for creations), or NULL */
};

struct config_profile {
	char *name;
	char *base_url;        /* NULL: STENO_DEFAULT_BASE_URL */
	char *api_key;         /* inline key; never printed */
	char *api_key_file;    /* "~" already expanded */
	char *api_key_command;
	int api_key_command_timeout_ms;
	char *organization;    /* default organization: an id or an org.NAME */
	struct config_org *orgs;
	size_t n_orgs;
	struct config_folder *folders;
	size_t n_folders;
};

enum config_diag_level { CONFIG_WARNING, CONFIG_ERROR };

/* One message about the file, already formatted "file:line: warning|error: text". */
struct config_diag {
	enum config_diag_level level;
	int line;
	char text[640];
};

/* Ownership: everything inside is malloc'd and freed by config_free. */
struct steno_config {
	char *file;                 /* the file read (or that would be read) */
	bool file_loaded;           /* it existed and its settings were applied */
	char *default_profile;      /* `profile = NAME` */
	char *theme;                /* NULL: "default" */
	double refresh_interval_s;  /* shortest poll interval, >= CONFIG_REFRESH_MIN_S */
	double refresh_max_s;       /* longest poll interval of a changing item */
	double live_refresh_s;      /* `refresh`: page 1 of the list re-read (0: off) */
	double requests_per_second; /* poll budget, below the server's rate limit */
	int connections;            /* parallel transfers (the engine's cap per host) */
	int timeout_s;              /* per-request timeout, waits for the rate limit included */
	int retry_max_wait_s;       /* longest wait a server's Retry-After obtains */
	int min_speed;              /* uploads/downloads slower than this (bytes/s) ... */
	int stall_time_s;           /* ... for this long fail */
	long long download_max;     /* bytes; a bigger download fails */
	int download_min_rate;      /* bytes/s a download must average past stall_time_s */
	int request_deadline_s;     /* an API request with its retries; 0: twice timeout_s,
				     * 60 at least */
	enum config_clipboard clipboard;
	bool mouse, ascii, bell, read_only, notify;
	bool index_content;         /* `index`: the browser reads transcripts into the local store */
	bool offline;               /* `offline`: send nothing, answer from the local store */
	bool cache_off;             /* `cache = off`: no local store on disk (core/localdb.h) */
	enum config_desktop { CONFIG_DESKTOP_OFF, CONFIG_DESKTOP_OSC9, CONFIG_DESKTOP_OSC777 }
		desktop_notify;     /* a watched item's state change through the terminal */
	char *download_dir;         /* "~" expanded; NULL: the current directory */
	char *download_name;        /* file name pattern (core/download_name.h); NULL: the default */
	int page_limit;             /* pages a list follows at most (ls --all, load all) */
	unsigned list_columns;      /* `columns`: the list's columns shown (core/columns.h bits) */
	char *opener;               /* command run with the file as $1; NULL: xdg-open when a display exists */
	char *trace_file;           /* HTTP trace, off when NULL */
	struct config_binding *bindings;
	size_t n_bindings;
	struct config_profile *profiles;
	size_t n_profiles;
	struct config_diag *diags;
	size_t n_diags;
	size_t n_errors;
};

/* Fills `cfg` with the defaults (no file read). */
int config_init_defaults(struct steno_config *cfg, struct steno_error *err);

/* Reads `path` (NULL: paths->config_file) over the defaults. A missing file is fine (defaults,
 * file_loaded false). A syntax error anywhere (a line that is not `[section]`, `key = value`,
 * `bind KEY ACTION`, a comment; a NUL; invalid UTF-8; a line over 4096 bytes; a file over
 * 1 MiB) leaves ALL defaults, records why in cfg->diags and returns -1 with err. A bad value
 * keeps that key's default and is an error diag; an unknown key or section is a warning; both
 * return 0. `cfg` is always usable afterwards; free it with config_free. */
int config_load(struct steno_config *cfg, const struct steno_paths *paths, const char *path,
		struct steno_error *err);

/* Same, from a string; `name` stands for the file name in messages. */
int config_load_string(struct steno_config *cfg, const char *name, const char *text, size_t len,
		       struct steno_error *err);

void config_free(struct steno_config *cfg);

/* Sets the global `key = value` in `file`, everything else in it kept byte for byte: the
 * first such line before any [section] is replaced (later ones there are dropped), else the
 * line goes before the first section, or at the end. A missing file is created (0600, its
 * directory 0700); the file keeps its mode; written atomically (paths_save_atomic), through
 * a symbolic link to where the file lives. value
 * must be one line. Returns 0, or -1 with err. */
int config_set_global(const char *file, const char *key, const char *value, struct steno_error *err);

const struct config_profile *config_profile_find(const struct steno_config *cfg,
						 const char *name);

/* An organization reference (an id or an org.NAME of the profile) to an id; NULL if unknown. */
const char *config_org_id(const struct config_profile *prof, const char *ref);

/* The account steno talks to, after precedence: explicit argument > environment
 * (STENO_PROFILE, STENO_BASE_URL, STENO_API_KEY, STENO_ORG_ID) > profile > defaults.
 * Ownership: malloc'd strings, freed by config_account_free (which wipes the key). */
struct steno_account {
	char *profile;        /* NULL when no profile applies */
	char *base_url;
	char *api_key;        /* never print it; redact with secret_redact */
	char *key_source;     /* "STENO_API_KEY", "key file PATH", "api_key_command", "config file" */
	char *org_id;         /* default organization id, or NULL */
};

/* Picks the profile (`profile` if not NULL, else STENO_PROFILE, else the file's default,
 * else a profile named "default" if any) and resolves the base URL, organization and, when
 * `need_key`, the key (STENO_API_KEY, else api_key, else api_key_file, else api_key_command).
 * An unknown profile or a missing/refused key is STENO_ERR_CONFIG. */
int config_account_resolve(const struct steno_config *cfg, const char *profile, bool need_key,
			   struct steno_account *acct, struct steno_error *err);
void config_account_free(struct steno_account *acct);

/* `steno config paths`: every path steno reads or writes. Ownership: config_paths_free. */
struct config_path_entry {
	const char *what;     /* static label: "config file", "key file" ... */
	char *path;
	bool exists;
};
struct config_path_list {
	struct config_path_entry *items;
	size_t n;
};
int config_paths_list(const struct steno_config *cfg, const struct steno_paths *paths,
		      const char *profile, struct config_path_list *out, struct steno_error *err);
void config_paths_free(struct config_path_list *list);

#endif
