/* tui/core configuration: keys, profiles, environment precedence, malformed and hostile files. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/conf.h"
#include "core_helpers.h"

static struct steno_config cfg;
static struct steno_error err;
static char *tmp_home;

static void setup(void)
{
	tmp_home = core_tmpdir();
	config_init_defaults(&cfg, NULL);
	steno_error_clear(&err);
}

static void teardown(void)
{
	config_free(&cfg);
	core_rm_rf(tmp_home);
}

TestSuite(config, .init = setup, .fini = teardown);

static int load(const char *text)
{
	return config_load_string(&cfg, "test.conf", text, strlen(text), &err);
}

static bool has_diag(const char *needle)
{
	for (size_t i = 0; i < cfg.n_diags; i++)
		if (strstr(cfg.diags[i].text, needle))
			return true;
	return false;
}

Test(config, defaults)
{
	cr_assert_float_eq(cfg.refresh_interval_s, 2.0, 1e-9);
	cr_assert_not(cfg.mouse);
	cr_assert_not(cfg.read_only);
	cr_assert_null(cfg.theme);
	cr_assert_eq(cfg.clipboard, CLIPBOARD_AUTO);
	cr_assert_eq(cfg.retry_max_wait_s, 30);
	cr_assert_eq(cfg.download_max, 4LL << 30);
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, NULL, false, &a, &err), 0);
	cr_assert_str_eq(a.base_url, "https://www.happyscribe.com/api/v1");
	cr_assert_null(a.profile);
	config_account_free(&a);
}

Test(config, missing_file_is_fine)
{
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_eq(config_load(&cfg, &p, NULL, &err), 0);
	cr_assert_not(cfg.file_loaded);
	cr_assert_eq(cfg.n_diags, 0);
	cr_assert(strstr(cfg.file, "/.config/steno/config"));
	paths_free(&p);
}

Test(config, hardening_keys)
{
	cr_assert_eq(load("retry_max_wait = 120\ntransfer_min_speed = 4096\ntransfer_stall_time = 5\n"
			  "download_max_size = 10M\nclipboard = tmux\n"
			  "download_min_rate = 50000\nrequest_deadline = 90\n"), 0, "%s", err.message);
	cr_assert_eq(cfg.n_diags, 0, "%s", cfg.n_diags ? cfg.diags[0].text : "");
	cr_assert_eq(cfg.download_min_rate, 50000);   /* issue 24 item 7 and its smaller point */
	cr_assert_eq(cfg.request_deadline_s, 90);
	cr_assert_eq(cfg.retry_max_wait_s, 120);
	cr_assert_eq(cfg.min_speed, 4096);
	cr_assert_eq(cfg.stall_time_s, 5);
	cr_assert_eq(cfg.download_max, 10LL << 20);
	cr_assert_eq(cfg.clipboard, CLIPBOARD_TMUX);
	config_free(&cfg);
	config_init_defaults(&cfg, NULL);
	cr_assert_eq(load("download_max_size = 12X\nclipboard = xsel\nretry_max_wait = 0\n"), 0);
	cr_assert_eq(cfg.n_diags, 3);
	cr_assert_eq(cfg.download_max, 4LL << 30);
	cr_assert_eq(cfg.clipboard, CLIPBOARD_AUTO);
	cr_assert_eq(cfg.retry_max_wait_s, 30);
}

