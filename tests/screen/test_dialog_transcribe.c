/* The new-transcription dialog against a sandbox: validation next to the field, a server
 * error that keeps what was typed, a URL creation, an upload and a cancelled upload, a
 * resize inside the dialog. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "test_dialog_fixture.h"
#include "ui/dialog_transcribe.h"
#include "keepalive_server.h"

Test(dialog_transcribe, validation_errors_next_to_fields)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 0);
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_golden("dialog_transcribe_open");
	dfx_keys(&x, "<F2>");
	dfx_golden("dialog_transcribe_invalid");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 0);
	/* alignment needs a document URL: the field appears and carries the error */
	dfx_type(&x, "Talk");
	dfx_keys(&x, "<Tab> <Tab> <Tab>");
	dfx_type(&x, "http://127.0.0.1:9/a.wav");
	dfx_keys(&x, "<Tab> <Right> <Right> <F2>");
	dfx_golden("dialog_transcribe_alignment");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 0);
	/* a resize while the dialog is open lays it out again, errors and text kept */
	scr_resize(&x.scr, 14, 60);
	dfx_golden("dialog_transcribe_small");
	dfx_close(&x);
}

Test(dialog_transcribe, server_error_keeps_the_form)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 0);
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_type(&x, "Interview");
	dfx_keys(&x, "<Tab> <Tab> <Tab>");
	dfx_type(&x, "http://127.0.0.1:9/a.wav");
	dfx_faults(&x, "500=1");
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "HTTP 500", 5000), "no server error shown");
	char *t = dfx_text();
	scr_golden("dialog_transcribe_server_error", t);
	cr_assert(strstr(t, "Interview") && strstr(t, "http://127.0.0.1:9/a.wav"), "typed text lost");
	free(t);
	/* nothing was sent twice: the sandbox has no transcription; a new Enter sends again */
	dfx_faults(&x, "");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 0);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Created transcription", 5000),
		  "not created after the fault cleared");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 1);
	cr_assert_eq(x.reloads, 1);
	dfx_keys(&x, "<Enter>");
	cr_assert_null(x.scr.ui.frame.overlay, "Enter closes the result");
	dfx_close(&x);
}

static void write_wav(const char *path)
{
	size_t len = 0;
	void *wav = sbx_make_wav(2.0, &len);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(wav, 1, len, f), len);
	fclose(f);
	free(wav);
}

/* The transcribe dialog filled in for a local WAV file named `name`, not yet submitted. */
static void open_upload_form(struct dfx *x, const char *name)
{
	char path[400];
	dfx_open(x, 24, 80, 0);
	snprintf(path, sizeof path, "%s/talk.wav", x->tmp);
	write_wav(path);
	dfx_dialog(x, &dialog_transcribe_ops);
	dfx_type(x, name);
	dfx_keys(x, "<Tab> <Tab> <Right> <Tab>");   /* source: local file */
	dfx_type(x, path);
}

Test(dialog_transcribe, upload_cancelled_then_done)
{
	struct dfx x;
	open_upload_form(&x, "Upload");
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_shows(&x, "preparing upload") || dfx_shows(&x, "uploading"));
	dfx_keys(&x, "<Esc>");                         /* cancel before it is sent */
	char *t = dfx_text();
	cr_assert(strstr(t, "upload cancelled: nothing was created"), "%s", t);
	free(t);
	cr_assert_eq(dfx_count(&x, "transcriptions"), 0);
	/* the same form goes again, to the end */
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Created transcription", 8000),
		  "upload did not finish");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 1);
	dfx_close(&x);
}

/* Esc while the file's PUT runs (the sandbox's latency holds /storage): the dialog says
 * nothing was created, the server holds no transcription, and the same form goes again to
 * exactly one. */
Test(dialog_transcribe, upload_cancelled_while_sending_leaves_nothing)
{
	struct dfx x;
	open_upload_form(&x, "Slow upload");
	dfx_faults(&x, "latency=1:3000ms");
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "uploading", 10000), "the upload never ran");
	dfx_keys(&x, "<Esc>");
	dfx_faults(&x, "");
	char *t = dfx_text();
	cr_assert(strstr(t, "upload cancelled: nothing was created"), "%s", t);
	free(t);
	cr_assert_eq(dfx_count(&x, "transcriptions"), 0);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Created transcription", 8000), "upload did not finish");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 1);
	dfx_close(&x);
}

