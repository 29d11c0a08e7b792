/* Screen tests of the describe view: Enter on a transcription and on an activity row, `:order`
 * and an id (in a second prompt or on one line), values whole, `y` copies the value under the cursor, `J` shows the JSON, Esc
 * goes back, Enter on an order's transcription id opens it. */
#include "config.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"
#include "ui/app_internal.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };

static void teardown(void)
{
	pf_close(&f);
}

TestSuite(describe, .fini = teardown, .timeout = 60);

/* The screen without any white space: a value wrapped over rows reads whole again. */
static char *squeezed(void)
{
	char *t = scr_text(), *o = t;

	for (char *c = t; *c; c++)
		if (!isspace((unsigned char)*c))
			*o++ = *c;
	*o = '\0';
	return t;
}

static void base64(const char *in, char *out)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(in), o = 0;

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)in[i] << 16;
		if (i + 1 < n)
			v |= (unsigned char)in[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)in[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
}

/* Moves the cursor down until the selected row (reverse video) holds needle. */
static void cursor_to(const char *needle)
{
	for (int tries = 0; tries < 120; tries++) {
		char *t = scr_text(), *a = scr_attrs();
		char *tl = t, *al = a;
		bool hit = false;
		while (tl && al && *tl) {
			char *tn = strchr(tl, '\n'), *an = strchr(al, '\n');
			if (tn)
				*tn = '\0';
			if (strstr(tl, needle) && strchr(al, '8') && strchr(al, '8') < (an ? an : al + strlen(al)))
				hit = true;
			tl = tn ? tn + 1 : NULL;
			al = an ? an + 1 : NULL;
		}
		free(t);
		free(a);
		if (hit)
			return;
		pf_keys(&f, "j");
	}
	cr_assert_fail("the cursor never reached '%s'", needle);
}

Test(describe, enter_on_a_transcription_shows_every_field_whole)
{
	struct pf_opts o = { .rows = 40, .cols = 100, .sandbox_args = demo30, .theme = "mono",
		.capture_out = 1 };
	char path[128], b64[400];
	long status = 0;

	pf_open(&f, &o);
	const char *id = app_selected_id(f.app);
	cr_assert_not_null(id);
	char tid[64];
	snprintf(tid, sizeof tid, "%s", id);
	snprintf(path, sizeof path, "transcriptions/%s", tid);
	json_object *tr = sbx_call(&f.sbx, "GET", path, NULL, &status);
	cr_assert_eq(status, 200);
	char editor[300];
	snprintf(editor, sizeof editor, "%s", sbx_str(tr, "_links.self.editorUrl"));
	json_object_put(tr);

	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "_links.self.editorUrl");
	char title[100];
	snprintf(title, sizeof title, "transcription %s", tid);
	pf_expect(&f, title);
	char *s = squeezed();
	cr_assert(strstr(s, editor), "the editor URL whole (%s):\n%s", editor, s);
	free(s);

	/* y copies the value under the cursor: the id field's */
	cursor_to("id ");
	pf_keys(&f, "y");
	pf_expect(&f, "copied id");
	base64(tid, b64);
	char *out = pf_out_text(&f);
	cr_assert(strstr(out, b64), "OSC 52 with the id expected");
	free(out);

	/* J: the answer as JSON text; J again: the fields */
	pf_keys(&f, "J");
	char line[120];
	snprintf(line, sizeof line, "\"id\":\"%s\"", tid);
	pf_expect(&f, line);
	/* y there copies the whole answer, on one line (its newlines were refused as control
	 * characters) */
	out = pf_out_text(&f);
	size_t before = strlen(out);
	free(out);
	pf_keys(&f, "y");
	pf_expect(&f, "copied the JSON");
	out = pf_out_text(&f);
	cr_assert(strstr(out + before, "\033]52;c;"), "no OSC 52 for the JSON");
	free(out);
	pf_keys(&f, "J");
	pf_expect(&f, "_links.self.editorUrl");
	/* Esc: back to the panes */
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "_links.self.editorUrl");
	pf_expect(&f, "Transcriptions");
}

Test(describe, order_by_id_then_its_transcription)
{
	struct pf_opts o = { .rows = 50, .cols = 120, .sandbox_args = demo30, .theme = "mono" };
	long status = 0;

	pf_open(&f, &o);
	/* an order made by another client: it has one transcription */
	char body[400], oid[64];
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"http://127.0.0.1:1/x.wav\","
		 "\"language\":\"en-US\",\"organization_id\":\"%s\"}}", f.sbx.org_id);
	json_object *ord = sbx_call(&f.sbx, "POST", "orders", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(oid, sizeof oid, "%s", sbx_str(ord, "id"));
	json_object_put(ord);

	pf_keys(&f, ":");
	for (const char *c = "order"; *c; c++) {
		char k[2] = { *c, 0 };
		pf_keys(&f, k);
	}
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "order id:");
	for (const char *c = oid; *c; c++) {
		char k[2] = { *c, 0 };
		pf_keys(&f, k);
	}
	pf_keys(&f, "<Enter>");
	char title[100];
	snprintf(title, sizeof title, "order %s", oid);
	pf_wait_text(&f, "transcriptions[0].id");
	pf_expect(&f, title);
	pf_expect(&f, "canBeSubmitted");
	/* c: the confirm dialog of this order, its price first; Esc closes it */
	pf_keys(&f, "c");
	pf_wait_text(&f, "Confirm order");
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "Confirm order");
	pf_keys(&f, "<Enter>");   /* the order again, from its activity row */
	pf_wait_text(&f, "transcriptions[0].id");
	cursor_to("transcriptions[0].id");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "_links.self.editorUrl");
	pf_expect(&f, "transcription ");
	pf_keys(&f, "<Esc>");
	/* the order opened is listed in the activity pane */
	pf_keys(&f, "4");
	char shortid[16];
	snprintf(shortid, sizeof shortid, "%.5s", oid);   /* the ID column is narrow */
	pf_expect(&f, shortid);
}

