/* util: small helpers shared by the sandbox modules (ids, time text, files). */
#ifndef SB_UTIL_H
#define SB_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Random lowercase hex of 2*nbytes chars into out (size >= 2*nbytes+1), from RAND_bytes. */
void util_random_hex(char *out, size_t nbytes);
/* UUID v4 text (36 chars + NUL). */
void util_uuid4(char out[37]);
/* Deterministic 32-hex id from a label and a number (seeded demo data). */
void util_det_hex(const char *label, long n, char out[33]);
/* ISO 8601 UTC with milliseconds, e.g. 2026-11-21T05:40:06.123Z. */
void util_iso8601(double t, char out[32]);
/* malloc'ed formatted string (caller frees); NULL on failure. */
char *util_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* mkdir -p with mode 0700. 0 or -1. */
int util_mkdir_p(const char *path);
/* rm -r of a directory tree we created. */
int util_rm_rf(const char *path);
/* Real wall time in seconds. */
double util_real_now(void);
/* Thread-safe uniform double in [0,1). */
double util_rand01(void);
/* Reads a whole file (caller frees). NULL on failure. */
char *util_read_file(const char *path, size_t *len);
/* Writes a whole file atomically (tmp + rename). 0 or -1. */
int util_write_file(const char *path, const void *data, size_t len);
/* Constant-time string equality. */
int util_streq_ct(const char *a, const char *b);

#endif
