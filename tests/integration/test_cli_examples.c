/* The EXAMPLES of docs/steno.1 run, as written, against a sandbox (issue 15): each line goes to
 * /bin/sh with `steno` the binary under test and the placeholders filled in: talk.mp3 a short
 * WAV, 1a2b... the transcription the example before made, https://example.com/a.mp3 a URL the
 * sandbox can fetch (loopback), 3f0e... the order the example before made. Every example must
 * exit 0. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

/* The lines between .nf and .fi of .SH EXAMPLES, with roff's \- as -. */
static size_t read_examples(char lines[][512], size_t max)
{
	char path[600];
	snprintf(path, sizeof path, "%s/docs/steno.1", getenv("STENO_SRCDIR") ? getenv("STENO_SRCDIR") : ".");
	char *man = cli_read_file(path);
	cr_assert(man, "%s", path);
	char *p = strstr(man, "\n.SH EXAMPLES\n");
	cr_assert(p && (p = strstr(p, "\n.nf\n")), "no EXAMPLES block");
	p += 5;
	size_t n = 0;
	while (*p && strncmp(p, ".fi", 3) != 0 && n < max) {
		size_t len = strcspn(p, "\n"), o = 0;
		for (size_t i = 0; i < len && o + 1 < 512; i++) {
			if (p[i] == '\\' && p[i + 1] == '-')
				i++;
			lines[n][o++] = p[i];
		}
		lines[n++][o] = '\0';
		p += len + (p[len] == '\n');
	}
	free(man);
	return n;
}

/* Replaces every `from` in s (size n) by `to`. */
static void replace_all(char *s, size_t n, const char *from, const char *to)
{
	char out[2048] = "";
	for (const char *p = s, *q; *p; p = q + strlen(from)) {
		if (!(q = strstr(p, from))) {
			strncat(out, p, sizeof out - strlen(out) - 1);
			break;
		}
		strncat(out, p, (size_t)(q - p) < sizeof out - strlen(out) - 1 ? (size_t)(q - p)
										  : sizeof out - strlen(out) - 1);
		strncat(out, to, sizeof out - strlen(out) - 1);
	}
	snprintf(s, n, "%s", out);
}

static struct cli_result sh(const char *line)
{
	struct cli_result r;
	char cmd[2048], bin[700];
	snprintf(bin, sizeof bin, "STENO=%s", getenv("STENO_BIN"));
	snprintf(cmd, sizeof cmd, "%s", line);
	if (strncmp(cmd, "steno ", 6) == 0)
		replace_all(cmd, sizeof cmd, "steno ", "\"$STENO\" ");
	const char *const env[] = {bin, NULL};
	cr_assert_eq(cli_exec_prog(&r, &home, &sb, env, "/bin/sh", (const char *const[]){"-c", cmd, NULL}), 0);
	return r;
}

/* The value after "id" in a resource printed for people. */
static void id_of(const char *out, char *id, size_t n)
{
	const char *p = strstr(out, "id ");
	cr_assert(p == out || (p && p[-1] == '\n'), "no id line in %s", out);
	p += strspn(p + 2, " ") + 2;
	snprintf(id, n, "%.*s", (int)strcspn(p, " \n"), p);
}

Test(cli_examples, the_man_page_examples_run, .timeout = 240)
{
	static const char *const fast[] = {"--clock-speed", "20000", NULL};
	char lines[32][512], tid[128] = "", oid[128] = "", url[1024] = "", wav[700];
	cr_assert_eq(sbx_start(&sb, fast), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(cli_home_config(&home, "refresh_interval = 1\nrefresh_max = 1\n"), 0);
	cli_home_wav(&home, "talk.mp3", 3.0, wav, sizeof wav);
	cr_assert(wav[0], "talk.mp3 written");

	size_t n = read_examples(lines, 32);
	cr_assert_geq(n, 5, "the man page has examples");
	for (size_t i = 0; i < n; i++) {
		char line[2048];
		snprintf(line, sizeof line, "%s", lines[i]);
		if (strstr(line, "https://example.com/a.mp3")) {
			struct cli_result u = sh("steno upload talk.mp3");
			cr_assert_eq(u.code, 0, "%s", u.err);
			snprintf(url, sizeof url, "'%.*s'", (int)strcspn(u.out, "\n"), u.out); /* has & */
			cli_result_free(&u);
			replace_all(line, sizeof line, "https://example.com/a.mp3", url);
		}
		replace_all(line, sizeof line, "1a2b...", tid);
		replace_all(line, sizeof line, "3f0e...", oid);
		struct cli_result r = sh(line);
		cr_expect_eq(r.code, 0, "example %zu `%s` (run as `%s`) exited %d:\n%s%s", i + 1,
			     lines[i], line, r.code, r.out, r.err);
		if (strstr(line, " transcribe ")) {
			struct cli_result l = sh("steno ls --json | jq -r '.[0].id'");
			snprintf(tid, sizeof tid, "%.*s", (int)strcspn(l.out, "\n"), l.out);
			cli_result_free(&l);
		}
		if (strstr(line, " order create "))
			id_of(r.out, oid, sizeof oid);
		cli_result_free(&r);
	}
	cr_expect(tid[0] && oid[0], "the placeholders were filled: %s %s", tid, oid);
	sbx_stop(&sb);
	cli_home_free(&home);
}