/* Types text one key at a time. */
static void type_text(const char *text)
{
	for (const char *c = text; *c; c++) {
		char k[2] = { *c, 0 };
		pf_keys(&f, *c == ' ' ? "<Space>" : k);   /* a script splits at spaces */
	}
}

/* An order made by another client, its id in oid (64 bytes). */
static void order_elsewhere(char *oid)
{
	char body[400];
	long status = 0;

	snprintf(body, sizeof body, "{\"order\":{\"url\":\"http://127.0.0.1:1/x.wav\","
		 "\"language\":\"en-US\",\"organization_id\":\"%s\"}}", f.sbx.org_id);
	json_object *ord = sbx_call(&f.sbx, "POST", "orders", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(oid, 64, "%s", sbx_str(ord, "id"));
	json_object_put(ord);
}

Test(describe, order_id_on_the_prompt_line)
{
	struct pf_opts o = { .rows = 50, .cols = 120, .sandbox_args = demo30, .theme = "mono" };
	char oid[64], line[100], title[100];

	pf_open(&f, &o);
	order_elsewhere(oid);
	/* an argument to an action that takes none is refused, the prompt stays open */
	pf_keys(&f, ":");
	type_text("redraw now");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "redraw takes no argument");
	pf_keys(&f, "<Esc>");
	/* `:order ID` on one line: the order's view, no second prompt */
	snprintf(line, sizeof line, ":order %s", oid);
	type_text(line);
	pf_keys(&f, "<Enter>");
	snprintf(title, sizeof title, "order %s", oid);
	pf_wait_text(&f, "canBeSubmitted");
	pf_expect(&f, title);
	pf_reject(&f, "order id:");
	/* its price first, as the issue asks: the item with its languages, the minimum charge
	 * and why the total is more than the items, whether it can be submitted */
	pf_expect(&f, "price");
	pf_expect(&f, "x.wav");
	pf_expect(&f, "en-US");
	pf_expect(&f, "minimum charge €1.00 per order");
	pf_expect(&f, "total €1.00 EUR: the minimum charge, as the items only sum to €0.00");
	pf_expect(&f, "can be submitted: ");
	/* the confirm dialog shows the same lines */
	pf_keys(&f, "c");
	pf_wait_text(&f, "Confirm order");
	pf_expect(&f, "the minimum charge, as the items only sum to €0.00");
	pf_expect(&f, "can be submitted: ");
}

/* Tab on the `:` line completes an action's argument: `:order ` the orders the activity pane
 * knows, `:columns` the column names. */
Test(describe, the_prompt_completes_arguments)
{
	struct pf_opts o = { .rows = 40, .cols = 120, .sandbox_args = demo30 };
	char oid[64], line[100], head[16];

	pf_open(&f, &o);
	order_elsewhere(oid);
	snprintf(line, sizeof line, ":order %s", oid);
	type_text(line);
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "minimum charge");
	pf_keys(&f, "<Esc>");
	snprintf(head, sizeof head, ":order %.3s", oid);
	type_text(head);
	pf_keys(&f, "<Tab>");
	snprintf(line, sizeof line, "order %s", oid);
	pf_expect(&f, line);
	pf_keys(&f, "<Esc>");
	type_text(":columns name,st");
	pf_keys(&f, "<Tab>");
	pf_expect(&f, "columns name,state");
}

/* Tab on an ambiguous action name lists the candidates, as it does for arguments: `:co`
 * and `:s` left the line as it was with no list. */
Test(describe, the_prompt_lists_the_action_names_it_could_complete)
{
	struct pf_opts o = { .rows = 30, .cols = 160, .sandbox_args = demo30 };

	pf_open(&f, &o);
	type_text(":co");
	pf_keys(&f, "<Tab>");
	pf_expect(&f, "confirm-order");
	pf_expect(&f, "copy-url");
	pf_keys(&f, "<Tab>");
	pf_expect(&f, "confirm-order");
	pf_keys(&f, "<Esc>");
	type_text(":s");
	pf_keys(&f, "<Tab>");
	pf_expect(&f, "sort-reverse");
	pf_expect(&f, "style-guides");
	pf_keys(&f, "<Esc>");
	type_text(":colu");
	pf_keys(&f, "<Tab>");
	pf_expect(&f, ":columns");
	pf_reject(&f, "confirm-order");   /* one candidate: completed, nothing listed */
}

/* `:glossaries` and `:style-guides` list the organization's, one a line. */
Test(describe, glossaries_and_style_guides_can_be_browsed)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };

	pf_open(&f, &o);
	type_text(":glossaries");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "Medical terms  en -> fr, de, es  (default)");
	pf_expect(&f, "Glossaire juridique");
	pf_keys(&f, "<Esc>");
	type_text(":style-guides");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "House style  transcription, fixes grammar  (default)");
}

/* Once the list is shown, "reading the ..." leaves the status bar (it stayed for good). */
Test(describe, org_lists_clear_their_reading_message)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };

	pf_open(&f, &o);
	type_text(":glossaries");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "Medical terms");
	pf_reject(&f, "reading the glossaries");
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "reading the glossaries");
	type_text(":style-guides");
	pf_keys(&f, "<Enter>");
	pf_wait_text(&f, "House style");
	pf_keys(&f, "<Esc>");
	pf_reject(&f, "reading the style guides");
}
