#include "config.h"
#include "core/conf.h"
#include "core/conf_internal.h"

#include "api/paging.h"
#include "core/columns.h"
#include "core/download_name.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NAME_MAX_LEN 64

void config_quote(char *dst, size_t size, const char *src)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)src; *p && o + 4 < size; p++)
		dst[o++] = (*p >= 0x20 && *p < 0x7f) ? (char)*p : '?';
	if (src[o] && o + 4 >= size && size > 4) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	if (size)
		dst[o < size ? o : size - 1] = '\0';
}

void config_diag_add(struct steno_config *cfg, const char *file, int line,
		     enum config_diag_level level, const char *fmt, ...)
{
	if (level == CONFIG_ERROR)
		cfg->n_errors++;
	if (cfg->n_diags >= CONFIG_MAX_DIAGS)
		return;
	struct config_diag *d = realloc(cfg->diags, (cfg->n_diags + 1) * sizeof(*d));
	if (!d)
		return;
	cfg->diags = d;
	d = &cfg->diags[cfg->n_diags++];
	d->level = level;
	d->line = line;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char qfile[200];
	config_quote(qfile, sizeof(qfile), file);
	if (line > 0)
		snprintf(d->text, sizeof(d->text), "%s:%d: %s: %s", qfile, line,
			 level == CONFIG_ERROR ? "error" : "warning", msg);
	else
		snprintf(d->text, sizeof(d->text), "%s: %s: %s", qfile,
			 level == CONFIG_ERROR ? "error" : "warning", msg);
}

int config_init_defaults(struct steno_config *cfg, struct steno_error *err)
{
	(void)err;
	memset(cfg, 0, sizeof(*cfg));
	cfg->refresh_interval_s = CONFIG_REFRESH_DEFAULT_S;
	cfg->refresh_max_s = CONFIG_REFRESH_MAX_DEFAULT_S;
	cfg->live_refresh_s = CONFIG_LIVE_DEFAULT_S;
	cfg->requests_per_second = CONFIG_RPS_DEFAULT;
	cfg->connections = 6;
	cfg->timeout_s = 30;
	cfg->retry_max_wait_s = CONFIG_RETRY_MAX_WAIT_DEFAULT_S;
	cfg->min_speed = CONFIG_MIN_SPEED_DEFAULT;
	cfg->stall_time_s = CONFIG_STALL_TIME_DEFAULT_S;
	cfg->download_max = CONFIG_DOWNLOAD_MAX_DEFAULT;
	cfg->download_min_rate = CONFIG_DOWNLOAD_MIN_RATE_DEFAULT;
	cfg->page_limit = STENO_PAGER_DEFAULT_LIMIT;
	cfg->notify = true;
	cfg->index_content = true;
	cfg->list_columns = LISTCOL_ALL;
	return 0;
}

static void profile_free(struct config_profile *p)
{
	free(p->name);
	free(p->base_url);
	if (p->api_key)
		explicit_bzero(p->api_key, strlen(p->api_key));
	free(p->api_key);
	free(p->api_key_file);
	free(p->api_key_command);
	free(p->organization);
	for (size_t i = 0; i < p->n_orgs; i++) {
		free(p->orgs[i].name);
		free(p->orgs[i].id);
	}
	free(p->orgs);
	for (size_t i = 0; i < p->n_folders; i++) {
		free(p->folders[i].name);
		free(p->folders[i].org);
		free(p->folders[i].folder_id);
		free(p->folders[i].path);
	}
	free(p->folders);
}

void config_free(struct steno_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->file);
	free(cfg->default_profile);
	free(cfg->theme);
	free(cfg->download_dir);
	free(cfg->download_name);
	free(cfg->opener);
	free(cfg->trace_file);
	for (size_t i = 0; i < cfg->n_bindings; i++) {
		free(cfg->bindings[i].key);
		free(cfg->bindings[i].action);
	}
	free(cfg->bindings);
	for (size_t i = 0; i < cfg->n_profiles; i++)
		profile_free(&cfg->profiles[i]);
	free(cfg->profiles);
	free(cfg->diags);
	memset(cfg, 0, sizeof(*cfg));
}