Test(dialog_transcribe, file_browser_and_resize)
{
	struct dfx x;
	char path[400];
	dfx_open(&x, 24, 80, 0);
	snprintf(path, sizeof path, "%s/media", x.tmp);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/media/b.wav", x.tmp);
	write_wav(path);
	snprintf(path, sizeof path, "%s/media/a.wav", x.tmp);
	write_wav(path);
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_type(&x, "Browse");
	dfx_keys(&x, "<Tab> <Tab> <Right> <Tab>");
	snprintf(path, sizeof path, "%s/media/", x.tmp);
	dfx_type(&x, path);
	dfx_keys(&x, "<C-o>");
	{ char *s = dfx_text(); cr_assert(strstr(s, "a.wav") && strstr(s, "b.wav"), "%s", s); free(s); }
	dfx_type(&x, "b");   /* the cursor goes to the first match, not "../" */
	dfx_keys(&x, "<Enter>");
	char *t = dfx_text();
	cr_assert(strstr(t, "/media/b.wav"), "%s", t);
	free(t);
	/* resize inside the dialog: laid out again, nothing typed is lost */
	scr_resize(&x.scr, 30, 100);
	t = dfx_text();
	cr_assert(strstr(t, "Browse") && strstr(t, "/media/b.wav"), "%s", t);
	free(t);
	scr_resize(&x.scr, 24, 80);
	t = dfx_text();
	cr_assert(strstr(t, "New transcription") && strstr(t, "Browse"), "%s", t);
	free(t);
	dfx_close(&x);
}

/* A stand-in that keeps its connection alive (the list below loads over it), acts on the
 * POST and drops the reply: the dialog sends it once, then says what it found. */
static void lost_reply(struct keepalive_server *srv, struct dfx *x, const char *listed_name)
{
	cr_assert_eq(keepalive_server_start(srv), 0);
	char body[1024], when[40];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	snprintf(body, sizeof body,
		 "{\"results\":[{\"id\":\"00112233445566778899aabbccddeeff\",\"name\":\"%s\","
		 "\"createdAt\":\"%s\",\"updatedAt\":\"%s\",\"state\":\"ingesting\","
		 "\"language\":\"en-US\"}],\"_links\":{}}", listed_name, when, when);
	keepalive_server_route(srv, "/api/v1/transcriptions", body);
	dfx_open(x, 24, 100, 0);
	dfx_retarget(x, srv->base);
	dfx_load(x);
	srv->drop_posts = 100;
	dfx_dialog(x, &dialog_transcribe_ops);
	dfx_type(x, "Board call");
	dfx_keys(x, "<Tab> <Tab> <Tab>");
	dfx_type(x, "http://127.0.0.1:9/a.wav");
	dfx_keys(x, "<F2>");
}

Test(dialog_transcribe, lost_reply_found_is_not_resent)
{
	struct keepalive_server srv;
	struct dfx x;
	lost_reply(&srv, &x, "Board call");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "found it", 8000), "no resolution shown");
	char *t = dfx_text();
	cr_assert(strstr(t, "no need to submit"), "%s", t);
	free(t);
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 1);
	dfx_close(&x);
	keepalive_server_stop(&srv);
}

Test(dialog_transcribe, lost_reply_not_found_offers_to_submit_again)
{
	struct keepalive_server srv;
	struct dfx x;
	lost_reply(&srv, &x, "Someone else");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Submit again?", 8000), "no offer shown");
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 1);
	/* only the user's second submit (F2) sends it again */
	dfx_keys(&x, "<F2>");
	dfx_pump(&x, dfx_cond_shows, "Submit again?", 8000);
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 2);
	dfx_close(&x);
	keepalive_server_stop(&srv);
}

static bool created_one(struct dfx *x, const void *arg)
{
	(void)arg;
	return dfx_count(x, "transcriptions") == 1;
}

/* The languages the dialog reported as submitted (the app keeps them in the state). */
static struct recent_list reported;

static void hook_remember(void *ud, const struct choice_report *r)
{
	(void)ud;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->values[i].field, "language") == 0)
			recent_push(&reported, r->values[i].value);
}

/* The language picker finds a language by its English or own name, shows both names and
 * whole notes in a wide popup, and offers the language used last first. */
