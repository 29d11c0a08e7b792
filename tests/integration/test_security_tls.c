/* Security: TLS verification cannot be turned off silently (issue 7). An https base URL to a
 * loopback server with a self-signed certificate (made at test time with `openssl req`,
 * served by `openssl s_server`) fails with a clear TLS error: by default, with every option,
 * environment variable and configuration key that could plausibly disable it. The source of
 * the client never sets CURLOPT_SSL_VERIFYPEER/VERIFYHOST to anything but on. Without an
 * openssl binary the server tests are skipped (and say so); the source check always runs. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_cli_util.h"

static struct cli_home home;
static pid_t server = -1;
static char base[128];

static int have_openssl(void)
{
	return system("openssl version >/dev/null 2>&1") == 0;
}

/* Makes a self-signed certificate for 127.0.0.1 and serves it; base gets the https URL. */
static void setup(void)
{
	char cmd[2048], cert[700], key[700];
	int fds[2];

	cr_assert_eq(cli_home_init(&home), 0);
	if (!have_openssl())
		return;
	cli_home_path(&home, "cert.pem", cert, sizeof cert);
	cli_home_path(&home, "key.pem", key, sizeof key);
	snprintf(cmd, sizeof cmd,
		 "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout '%s' "
		 "-out '%s' -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1",
		 key, cert);
	cr_assert_eq(system(cmd), 0, "openssl req failed");
	cr_assert_eq(pipe(fds), 0);
	server = fork();
	cr_assert_geq(server, 0);
	if (server == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2); /* its "unknown ca" alerts are the expected outcome */
		close(fds[0]);
		execlp("openssl", "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", cert, "-key", key,
		       "-www", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	/* "ACCEPT 127.0.0.1:PORT" once it listens; at most 10 s. */
	char buf[1024] = "";
	size_t len = 0;
	int port = 0;
	struct pollfd p = {.fd = fds[0], .events = POLLIN};
	for (int waited = 0; !port && waited < 100 && len + 1 < sizeof buf; waited++) {
		if (poll(&p, 1, 100) <= 0)
			continue;
		ssize_t k = read(fds[0], buf + len, sizeof buf - 1 - len);
		if (k <= 0)
			break;
		len += (size_t)k;
		buf[len] = '\0';
		const char *a = strstr(buf, "ACCEPT 127.0.0.1:");
		if (a)
			port = atoi(a + strlen("ACCEPT 127.0.0.1:"));
	}
	close(fds[0]);
	cr_assert_gt(port, 0, "openssl s_server did not start");
	snprintf(base, sizeof base, "STENO_BASE_URL=https://127.0.0.1:%d/api/v1", port);
}

static void teardown(void)
{
	if (server > 0) {
		kill(server, SIGTERM);
		waitpid(server, NULL, 0);
	}
	server = -1;
	cli_home_free(&home);
}

/* steno ls against the self-signed server: must fail, naming the certificate problem. */
static void expect_tls_refusal(const char *const *extra_env, const char *const *args, const char *what)
{
	const char *env[16] = {base, "STENO_API_KEY=sk-tls-test", "STENO_ORG_ID=1"};
	size_t n = 3;
	struct cli_result r;

	for (size_t i = 0; extra_env && extra_env[i] && n < 15; i++)
		env[n++] = extra_env[i];
	env[n] = NULL;
	cr_assert_eq(cli_exec(&r, &home, NULL, env, args), 0);
	cr_expect_neq(r.code, 0, "%s: steno accepted a self-signed certificate:\n%s", what, r.out);
	if (r.code == 1)
		cr_expect(strstr(r.err, "certificate") || strstr(r.err, "SSL") || strstr(r.err, "TLS"),
			  "%s: no clear TLS error: %s", what, r.err);
	cr_expect_eq(strstr(r.out, "Transcriptions") || strstr(r.out, "s_server"), 0, "%s", what);
	cli_result_free(&r);
}

Test(security_tls, self_signed_server_is_refused, .init = setup, .fini = teardown)
{
	if (server <= 0)
		cr_skip_test("no openssl binary: the source check below still guards VERIFYPEER");
	expect_tls_refusal(NULL, (const char *const[]){"ls", NULL}, "default");
	expect_tls_refusal(NULL, (const char *const[]){"ls", "--json", NULL}, "--json");
	expect_tls_refusal(NULL, (const char *const[]){"show", "abc", NULL}, "show");
}

Test(security_tls, no_option_or_env_disables_verification, .init = setup, .fini = teardown)
{
	static const char *const envs[] = {
		"STENO_INSECURE=1", "STENO_TLS_VERIFY=0", "STENO_SSL_VERIFY=0", "STENO_NO_VERIFY=1",
		"CURL_INSECURE=1", "CURLOPT_SSL_VERIFYPEER=0", "SSL_NO_VERIFY=1", "GIT_SSL_NO_VERIFY=1",
		"PYTHONHTTPSVERIFY=0", "NODE_TLS_REJECT_UNAUTHORIZED=0", "CURL_CA_BUNDLE=", "SSL_CERT_FILE=",
		NULL,
	};
	static const char *const opts[] = {"--insecure", "-k", "--no-verify", "--tls-no-verify", NULL};

	if (server <= 0)
		cr_skip_test("no openssl binary");
	expect_tls_refusal(envs, (const char *const[]){"ls", NULL}, "environment");
	for (size_t i = 0; opts[i]; i++) {
		struct cli_result r;
		const char *const env[] = {base, "STENO_API_KEY=k", "STENO_ORG_ID=1", NULL};
		cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){opts[i], "ls", NULL}), 0);
		cr_expect_eq(r.code, 2, "%s is not an option: %s", opts[i], r.err);
		cli_result_free(&r);
		cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){"ls", opts[i], NULL}), 0);
		cr_expect_eq(r.code, 2, "ls %s is not an option: %s", opts[i], r.err);
		cli_result_free(&r);
	}
}

