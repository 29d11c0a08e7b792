#include "config.h"

/* Fuzzes the ui room's config parsers with one text: theme_parse (color/mono/set lines,
 * colour and attribute names) and keymap_apply_text (bind/unbind lines), then keys_parse
 * on every word. Invariants: colours stay in range, a parsed key name prints to a name
 * that parses back to the same key, and every diag is a terminated string. */

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/theme.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setlocale(LC_ALL, "C.UTF-8");
	return 0;
}

static void check_diag(const struct ui_diag *d)
{
	if (d->count < 0 || d->count > UI_DIAG_MAX)
		abort();
	for (int i = 0; i < d->count; i++)
		if (!memchr(d->msg[i], '\0', UI_DIAG_LEN))
			abort();
}

static void check_theme(const struct theme *t)
{
	for (int e = 0; e < THEME_COUNT; e++) {
		const struct theme_style *s = &t->el[e];
		if (s->fg < THEME_COLOR_DEFAULT || s->fg > 255 || s->bg < THEME_COLOR_DEFAULT || s->bg > 255)
			abort();
		if (s->fg >= 0 && (theme_color_reduce(s->fg, 8) < 0 || theme_color_reduce(s->fg, 8) > 7))
			abort();
	}
}

static void check_key_word(const char *w)
{
	ui_key k = keys_parse(w);
	if (k == KEYS_NONE)
		return;
	char name[64];
	keys_name(k, name, sizeof name);
	if (keys_parse(name) != k)
		abort();
	(void)theme_parse_color(w);
	(void)theme_parse_attr(w);
}

static void check_words(char *text)
{
	char *save = NULL;
	for (char *w = strtok_r(text, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save))
		check_key_word(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	static struct theme t;
	struct ui_diag d;
	theme_init(&t);
	ui_diag_clear(&d);
	(void)theme_parse(&t, text, "fuzz.theme", &d);
	check_theme(&t);
	check_diag(&d);

	struct keymap km;
	if (keymap_init(&km) == 0) {
		ui_diag_clear(&d);
		(void)keymap_apply_text(&km, text, "fuzz.conf", &d);
		(void)keymap_conflicts(&km, &d);
		check_diag(&d);
		for (size_t i = 0; i < km.count; i++)
			(void)keymap_lookup(&km, km.entries[i].key, SCOPE_GLOBAL | SCOPE_TRANSCRIPTIONS);
		keymap_free(&km);
	}
	check_words(text);
	free(text);
	return 0;
}
