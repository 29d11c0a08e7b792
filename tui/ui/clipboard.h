#ifndef STENO_UI_CLIPBOARD_H
#define STENO_UI_CLIPBOARD_H

/* Copy to the local clipboard over SSH with OSC 52 (ESC ] 52 ; c ; BASE64 BEL), in the form
 * the terminal in between understands:
 * - a plain terminal: the OSC 52 sequence;
 * - tmux: tmux itself sets the clipboard (`tmux load-buffer -w -`), which works with tmux's
 *   default `set-clipboard external`; with set-clipboard off, the DCS passthrough form when
 *   `allow-passthrough` is on; with both off it cannot work and says so;
 * - GNU screen: the sequence inside screen's DCS passthrough, in chunks screen accepts.
 * Only text that the screen would show as it is may be copied (a pasted ESC[201~ would end
 * the shell's bracketed paste and run what follows), and URLs must be plain http(s) URLs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/conf.h"

/* Why `text` may not go to the clipboard ("" and true when it may): for `url`, a
 * well-formed http:// or https:// URL of printable ASCII only (no control, C1, bidi or
 * whitespace character, which a URL cannot hold unencoded); otherwise, text that
 * sanitizing leaves unchanged. Pure: unit-tested. */
bool clipboard_check(const char *text, bool url, char *why, size_t size);

/* JSON text (as a server's answer is shown, pretty-printed) made safe to copy and still the
 * same JSON: on one line (each line's indentation and newline dropped: pretty JSON has them
 * only between tokens), and every character clipboard_check would refuse (a bidi override
 * in a string ...) written as its \uXXXX escape (U+FFFD for a byte that is not UTF-8).
 * Newly allocated (caller frees), NULL on no memory. The ui does not parse it: text only. */
char *clipboard_json_safe(const char *json);

/* The escape sequence for text into buf (NUL-terminated) in the form of `method`
 * (CLIPBOARD_OSC52, CLIPBOARD_TMUX for the DCS passthrough, CLIPBOARD_SCREEN).
 * Returns its length, or -1 when buf is too small or text is too long (over 74994 bytes,
 * what xterm accepts). Pure: unit-tested. */
int clipboard_osc52_seq(const char *text, enum config_clipboard method, char *buf, size_t size);

/* Copies `text` (checked with clipboard_check first) with `method` (CLIPBOARD_AUTO: from
 * $TMUX, $STY and tmux's options) to `tty` (NULL: stdout). Returns 0 with how it was done
 * in msg ("OSC 52", "tmux"...), or -1 with why it was not in msg. */
int clipboard_copy(FILE *tty, enum config_clipboard method, const char *text, bool url,
		   char *msg, size_t size);

#endif
