#ifndef STENO_UI_UI_OPTIONS_H
#define STENO_UI_UI_OPTIONS_H

/* What main() hands to the TUI (ui/app.h: ui_main, app_new), apart so that struct app
 * (ui/app_access.h) holds it without including app.c's header. */

#include <stdint.h>
#include <stdio.h>

struct steno_config;
struct steno_paths;

/* What main() hands to ui_main. Ownership: everything stays the caller's; ui_main copies
 * what it keeps. NULL / 0 fields take the defaults noted. */
struct ui_options {
	/* the account (already resolved by main: --profile, env, config) */
	const char *base_url;        /* required */
	const char *api_key;         /* may be NULL (then the server will answer 401) */
	const char *org_id;          /* the default organization; NULL: none configured */
	const char *profile;         /* profile name for the status bar; may be NULL */
	/* looks */
	const char *theme;           /* --theme (name or path); NULL: config's, else "default" */
	int read_only;               /* --read-only (or config read_only) */
	int offline;                 /* --offline (or config offline): nothing is sent */
	int ascii;                   /* --ascii (or config ascii) */
	int mouse;                   /* --mouse (or config mouse); off by default */
	const char *trace_path;      /* --trace FILE; NULL: config's trace_file, else none */
	/* "bind ..." / "unbind ..." lines (NULL: taken from config->bindings) */
	const char *key_lines;
	const char *key_origin;      /* file name for their messages */
	const struct steno_config *config;  /* the loaded config; NULL: built-in defaults */
	const struct steno_paths *paths;    /* for the state file; NULL: resolved from env */
	/* For tests and benches; NULL = the real terminal / clock. */
	const char *term;            /* terminfo name; NULL: $TERM */
	FILE *in, *out;              /* NULL: stdin / stdout */
	int64_t (*clock_ms)(void *ud);      /* wall clock in ms since the epoch (countdowns,
					     * "time in state"); NULL: real time */
	void *clock_ud;
	/* transcripts read into the local store in the background (config `index`; off here
	 * unless set: the screen tests count their requests) */
	int index_content;
};

#endif
