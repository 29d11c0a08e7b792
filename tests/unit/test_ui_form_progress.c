/* The dialogs' shared text pieces as strings: the transfer line (bar, bytes, speed, ETA),
 * order price lines, list splitting, and the environment copy. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"
#include "ui/dialog_common.h"
#include "ui/form.h"
#include "ui/order_price.h"

static void utf8_locale(void)
{
	setlocale(LC_ALL, "C.UTF-8");
}

TestSuite(dialog_text, .init = utf8_locale);

Test(dialog_text, upload_line_has_bar_bytes_speed_eta)
{
	struct steno_job j = { .step = JOB_STEP_UPLOADING, .bytes_done = 1048576,
			       .bytes_total = 4194304, .step_ms = 10000 };
	char buf[512];
	dialog_progress_text(&j, 12000, 8, true, buf, sizeof buf);
	cr_assert_str_eq(buf, "uploading ##...... 25%  1.0 MiB of 4.0 MiB  512.0 KiB/s  ETA 6s");
	/* no speed before any time passed, unknown total */
	j.bytes_total = 0;
	dialog_progress_text(&j, 10000, 4, true, buf, sizeof buf);
	cr_assert(strstr(buf, "of ?") && !strstr(buf, "ETA"), "%s", buf);
	/* other steps: the step and the resource's state */
	char processing[] = "processing";
	struct steno_job w = { .step = JOB_STEP_WAITING, .state = processing };
	dialog_progress_text(&w, 0, 8, true, buf, sizeof buf);
	cr_assert_str_eq(buf, "waiting: processing");
}

/* The price as the confirm dialog and the order view show it (ui/order_price.c). */
Test(dialog_text, pricing_lines)
{
	char talk[] = "talk.wav", minute[] = "minute", tr[] = "transcription", pro[] = "pro";
	char rush_name[] = "rush", eur[] = "EUR", euro[] = "€", en[] = "en-US", fr[] = "fr";
	struct steno_order_item items[] = { {
		.filename = talk, .pricing_unit_name = minute,
		.pricing_unit_count = { STENO_PRESENT, 2.0 }, .has_service = true,
		.service = { .name = tr, .type = pro, .language = en, .target_language = fr },
		.turnaround_minutes = { STENO_PRESENT, 360 }, .cents = { STENO_PRESENT, 300 },
	}, {
		.filename = talk, .pricing_unit_name = minute,
		.pricing_unit_count = { STENO_PRESENT, 2.0 }, .has_service = true,
		.service = { .name = tr, .type = pro, .language = en, .target_language = fr },
		.addon_name = rush_name, .cents = { STENO_PRESENT, 150 },
	} };
	struct steno_addon_total rush = { rush_name, { STENO_PRESENT, 150 } };
	struct steno_order o = { .details = { .present = true, .items = items, .n_items = 2,
		.total_cents = { STENO_PRESENT, 450 }, .currency = eur, .currency_symbol = euro,
		.addons_total = &rush, .n_addons_total = 1, .minimum_charge = { STENO_PRESENT, 100 } },
		.can_be_submitted = { STENO_PRESENT, true } };
	char lines[8][ORDER_PRICE_WIDTH];
	size_t n = order_price_lines(&o, lines, 8);
	cr_assert_eq(n, 7);
	cr_assert(strstr(lines[0], "talk.wav") && strstr(lines[0], "€3.00") && strstr(lines[0], "2 minutes") &&
		  strstr(lines[0], "transcription pro en-US -> fr"), "%s", lines[0]);
	cr_assert(strstr(lines[1], "addon rush, transcription") && strstr(lines[1], "€1.50"), "%s",
		  lines[1]);
	cr_assert_str_eq(lines[2], "addon rush in all: €1.50");
	cr_assert_str_eq(lines[3], "minimum charge €1.00 per order");
	cr_assert_str_eq(lines[4], "total €4.50 EUR (the items' sum)");
	cr_assert_str_eq(lines[5], "can be submitted: yes");
	cr_assert_str_eq(lines[6], "turnaround about 6h 00m");
	/* below the minimum: the total says why it is more than the items */
	items[0].cents.v = 20;
	items[1].cents.v = 10;
	o.details.total_cents.v = 100;
	o.can_be_submitted.v = false;
	n = order_price_lines(&o, lines, 8);
	cr_assert_str_eq(lines[4], "total €1.00 EUR: the minimum charge, as the items only sum to €0.30");
	cr_assert_str_eq(lines[5], "can be submitted: no");
	/* any other difference is said as such */
	o.details.total_cents.v = 500;
	order_price_lines(&o, lines, 8);
	cr_assert_str_eq(lines[4], "total €5.00 EUR: the items sum to €0.30; the server priced the difference");
	struct steno_order none = { 0 };
	cr_assert_eq(order_price_lines(&none, lines, 8), 1);
	cr_assert_str_eq(lines[0], "no pricing details yet");
}