Test(config, every_global_key)
{
	cr_assert_eq(load("; comment\n# another\n"
			  "profile = work\ntheme = gruvbox\nrefresh_interval = 5\nrefresh_max = 120\n"
			  "requests_per_second = 2.5\nconnections = 3\ntimeout = 45\nmouse = yes\n"
			  "ascii = on\nbell = true\nnotify = no\nosc52 = off\nread_only = 1\n"
			  "download_dir = ~/dl\nopener = xdg-open\ntrace_file = /tmp/t.log\n"
			  "bind j move-down\nbind = <C-r> refresh   ; inline comment\n"),
		     0, "%s", err.message);
	cr_assert_eq(cfg.n_diags, 0, "%s", cfg.n_diags ? cfg.diags[0].text : "");
	cr_assert_str_eq(cfg.default_profile, "work");
	cr_assert_str_eq(cfg.theme, "gruvbox");
	cr_assert_float_eq(cfg.refresh_interval_s, 5, 1e-9);
	cr_assert_float_eq(cfg.refresh_max_s, 120, 1e-9);
	cr_assert_float_eq(cfg.requests_per_second, 2.5, 1e-9);
	cr_assert_eq(cfg.connections, 3);
	cr_assert_eq(cfg.timeout_s, 45);
	cr_assert(cfg.mouse && cfg.ascii && cfg.bell && cfg.read_only);
	cr_assert_not(cfg.notify);
	cr_assert_eq(cfg.clipboard, CLIPBOARD_OFF);
	char want[600];
	snprintf(want, sizeof(want), "%s/dl", getenv("HOME"));
	cr_assert_str_eq(cfg.download_dir, want);
	cr_assert_str_eq(cfg.opener, "xdg-open");
	cr_assert_str_eq(cfg.trace_file, "/tmp/t.log");
	cr_assert_eq(cfg.n_bindings, 2);
	cr_assert_str_eq(cfg.bindings[0].key, "j");
	cr_assert_str_eq(cfg.bindings[0].action, "move-down");
	cr_assert_eq(cfg.bindings[0].line, 19);
	cr_assert_str_eq(cfg.bindings[1].key, "<C-r>");
	cr_assert_str_eq(cfg.bindings[1].action, "refresh");
	cr_assert(cfg.file_loaded);
}

Test(config, general_section_and_profiles)
{
	cr_assert_eq(load("[general]\ntheme = mono\n"
			  "[profile work]\nbase_url = http://127.0.0.1:8080/api/v1\n"
			  "api_key_file = ~/work.key\napi_key_command = pass show steno\n"
			  "api_key_command_timeout = 2.5\norganization = acme\n"
			  "org.acme = 6411621\norg.side = 42\n"
			  "folder.pods = acme:123\nfolder.inbox = 77\n"
			  "folder.new = side:/Podcasts/2024\nfolder.here = /Top\n"
			  "[profile home]\napi_key = k-home\n"),
		     0, "%s", err.message);
	cr_assert_eq(cfg.n_diags, 0, "%s", cfg.n_diags ? cfg.diags[0].text : "");
	cr_assert_str_eq(cfg.theme, "mono");
	cr_assert_eq(cfg.n_profiles, 2);
	const struct config_profile *w = config_profile_find(&cfg, "work");
	cr_assert_not_null(w);
	cr_assert_str_eq(w->base_url, "http://127.0.0.1:8080/api/v1");
	cr_assert(strstr(w->api_key_file, "/work.key") && w->api_key_file[0] == '/');
	cr_assert_str_eq(w->api_key_command, "pass show steno");
	cr_assert_eq(w->api_key_command_timeout_ms, 2500);
	cr_assert_str_eq(config_org_id(w, w->organization), "6411621");
	cr_assert_str_eq(config_org_id(w, "side"), "42");
	cr_assert_str_eq(config_org_id(w, "999"), "999");
	cr_assert_null(config_org_id(w, "no such/org"));
	cr_assert_eq(w->n_folders, 4);
	cr_assert_str_eq(w->folders[0].name, "pods");
	cr_assert_str_eq(w->folders[0].org, "acme");
	cr_assert_str_eq(w->folders[0].folder_id, "123");
	cr_assert_null(w->folders[1].org);
	cr_assert_str_eq(w->folders[1].folder_id, "77");
	cr_assert_str_eq(w->folders[2].path, "/Podcasts/2024");
	cr_assert_null(w->folders[2].folder_id);
	cr_assert_str_eq(w->folders[3].path, "/Top");
	cr_assert_str_eq(config_profile_find(&cfg, "home")->api_key, "k-home");
}

