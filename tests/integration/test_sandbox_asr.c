/* steno-sandbox --asr on: English speech recognised with pocketsphinx. Clips are synthesised
 * at test time with flite; the word error rate is computed here against the text flite spoke
 * (never an exact string). Also: times inside the media, undecodable media, --asr off and
 * other languages keep the invented text, and the API answers while a decode runs.
 * Every wait is bounded by a real-time deadline of its own (no Criterion .timeout: with tests
 * running in parallel, libcriterion 2.4's runner leaks a timeout record under LeakSanitizer). */
#include "config.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_sandbox_util.h"

/* Measured with Debian bookworm's pocketsphinx-en-us on these voices: 2.5-5 %. */
#define WER_MAX 0.15

static const char SPOKEN[] = "Please call me tomorrow morning at nine. The meeting starts in the small room on "
			     "the second floor. We will talk about the budget for next year and the new office. "
			     "Bring your notes and a copy of the report.";

static struct sbx S;
static char workdir[512];

static void stop_all(void)
{
	sbt_stop(&S, NULL);
	if (workdir[0]) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", workdir);
		cr_expect_eq(system(cmd), 0);
		workdir[0] = '\0';
	}
}

static const char *const ASR_ON[] = {"--asr", "on", "--clock-speed", "1000", NULL};

static void make_workdir(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(workdir, sizeof workdir, "%s/asr-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	cr_assert(mkdtemp(workdir));
}

static void start(const char *asr)
{
	static const char *const off[] = {"--asr", "off", "--clock-speed", "1000", NULL};
	sbt_start(&S, strcmp(asr, "on") == 0 ? ASR_ON : off);
	make_workdir();
}

/* text said `times` times, space-separated (caller frees). */
static char *repeated(const char *text, int times)
{
	char *all = calloc(1, (strlen(text) + 1) * (size_t)times + 1);
	cr_assert(all);
	for (int i = 0; i < times; i++) {
		strcat(all, text);
		strcat(all, " ");
	}
	return all;
}

/* flite speaks text (repeated times) with voice into a WAV under workdir; its path into path. */
static void synth(const char *voice, const char *text, int repeat, char *path, size_t n)
{
	snprintf(path, n, "%s/%s-%d.wav", workdir, voice, repeat);
	char *all = repeated(text, repeat);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		execlp("flite", "flite", "-voice", voice, "-t", all, "-o", path, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	free(all);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "flite failed (is it installed? .ci/setup installs it)");
}

static double media_seconds(const char *path)
{
	SF_INFO info = {0};
	SNDFILE *f = sf_open(path, SFM_READ, &info);
	cr_assert(f, "%s: %s", path, sf_strerror(NULL));
	sf_close(f);
	return (double)info.frames / info.samplerate;
}

/* Uploads data and creates a transcription in language; its id into id (40 bytes). */
static void create(const void *data, size_t len, const char *language, char *id)
{
	char url[1024], body[2048];
	cr_assert_eq(sbx_upload(&S, "talk.wav", data, len, url, sizeof url), 0);
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"talk\",\"language\":\"%s\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"}}", language, url, S.org_id);
	long status;
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201, "%s", json_object_to_json_string(o));
	snprintf(id, 40, "%s", sbx_str(o, "id"));
	json_object_put(o);
}

static void create_file(const char *path, const char *language, char *id)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f);
	static char buf[8 << 20];
	size_t len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	create(buf, len, language, id);
}

static json_object *retrieve(const char *id)
{
	char path[128];
	long status;
	snprintf(path, sizeof path, "transcriptions/%s", id);
	json_object *o = sbx_call(&S, "GET", path, NULL, &status);
	if (status != 200)
		cr_assert_fail("GET %s: %ld", path, status);
	return o;
}

static int is_working(const char *state)
{
	return strcmp(state, "ingesting") == 0 || strcmp(state, "automatic_transcribing") == 0;
}

