/* signed_url: HMAC-SHA256 signed, expiring URLs on the sandbox itself (uploads, downloads). */
#ifndef SB_SIGNED_URL_H
#define SB_SIGNED_URL_H

/* origin + path + "?expires=T&signature=HEX", valid SB_SIGNED_TTL sandbox seconds. Caller frees. */
char *signed_url_make(const char *path);
/* 0 valid; -1 forged/missing signature; -2 expired. path as MHD gives it. */
int signed_url_check(const char *path, const char *expires, const char *signature);
/* The service reading its own storage: 0 when the signature is ours whatever the expiry
 * (an object stays readable by the service for its life), -1 forged/missing. */
int signed_url_check_stored(const char *path, const char *expires, const char *signature);

#endif
