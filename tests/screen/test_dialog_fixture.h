#ifndef STENO_TESTS_SCREEN_DIALOG_FIXTURE_H
#define STENO_TESTS_SCREEN_DIALOG_FIXTURE_H

/* Screen tests of the dialogs against a real steno-sandbox: the headless screen harness,
 * a sandbox on loopback, and the engine + store + jobs the app would own, wired into a
 * dialog_env. A dialog is opened as the frame's overlay; keys go through frame_key as in
 * the loop; dfx_pump runs the engine until a condition holds (no fixed sleeps). */

#include <stdbool.h>

#include "api/http.h"
#include "core/jobs.h"
#include "core/store.h"
#include "harness.h"
#include "sandbox_fixture.h"
#include "ui/dialog_common.h"

/* Ownership: dfx_open fills it, dfx_close frees it all (and stops the sandbox). */
struct dfx {
	struct sbx sb;
	struct scr scr;
	struct steno_http *http;
	struct steno_store *store;
	struct steno_jobs *jobs;
	struct dialog_env env;
	char tmp[256];           /* a private temp dir (cache, downloads) */
	int reloads, unmarks;    /* hook calls seen */
	char status[512];        /* last status hook message */
};

/* seed: --seed-demo N (0: no demo data). */
void dfx_open(struct dfx *x, int rows, int cols, int seed);
/* The same with more sandbox arguments (at most 5, NULL-terminated; may be NULL) and the
 * frame in --read-only when read_only. */
void dfx_open_ex(struct dfx *x, int rows, int cols, int seed, const char *const *more,
		 int read_only);
void dfx_close(struct dfx *x);

/* Points the engine and jobs at another server (a stand-in); the sandbox stays up. */
void dfx_retarget(struct dfx *x, const char *base_url);
/* Opens ops as the overlay with x->env (after setting ids). */
struct pane *dfx_dialog(struct dfx *x, const struct pane_ops *ops);
/* Types text (each character as a key) then draws. */
void dfx_type(struct dfx *x, const char *utf8);
/* Key names as scr_keys. */
void dfx_keys(struct dfx *x, const char *script);
/* Runs the engine and jobs (redrawing the overlay) until cond(x, arg) or max_ms; returns
 * whether cond held. */
bool dfx_pump(struct dfx *x, bool (*cond)(struct dfx *x, const void *arg), const void *arg, long max_ms);
/* Compares the screen with the golden file `name` (scr_golden). */
void dfx_golden(const char *name);
/* Whether the screen shows text now. */
bool dfx_shows(struct dfx *x, const char *text);
/* dfx_pump condition: the screen shows the text arg. */
bool dfx_cond_shows(struct dfx *x, const void *text);
/* The sandbox's count of a table ("orders", "transcriptions", "exports" ...). */
long dfx_count(struct dfx *x, const char *table);
/* The id of the first transcription of the demo org in state (NULL: any); static buffer. */
const char *dfx_find(struct dfx *x, const char *state);
/* Loads the first page of the organization's transcriptions into the store (names and
 * languages for the dialogs). */
void dfx_load(struct dfx *x);
/* Sets the fault spec of the sandbox ("429=1", "" clears). */
void dfx_faults(struct dfx *x, const char *spec);
/* The screen text (caller frees). */
char *dfx_text(void);

#endif