/* Polls (real time, up to 100 s) until the transcription's work is over; its retrieve object. */
static json_object *wait_done(const char *id)
{
	for (int i = 0; i < 1000; i++) {
		json_object *o = retrieve(id);
		if (!is_working(sbx_str(o, "state")))
			return o;
		json_object_put(o);
		usleep(100000);
	}
	cr_assert_fail("%s still working after 100 s", id);
	return NULL;
}

/* The JSON transcript behind the retrieve object's downloadUrl. */
static json_object *transcript(json_object *tr)
{
	const char *dl = sbx_str(tr, "_links.self.downloadUrl");
	cr_assert(dl, "%s", json_object_to_json_string(tr));
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", dl, NULL, NULL, NULL, &r), 0);
	cr_assert_eq(r.status, 200);
	json_object *j = sbx_json(&r);
	sbx_resp_free(&r);
	cr_assert(j && json_object_is_type(j, json_type_array));
	return j;
}

/* Lower-case words of s (letters, digits, apostrophes) into words; how many. */
static size_t tokens(const char *s, char words[][32], size_t max)
{
	size_t n = 0;
	while (*s && n < max) {
		while (*s && !isalnum((unsigned char)*s) && *s != '\'')
			s++;
		size_t k = 0;
		while (*s && (isalnum((unsigned char)*s) || *s == '\'')) {
			if (k < 31)
				words[n][k++] = (char)tolower((unsigned char)*s);
			s++;
		}
		if (k) {
			words[n][k] = '\0';
			n++;
		}
	}
	return n;
}

/* Word error rate: (substitutions + deletions + insertions) / reference words. */
static double wer(const char *ref, const char *hyp)
{
	static char r[1024][32], h[1024][32];
	size_t nr = tokens(ref, r, 1024), nh = tokens(hyp, h, 1024);
	size_t *prev = calloc(nh + 1, sizeof *prev), *cur = calloc(nh + 1, sizeof *cur);
	cr_assert(prev && cur && nr > 0);
	for (size_t j = 0; j <= nh; j++)
		prev[j] = j;
	for (size_t i = 1; i <= nr; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= nh; j++) {
			size_t sub = prev[j - 1] + (strcmp(r[i - 1], h[j - 1]) != 0);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		size_t *t = prev;
		prev = cur;
		cur = t;
	}
	double e = (double)prev[nh] / (double)nr;
	free(prev);
	free(cur);
	return e;
}

/* Words of a JSON transcript joined by spaces (caller frees); checks the times on the way:
 * inside [0, media], each word ending after it starts, words in order. */
static char *words_checked(json_object *blocks, double media)
{
	size_t cap = 65536, len = 0;
	char *text = calloc(1, cap);
	cr_assert(text);
	double prev_end = 0;
	for (size_t i = 0; i < json_object_array_length(blocks); i++) {
		json_object *words = sbx_get(json_object_array_get_idx(blocks, i), "words");
		for (size_t j = 0; j < json_object_array_length(words); j++) {
			json_object *w = json_object_array_get_idx(words, j);
			if (strcmp(sbx_str(w, "type"), "word") != 0)
				continue;
			double s = json_object_get_double(sbx_get(w, "data_start"));
			double e = json_object_get_double(sbx_get(w, "data_end"));
			double c = json_object_get_double(sbx_get(w, "confidence"));
			/* one assertion per transcript, not per word: the runner keeps every one */
			if (!(s >= prev_end - 1e-9 && e > s && e <= media + 0.011 && c >= 0 && c <= 1))
				cr_assert_fail("word %s at %.3f-%.3f after %.3f (media %.3f), confidence %.3f",
					       sbx_str(w, "text"), s, e, prev_end, media, c);
			prev_end = e;
			len += (size_t)snprintf(text + len, cap - len, "%s ", sbx_str(w, "text"));
			if (len >= cap)
				cr_assert_fail("transcript longer than %zu bytes", cap);
		}
	}
	return text;
}

/* Waits for transcription id of the media at path (which says `spoken`) and checks it: done,
 * audioLengthInSeconds from the media, word times in order inside it, the first word
 * capitalised and the last ending a sentence, a word error rate under WER_MAX (printed on
 * stderr with `what`: the figure the docs quote). */