const struct config_profile *config_profile_find(const struct steno_config *cfg,
						 const char *name)
{
	for (size_t i = 0; name && i < cfg->n_profiles; i++)
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return &cfg->profiles[i];
	return NULL;
}

const char *config_org_id(const struct config_profile *prof, const char *ref)
{
	if (!ref || !ref[0])
		return NULL;
	for (size_t i = 0; prof && i < prof->n_orgs; i++)
		if (strcmp(prof->orgs[i].name, ref) == 0)
			return prof->orgs[i].id;
	for (const char *p = ref; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return NULL;
	return ref;
}

/* ---- values ---- */

struct ctx {
	struct steno_config *cfg;
	const char *file;
	int line;
	const char *name;
};

/* "NAME: "VALUE" WHY (keeping the default)" as an error of the current line. */
static void bad(const struct ctx *c, const char *why, const char *value)
{
	char q[80];
	config_quote(q, sizeof(q), value);
	config_diag_add(c->cfg, c->file, c->line, CONFIG_ERROR, "%s: \"%s\" %s (keeping the default)",
			c->name, q, why);
}

static void set_bool(const struct ctx *c, bool *dst, const char *v)
{
	static const char *yes[] = { "yes", "true", "on", "1" };
	static const char *no[] = { "no", "false", "off", "0" };
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*dst = true;
			return;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*dst = false;
			return;
		}
	}
	bad(c, "is not yes or no", v);
}

