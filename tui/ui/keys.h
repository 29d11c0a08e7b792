#ifndef STENO_UI_KEYS_H
#define STENO_UI_KEYS_H

/* Keys as one int: a Unicode code point (control characters included: <C-d> is 4,
 * <Tab> 9, <Enter> 10, <Esc> 27) or a curses function key (KEY_DOWN ...) tagged with
 * KEYS_FN. Names follow vim: "j", "G", "<Down>", "<C-d>", "<PgDn>", "<Enter>", "<Esc>",
 * "<Tab>", "<S-Tab>", "<F1>", "<Space>", "<lt>" for '<'. */

#include <stddef.h>
#include <wchar.h>

typedef int ui_key;

#define KEYS_FN 0x40000000
#define KEYS_NONE (-1)
#define KEYS_IS_FN(k) ((k) >= 0 && ((k) & KEYS_FN))

/* Parses one key name (case-insensitive inside <>). Returns KEYS_NONE if unknown. */
ui_key keys_parse(const char *name);

/* Parses a space-separated list into out (at most max). Returns the count, or -1 and
 * sets *bad to the start of the first unknown name. */
int keys_parse_list(const char *list, ui_key *out, size_t max, const char **bad);

/* Prints the canonical name of key into buf (size >= 16). Returns buf. */
char *keys_name(ui_key key, char *buf, size_t size);

/* Turns what wget_wch returned into a key: rc is OK or KEY_CODE_YES. Normalizes
 * CR and KEY_ENTER to <Enter>, DEL and ^H to <BS>. */
ui_key keys_from_wch(int rc, wint_t wc);

#endif
