/* signed_url: HMAC-SHA256(secret, path "\n" expires). */
#include "config.h"

#include "signed_url.h"

#include "clock.h"
#include "sandbox.h"
#include "util.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -1 when path is too long to sign: a cut message would leave the expiry unsigned (found by
 * fuzzing: every expiry of a path over ~1000 bytes had the same signature). */
static int sign(const char *path, long long expires, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char msg[1024];
	int n = snprintf(msg, sizeof msg, "%s\n%lld", path, expires);
	if (n < 0 || n >= (int)sizeof msg)
		return -1;
	HMAC(EVP_sha256(), sb_cfg.secret, (int)strlen(sb_cfg.secret), (const unsigned char *)msg, (size_t)n, md,
	     &mdlen);
	for (unsigned i = 0; i < mdlen && i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	out[64] = '\0';
	return 0;
}

char *signed_url_make(const char *path)
{
	long long expires = (long long)(clock_now() + SB_SIGNED_TTL);
	char sig[65];
	if (sign(path, expires, sig) != 0)
		return NULL;
	return util_printf("%s%s?expires=%lld&signature=%s", sb_cfg.origin, path, expires, sig);
}

int signed_url_check(const char *path, const char *expires, const char *signature)
{
	if (!expires || !signature)
		return -1;
	char *end = NULL;
	long long exp = strtoll(expires, &end, 10);
	if (end == expires || *end)
		return -1;
	char sig[65];
	if (sign(path, exp, sig) != 0 || !util_streq_ct(sig, signature))
		return -1;
	return clock_now() > (double)exp ? -2 : 0;
}

int signed_url_check_stored(const char *path, const char *expires, const char *signature)
{
	return signed_url_check(path, expires, signature) == -1 ? -1 : 0;
}
