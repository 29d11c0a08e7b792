#ifndef STENO_UI_PANE_READER_H
#define STENO_UI_PANE_READER_H

/* The reader: one transcript from the local store (core/content_db.h), full screen, as
 * paragraphs with their speaker and time code, wrapped to the width; works offline.
 * Keys: j/k, pages, g/G; / searches inside (every match highlighted), n/N; `:t 12:30` goes
 * to a time; y copies the paragraph under the cursor with its time code (OSC 52); | sends
 * the text to $PAGER; E opens a read-only copy in $EDITOR; q/Esc closes. The status line
 * says which transcription, where (time and %), and when its content was fetched. */

#include <sqlite3.h>
#include <stdio.h>

#include "core/conf.h"
#include "ui/pane.h"

/* What pane_new(&reader_pane_ops, ctx, &arg) opens. Borrowed; strings copied. */
struct reader_arg {
	sqlite3 *db;                     /* the local store (must outlive the pane) */
	const char *id;                  /* the transcription */
	double at;                       /* open at this time (seconds); < 0: the start */
	const char *find;                /* highlight these words at once (NULL: none) */
	FILE *tty;                       /* the clipboard's terminal (NULL: stdout) */
	enum config_clipboard clipboard;
};

extern const struct pane_ops reader_pane_ops;

/* Opens it as a full-screen overlay of the frame; -1 (nothing opened) with why in msg when
 * the store holds no content for the id. */
struct ui_frame;
int reader_open(struct ui_frame *f, const struct reader_arg *a, char *msg, size_t size);

#endif
