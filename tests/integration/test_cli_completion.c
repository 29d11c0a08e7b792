/* The zsh and fish completion scripts of `steno completion`, run by their shells: each
 * parses its script, and completing `steno <TAB>` offers the commands, `steno order <TAB>`
 * its subcommands, `steno --theme <TAB>` the themes (zsh: its own completion system, compinit,
 * driven on a pseudo-terminal by zpty; fish: `complete -C`). A shell that is not installed
 * skips its tests (the bash script is checked by check_completion.sh). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_cli_util.h"

static struct cli_home home;

static void setup(void)
{
	cr_assert_eq(cli_home_init(&home), 0);
}

static void teardown(void)
{
	cli_home_free(&home);
}

TestSuite(cli_completion, .init = setup, .fini = teardown, .timeout = 120);

static const char *const commands[] = {
	"ls", "show", "upload", "transcribe", "rm", "export", "download", "translate", "order",
	"watch", "orgs", "glossaries", "style-guides", "config", "languages", "cache", "index",
	"search", "folders", "help", "completion", "keys", NULL,
};
static const char *const order_subs[] = {"create", "translation", "show", "confirm", "watch", NULL};
static const char *const themes[] = {"default", "light", "solarized-dark", "gruvbox",
				     "high-contrast", "mono", NULL};

/* The shell's path from PATH, or the test is skipped. */
static void need_shell(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");
	char dirs[4096];
	snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, n, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return;
	}
	cr_skip_test("%s is not installed: its completion script is not run", name);
}

/* `steno completion SHELL` written to home/NAME; its path in out. */
static void write_script(const char *shell, const char *name, char *out, size_t n)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, NULL, NULL, (const char *const[]){"completion", shell,
		     NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	snprintf(out, n, "%s/%s", home.dir, name);
	FILE *f = fopen(out, "w");
	cr_assert(f);
	fputs(r.out, f);
	cr_assert_eq(fclose(f), 0);
	cli_result_free(&r);
}

/* True when word stands alone in text (between blanks or at its ends). */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		bool start = p == text || strchr(" \t\r\n", p[-1]);
		bool end = !p[n] || strchr(" \t\r\n", p[n]);
		if (start && end)
			return true;
	}
	return false;
}

static void expect_words(const char *text, const char *const *words, const char *what)
{
	for (size_t i = 0; words[i]; i++)
		cr_expect(has_word(text, words[i]), "%s: %s not offered in:\n%s", what, words[i], text);
}