static void expect_recognised(const char *id, const char *path, const char *spoken, const char *what)
{
	double media = media_seconds(path);
	json_object *tr = wait_done(id);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_done", "%s: %s", what, json_object_to_json_string(tr));
	cr_assert_eq(json_object_get_int(sbx_get(tr, "audioLengthInSeconds")), (int)ceil(media));
	json_object *blocks = transcript(tr);
	char *text = words_checked(blocks, media);
	double e = wer(spoken, text);
	fprintf(stderr, "%s: WER %.1f %% (%s)\n", what, e * 100, text);
	cr_expect_lt(e, WER_MAX, "%s: WER %.3f: %s", what, e, text);
	const char *first = sbx_str(json_object_array_get_idx(sbx_get(json_object_array_get_idx(blocks, 0),
								       "words"), 0), "text");
	cr_assert(first && isupper((unsigned char)first[0]), "%s", first);
	cr_assert(text[strlen(text) - 2] == '.', "%s", text);
	free(text);
	json_object_put(blocks);
	json_object_put(tr);
}

Test(sandbox_asr, recognises_flite_voices_with_times, .fini = stop_all)
{
	start("on");
	static const char *const voices[] = {"kal16", "rms", "awb"};
	for (size_t v = 0; v < 3; v++) {
		char wav[600], id[40], what[64];
		synth(voices[v], SPOKEN, 1, wav, sizeof wav);
		create_file(wav, "en-US", id);
		snprintf(what, sizeof what, "flite voice %s", voices[v]);
		expect_recognised(id, wav, SPOKEN, what);
	}
}

/* Writes the 16 kHz mono WAV at src as 32 kHz stereo (each sample twice, both channels) in
 * format fmt at dst: media the sandbox must mix down and resample. Floats, because bookworm's
 * libsndfile 1.2.0 garbles stereo MP3 written from shorts (libsndfile pull request 1106). */
static void convert(const char *src, const char *dst, int fmt)
{
	SF_INFO in = {0}, out = {.samplerate = 32000, .channels = 2, .format = fmt};
	SNDFILE *a = sf_open(src, SFM_READ, &in);
	cr_assert(a && in.samplerate == 16000 && in.channels == 1);
	SNDFILE *b = sf_open(dst, SFM_WRITE, &out);
	cr_assert(b, "%s: %s", dst, sf_strerror(NULL));
	float s[1024], twice[4096];
	sf_count_t n;
	while ((n = sf_readf_float(a, s, 1024)) > 0) {
		for (sf_count_t i = 0; i < n; i++)
			twice[4 * i] = twice[4 * i + 1] = twice[4 * i + 2] = twice[4 * i + 3] = s[i];
		cr_assert_eq(sf_writef_float(b, twice, 2 * n), 2 * n);
	}
	sf_close(a);
	cr_assert_eq(sf_close(b), 0);
}

/* FLAC, OGG/Vorbis and MP3 at 32 kHz stereo: decoded, mixed to mono, resampled, recognised. */
Test(sandbox_asr, flac_ogg_mp3_other_rate_and_channels, .fini = stop_all)
{
	start("on");
	static const struct {
		const char *ext;
		int fmt;
	} fmts[] = {{"flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16}, {"ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS},
		    {"mp3", SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III}};
	char wav[600], ids[3][40], dst[3][700];
	synth("kal16", SPOKEN, 1, wav, sizeof wav);
	for (size_t f = 0; f < 3; f++) {
		snprintf(dst[f], sizeof dst[f], "%s/talk.%s", workdir, fmts[f].ext);
		convert(wav, dst[f], fmts[f].fmt);
		create_file(dst[f], "en-AU", ids[f]);
	}
	for (size_t f = 0; f < 3; f++) {
		char what[64];
		snprintf(what, sizeof what, "kal16 as 32 kHz stereo %s", fmts[f].ext);
		expect_recognised(ids[f], dst[f], SPOKEN, what);
	}
}