Test(dialog_transcribe, language_picker_found_by_name)
{
	struct dfx x;
	dfx_open(&x, 40, 120, 0);
	x.env.hooks.remember = hook_remember;
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_type(&x, "Interview");
	dfx_keys(&x, "<Tab>");
	dfx_type(&x, "japanese");
	dfx_golden("dialog_language_picker_japanese");
	dfx_keys(&x, "<Enter>");
	cr_assert(dfx_shows(&x, "ja-JP  Japanese (Japan)  (auto only)"));
	/* by its own name, and the note is not cut to 12 columns */
	dfx_keys(&x, "<Space>");
	dfx_type(&x, "Österr");
	cr_assert(dfx_shows(&x, "de-AT        German (Austria) · Deutsch (Österreich)"));
	cr_assert(dfx_shows(&x, "(1 of 137)"));
	dfx_keys(&x, "<Esc> <Tab> <Tab>");
	dfx_type(&x, "http://127.0.0.1:9/a.wav");
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, created_one, NULL, 5000));
	cr_assert_str_eq(reported.items[0], "ja-JP", "the submitted language is reported");
	dfx_close(&x);

	dfx_open(&x, 24, 80, 0);
	x.env.recent_languages = reported;
	dfx_dialog(&x, &dialog_transcribe_ops);
	cr_assert(dfx_shows(&x, "ja-JP  Japanese (Japan)  (recent · auto only)"), "the last one is the default");
	dfx_keys(&x, "<Tab> <Space>");
	dfx_golden("dialog_language_picker_recent");
	dfx_close(&x);

	/* at 200x50, searching by a word of the own name */
	dfx_open(&x, 50, 200, 0);
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_keys(&x, "<Tab>");
	dfx_type(&x, "español");
	dfx_golden("dialog_language_picker_espanol");
	dfx_close(&x);
}

/* A validation error goes when its field is fixed, or hidden because another choice made
 * it moot; it does not come back by itself. */
Test(dialog_transcribe, validation_error_clears_when_fixed)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 0);
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_shows(&x, "Name is required"));
	dfx_type(&x, "T");
	cr_assert_not(dfx_shows(&x, "Name is required"), "fixed: the error goes");
	dfx_keys(&x, "<Tab> <Tab> <Tab>");
	dfx_type(&x, "http://127.0.0.1:9/a.wav");
	dfx_keys(&x, "<Tab> <Right> <Right> <F2>");
	cr_assert(dfx_shows(&x, "Document URL is required"));
	dfx_keys(&x, "<Up> <Left>");   /* back to the service: pro needs no document */
	cr_assert_not(dfx_shows(&x, "Document URL is required"));
	dfx_keys(&x, "<Right>");       /* alignment again: the field is back, unjudged */
	cr_assert(dfx_shows(&x, "Document URL"));
	cr_assert_not(dfx_shows(&x, "Document URL is required"));
	dfx_close(&x);
}

/* Enter never creates from inside a field: on the language or "Known folder" picker it opens
 * the picker, in a text field it goes to the next field; the Create button or F2 creates. */
Test(dialog_transcribe, enter_in_a_field_never_creates)
{
	struct dfx x;
	dfx_open(&x, 30, 100, 0);
	dfx_dialog(&x, &dialog_transcribe_ops);
	dfx_type(&x, "Talk");
	dfx_keys(&x, "<Tab> <Enter>");
	cr_assert(dfx_shows(&x, "search:"), "Enter on the language did not open its picker");
	dfx_keys(&x, "<Esc> <Tab> <Tab>");
	dfx_type(&x, "http://127.0.0.1:9/a.wav");
	dfx_keys(&x, "<Enter>");
	cr_assert_not(dfx_pump(&x, created_one, NULL, 300), "Enter in the URL field created it");
	/* now on the service; down to "Known folder" (service, subtitles, known folder) */
	dfx_keys(&x, "<Tab> <Tab> <Enter>");
	cr_assert_not(dfx_pump(&x, created_one, NULL, 300), "Enter on Known folder created it");
	dfx_keys(&x, "<Esc>");
	cr_assert_eq(dfx_count(&x, "transcriptions"), 0);
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, created_one, NULL, 5000), "F2 did not create it");
	dfx_close(&x);
}

/* b while the upload runs: the dialog closes, the upload goes on in the background and the
 * transcription is made (the job is the app's, shown in the activity pane). */
Test(dialog_transcribe, an_upload_goes_on_in_the_background)
{
	struct dfx x;
	open_upload_form(&x, "Background");
	dfx_faults(&x, "latency=1:1500ms");
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_shows(&x, "b: on in the background"), "the key is not offered");
	dfx_keys(&x, "b");
	cr_assert_null(x.scr.ui.frame.overlay, "b did not close the dialog");
	cr_assert(strstr(x.status, "goes on in the background"), "%s", x.status);
	cr_assert(dfx_pump(&x, created_one, NULL, 10000), "the upload stopped with its dialog");
	dfx_close(&x);
}
