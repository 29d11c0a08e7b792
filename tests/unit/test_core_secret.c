/* tui/core secrets: key file permissions, key command, redaction; paths: atomic saves. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/conf.h"
#include "core/paths.h"
#include "core/secret.h"
#include "core_helpers.h"

static char *dir;
static struct steno_error err;

static void setup(void)
{
	dir = core_tmpdir();
	steno_error_clear(&err);
}

static void teardown(void)
{
	core_rm_rf(dir);
}

TestSuite(secret, .init = setup, .fini = teardown);

Test(secret, key_file_0600_ok)
{
	char *f = core_path(dir, "key");
	core_write(f, "  sk-live-123  \r\nsecond line\n", 0600);
	char *key;
	cr_assert_eq(secret_read_key_file(f, &key, &err), 0, "%s", err.message);
	cr_assert_str_eq(key, "sk-live-123");
	secret_free(key);
}

Test(secret, key_file_readable_by_others_refused)
{
	char *f = core_path(dir, "key");
	core_write(f, "sk-live-123\n", 0644);
	char *key = (char *)1;
	cr_assert_eq(secret_read_key_file(f, &key, &err), -1);
	cr_assert_null(key);
	cr_assert_eq(err.kind, STENO_ERR_CONFIG);
	cr_assert(strstr(err.message, f), "%s", err.message);
	cr_assert(strstr(err.message, "0644"), "%s", err.message);
	cr_assert(strstr(err.message, "chmod 600"), "%s", err.message);
	cr_assert_null(strstr(err.message, "sk-live"));
	core_write(f, "sk-live-123\n", 0640);
	cr_assert_eq(secret_read_key_file(f, &key, &err), -1);
	cr_assert(strstr(err.message, "0640"), "%s", err.message);
}

Test(secret, key_file_through_profile)
{
	char *f = core_path(dir, "key");
	core_write(f, "from-file\n", 0600);
	char text[700];
	snprintf(text, sizeof(text), "[profile default]\napi_key_file = %s\n", f);
	struct steno_config cfg;
	config_init_defaults(&cfg, NULL);
	cr_assert_eq(config_load_string(&cfg, "c", text, strlen(text), &err), 0);
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), 0, "%s", err.message);
	cr_assert_str_eq(a.api_key, "from-file");
	cr_assert(strstr(a.key_source, f));
	config_account_free(&a);
	chmod(f, 0604);
	cr_assert_eq(config_account_resolve(&cfg, NULL, true, &a, &err), -1);
	cr_assert(strstr(err.message, "chmod 600"));
	config_free(&cfg);
}

Test(secret, empty_or_missing_key_file)
{
	char *f = core_path(dir, "key");
	core_write(f, "\n", 0600);
	char *key;
	cr_assert_eq(secret_read_key_file(f, &key, &err), -1);
	cr_assert(strstr(err.message, "empty"), "%s", err.message);
	cr_assert_eq(secret_read_key_file(core_path(dir, "nope"), &key, &err), -1);
	cr_assert(strstr(err.message, "cannot open"), "%s", err.message);
}

Test(secret, key_command_ok)
{
	char *key;
	cr_assert_eq(secret_run_key_command("printf 'cmd-key\\nignored\\n'; echo noise >&2", 0, &key,
					    &err), 0, "%s", err.message);
	cr_assert_str_eq(key, "cmd-key");
	secret_free(key);
}

Test(secret, key_command_failure_quotes_stderr_not_stdout)
{
	char *key;
	cr_assert_eq(secret_run_key_command("echo leaked-key; echo 'vault is locked' >&2; exit 3", 0,
					    &key, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_CONFIG);
	cr_assert(strstr(err.message, "exit status 3"), "%s", err.message);
	cr_assert(strstr(err.message, "vault is locked"), "%s", err.message);
	cr_assert_null(strstr(err.message, "leaked-key"));
	cr_assert_eq(secret_run_key_command("true", 0, &key, &err), -1);
	cr_assert(strstr(err.message, "empty"), "%s", err.message);
}

Test(secret, key_command_stderr_with_the_key_is_redacted)
{
	/* a failing command that printed the key (or any key-like token) on stderr */
	char *key;
	cr_assert_eq(secret_run_key_command("echo sk_live_4f9a8b7c6d5e4f3a2b1c; "
					    "echo 'bad token sk_live_4f9a8b7c6d5e4f3a2b1c' >&2; exit 1",
					    0, &key, &err), -1);
	cr_assert_null(strstr(err.message, "4f9a8b7c6d5e"), "%s", err.message);
	cr_assert(strstr(err.message, "bad token [redacted]"), "%s", err.message);
	cr_assert_eq(secret_run_key_command("echo 'token=Zq81KdP0wXy7Lm2Nv5Rt9 refused' >&2; exit 2",
					    0, &key, &err), -1);
	cr_assert_null(strstr(err.message, "Zq81KdP0wXy7Lm2Nv5Rt9"), "%s", err.message);
	cr_assert(strstr(err.message, "refused"), "%s", err.message);
}