/* A stop during a decode exits cleanly; the next start on the same data decodes it again. */
Test(sandbox_asr, restart_during_a_decode_resumes, .fini = stop_all)
{
	make_workdir();
	char data[600], wav[600], id[40];
	snprintf(data, sizeof data, "%s/data", workdir);
	cr_assert_eq(sbx_start_dir(&S, data, ASR_ON), 0);
	synth("rms", SPOKEN, 6, wav, sizeof wav);
	create_file(wav, "en-US", id);
	json_object *tr;
	for (int i = 0; i < 100 && (tr = retrieve(id), strcmp(sbx_str(tr, "state"), "ingesting") == 0); i++) {
		json_object_put(tr);
		tr = NULL;
		usleep(20000);
	}
	cr_assert(tr);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_transcribing", "%s", json_object_to_json_string(tr));
	json_object_put(tr);
	sleep(2); /* the decode of this minute of speech takes several seconds */
	cr_assert_eq(sbx_stop_keep(&S), 0);
	cr_assert_eq(sbx_start_dir(&S, data, ASR_ON), 0);
	char *spoken6 = repeated(SPOKEN, 6);
	expect_recognised(id, wav, spoken6, "rms, 6 times, after a restart");
	free(spoken6);
}

/* "2026-11-24T08:37:30.281Z" in seconds. */
static double iso_seconds(const char *s)
{
	struct tm tm = {0};
	int ms = 0;
	cr_assert(s && sscanf(s, "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
			      &tm.tm_min, &tm.tm_sec, &ms) == 7, "%s", s ? s : "(null)");
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + ms / 1000.0;
}

/* The sandbox clock's durations stay a minimum (ingesting 2 s, then at least 3 s), and a decode
 * that needs longer takes longer: the clock moved past them does not end it. */
Test(sandbox_asr, clock_durations_are_a_minimum, .fini = stop_all)
{
	static const char *const real_time[] = {"--asr", "on", NULL};
	sbt_start(&S, real_time);
	make_workdir();
	char wav[600], quick[40], slow[40];
	synth("rms", SPOKEN, 1, wav, sizeof wav);
	create_file(wav, "en-US", quick);
	create_file(wav, "en-US", slow);
	cr_assert_eq(sbx_advance(&S, 30), 0); /* both decodes take more than this instant */
	json_object *tr = retrieve(slow);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_transcribing", "%s", json_object_to_json_string(tr));
	json_object_put(tr);
	tr = wait_done(quick);
	double took = iso_seconds(sbx_str(tr, "updatedAt")) - iso_seconds(sbx_str(tr, "createdAt"));
	cr_assert_geq(took, 30.0, "done %.3f s after its creation, before the clock advance", took);
	json_object_put(tr);
	/* a third one on the untouched clock: done no sooner than 2 + 3 sandbox seconds */
	char third[40];
	create_file(wav, "en-US", third);
	tr = wait_done(third);
	took = iso_seconds(sbx_str(tr, "updatedAt")) - iso_seconds(sbx_str(tr, "createdAt"));
	cr_assert_geq(took, 5.0 - 0.01, "done %.3f s after its creation", took);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_done");
	json_object_put(tr);
}