Test(security_tls, no_config_key_disables_verification, .init = setup, .fini = teardown)
{
	static const char *const keys[] = {
		"insecure = true", "tls_verify = false", "verify_tls = no", "ssl_verify = 0",
		"verify = false", "ssl_verify_peer = 0", "ca_file = /dev/null",
	};

	if (server <= 0)
		cr_skip_test("no openssl binary");
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		cr_assert_eq(cli_home_config(&home, keys[i]), 0);
		expect_tls_refusal(NULL, (const char *const[]){"ls", NULL}, keys[i]);
	}
}

/* Every CURLOPT_SSL_VERIFY* in the client sets verification on (PEER 1, HOST 2). */
static void scan_dir(const char *dir, int *seen)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "%s", dir);
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		char path[1024];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			scan_dir(path, seen);
			continue;
		}
		if (n < 3 || strcmp(e->d_name + n - 2, ".c") != 0)
			continue;
		char *text = cli_read_file(path);
		const char *opt = "CURLOPT_SSL_VERIFY";
		for (char *p = text ? strstr(text, opt) : NULL; p; p = strstr(p + 1, opt)) {
			char *eol = strchr(p, '\n');
			char line[256];
			snprintf(line, sizeof line, "%.*s", (int)(eol ? eol - p : 200), p);
			(*seen)++;
			cr_expect(strstr(line, "VERIFYPEER, 1L") || strstr(line, "VERIFYHOST, 2L"),
				  "%s: TLS verification weakened: %s", path, line);
		}
		cr_expect(!text || !strstr(text, "CURLOPT_PROXY_SSL_VERIFY"), "%s", path);
		free(text);
	}
	closedir(d);
}

Test(security_tls, source_never_weakens_verification)
{
	const char *src = getenv("STENO_SRCDIR");
	char dir[1024];
	int seen = 0;

	cr_assert_not_null(src);
	snprintf(dir, sizeof dir, "%s/tui", src);
	scan_dir(dir, &seen);
	cr_expect_geq(seen, 2, "the engine sets VERIFYPEER and VERIFYHOST explicitly");
}