Test(secret, env_key_taken_out_of_the_environment)
{
	/* what main does first: children (opener, key command, sandbox) never inherit the key */
	cr_assert_eq(setenv("STENO_API_KEY", "env-key-123", 1), 0);
	secret_env_take();
	cr_assert_null(getenv("STENO_API_KEY"));
	cr_assert_str_eq(secret_env_key(), "env-key-123");
	FILE *p = popen("echo \"${STENO_API_KEY-unset}\"", "r");
	char line[64] = "";
	cr_assert_not_null(fgets(line, sizeof line, p));
	pclose(p);
	cr_assert_str_eq(line, "unset\n");
	secret_env_forget();
	cr_assert_null(secret_env_key());
}

Test(secret, key_command_timeout_kills_it)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	char *key;
	cr_assert_eq(secret_run_key_command("sleep 30; echo late", 300, &key, &err), -1);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	cr_assert_lt(s, 5.0, "took %f s", s);
	cr_assert(strstr(err.message, "did not finish within 300 ms"), "%s", err.message);
}

Test(secret, redaction)
{
	char *r = secret_redact("GET /x?key=abc123 then abc123abc123", "abc123");
	cr_assert_str_eq(r, "GET /x?key=[redacted] then [redacted][redacted]");
	free(r);
	r = secret_redact("nothing", NULL);
	cr_assert_str_eq(r, "nothing");
	free(r);
	char buf[32] = "token=ab";
	secret_redact_buf(buf, sizeof(buf), "ab");
	cr_assert_str_eq(buf, "token=[redacted]");
	cr_assert_eq(secret_check_key("ok-Key_1", "t", &err), 0);
	cr_assert_eq(secret_check_key("with space", "t", &err), -1);
	cr_assert_null(strstr(err.message, "with space"));
}

static int count_entries(const char *d)
{
	DIR *dp = opendir(d);
	cr_assert_not_null(dp);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dp)))
		n += e->d_name[0] != '.';
	closedir(dp);
	return n;
}

Test(paths, atomic_save)
{
	dir = core_tmpdir();
	char *sub = core_path(dir, "a/b");
	char *f = core_path(dir, "a/b/file");
	cr_assert_eq(paths_save_atomic(f, "one", 3, 0600, &err), 0, "%s", err.message);
	cr_assert_eq(paths_save_atomic(f, "two!", 4, 0600, &err), 0, "%s", err.message);
	char *text;
	size_t len;
	cr_assert_eq(paths_read_file(f, 100, &text, &len, &err), 0);
	cr_assert_str_eq(text, "two!");
	free(text);
	struct stat st;
	cr_assert_eq(stat(f, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(stat(sub, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700);
	cr_assert_eq(count_entries(sub), 1, "temp file left behind");
	/* a parent that is a file: the save fails, nothing else changes */
	char *blocker = core_path(dir, "plain");
	core_write(blocker, "x", 0600);
	cr_assert_eq(paths_save_atomic(core_path(dir, "plain/f"), "x", 1, 0600, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_IO);
	core_rm_rf(dir);
}

Test(paths, expand_home_and_join)
{
	dir = core_tmpdir();
	char *e = paths_expand_home("~/x", &err);
	char want[600];
	snprintf(want, sizeof(want), "%s/x", dir);
	cr_assert_str_eq(e, want);
	free(e);
	e = paths_expand_home("~user/x", &err);
	cr_assert_str_eq(e, "~user/x");
	free(e);
	e = paths_join("/a/", "b");
	cr_assert_str_eq(e, "/a/b");
	free(e);
	core_rm_rf(dir);
}

Test(secret, key_sources_in_order)
{
	char *f = core_path(dir, "key");
	core_write(f, "from-file\n", 0600);
	char text[900];
	snprintf(text, sizeof(text),
		 "[profile a]\napi_key = inline\napi_key_file = %s\napi_key_command = echo from-cmd\n"
		 "[profile b]\napi_key_file = %s\napi_key_command = echo from-cmd\n"
		 "[profile c]\napi_key_command = echo from-cmd\napi_key_command_timeout = 5\n"
		 "[profile d]\napi_key_command = exit 7\n", f, f);
	struct steno_config cfg;
	config_init_defaults(&cfg, NULL);
	cr_assert_eq(config_load_string(&cfg, "c", text, strlen(text), &err), 0, "%s", err.message);
	const char *want[][2] = { { "a", "inline" }, { "b", "from-file" }, { "c", "from-cmd" } };
	for (size_t i = 0; i < 3; i++) {
		struct steno_account a;
		cr_assert_eq(config_account_resolve(&cfg, want[i][0], true, &a, &err), 0, "%s",
			     err.message);
		cr_assert_str_eq(a.api_key, want[i][1]);
		config_account_free(&a);
	}
	struct steno_account a;
	cr_assert_eq(config_account_resolve(&cfg, "d", true, &a, &err), -1);
	cr_assert(strstr(err.message, "exit status 7"), "%s", err.message);
	/* the key is not needed for paths, and not read then */
	cr_assert_eq(config_account_resolve(&cfg, "d", false, &a, &err), 0);
	cr_assert_null(a.api_key);
	config_account_free(&a);
	config_free(&cfg);
}
