#ifndef STENO_UI_APP_DRAW_H
#define STENO_UI_APP_DRAW_H

#include "ui/app_access.h"

/* app_draw.c: what every pane of the app draws alike */
void app_draw_title(struct pane *p, const char *title);
/* Centred lines of a message (empty states, errors) from row y down. */
void app_draw_message(struct pane *p, int y, const char *const *lines, size_t n);
unsigned app_text_flags(const struct pane *p);
/* A time shown `seconds` away from now (when - now: negative in the past; relative date,
 * time in state, countdown): *tick_ms becomes the shortest period at which such texts are
 * drawn again (0 when none shown yet; fmt_span_tick_ms), so the loop wakes as rarely as the
 * finest text allows: once a second while seconds show, else once a minute however many
 * times are on screen (once an hour past a day). */
void app_time_tick(int *tick_ms, long long seconds);
/* Milliseconds until times drawn at drawn_ms with period tick_ms are due to be drawn again
 * (0: now), -1 when no time was drawn (tick_ms 0): a pass of the loop before then (a key,
 * an answer) leaves them as they are. */
long app_tick_wait_ms(int tick_ms, int64_t drawn_ms, int64_t now_ms);
/* A "label  value" field: the label muted in label_w columns, the value wrapped at spaces
 * over as many rows as it needs (one, cut, with `cut`), in elem (the whole row in
 * list.selected when selected). Content row `row`, rows above `skip` scrolled out, window
 * rows from top_y down. Returns the rows it takes. */
struct app_field {
	const char *label, *value;
	int label_w;
	enum theme_elem elem;
	bool cut, selected;
};
int app_draw_field(struct pane *p, const struct app_field *f, int row, int skip, int top_y);

#endif