Test(config, unknown_key_is_a_warning)
{
	cr_assert_eq(load("theme = light\ncolour = red\n[profile p]\nfoo = 1\n[weird]\nx = 1\n"), 0);
	cr_assert(cfg.file_loaded);
	cr_assert_str_eq(cfg.theme, "light");
	cr_assert_eq(cfg.n_errors, 0);
	cr_assert(has_diag("test.conf:2: warning: unknown key \"colour\""));
	cr_assert(has_diag("test.conf:4: warning: unknown key \"foo\""));
	cr_assert(has_diag("test.conf:6: warning: unknown section [weird]"));
}

Test(config, bad_values_keep_defaults)
{
	cr_assert_eq(load("mouse = maybe\nrefresh_interval = fast\nconnections = 1000\n"
			  "theme = ../../etc\n[profile p]\nbase_url = ftp://x\n"
			  "folder.a = acme:12x\norg.b = a/b\nbind onlykey\nrefresh_max = nan\n"),
		     0);
	cr_assert_not(cfg.mouse);
	cr_assert_float_eq(cfg.refresh_interval_s, 2.0, 1e-9);
	cr_assert_eq(cfg.connections, 6);
	cr_assert_null(cfg.theme);
	cr_assert_null(config_profile_find(&cfg, "p")->base_url);
	cr_assert_eq(config_profile_find(&cfg, "p")->n_folders, 0);
	cr_assert(has_diag("test.conf:1: error: mouse: \"maybe\" is not yes or no"));
	cr_assert(has_diag("test.conf:2: error: refresh_interval: \"fast\" is not a number"));
	cr_assert(has_diag("test.conf:3: error: connections"));
	cr_assert(has_diag("test.conf:4: error: theme"));
	cr_assert(has_diag("test.conf:6: error: base_url"));
	cr_assert(has_diag("test.conf:7: error: folder.a"));
	cr_assert(has_diag("test.conf:8: error: org.b"));
	/* global keys inside a profile section are not global */
	cr_assert(has_diag("test.conf:10: warning: unknown key \"refresh_max\""));
	cr_assert_eq(cfg.n_bindings, 0);
}

Test(config, refresh_minimum)
{
	cr_assert_eq(load("refresh_interval = 0.01\nrefresh_max = nan\nrequests_per_second = inf\n"), 0);
	cr_assert(has_diag("test.conf:2: error: refresh_max: \"nan\" is not a number"));
	cr_assert(has_diag("test.conf:3: error: requests_per_second"));
	cr_assert_float_eq(cfg.refresh_max_s, CONFIG_REFRESH_MAX_DEFAULT_S, 1e-9);
	cr_assert_float_eq(cfg.refresh_interval_s, CONFIG_REFRESH_MIN_S, 1e-9);
	cr_assert(has_diag("test.conf:1: warning: refresh_interval"));
}

Test(config, malformed_file_leaves_defaults)
{
	cr_assert_eq(load("theme = light\nmouse = yes\nthis line has no equals sign\n[profile x\n"), -1);
	cr_assert_eq(err.kind, STENO_ERR_CONFIG);
	cr_assert(strstr(err.message, "test.conf:3: error"), "%s", err.message);
	cr_assert_not(cfg.file_loaded);
	cr_assert_null(cfg.theme);
	cr_assert_not(cfg.mouse);
	cr_assert(has_diag("test.conf:3: error: expected"));
	cr_assert(has_diag("test.conf:4: error: section header without ']'"));
}

Test(config, hostile_nul_utf8_long_lines)
{
	static const char nul[] = "theme = a\0b\nmouse = yes\n";
	cr_assert_eq(config_load_string(&cfg, "n.conf", nul, sizeof(nul) - 1, &err), -1);
	cr_assert(has_diag("n.conf:1: error: NUL byte"));
	cr_assert_not(cfg.mouse);
	config_free(&cfg);
	config_init_defaults(&cfg, NULL);
	cr_assert_eq(load("mouse = yes\ntheme = \xff\xfe\n"), -1);
	cr_assert(has_diag("test.conf:2: error: invalid UTF-8"));
	config_free(&cfg);
	config_init_defaults(&cfg, NULL);
	char *big = malloc(10000);
	memset(big, 'x', 9998);
	memcpy(big, "opener = ", 9);
	big[9998] = '\n';
	big[9999] = '\0';
	cr_assert_eq(load(big), -1);
	cr_assert(has_diag("test.conf:1: error: line longer than 4096 bytes"));
	free(big);
	/* garbage bytes of every value, with no crash */
	config_free(&cfg);
	config_init_defaults(&cfg, NULL);
	char junk[3000];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7919 % 251 + 1);
	cr_assert_eq(config_load_string(&cfg, "j", junk, sizeof(junk), &err), -1);
	cr_assert_gt(cfg.n_diags, 0);
}