/* The srt export's first cue starts at the first recognised word. */
Test(sandbox_asr, exports_use_recognised_times, .fini = stop_all)
{
	start("on");
	char wav[600], id[40], body[256];
	synth("rms", SPOKEN, 1, wav, sizeof wav);
	create_file(wav, "en-GB", id);
	json_object *tr = wait_done(id), *blocks = transcript(tr);
	double first = json_object_get_double(
		sbx_get(json_object_array_get_idx(sbx_get(json_object_array_get_idx(blocks, 0), "words"), 0), "data_start"));
	cr_assert_gt(first, 0.0, "flite starts with a little silence");
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"srt\",\"transcription_ids\":[\"%s\"]}}", id);
	long status;
	json_object *e = sbx_call(&S, "POST", "exports", body, &status);
	cr_assert_eq(status, 201);
	char path[128], want[64];
	snprintf(path, sizeof path, "exports/%s", sbx_str(e, "id"));
	json_object_put(e);
	for (int i = 0; i < 100 && !(e = sbx_call(&S, "GET", path, NULL, &status), sbx_str(e, "download_link")); i++) {
		json_object_put(e);
		usleep(100000);
	}
	cr_assert(sbx_str(e, "download_link"), "%s", json_object_to_json_string(e));
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", sbx_str(e, "download_link"), NULL, NULL, NULL, &r), 0);
	long ms = lround(first * 1000);
	snprintf(want, sizeof want, "1\r\n00:00:%02ld,%03ld --> ", ms / 1000, ms % 1000);
	char alt[64];
	snprintf(alt, sizeof alt, "1\n00:00:%02ld,%03ld --> ", ms / 1000, ms % 1000);
	cr_assert(r.body && (strstr(r.body, want) || strstr(r.body, alt)), "%s", r.body);
	cr_assert(strstr(r.body, "call me tomorrow morning"), "%s", r.body);
	sbx_resp_free(&r);
	json_object_put(e);
	json_object_put(blocks);
	json_object_put(tr);
}

Test(sandbox_asr, undecodable_media_is_unsupported, .fini = stop_all)
{
	start("on");
	char junk[20000], id[40], fr[40];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (char)('a' + i * 7 % 26);
	create(junk, sizeof junk, "en-US", id);
	create(junk, sizeof junk, "fr-FR", fr);
	json_object *tr = wait_done(id);
	cr_assert_str_eq(sbx_str(tr, "state"), "failed");
	cr_assert_str_eq(sbx_str(tr, "failureReason"), "unsupported_media");
	cr_assert(strstr(sbx_str(tr, "failureMessage"), "could not be decoded as audio"), "%s",
		  json_object_to_json_string(tr));
	json_object_put(tr);
	/* other languages are not recognised: invented text from any media, as before */
	tr = wait_done(fr);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_done", "%s", json_object_to_json_string(tr));
	json_object_put(tr);
}

/* --asr off: the spoken clip gets the invented text, and junk media is still accepted. */
Test(sandbox_asr, asr_off_keeps_invented_text, .fini = stop_all)
{
	start("off");
	char wav[600], id[40], junk_id[40], junk[20000];
	synth("rms", SPOKEN, 1, wav, sizeof wav);
	create_file(wav, "en-US", id);
	memset(junk, 'x', sizeof junk);
	create(junk, sizeof junk, "en-US", junk_id);
	json_object *tr = wait_done(id), *blocks = transcript(tr);
	char *text = words_checked(blocks, ceil(media_seconds(wav)));
	cr_assert_gt(wer(SPOKEN, text), 0.8, "%s", text);
	free(text);
	json_object_put(blocks);
	json_object_put(tr);
	tr = wait_done(junk_id);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_done");
	json_object_put(tr);
}

/* A decode runs on its own thread: list requests are answered while it runs (their latency
 * is measured by bench/asr_bench.sh, not here). */
Test(sandbox_asr, lists_answered_during_a_decode, .fini = stop_all)
{
	start("on");
	char wav[600], id[40], path[128];
	synth("kal16", SPOKEN, 6, wav, sizeof wav);
	create_file(wav, "en-US", id);
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", S.org_id);
	int during = 0, failed = 0;
	json_object *tr;
	time_t deadline = time(NULL) + 200;
	while (tr = retrieve(id), is_working(sbx_str(tr, "state")) && time(NULL) < deadline) {
		long status;
		json_object *l = sbx_call(&S, "GET", path, NULL, &status);
		failed += status != 200 || !sbx_get(l, "results");
		json_object_put(l);
		during++;
		json_object_put(tr);
	}
	cr_assert_eq(failed, 0, "%d of %d lists failed during the decode", failed, during);
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_done");
	fprintf(stderr, "%d list requests answered during the decode\n", during);
	cr_assert_geq(during, 20, "only %d lists while decoding", during);
	json_object_put(tr);
}
