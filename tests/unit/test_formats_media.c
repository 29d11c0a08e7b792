/* Media length: real duration from libsndfile, size fallback for the rest. */
#include "config.h"

#include <criterion/criterion.h>
#include <sndfile.h>
#include <stdio.h>
#include <string.h>

#include "formats/media.h"
#include "test_formats_util.h"

static void write_audio(const char *path, int format, int rate, sf_count_t frames)
{
	SF_INFO info = { .samplerate = rate, .channels = 1, .format = format };
	SNDFILE *f = sf_open(path, SFM_WRITE, &info);
	cr_assert_not_null(f, "sf_open: %s", sf_strerror(NULL));
	short buf[1024];
	for (size_t i = 0; i < 1024; i++)
		buf[i] = (short)((i * 37) % 2000 - 1000);
	for (sf_count_t done = 0; done < frames;) {
		sf_count_t n = frames - done < 1024 ? frames - done : 1024;
		cr_assert_eq(sf_write_short(f, buf, n), n);
		done += n;
	}
	cr_assert_eq(sf_close(f), 0);
}

Test(media, wav_duration_is_exact, .fini = tf_cleanup)
{
	char path[512];
	snprintf(path, sizeof path, "%s/a.wav", tf_dir());
	write_audio(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 8000, 12345);
	double s;
	cr_assert_eq(sb_media_duration(path, &s), 0);
	cr_assert_eq(s, 12345.0 / 8000.0);
}

Test(media, flac_duration_is_read, .fini = tf_cleanup)
{
	char path[512];
	snprintf(path, sizeof path, "%s/a.flac", tf_dir());
	write_audio(path, SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 16000, 40000);
	double s;
	cr_assert_eq(sb_media_duration(path, &s), 0);
	cr_assert_float_eq(s, 2.5, 1e-9);
}

Test(media, garbage_falls_back_to_size, .fini = tf_cleanup)
{
	static unsigned char junk[32000];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (unsigned char)(i * 131 + 7);
	memcpy(junk, "RIFF\x10\x00\x00\x00WAVEjunk", 16); /* a lying header too */
	char *path = tf_write("junk.mp4", junk, sizeof junk);
	double s;
	cr_assert_eq(sb_media_duration(path, &s), 1);
	cr_assert_float_eq(s, sizeof junk / SB_MEDIA_FALLBACK_BYTES_PER_SECOND, 1e-9);
	path = tf_write("empty.bin", "", 0);
	cr_assert_eq(sb_media_duration(path, &s), 1);
	cr_assert_eq(s, 0.0);
}

Test(media, missing_file_fails)
{
	double s = 5;
	cr_assert_eq(sb_media_duration("/nonexistent/steno/none.wav", &s), -1);
	cr_assert_eq(s, 0.0);
	cr_assert_eq(sb_media_duration("/", &s), -1);
}
