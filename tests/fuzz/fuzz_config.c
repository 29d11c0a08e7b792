#include "config.h"

/* Fuzzes steno's configuration reader: config_load_string runs the INI line reader
 * (conf_load.c: size, NUL, UTF-8 and line checks, the libinih hand-off with its long-value
 * stand-in) and applies every setting (conf.c). Never resolves the account: that would read
 * key files and run api_key_command. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);

/* Messages are shown on a terminal: printable ASCII only (config_quote's promise). */
static void check_diag(const struct config_diag *d)
{
	for (const unsigned char *p = (const unsigned char *)d->text; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

static void check_profile(const struct config_profile *p)
{
	if (!p->name)
		abort();
	fuzz_check_str(p->base_url);
	for (size_t i = 0; i < p->n_orgs; i++) {
		if (!p->orgs[i].name || !p->orgs[i].id)
			abort();
		(void)config_org_id(p, p->orgs[i].name);
	}
	for (size_t i = 0; i < p->n_folders; i++) {
		const struct config_folder *f = &p->folders[i];
		/* org is optional ([ORG:]ID: NULL means the profile's organization) */
		if (!f->name || (!f->folder_id == !f->path))
			abort();
		(void)config_org_id(p, f->org);
	}
	(void)config_org_id(p, p->organization ? p->organization : "org.x");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_config cfg;
	struct steno_error err;

	if (config_init_defaults(&cfg, &err) != 0)
		return 0;
	int rc = config_load_string(&cfg, "fuzz.conf", (const char *)data, size, &err);
	if (rc != 0 && (cfg.n_bindings || cfg.n_profiles || cfg.n_errors == 0))
		abort(); /* a syntax error must leave all the defaults, and say why */
	if (cfg.refresh_interval_s < CONFIG_REFRESH_MIN_S)
		abort();
	for (size_t i = 0; i < cfg.n_diags; i++)
		check_diag(&cfg.diags[i]);
	for (size_t i = 0; i < cfg.n_bindings; i++)
		if (!cfg.bindings[i].key || !cfg.bindings[i].action)
			abort();
	for (size_t i = 0; i < cfg.n_profiles; i++) {
		check_profile(&cfg.profiles[i]);
		if (config_profile_find(&cfg, cfg.profiles[i].name) == NULL)
			abort();
	}
	fuzz_check_str(cfg.theme);
	config_free(&cfg);
	return 0;
}
