#ifndef STENO_CORE_STORE_CODEC_H
#define STENO_CORE_STORE_CODEC_H

/* Resources as the local store keeps them (core/store_db.c): written back in the API's JSON
 * (current form) and read with the api/ parsers. Encoders return a malloc'd string (NULL on
 * no memory); the caller frees it. */

#include "api/export.h"
#include "api/glossary.h"
#include "api/order.h"
#include "api/transcription.h"
#include "api/translation.h"

char *store_codec_transcription(const struct steno_transcription *t);
/* Into *out (zeroed on error); 0 or -1 with err. */
int store_codec_transcription_read(const char *json, struct steno_transcription *out,
				   struct steno_error *err);
char *store_codec_export(const struct steno_export *e);
char *store_codec_task(const struct steno_translation_task *t);
char *store_codec_order(const struct steno_order *o);
/* { organizations: [...] }, read with steno_organization_list_parse */
char *store_codec_organizations(const struct steno_organization_list *l);

#endif
