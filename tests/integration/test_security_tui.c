/* Security of the TUI, end to end: the real steno binary on a pty (forkpty + libvterm, via
 * tests/soak/soak_tui.c) against a sandbox. The API key never appears on any screen (lists,
 * details, activity, organizations, help, the log pane; also when the key is refused), nor
 * anywhere in the bytes written to the terminal, nor in its --trace file; server strings with
 * ESC/OSC/CSI, C1 controls and bidi overrides reach the terminal only as harmless text. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../soak/soak_tui.h"
#include "sandbox_fixture.h"

static struct sbx sb;
static struct soak_tui tui = {.fd = -1};
static char trace[600];

static void setup(void)
{
	static const char *const args[] = {"--seed-demo", "12", NULL};
	cr_assert_eq(sbx_start(&sb, args), 0);
	snprintf(trace, sizeof trace, "%s/tui-trace.log", sb.dir);
}

static void teardown(void)
{
	soak_tui_stop(&tui);
	sbx_stop(&sb);
}

static int raw_has(const char *needle)
{
	size_t n = strlen(needle);
	return tui.raw && memmem(tui.raw, tui.rawlen, needle, n) != NULL;
}

/* The screen and everything written so far are free of the key. */
static void expect_no_key(const char *key, const char *where)
{
	const char *text = soak_tui_text(&tui);
	cr_expect(!strstr(text, key), "the key is on the %s screen:\n%s", where, text);
	cr_expect(!raw_has(key), "the key was written to the terminal (%s)", where);
}

static void start(const struct sbx *account)
{
	cr_assert_eq(soak_tui_start(&tui, account, 30, 120, trace), 0);
	tui.keep_raw = 1;
}

/* Keys, then wait for text on the screen (the pane it opens). */
static void step(const char *keys, const char *wait_for, const char *key)
{
	cr_assert_eq(soak_tui_send(&tui, keys), 0);
	cr_assert_eq(soak_tui_wait(&tui, wait_for, 1, 20), 0, "'%s' after '%s':\n%s", wait_for, keys,
		     soak_tui_text(&tui));
	expect_no_key(key, keys);
}

/* q quits with status 0 and no sanitizer report (they go to files: stderr is the pty). */
static void quit_clean(void)
{
	cr_assert_eq(soak_tui_quit(&tui, 15), 0);
	cr_expect(WIFEXITED(tui.status) && WEXITSTATUS(tui.status) == 0, "status %d", tui.status);
	cr_expect_eq(soak_tui_sanitizer_reports(&tui), 0, "the TUI left sanitizer reports in %s", tui.dir);
}

static void quit_and_check_trace(const char *key)
{
	quit_clean();
	char *text = NULL;
	FILE *f = fopen(trace, "r");
	cr_assert_not_null(f, "the TUI wrote no trace");
	size_t cap = 0;
	cr_assert(getdelim(&text, &cap, '\0', f) > 0);
	fclose(f);
	cr_expect(strstr(text, "/transcriptions"), "%s", text);
	cr_expect(!strstr(text, key), "the key is in the trace");
	free(text);
}

Test(security_tui, key_never_on_any_screen, .init = setup, .fini = teardown)
{
	start(&sb);
	cr_assert_eq(soak_tui_wait(&tui, "Transcriptions", 1, 20), 0, "%s", soak_tui_text(&tui));
	cr_assert_eq(soak_tui_wait(&tui, "online", 1, 20), 0, "%s", soak_tui_text(&tui));
	expect_no_key(sb.api_key, "start");
	step("2", "Transcriptions", sb.api_key);
	step("j", "Transcriptions", sb.api_key);
	step("3", "Transcriptions", sb.api_key);
	step("4", "Transcriptions", sb.api_key);
	step("1", "Transcriptions", sb.api_key);
	step("L", "Log (this run's requests)", sb.api_key);
	step("?", "Show this help", sb.api_key);
	step("\033", "Transcriptions", sb.api_key);
	step("2G", "Transcriptions", sb.api_key);
	step("R", "Log (this run's requests)", sb.api_key);
	quit_and_check_trace(sb.api_key);
}

Test(security_tui, refused_key_not_on_screen, .init = setup, .fini = teardown)
{
	struct sbx wrong = sb;
	const char *bad = "sk-refused-SECRET-0815";

	snprintf(wrong.api_key, sizeof wrong.api_key, "%s", bad);
	start(&wrong);
	cr_assert_eq(soak_tui_wait(&tui, "401", 1, 20), 0, "the refusal is shown:\n%s", soak_tui_text(&tui));
	expect_no_key(bad, "refused");
	step("L", "Log (this run's requests)", bad);
	cr_assert_eq(soak_tui_wait(&tui, "401", 1, 20), 0, "%s", soak_tui_text(&tui));
	expect_no_key(bad, "log");
	step("2", "Transcriptions", bad);
	quit_and_check_trace(bad);
}

/* Names and tags the server stores and sends back verbatim. */
static const char *const payloads[] = {
	"evil1\\u001b]0;PWNED\\u0007",          /* OSC: set the window title */
	"evil2\\u001b]52;c;cm0gLXJmIH4=\\u0007", /* OSC 52: write the clipboard */
	"evil3\\u001b[6n",                        /* CSI: ask for a report (answers into input) */
	"evil4\\u009b31m\\u009d0;C1\\u0007",      /* C1 CSI and OSC */
	"evil5\\u202egnp.exe",                    /* bidi override */
	"evil6\\u001bP1$qm\\u001b\\\\",           /* DCS */
};

static void create_named(int i)
{
	char body[1600];
	long st = 0;
	size_t len = 0;
	char url[1024];
	void *wav = sbx_make_wav(2.0, &len);

	cr_assert_eq(sbx_upload(&sb, "a.wav", wav, len, url, sizeof url), 0);
	free(wav);
	snprintf(body, sizeof body,
		 "{\"transcription\":{\"name\":\"%s\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\",\"tags\":[\"t\\u001b[1m%d\"]}}",
		 payloads[i], url, sb.org_id, i);
	json_object *o = sbx_call(&sb, "POST", "transcriptions", body, &st);
	cr_assert_eq(st, 201, "%s", o ? json_object_to_json_string(o) : "no body");
	json_object_put(o);
}

Test(security_tui, no_escape_injection_on_screens, .init = setup, .fini = teardown)
{
	size_t n = sizeof payloads / sizeof payloads[0];

	for (size_t i = 0; i < n; i++)
		create_named((int)i);
	start(&sb);
	cr_assert_eq(soak_tui_wait(&tui, "evil1", 1, 20), 0, "%s", soak_tui_text(&tui));
	/* Walk over the items so that the details pane shows each name and its tags. */
	for (size_t i = 0; i < n + 2; i++) {
		cr_assert_eq(soak_tui_send(&tui, "j"), 0);
		soak_tui_pump(&tui, 150);
	}
	step("3", "evil", "\033]0;PWNED");
	step("L", "Log (this run's requests)", "\033]0;PWNED");
	step("2g", "evil", "\033]0;PWNED");
	quit_clean();
	static const char *const forbidden[] = {
		"\033]0;PWNED", "PWNED\a", "\033]52;c;cm0g", "\033[6n", "\xc2\x9b", "\xc2\x9d",
		"\xe2\x80\xae", "\033P1$q", "\a",
	};
	for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++)
		cr_expect(!raw_has(forbidden[i]), "the terminal got a raw control sequence #%zu", i);
}
