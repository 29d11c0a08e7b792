#ifndef STENO_CORE_PATHS_H
#define STENO_CORE_PATHS_H

/* Where steno reads and writes (XDG base directories), private directories and atomic saves.
 * No curses, no network. */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "api/error.h"

/* Resolved directories. Ownership: every string is malloc'd, freed by paths_free. */
struct steno_paths {
	char *config_file;   /* STENO_CONFIG, else $XDG_CONFIG_HOME/steno/config */
	char *config_dir;    /* $XDG_CONFIG_HOME/steno (default ~/.config/steno) */
	char *state_dir;     /* $XDG_STATE_HOME/steno (default ~/.local/state/steno) */
	char *cache_dir;     /* $XDG_CACHE_HOME/steno (default ~/.cache/steno) */
	char *user_themes_dir;   /* config_dir/themes */
	char *system_themes_dir; /* STENO_THEMES_DIR, else PKGDATADIR/themes */
	char *state_file;    /* state_dir/state.json: folders learned from orders and creations */
};

/* Fills `p` from the environment. Relative XDG values are ignored, as the XDG spec says.
 * Fails (STENO_ERR_CONFIG) only when neither the XDG variable nor $HOME is usable. */
int paths_resolve(struct steno_paths *p, struct steno_error *err);
void paths_free(struct steno_paths *p);

/* "~" and "~/x" expand to $HOME; anything else is copied. Returns a malloc'd string or NULL
 * (err filled). The caller frees. */
char *paths_expand_home(const char *path, struct steno_error *err);

/* malloc'd "a/b" (NULL on no memory). */
char *paths_join(const char *dir, const char *name);

/* mkdir -p with mode 0700 for every directory it creates. Existing directories are kept. */
int paths_mkdir_private(const char *dir, struct steno_error *err);

/* Writes `len` bytes to `path` atomically: a temp file made with mkstemp in the same directory,
 * fsync, chmod `mode`, rename over `path`, fsync of the directory. The parent directory is
 * created 0700 when missing. On failure the old file is untouched and the temp file removed. */
int paths_save_atomic(const char *path, const void *data, size_t len, mode_t mode,
		      struct steno_error *err);

/* Reads a whole regular file of at most `max` bytes. *out is malloc'd, NUL-terminated (the
 * content may hold NULs: *len says how long it is). Returns 0, or -1 with err (a missing file
 * gives STENO_ERR_IO with errno ENOENT left in errno). */
int paths_read_file(const char *path, size_t max, char **out, size_t *len,
		    struct steno_error *err);

bool paths_exists(const char *path);

#endif
