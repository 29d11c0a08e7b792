/* Proxies from the environment (libcurl honours http_proxy, HTTPS_PROXY, ALL_PROXY by
 * itself): never for a loopback URL (the sandbox's key would go in clear to the proxy, which
 * could then answer in the sandbox's place), and a warning for a plain http:// base URL
 * elsewhere that a proxy would see whole. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/http_internal.h"

int steno_url_is_loopback(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL;
	int lo = 0;
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host)
		lo = !strcasecmp(host, "localhost") || !strncmp(host, "127.", 4) ||
		     !strcmp(host, "[::1]") || !strcasecmp(host, "[::ffff:127.0.0.1]");
	curl_free(host);
	curl_url_cleanup(u);
	return lo;
}

int steno_http_easy_proxy(struct steno_req *r, const char *url)
{
	/* "*": no proxy for this host whatever the environment says; NULL: the environment's
	 * no_proxy again (a redirect away from loopback) */
	return curl_easy_setopt(r->easy, CURLOPT_NOPROXY,
				steno_url_is_loopback(url) ? "*" : NULL) == CURLE_OK ? 0 : -1;
}

static const char *env_first(const char *const *names, const char **which)
{
	for (size_t i = 0; names[i]; i++) {
		const char *v = getenv(names[i]);
		if (v && *v) {
			*which = names[i];
			return v;
		}
	}
	return NULL;
}

int steno_http_proxy_warning(const char *base_url, char *out, size_t n)
{
	static const char *const vars[] = {"http_proxy", "ALL_PROXY", "all_proxy", NULL};
	const char *which = NULL;
	if (!base_url || strncasecmp(base_url, "http://", 7) != 0 || steno_url_is_loopback(base_url) ||
	    !env_first(vars, &which))
		return 0;
	const char *np = getenv("no_proxy") ? getenv("no_proxy") : getenv("NO_PROXY");
	if (np && !strcmp(np, "*"))
		return 0;
	snprintf(out, n, "the base URL is plain http:// and %s is set: the API key goes in clear "
		 "through that proxy (use https://, or no_proxy for this host)", which);
	return 1;
}