Test(config, long_values_survive_libinih)
{
	char text[2000], cmd[1500];
	memset(cmd, 0, sizeof(cmd));
	strcpy(cmd, "echo ");
	memset(cmd + 5, 'k', 900);
	snprintf(text, sizeof(text), "[profile p]\napi_key_command = %s   ; comment\nbind %s act\n",
		 cmd, "<C-x>");
	cr_assert_eq(load(text), 0, "%s", err.message);
	cr_assert_str_eq(config_profile_find(&cfg, "p")->api_key_command, cmd);
}

Test(config, leading_blanks_are_not_continuations)
{
	cr_assert_eq(load("theme = light\n   mouse = yes\n\t bell = yes\n"), 0);
	cr_assert_str_eq(cfg.theme, "light");
	cr_assert(cfg.mouse && cfg.bell);
}

Test(config, file_errors_have_the_file_name)
{
	char *dir = getenv("HOME");
	char *f = core_path(dir, "c.conf");
	core_write(f, "ok = 1\n", 0600);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_eq(config_load(&cfg, &p, f, &err), 0);
	char want[600];
	snprintf(want, sizeof(want), "%s:1: warning: unknown key \"ok\"", f);
	cr_assert(has_diag(want), "%s", cfg.diags[0].text);
	paths_free(&p);
}

Test(config, steno_config_env_names_the_file)
{
	char *f = core_path(getenv("HOME"), "other.conf");
	core_write(f, "theme = solarized-dark\n", 0600);
	setenv("STENO_CONFIG", f, 1);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_str_eq(p.config_file, f);
	cr_assert_eq(config_load(&cfg, &p, NULL, &err), 0);
	cr_assert_str_eq(cfg.theme, "solarized-dark");
	paths_free(&p);
}

Test(config, xdg_dirs)
{
	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	setenv("XDG_STATE_HOME", "relative/ignored", 1);
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_str_eq(p.config_file, "/x/conf/steno/config");
	cr_assert_str_eq(p.cache_dir, "/x/cache/steno");
	char want[600];
	snprintf(want, sizeof(want), "%s/.local/state/steno", getenv("HOME"));
	cr_assert_str_eq(p.state_dir, want);
	paths_free(&p);
}

static const char *profiles =
	"profile = work\n"
	"[profile work]\nbase_url = http://127.0.0.1:1/api/v1\napi_key = work-key\norganization = 11\n"
	"[profile home]\nbase_url = http://127.0.0.1:2/api/v1\napi_key = home-key\norg.me = 22\n"
	"organization = me\n";

Test(config, profile_precedence)
{
	cr_assert_eq(load(profiles), 0);
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), 0, "%s", err.message);
	cr_assert_str_eq(a.profile, "work");
	cr_assert_str_eq(a.api_key, "work-key");
	cr_assert_str_eq(a.org_id, "11");
	config_account_free(&a);
	setenv("STENO_PROFILE", "home", 1);
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), 0);
	cr_assert_str_eq(a.profile, "home");
	cr_assert_str_eq(a.base_url, "http://127.0.0.1:2/api/v1");
	cr_assert_str_eq(a.org_id, "22");
	config_account_free(&a);
	/* an explicit --profile beats STENO_PROFILE */
	cr_assert_eq(config_account_resolve(&cfg, "work", true, &a, &err), 0);
	cr_assert_str_eq(a.profile, "work");
	config_account_free(&a);
}

