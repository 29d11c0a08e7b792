#ifndef STENO_UI_THEME_H
#define STENO_UI_THEME_H

/* Themes: colours and attributes by semantic element (ncdu/htop style). A theme file
 * is a config snippet:
 *     # comment                             (# first, or "# " after the words)
 *     color list.selected black cyan bold     (fg bg [attributes...])
 *     mono  list.selected reverse bold        (used without colours)
 *     set colors off                          (this theme never uses colours)
 * Colours: default, black red green yellow blue magenta cyan white, bright-NAME,
 * colorN / N (0-255) or #rrggbb (nearest of the 256). Attributes: normal bold dim
 * underline reverse standout blink italic. Every element has a built-in mono
 * fallback; a theme is loaded on top of the built-in default (themes/default.theme,
 * compiled in), so partial themes work. Parsing is pure (no curses). */

#include <stdbool.h>
#include <stddef.h>

#include "ui/diag.h"

#define THEME_ELEMENTS(X) \
	X(NORMAL,            "normal",              0) \
	X(TITLE,             "title",               THEME_A_BOLD | THEME_A_REVERSE) \
	X(STATUS,            "status",              THEME_A_REVERSE) \
	X(STATUS_OK,         "status.ok",           THEME_A_REVERSE) \
	X(STATUS_WARN,       "status.warn",         THEME_A_REVERSE | THEME_A_BOLD) \
	X(STATUS_ERROR,      "status.error",        THEME_A_REVERSE | THEME_A_BOLD) \
	X(NOTICE,            "notice",              THEME_A_BOLD) \
	X(PANE_TITLE,        "pane.title",          THEME_A_BOLD) \
	X(PANE_TITLE_FOCUS,  "pane.title.focus",    THEME_A_BOLD | THEME_A_REVERSE) \
	X(BORDER,            "border",              0) \
	X(LIST_HEADER,       "list.header",         THEME_A_BOLD | THEME_A_UNDERLINE) \
	X(LIST_SELECTED,     "list.selected",       THEME_A_REVERSE) \
	X(LIST_SELECTED_IDLE, "list.selected.idle", THEME_A_UNDERLINE) \
	X(LIST_MARKED,       "list.marked",         THEME_A_BOLD) \
	X(LIST_CHANGING,     "list.changing",       THEME_A_BOLD) \
	X(MUTED,             "muted",               THEME_A_DIM) \
	X(STATE_DONE,        "state.done",          0) \
	X(STATE_FAILED,      "state.failed",        THEME_A_BOLD) \
	X(STATE_WORKING,     "state.working",       THEME_A_BOLD) \
	X(STATE_WAITING,     "state.waiting",       0) \
	X(STATE_UNKNOWN,     "state.unknown",       THEME_A_DIM) \
	X(DIALOG,            "dialog",              0) \
	X(DIALOG_TITLE,      "dialog.title",        THEME_A_BOLD) \
	X(DIALOG_FIELD,      "dialog.field",        THEME_A_UNDERLINE) \
	X(DIALOG_FIELD_FOCUS, "dialog.field.focus", THEME_A_REVERSE) \
	X(DIALOG_ERROR,      "dialog.error",        THEME_A_BOLD) \
	X(DIALOG_BUTTON,     "dialog.button",       0) \
	X(DIALOG_BUTTON_FOCUS, "dialog.button.focus", THEME_A_REVERSE) \
	X(PROGRESS,          "progress",            THEME_A_REVERSE) \
	X(HELP_SECTION,      "help.section",        THEME_A_BOLD | THEME_A_UNDERLINE) \
	X(HELP_KEY,          "help.key",            THEME_A_BOLD) \
	X(HELP_TEXT,         "help.text",           0) \
	X(HELP_INACTIVE,     "help.inactive",       THEME_A_DIM) \
	X(LOG,               "log",                 0) \
	X(LOG_ERROR,         "log.error",           THEME_A_BOLD) \
	X(TOO_SMALL,         "too-small",           THEME_A_BOLD)

enum theme_attr_bits {
	THEME_A_BOLD = 1u << 0, THEME_A_DIM = 1u << 1, THEME_A_UNDERLINE = 1u << 2,
	THEME_A_REVERSE = 1u << 3, THEME_A_STANDOUT = 1u << 4, THEME_A_BLINK = 1u << 5,
	THEME_A_ITALIC = 1u << 6,
};

#define THEME_X_ENUM(id, name, mono) THEME_##id,
enum theme_elem { THEME_ELEMENTS(THEME_X_ENUM) THEME_COUNT };
#undef THEME_X_ENUM

#define THEME_COLOR_DEFAULT (-1)

struct theme_style {
	short fg, bg;          /* 0-255 or THEME_COLOR_DEFAULT */
	unsigned attrs;        /* with colours */
	unsigned mono;         /* without colours */
	int has_color;         /* a `color` line set fg/bg */
};

/* Ownership: plain value, nothing to free. */
struct theme {
	struct theme_style el[THEME_COUNT];
	int colors_enabled;    /* `set colors off` clears it */
	char source[4096];     /* path of the file loaded last, or "builtin" */
};

/* Every bundled theme, compiled in (generated from themes/NAME.theme; the first is "default");
 * ends with { NULL, NULL }. */
struct theme_builtin {
	const char *name;
	const char *text;
};
extern const struct theme_builtin theme_builtins[];
/* The compiled-in text of a bundled theme, or NULL. */
const char *theme_builtin_text(const char *name);

const char *theme_elem_name(enum theme_elem e);
int theme_elem_by_name(const char *name);   /* -1 if unknown */

/* Resets t to the mono fallbacks and the built-in default theme. */
void theme_init(struct theme *t);

/* Applies theme text on top of t. Bad lines are reported as origin:line and skipped.
 * Returns the number of bad lines. */
int theme_parse(struct theme *t, const char *text, const char *origin, struct ui_diag *d);

/* Finds a theme: a name containing '/' is a path; else NAME.theme in
 * $XDG_CONFIG_HOME/steno/themes (~/.config/...), then $STENO_THEMES_DIR (an override
 * for tests and uninstalled runs), then PKGDATADIR/themes. Returns 0 and the path in
 * buf, or -1. */
int theme_find(const char *name, char *buf, size_t size);

/* theme_init, then the named theme on top. "default" without a file on disk is the
 * built-in one. Returns 0, or -1 (not found, unreadable: message in d) leaving the
 * built-in default in t; parse errors are reported in d but do not fail. */
int theme_load(struct theme *t, const char *name, struct ui_diag *d);

/* Colour helpers (pure). theme_parse_color: -2 if invalid. */
int theme_parse_color(const char *s);
int theme_parse_attr(const char *s);        /* bit, 0 for "normal", -1 if invalid */
void theme_color_rgb(int color, int rgb[3]); /* xterm palette */
/* The nearest colour within the first ncolors, a grey to a grey and a hue to a hue. */
int theme_color_reduce(int color, int ncolors);
/* A grey to the eye (low chroma or saturation, or very dark): reduction keeps it grey. */
bool theme_color_is_grey(int color);
/* WCAG contrast ratio (1..21) of two palette colours. */
double theme_color_contrast(int a, int b);
#define THEME_MIN_CONTRAST 3.0
/* Reduces an element's pair to ncolors so that it stays legible: both colours as
 * theme_color_reduce; then, when a colour had to be reduced, text whose contrast with
 * its background fell under THEME_MIN_CONTRAST becomes black or white (whichever reads
 * better), and a grey text on the terminal's default background that became black or
 * white becomes the default text colour (black or white may be that background). */
void theme_pair_reduce(int *fg, int *bg, int ncolors);

#endif
