#ifndef STENO_UI_CLIPBOARD_H
#define STENO_UI_CLIPBOARD_H

/* Copy to the local clipboard over SSH with OSC 52 (ESC ] 52 ; c ; BASE64 BEL), wrapped in
 * tmux's passthrough when $TMUX is set. Terminals that ignore OSC 52 show nothing, so the
 * caller also offers a popup with the text. */

#include <stddef.h>
#include <stdio.h>

/* The escape sequence for text into buf (NUL-terminated). tmux: wrap for tmux passthrough.
 * Returns its length, or -1 when buf is too small or text is too long (over 74994 bytes,
 * what xterm accepts). Pure: unit-tested. */
int clipboard_osc52_seq(const char *text, int tmux, char *buf, size_t size);

/* Writes the sequence to out (the terminal; NULL: stdout) and flushes. 0 or -1. */
int clipboard_copy(FILE *out, const char *text);

#endif