Test(dialog_text, split_list_trims)
{
	char buf[] = " a, b ,,c d ,";
	const char *v[8];
	cr_assert_eq(dialog_split_list(buf, v, 8), 3);
	cr_assert_str_eq(v[0], "a");
	cr_assert_str_eq(v[1], "b");
	cr_assert_str_eq(v[2], "c d");
}

Test(dialog_text, env_copy_is_deep)
{
	struct dialog_env a = { 0 }, b;
	const char *ids[2] = { "x1", "y2" };
	cr_assert_eq(dialog_env_set_ids(&a, ids, 2), 0);
	cr_assert_eq(dialog_env_copy(&b, &a), 0);
	cr_assert_neq(a.ids, b.ids);
	cr_assert_str_eq(b.ids[1], "y2");
	dialog_env_free(&a);
	cr_assert_str_eq(b.ids[0], "x1");
	dialog_env_free(&b);
	cr_assert_eq(b.n_ids, 0);
}

Test(dialog_text, languages_show_pro)
{
	struct form f;
	form_init(&f);
	form_add(&f, FORM_PICK, "language", "Language");
	cr_assert_eq(dialog_add_languages(&f, "language", "fr-FR", NULL), 0);
	cr_assert_geq(form_field(&f, "language")->n_opts, 130);
	char line[128];
	form_value_line(form_field(&f, "language"), line, sizeof line, false);
	cr_assert_str_eq(line, "fr-FR  French (France)  (pro)");
	form_choose(&f, "language", "ja-JP");
	form_value_line(form_field(&f, "language"), line, sizeof line, false);
	cr_assert_str_eq(line, "ja-JP  Japanese (Japan)  (auto only)");
	const struct form_field *fl = form_field(&f, "language");
	cr_assert_str_eq(fl->opts[fl->choice].label, "ja-JP        Japanese (Japan) · 日本語 (日本)");
	form_free(&f);
}

Test(dialog_text, recent_languages_first_and_chosen)
{
	struct form f;
	struct recent_list recent = {0};
	recent_push(&recent, "de-DE");
	recent_push(&recent, "xx-NOPE");   /* not a spec code: skipped */
	recent_push(&recent, "ja-JP");
	form_init(&f);
	form_add(&f, FORM_PICK, "language", "Language");
	cr_assert_eq(dialog_add_languages(&f, "language", "fr-FR", &recent), 0);
	const struct form_field *fl = form_field(&f, "language");
	cr_assert_eq(fl->n_opts, spec_language_count(), "each code once");
	cr_assert_str_eq(fl->opts[0].value, "ja-JP");
	cr_assert_str_eq(fl->opts[0].note, "recent · auto only");
	cr_assert_str_eq(fl->opts[1].value, "de-DE");
	cr_assert_str_eq(fl->opts[1].note, "recent · pro");
	cr_assert_str_eq(form_choice(&f, "language"), "ja-JP", "the most recent is the default");
	form_free(&f);

	form_init(&f);
	form_add(&f, FORM_MULTI, "targets", "Into");
	recent_push(&recent, "ja");
	recent_push(&recent, "fr");
	cr_assert_eq(dialog_add_target_languages(&f, "targets", &recent), 0);
	fl = form_field(&f, "targets");
	cr_assert_eq(fl->n_opts, spec_target_language_count());
	cr_assert_str_eq(fl->opts[0].value, "fr");
	cr_assert_str_eq(fl->opts[0].note, "recent");
	cr_assert_str_eq(fl->opts[1].value, "ja");
	form_select(&f, "targets", "fr", true);
	form_select(&f, "targets", "ja", true);
	char line[128];
	form_value_line(fl, line, sizeof line, false);
	cr_assert_str_eq(line, "fr, ja", "codes only in the value line: %s", line);
	form_free(&f);
}
