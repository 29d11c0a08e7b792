#ifndef STENO_CORE_CONF_INTERNAL_H
#define STENO_CORE_CONF_INTERNAL_H

/* Shared between conf.c (settings) and conf_load.c (reading the file). Not for others. */

#include "core/conf.h"

#define CONFIG_MAX_DIAGS 100

/* Applies one `name = value` of `section` at `line`. Returns 0; problems become diags. */
int config_apply(struct steno_config *cfg, const char *file, int line, const char *section,
		 const char *name, const char *value);

/* Records "file:line: level: message". Never fails: diags past the cap are counted only. */
void config_diag_add(struct steno_config *cfg, const char *file, int line,
		     enum config_diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A printable, shortened copy of untrusted text for messages. */
void config_quote(char *dst, size_t size, const char *src);

#endif