Test(config, env_beats_file)
{
	cr_assert_eq(load(profiles), 0);
	setenv("STENO_BASE_URL", "http://127.0.0.1:9/api/v1", 1);
	setenv("STENO_API_KEY", "env-key", 1);
	setenv("STENO_ORG_ID", "99", 1);
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), 0);
	cr_assert_str_eq(a.base_url, "http://127.0.0.1:9/api/v1");
	cr_assert_str_eq(a.api_key, "env-key");
	cr_assert_str_eq(a.key_source, "STENO_API_KEY");
	cr_assert_str_eq(a.org_id, "99");
	config_account_free(&a);
}

Test(config, unknown_profile_and_no_key)
{
	cr_assert_eq(load(profiles), 0);
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, "nope", false, &a, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_CONFIG);
	cr_assert(strstr(err.message, "profile \"nope\""), "%s", err.message);
	config_free(&cfg);
	config_init_defaults(&cfg, NULL);
	steno_error_clear(&err);
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), -1);
	cr_assert(strstr(err.message, "no API key"), "%s", err.message);
	cr_assert(strstr(err.message, "steno --sandbox"), "the first run does not offer the sandbox: %s",
		  err.message);
}

Test(config, key_with_control_chars_is_refused_without_echo)
{
	cr_assert_eq(load("[profile default]\napi_key = abc\x01secret\n"), 0);
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), -1);
	cr_assert_null(strstr(err.message, "secret"), "%s", err.message);
}

Test(config, paths_list)
{
	char *home = getenv("HOME");
	char text[800];
	snprintf(text, sizeof(text), "download_dir = %s\n[profile default]\napi_key_file = %s/k\n",
		 home, home);
	cr_assert_eq(load(text), 0);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	struct config_path_list l;
	cr_assert_eq(config_paths_list(&cfg, &p, NULL, &l, &err), 0);
	const char *want[] = { "config file", "key file", "themes dir (user)", "themes dir (system)",
			       "state dir", "cache dir", "trace file", "download dir" };
	for (size_t w = 0; w < sizeof(want) / sizeof(*want); w++) {
		bool found = false;
		for (size_t i = 0; i < l.n; i++)
			if (!strcmp(l.items[i].what, want[w])) {
				found = true;
				if (!strcmp(want[w], "download dir"))
					cr_assert(l.items[i].exists);
				if (!strcmp(want[w], "key file"))
					cr_assert_not(l.items[i].exists);
			}
		cr_assert(found, "%s missing", want[w]);
	}
	config_paths_free(&l);
	paths_free(&p);
}

Test(config, inline_key_in_readable_file_warns)
{
	char *f = core_path(getenv("HOME"), "c.conf");
	core_write(f, "[profile p]\napi_key = abc\n", 0644);
	struct steno_paths p;
	cr_assert_eq(paths_resolve(&p, &err), 0);
	cr_assert_eq(config_load(&cfg, &p, f, &err), 0);
	cr_assert(has_diag("chmod 600"));
	cr_assert_not(has_diag("abc"));
	config_free(&cfg);
	config_init_defaults(&cfg, NULL);
	chmod(f, 0600);
	cr_assert_eq(config_load(&cfg, &p, f, &err), 0);
	cr_assert_eq(cfg.n_diags, 0);
	paths_free(&p);
}

Test(config, many_problems_are_capped)
{
	size_t n = 5000, cap = n * 16 + 1;
	char *text = malloc(cap);
	char *w = text;
	for (size_t i = 0; i < n; i++)
		w = stpcpy(w, "mouse = maybe\n");
	cr_assert_eq(load(text), 0);
	cr_assert_eq(cfg.n_errors, n);
	cr_assert_leq(cfg.n_diags, 100);
	free(text);
}

Test(config, byte_order_mark_and_crlf)
{
	cr_assert_eq(load("\xef\xbb\xbf[general]\r\ntheme = light\r\nmouse: yes\r\n"), 0, "%s",
		     err.message);
	cr_assert_str_eq(cfg.theme, "light");
	cr_assert(cfg.mouse);
}
