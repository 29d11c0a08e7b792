#include "config.h"
#include "core/conf.h"
#include "core/conf_internal.h"
#include "core/localdb.h"
#include "core/secret.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return (v && v[0]) ? v : NULL;
}

void config_account_free(struct steno_account *acct)
{
	if (!acct)
		return;
	free(acct->profile);
	free(acct->base_url);
	secret_free(acct->api_key);
	free(acct->key_source);
	free(acct->org_id);
	memset(acct, 0, sizeof(*acct));
}

static const struct config_profile *pick_profile(const struct steno_config *cfg,
						 const char *name, struct steno_error *err)
{
	const char *from = "--profile";
	if (!name) {
		name = env("STENO_PROFILE");
		from = "STENO_PROFILE";
	}
	if (!name) {
		name = cfg->default_profile;
		from = "the config file's \"profile\"";
	}
	if (!name)
		return config_profile_find(cfg, "default");
	const struct config_profile *p = config_profile_find(cfg, name);
	if (!p) {
		char q[80];
		config_quote(q, sizeof(q), name);
		steno_error_set(err, STENO_ERR_CONFIG, "profile \"%s\" (from %s) is not in %s", q,
				from, cfg->file ? cfg->file : "the config file");
	}
	return p;
}

static int resolve_key(const struct config_profile *p, struct steno_account *a,
		       const char *file, struct steno_error *err)
{
	const char *k = secret_env_key();
	if (k && !k[0])
		k = NULL;
	char buf[400];
	if (k) {
		if (secret_check_key(k, "STENO_API_KEY", err) != 0)
			return -1;
		a->api_key = strdup(k);
		a->key_source = strdup("STENO_API_KEY");
	} else if (p && p->api_key) {
		if (secret_check_key(p->api_key, "api_key", err) != 0)
			return -1;
		a->api_key = strdup(p->api_key);
		snprintf(buf, sizeof(buf), "config file %s", file ? file : "");
		a->key_source = strdup(buf);
	} else if (p && p->api_key_file) {
		if (secret_read_key_file(p->api_key_file, &a->api_key, err) != 0)
			return -1;
		snprintf(buf, sizeof(buf), "key file %s", p->api_key_file);
		a->key_source = strdup(buf);
	} else if (p && p->api_key_command) {
		if (secret_run_key_command(p->api_key_command, p->api_key_command_timeout_ms,
					   &a->api_key, err) != 0)
			return -1;
		a->key_source = strdup("api_key_command");
	} else {
		return steno_error_set(err, STENO_ERR_CONFIG,
				       "no API key: set STENO_API_KEY, or api_key_file in a [profile] of %s; "
				       "or try `steno --sandbox` (a local demo server, no account needed)",
				       file ? file : "the config file");
	}
	if (!a->api_key || !a->key_source)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	return 0;
}

int config_account_resolve(const struct steno_config *cfg, const char *profile, bool need_key,
			   struct steno_account *a, struct steno_error *err)
{
	memset(a, 0, sizeof(*a));
	struct steno_error perr;
	steno_error_clear(&perr);
	const struct config_profile *p = pick_profile(cfg, profile, &perr);
	if (!p && perr.kind != STENO_ERR_NONE) {
		if (err)
			*err = perr;
		return -1;
	}
	const char *url = env("STENO_BASE_URL");
	if (!url)
		url = (p && p->base_url) ? p->base_url : STENO_DEFAULT_BASE_URL;
	const char *org = env("STENO_ORG_ID");
	if (!org && p)
		org = config_org_id(p, p->organization);
	if (p && p->organization && !org && !env("STENO_ORG_ID")) {
		char q[80];
		config_quote(q, sizeof(q), p->organization);
		steno_error_set(err, STENO_ERR_CONFIG,
				"profile %s: organization \"%s\" is neither an id nor an org.NAME",
				p->name, q);
		return -1;
	}
	a->base_url = strdup(url);
	a->profile = p ? strdup(p->name) : NULL;
	a->org_id = org ? strdup(org) : NULL;
	if (!a->base_url || (p && !a->profile) || (org && !a->org_id)) {
		config_account_free(a);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	if (need_key && resolve_key(p, a, cfg->file, err) != 0) {
		config_account_free(a);
		return -1;
	}
	return 0;
}

/* ---- steno config paths ---- */

static int list_add(struct config_path_list *l, const char *what, const char *path)
{
	if (!path)
		return 0;
	struct config_path_entry *e = realloc(l->items, (l->n + 1) * sizeof(*e));
	if (!e)
		return -1;
	l->items = e;
	e = &e[l->n];
	e->what = what;
	e->path = strdup(path);
	if (!e->path)
		return -1;
	e->exists = paths_exists(path);
	l->n++;
	return 0;
}

void config_paths_free(struct config_path_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++)
		free(list->items[i].path);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

int config_paths_list(const struct steno_config *cfg, const struct steno_paths *paths,
		      const char *profile, struct config_path_list *out, struct steno_error *err)
{
	memset(out, 0, sizeof(*out));
	struct steno_error ignored;
	const struct config_profile *p = pick_profile(cfg, profile, &ignored);
	char *trace = paths_join(paths->state_dir, "trace.log");
	const char *dl = cfg->download_dir ? cfg->download_dir : ".";
	int rc = 0;
	rc |= list_add(out, "config file", cfg->file ? cfg->file : paths->config_file);
	rc |= list_add(out, "config dir", paths->config_dir);
	if (p)
		rc |= list_add(out, "key file", p->api_key_file);
	rc |= list_add(out, "themes dir (user)", paths->user_themes_dir);
	rc |= list_add(out, "themes dir (system)", paths->system_themes_dir);
	rc |= list_add(out, "state dir", paths->state_dir);
	rc |= list_add(out, "state file", paths->state_file);
	rc |= list_add(out, "cache dir", paths->cache_dir);
	/* the local store of the profile's server (core/localdb.h) */
	char store[4400];
	const char *url = env("STENO_BASE_URL");
	if (!url)
		url = (p && p->base_url) ? p->base_url : STENO_DEFAULT_BASE_URL;
	if (localdb_file_path(paths->cache_dir, url, store, sizeof store) == 0)
		rc |= list_add(out, cfg->cache_off ? "local store (cache = off)" : "local store", store);
	rc |= list_add(out, "trace file", cfg->trace_file ? cfg->trace_file : trace);
	rc |= list_add(out, "download dir", dl);
	bool nomem = rc != 0 || !trace;
	free(trace);
	if (nomem) {
		config_paths_free(out);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	return 0;
}
