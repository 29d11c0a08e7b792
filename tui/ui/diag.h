#ifndef STENO_UI_DIAG_H
#define STENO_UI_DIAG_H

/* Messages for people from the ui room's parsers (themes, key bindings): each is
 * "origin:line: text". Parsers keep going after a bad line, so one run can report
 * several. Ownership: plain caller-owned storage, nothing to free. Every function
 * accepts a NULL diag (messages are then dropped). */

#define UI_DIAG_MAX 16
#define UI_DIAG_LEN 256

struct ui_diag {
	char msg[UI_DIAG_MAX][UI_DIAG_LEN];
	int count;     /* messages stored */
	int dropped;   /* messages that did not fit */
};

void ui_diag_clear(struct ui_diag *d);
void ui_diag_add(struct ui_diag *d, const char *origin, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
