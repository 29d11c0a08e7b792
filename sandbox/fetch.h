/* fetch: outbound HTTP with libcurl (media, documents, webhooks). Only loopback addresses are
 * connected to unless sb_cfg.allow_remote; a size cap and timeouts on every transfer, which
 * also ends (failed) when the sandbox stops (stopping.h). */
#ifndef SB_FETCH_H
#define SB_FETCH_H

#include <stddef.h>

void fetch_global_init(void);
void fetch_global_cleanup(void);
/* GET url into path (cap bytes). 0, or -1 with err. */
int fetch_to_file(const char *url, const char *path, long cap, char *err, size_t errlen);
/* GET url into memory (NUL-terminated, caller frees); NULL with err. */
char *fetch_to_mem(const char *url, long cap, size_t *len, char *err, size_t errlen);
/* POST a JSON body; returns the HTTP status, or -1 with err (connection failure). */
int fetch_post_json(const char *url, const char *body, char *err, size_t errlen);

#endif