static int parse_num(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);
	if (end == v || *end != '\0' || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

static void set_double(const struct ctx *c, double *dst, const char *v, double lo, double hi,
		       bool clamp_low)
{
	double d;
	if (parse_num(v, &d) != 0) {
		bad(c, "is not a number", v);
		return;
	}
	if (d < lo && clamp_low) {
		config_diag_add(c->cfg, c->file, c->line, CONFIG_WARNING,
				"%s: %g is below the minimum, using %g", c->name, d, lo);
		d = lo;
	}
	if (d < lo || d > hi) {
		bad(c, "is out of range", v);
		return;
	}
	*dst = d;
}

static void set_int(const struct ctx *c, int *dst, const char *v, int lo, int hi)
{
	double d = *dst;
	set_double(c, &d, v, lo, hi, false);
	*dst = (int)d;
}

/* BYTES with an optional K, M or G (powers of 1024), at least 1 KiB. */
static void set_size(const struct ctx *c, long long *dst, const char *v)
{
	char *end;
	double d = strtod(v, &end);
	double mult = !*end ? 1 : !strcasecmp(end, "K") ? 1024.0 : !strcasecmp(end, "M") ? 1048576.0
			: !strcasecmp(end, "G") ? 1073741824.0 : 0;
	if (end == v || !mult || !isfinite(d) || d * mult < 1024 || d * mult > 1e15) {
		bad(c, "is not a size from 1K to 1000T (BYTES, or a number with K, M or G)", v);
		return;
	}
	*dst = (long long)(d * mult);
}

static void set_clipboard(const struct ctx *c, enum config_clipboard *dst, const char *v)
{
	static const char *const names[] = { "auto", "osc52", "tmux", "screen", "off" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcasecmp(v, names[i])) {
			*dst = (enum config_clipboard)i;
			return;
		}
	bad(c, "is not auto, osc52, tmux, screen or off", v);
}

static void set_str(const struct ctx *c, char **dst, const char *v)
{
	char *s = strdup(v);
	if (!s) {
		config_diag_add(c->cfg, c->file, c->line, CONFIG_ERROR, "out of memory");
		return;
	}
	free(*dst);
	*dst = s;
}

static void set_path(const struct ctx *c, char **dst, const char *v)
{
	if (!v[0]) {
		bad(c, "is an empty path", v);
		return;
	}
	char *s = paths_expand_home(v, NULL);
	if (!s) {
		bad(c, "cannot be expanded (is HOME set?)", v);
		return;
	}
	free(*dst);
	*dst = s;
}

static void set_columns(const struct ctx *c, unsigned *dst, const char *v)
{
	char word[64];
	if (listcol_parse(v, dst, word, sizeof word) != 0) {
		char q[80];
		config_quote(q, sizeof q, word);
		config_diag_add(c->cfg, c->file, c->line, CONFIG_ERROR,
				"%s: \"%s\" is not a column (name, state, language, length, cost, created, "
				"tags); keeping the default", c->name, q);
	}
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > NAME_MAX_LEN)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static void add_binding(const struct ctx *c, const char *v)
{
	/* KEY ACTION: the key is the first word, the action the rest (one word). */
	const char *sp = v + strcspn(v, " \t");
	const char *act = sp + strspn(sp, " \t");
	size_t klen = (size_t)(sp - v);
	if (klen == 0 || !*act || act[strcspn(act, " \t")] != '\0') {
		bad(c, "is not KEY ACTION", v);
		return;
	}
	struct config_binding *b = realloc(c->cfg->bindings,
					   (c->cfg->n_bindings + 1) * sizeof(*b));
	if (!b)
		return;
	c->cfg->bindings = b;
	b = &b[c->cfg->n_bindings];
	b->key = strndup(v, klen);
	b->action = strdup(act);
	b->line = c->line;
	if (!b->key || !b->action) {
		free(b->key);
		free(b->action);
		return;
	}
	c->cfg->n_bindings++;
}

static int apply_global(const struct ctx *c, const char *n, const char *v)
{
	struct steno_config *cfg = c->cfg;
	if (!strcmp(n, "profile")) {
		if (valid_name(v))
			set_str(c, &cfg->default_profile, v);
		else
			bad(c, "is not a profile name", v);
	} else if (!strcmp(n, "theme")) {
		if (valid_name(v))
			set_str(c, &cfg->theme, v);
		else
			bad(c, "is not a theme name", v);
	} else if (!strcmp(n, "refresh_interval")) {
		set_double(c, &cfg->refresh_interval_s, v, CONFIG_REFRESH_MIN_S, 3600, true);
	} else if (!strcmp(n, "refresh")) {
		set_double(c, &cfg->live_refresh_s, v, 0, 86400, false);
		if (cfg->live_refresh_s > 0 && cfg->live_refresh_s < CONFIG_LIVE_MIN_S) {
			config_diag_add(c->cfg, c->file, c->line, CONFIG_WARNING,
					"%s: %g is below the minimum, using %g", c->name,
					cfg->live_refresh_s, CONFIG_LIVE_MIN_S);
			cfg->live_refresh_s = CONFIG_LIVE_MIN_S;
		}
	} else if (!strcmp(n, "refresh_max")) {
		set_double(c, &cfg->refresh_max_s, v, CONFIG_REFRESH_MIN_S, 86400, true);
	} else if (!strcmp(n, "requests_per_second")) {
		set_double(c, &cfg->requests_per_second, v, 0.1, 1000, false);
	} else if (!strcmp(n, "connections")) {
		set_int(c, &cfg->connections, v, 1, 64);
	} else if (!strcmp(n, "timeout")) {
		set_int(c, &cfg->timeout_s, v, 1, 3600);
	} else if (!strcmp(n, "mouse")) {
		set_bool(c, &cfg->mouse, v);
	} else if (!strcmp(n, "ascii")) {
		set_bool(c, &cfg->ascii, v);
	} else if (!strcmp(n, "bell")) {
		set_bool(c, &cfg->bell, v);
	} else if (!strcmp(n, "desktop_notify")) {
		if (!strcmp(v, "off"))
			cfg->desktop_notify = CONFIG_DESKTOP_OFF;
		else if (!strcmp(v, "osc9"))
			cfg->desktop_notify = CONFIG_DESKTOP_OSC9;
		else if (!strcmp(v, "osc777"))
			cfg->desktop_notify = CONFIG_DESKTOP_OSC777;
		else
			bad(c, "is not off, osc9 or osc777", v);
	} else if (!strcmp(n, "notify")) {
		set_bool(c, &cfg->notify, v);
	} else if (!strcmp(n, "index")) {
		set_bool(c, &cfg->index_content, v);
	} else if (!strcmp(n, "retry_max_wait")) {
		set_int(c, &cfg->retry_max_wait_s, v, 1, 86400);
	} else if (!strcmp(n, "transfer_min_speed")) {
		set_int(c, &cfg->min_speed, v, 1, 1 << 30);
	} else if (!strcmp(n, "transfer_stall_time")) {
		set_int(c, &cfg->stall_time_s, v, 1, 3600);
	} else if (!strcmp(n, "download_max_size")) {
		set_size(c, &cfg->download_max, v);
	} else if (!strcmp(n, "download_min_rate")) {
		set_int(c, &cfg->download_min_rate, v, 1, 1 << 30);
	} else if (!strcmp(n, "request_deadline")) {
		set_int(c, &cfg->request_deadline_s, v, 1, 86400);
	} else if (!strcmp(n, "clipboard")) {
		set_clipboard(c, &cfg->clipboard, v);
	} else if (!strcmp(n, "osc52")) {
		/* the older key: no turns the clipboard off, yes is auto */
		bool on = cfg->clipboard != CLIPBOARD_OFF;
		set_bool(c, &on, v);
		cfg->clipboard = on ? CLIPBOARD_AUTO : CLIPBOARD_OFF;
	} else if (!strcmp(n, "read_only")) {
		set_bool(c, &cfg->read_only, v);
	} else if (!strcmp(n, "offline")) {
		set_bool(c, &cfg->offline, v);
	} else if (!strcmp(n, "cache")) {
		bool on = !cfg->cache_off;
		set_bool(c, &on, v);
		cfg->cache_off = !on;
	} else if (!strcmp(n, "download_dir")) {
		set_path(c, &cfg->download_dir, v);
	} else if (!strcmp(n, "download_name")) {
		if (download_name_check(v, NULL) == 0)
			set_str(c, &cfg->download_name, v);
		else
			bad(c, "is not a file name pattern of {name} {id} {ext} {format} and text", v);
	} else if (!strcmp(n, "page_limit")) {
		set_int(c, &cfg->page_limit, v, 1, 1000000);
	} else if (!strcmp(n, "opener")) {
		set_str(c, &cfg->opener, v);
	} else if (!strcmp(n, "trace_file")) {
		set_path(c, &cfg->trace_file, v);
	} else if (!strcmp(n, "columns")) {
		set_columns(c, &cfg->list_columns, v);
	} else if (!strcmp(n, "bind")) {
		add_binding(c, v);
	} else {
		return -1;
	}
	return 0;
}

static struct config_profile *profile_get(struct steno_config *cfg, const char *name)
{
	struct config_profile *p;
	for (size_t i = 0; i < cfg->n_profiles; i++)
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return &cfg->profiles[i];
	p = realloc(cfg->profiles, (cfg->n_profiles + 1) * sizeof(*p));
	if (!p)
		return NULL;
	cfg->profiles = p;
	p = &p[cfg->n_profiles];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	if (!p->name)
		return NULL;
	cfg->n_profiles++;
	return p;
}

static void add_org(const struct ctx *c, struct config_profile *p, const char *name,
		    const char *v)
{
	if (!config_org_id(NULL, v)) {
		bad(c, "is not an organization id", v);
		return;
	}
	for (size_t i = 0; i < p->n_orgs; i++)
		if (!strcmp(p->orgs[i].name, name)) {
			set_str(c, &p->orgs[i].id, v);
			return;
		}
	struct config_org *o = realloc(p->orgs, (p->n_orgs + 1) * sizeof(*o));
	if (!o)
		return;
	p->orgs = o;
	o[p->n_orgs].name = strdup(name);
	o[p->n_orgs].id = strdup(v);
	if (!o[p->n_orgs].name || !o[p->n_orgs].id) {
		free(o[p->n_orgs].name);
		free(o[p->n_orgs].id);
		return;
	}
	p->n_orgs++;
}

/* `[ORG:]ID` or `[ORG:]/path` into a folder entry. */
static int parse_folder(const char *v, struct config_folder *f)
{
	const char *colon = strchr(v, ':');
	const char *rest = colon ? colon + 1 : v;
	if (colon && (colon == v || memchr(v, '/', (size_t)(colon - v))))
		return -1;
	if (colon) {
		f->org = strndup(v, (size_t)(colon - v));
		if (!f->org || !config_org_id(NULL, f->org))
			return -1;
	}
	if (rest[0] == '/') {
		if (rest[1] == '\0')
			return -1;
		f->path = strdup(rest);
		return f->path ? 0 : -1;
	}
	if (!rest[0] || strspn(rest, "0123456789") != strlen(rest))
		return -1;
	f->folder_id = strdup(rest);
	return f->folder_id ? 0 : -1;
}

static void add_folder(const struct ctx *c, struct config_profile *p, const char *name,
		       const char *v)
{
	struct config_folder f = { 0 };
	if (parse_folder(v, &f) != 0) {
		free(f.org);
		free(f.folder_id);
		free(f.path);
		bad(c, "is not [ORG:]FOLDER_ID or [ORG:]/PATH", v);
		return;
	}
	f.name = strdup(name);
	struct config_folder *fs = f.name ? realloc(p->folders, (p->n_folders + 1) * sizeof(*fs))
					  : NULL;
	if (!fs) {
		free(f.name);
		free(f.org);
		free(f.folder_id);
		free(f.path);
		return;
	}
	p->folders = fs;
	fs[p->n_folders++] = f;
}

static bool valid_url(const char *v)
{
	if (strncmp(v, "https://", 8) != 0 && strncmp(v, "http://", 7) != 0)
		return false;
	for (const unsigned char *s = (const unsigned char *)v; *s; s++)
		if (*s <= 0x20 || *s >= 0x7f)
			return false;
	return strlen(v) > 8;
}

static int apply_profile(const struct ctx *c, struct config_profile *p, const char *n,
			 const char *v)
{
	if (!strcmp(n, "base_url")) {
		if (valid_url(v))
			set_str(c, &p->base_url, v);
		else
			bad(c, "is not an http:// or https:// URL", v);
	} else if (!strcmp(n, "api_key")) {
		if (p->api_key)
			explicit_bzero(p->api_key, strlen(p->api_key));
		set_str(c, &p->api_key, v);
	} else if (!strcmp(n, "api_key_file")) {
		set_path(c, &p->api_key_file, v);
	} else if (!strcmp(n, "api_key_command")) {
		set_str(c, &p->api_key_command, v);
	} else if (!strcmp(n, "api_key_command_timeout")) {
		double s = 10;
		set_double(c, &s, v, 0.1, 600, false);
		p->api_key_command_timeout_ms = (int)(s * 1000);
	} else if (!strcmp(n, "organization")) {
		set_str(c, &p->organization, v);
	} else if (!strncmp(n, "org.", 4) && valid_name(n + 4)) {
		add_org(c, p, n + 4, v);
	} else if (!strncmp(n, "folder.", 7) && valid_name(n + 7)) {
		add_folder(c, p, n + 7, v);
	} else {
		return -1;
	}
	return 0;
}

int config_apply(struct steno_config *cfg, const char *file, int line, const char *section,
		 const char *name, const char *value)
{
	struct ctx c = { cfg, file, line, name };
	char q[80], qs[80];
	int rc = -1;
	if (!section[0] || !strcmp(section, "general") || !strcmp(section, "keys")) {
		rc = apply_global(&c, name, value);
	} else if (!strncmp(section, "profile ", 8) && valid_name(section + 8)) {
		struct config_profile *p = profile_get(cfg, section + 8);
		if (!p) {
			config_diag_add(cfg, file, line, CONFIG_ERROR, "out of memory");
			return 0;
		}
		rc = apply_profile(&c, p, name, value);
	} else {
		config_quote(qs, sizeof(qs), section);
		config_diag_add(cfg, file, line, CONFIG_WARNING,
				"unknown section [%s] (expected [general] or [profile NAME]); ignored", qs);
		return 0;
	}
	if (rc != 0) {
		config_quote(q, sizeof(q), name);
		config_diag_add(cfg, file, line, CONFIG_WARNING, "unknown key \"%s\"; ignored", q);
	}
	return 0;
}
