#ifndef STENO_CORE_SANDBOX_LAUNCH_H
#define STENO_CORE_SANDBOX_LAUNCH_H

/* `steno --sandbox`: starts steno-sandbox (next to the running binary, else in BINDIR) on a
 * loopback port with demo data, reads its four ready lines and stops it again. Everything of
 * that run lives in one fresh private directory ($TMPDIR/steno-sandbox-XXXXXX): the sandbox's
 * data (DIR/data), and steno's own state file and cache for it (DIR/state.json, DIR/cache),
 * so a sandbox never writes into a configured account's state; sandbox_launch_stop removes
 * the directory. The sandbox runs in its own process group (a terminal's signals reach steno,
 * which stops it in order: core/quit_signal.h) and gets SIGTERM if steno dies first
 * (PR_SET_PDEATHSIG). No curses, no curl. */

#include <stddef.h>
#include <sys/types.h>

#include "api/error.h"

#define SANDBOX_LAUNCH_TIMEOUT_MS 15000
#define SANDBOX_LAUNCH_SEED 30
/* What steno calls the sandbox's account: the profile and its demo organization. */
#define SANDBOX_LAUNCH_PROFILE "sandbox"
#define SANDBOX_LAUNCH_ORG_NAME "sandbox demo"

struct steno_config;

/* Ownership: plain storage; the process is the caller's until sandbox_launch_stop. */
struct sandbox_launch {
	pid_t pid;               /* 0 when not running */
	char binary[4096];
	char base_url[256];
	char api_key[256];
	char admin_key[256];
	char org_id[64];
	int out_fd;              /* read end of its stdout, kept open so it never gets EPIPE */
	int err_fd;              /* its stderr (an unlinked temp file), quoted on failure */
	char dir[4096];          /* the run's private directory ("" when none) */
	char state_file[4200];   /* DIR/state.json: steno's state for this sandbox */
	char cache_dir[4200];    /* DIR/cache */
};

/* The steno-sandbox to run: $(dirname /proc/self/exe)/steno-sandbox, else BINDIR's.
 * 0 (path in out) or -1 with err. */
int sandbox_launch_find(char *out, size_t size, struct steno_error *err);

/* Starts it (binary NULL: sandbox_launch_find) with `extra` arguments (NULL-terminated, may
 * be NULL) after --port 0 --seed-demo N. Waits at most timeout_ms (<= 0: the default) for
 * the ready lines. On failure nothing is left running; err quotes the sandbox's stderr. */
int sandbox_launch_start(struct sandbox_launch *sb, const char *binary,
			 const char *const *extra, long timeout_ms, struct steno_error *err);

/* Names the sandbox's account in cfg, as a profile file would: a profile SANDBOX_LAUNCH_PROFILE
 * with `org.sandbox demo = org_id`, so that the organizations pane and the status bar show a
 * name instead of a bare id. Does nothing when cfg has a profile of that name already (the
 * user's own wins). Returns 0, or -1 with err (no memory). The profile is cfg's (config_free). */
int sandbox_launch_profile(struct steno_config *cfg, const char *org_id, struct steno_error *err);

/* SIGTERM, wait (SIGKILL after 5 s), then removes the run's directory. Returns its exit
 * status, -1 when it was not running. */
int sandbox_launch_stop(struct sandbox_launch *sb);

#endif