/* The part of out between the lines "== name" and the next "== ". */
static char *section(const char *out, const char *name)
{
	char head[64];
	snprintf(head, sizeof head, "== %s\n", name);
	const char *s = strstr(out, head);
	cr_assert(s, "no section %s in:\n%s", name, out);
	s += strlen(head);
	const char *e = strstr(s, "\n== ");
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

Test(cli_completion, zsh_parses_its_script)
{
	char zsh[600], script[700];
	need_shell("zsh", zsh, sizeof zsh);
	write_script("zsh", "_steno", script, sizeof script);
	struct cli_result r;
	cr_assert_eq(cli_exec_prog(&r, &home, NULL, NULL, zsh, (const char *const[]){"-f", "-n",
		     script, NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
}

/* An interactive zsh -f on a pseudo-terminal (zpty) loads the script from fpath through
 * compinit; TAB after each line lists what it offers. Each read waits for the marker the
 * shell prints after the listing (typed as ${:-MAR}K so that the echo of the line is not
 * it), then for the prompt (<%h>: its history number) so that no key is typed before the line
 * editor reads it. */
static const char zsh_driver[] =
	"zmodload zsh/zpty || exit 3\n"
	"zpty z 'TERM=dumb zsh -f -i'\n"
	"zpty -w z \"PS1='<%h> '; unset zle_bracketed_paste; fpath=($1 \\$fpath); "
	"autoload -Uz compinit; compinit -u -D; LISTMAX=100000; unsetopt beep; print RE''ADY\"\n"
	"zpty -r z out '*READY*<[0-9]*> *' || exit 4\n"
	"n=0\n"
	"for line in 'steno ' 'steno order ' 'steno --theme '; do\n"
	"  n=$((n + 1))\n"
	"  zpty -w -n z \"$line\"$'\\t'\n"
	"  zpty -w z $'\\x15print ${:-MAR}K'$n\n"
	"  zpty -r z out \"*MARK$n*<[0-9]*> *\" || exit 5\n"
	"  print -r -- \"== $line\"\n"
	"  print -r -- \"${out//$'\\r'/}\"\n"
	"done\n"
	"zpty -d z\n";

Test(cli_completion, zsh_completes_commands_subcommands_and_themes)
{
	char zsh[600], fn[600], script[700], driver[700];
	need_shell("zsh", zsh, sizeof zsh);
	snprintf(fn, sizeof fn, "%s/fn", home.dir);
	cr_assert_eq(mkdir(fn, 0700), 0);
	write_script("zsh", "fn/_steno", script, sizeof script);
	snprintf(driver, sizeof driver, "%s/driver.zsh", home.dir);
	FILE *f = fopen(driver, "w");
	cr_assert(f);
	fputs(zsh_driver, f);
	cr_assert_eq(fclose(f), 0);
	struct cli_result r;
	cr_assert_eq(cli_exec_prog(&r, &home, NULL, NULL, "/usr/bin/timeout",
		     (const char *const[]){"60", zsh, "-f", driver, fn, NULL}), 0);
	cr_assert_eq(r.code, 0, "%s\n%s", r.out, r.err);
	char *s = section(r.out, "steno ");
	expect_words(s, commands, "steno <TAB>");
	free(s);
	s = section(r.out, "steno order ");
	expect_words(s, order_subs, "steno order <TAB>");
	cr_expect(!has_word(s, "transcribe"), "order offers only its own:\n%s", s);
	free(s);
	s = section(r.out, "steno --theme ");
	expect_words(s, themes, "steno --theme <TAB>");
	free(s);
	cli_result_free(&r);
}

Test(cli_completion, fish_parses_its_script)
{
	char fish[600], script[700];
	need_shell("fish", fish, sizeof fish);
	write_script("fish", "steno.fish", script, sizeof script);
	struct cli_result r;
	cr_assert_eq(cli_exec_prog(&r, &home, NULL, NULL, fish, (const char *const[]){
		     "--no-config", "--no-execute", script, NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect_str_eq(r.err, "");
	cli_result_free(&r);
}

/* fish's own completion of a line (complete -C) with the script sourced: one candidate a
 * line, "WORD\tDESCRIPTION". */
static char *fish_complete(const char *fish, const char *script, const char *line)
{
	char cmd[1600];
	snprintf(cmd, sizeof cmd, "source '%s'; and complete -C '%s'", script, line);
	struct cli_result r;
	cr_assert_eq(cli_exec_prog(&r, &home, NULL, NULL, fish, (const char *const[]){
		     "--no-config", "-c", cmd, NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_expect_str_eq(r.err, "");
	char *out = r.out;
	r.out = NULL;
	cli_result_free(&r);
	return out;
}

Test(cli_completion, fish_completes_commands_subcommands_and_themes)
{
	char fish[600], script[700];
	need_shell("fish", fish, sizeof fish);
	write_script("fish", "steno.fish", script, sizeof script);
	char *s = fish_complete(fish, script, "steno ");
	expect_words(s, commands, "steno <TAB>");
	cr_expect(strstr(s, "glossaries\tlist the organization's glossaries\n"), "%s", s);
	free(s);
	s = fish_complete(fish, script, "steno order ");
	expect_words(s, order_subs, "steno order <TAB>");
	cr_expect(!has_word(s, "transcribe"), "order offers only its own:\n%s", s);
	free(s);
	s = fish_complete(fish, script, "steno --theme ");
	expect_words(s, themes, "steno --theme <TAB>");
	free(s);
}
