/* Collected parse messages. */
#include "config.h"

#include "ui/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ui_diag_clear(struct ui_diag *d)
{
	if (d)
		memset(d, 0, sizeof *d);
}

void ui_diag_add(struct ui_diag *d, const char *origin, int line, const char *fmt, ...)
{
	va_list ap;
	char *out;
	int n;

	if (!d)
		return;
	if (d->count >= UI_DIAG_MAX) {
		d->dropped++;
		return;
	}
	out = d->msg[d->count++];
	/* messages are cut at UI_DIAG_LEN: the origin first, then the text */
	if (line > 0)
		n = snprintf(out, UI_DIAG_LEN, "%s:%d: ", origin ? origin : "?", line);
	else
		n = snprintf(out, UI_DIAG_LEN, "%s: ", origin ? origin : "?");
	if (n < 0 || n >= UI_DIAG_LEN - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(out + n, (size_t)(UI_DIAG_LEN - n), fmt, ap);
	va_end(ap);
}
