#ifndef STENO_TESTS_SCREEN_PANES_FIXTURE_H
#define STENO_TESTS_SCREEN_PANES_FIXTURE_H

/* Screen tests of the real TUI (ui/app.h) against a real steno-sandbox: the app runs on a
 * headless terminal of fixed size (as tests/screen/harness does), keys are pushed into
 * curses' queue, every step waits until no request runs, and screens are compared with
 * golden files after masking what depends on the run (the organization id, dates). */

#include <stdbool.h>

#include "../integration/sandbox_fixture.h"
#include "harness.h"
#include "core/conf.h"
#include "ui/app.h"

struct pf_opts {
	int rows, cols;
	const char *const *sandbox_args;   /* extra steno-sandbox arguments, NULL-terminated */
	const char *theme;
	int read_only, no_color;
	const char *api_key;               /* NULL: the sandbox's key */
	const char *base_url;              /* NULL: the sandbox's */
	int no_org;                        /* start without an organization */
	int no_sandbox;                    /* do not start a sandbox at all */
	int mouse;                         /* capture the mouse */
	const char *key_lines;             /* config bind / unbind lines */
	const char *learned_folder;        /* "ID:/path" learned in the state file first */
	const char *refresh;               /* config `refresh` (live list, s); NULL: default */
	enum config_desktop desktop;       /* config desktop_notify */
	int capture_out;                   /* the terminal's output to DIR/out (pf_out_text) */
	const struct steno_config *config; /* NULL: the defaults with refresh and desktop above */
	const char *term;                  /* terminfo name; NULL: xterm-256color */
	int index;                         /* transcripts read into the local store */
};

/* Ownership: pf_open fills it, pf_close frees everything. */
struct pf {
	struct sbx sbx;
	int have_sbx;
	struct app *app;
	FILE *in, *out;
	char dir[256];
	int quit;
	struct steno_config config;        /* the defaults, with pf_opts' changes */
};

void pf_open(struct pf *f, const struct pf_opts *o);
void pf_close(struct pf *f);
/* Quits steno and starts it again with the same options, sandbox, state and config files
 * (o as given to pf_open). */
void pf_restart(struct pf *f, const struct pf_opts *o);
/* Runs passes until nothing is in flight (asserts within 20 s). */
void pf_settle(struct pf *f);
/* Each key of the script, then settle. */
void pf_keys(struct pf *f, const char *script);
/* Runs passes until `needle` is on screen (asserts within 10 s). */
void pf_wait_text(struct pf *f, const char *needle);
void pf_resize(struct pf *f, int rows, int cols);
/* Everything written to the terminal so far (with capture_out). Caller frees. */
char *pf_out_text(struct pf *f);
/* The screen with run-dependent text masked. Caller frees. */
char *pf_text(struct pf *f);
void pf_golden(struct pf *f, const char *name);
/* Asserts that the screen contains / lacks a string. */
void pf_expect(struct pf *f, const char *needle);
void pf_reject(struct pf *f, const char *needle);
/* Asserts that a row of the screen holds `first` and, further right, `later` (a row read
 * wherever the fitted columns fall). */
void pf_expect_row(struct pf *f, const char *first, const char *later);

#endif
