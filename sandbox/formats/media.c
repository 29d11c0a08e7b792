#include "config.h"

#include "media.h"

#include <sndfile.h>
#include <sys/stat.h>

/* libsndfile reads WAV, AIFF, FLAC, OGG/Vorbis, Opus and (libsndfile >= 1.1,
 * bookworm) MP3 headers; anything else (video, garbage) gets a length from its
 * size so the sandbox always has a plausible duration. */
int sb_media_duration(const char *path, double *seconds)
{
	struct stat st;
	*seconds = 0;
	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	SF_INFO info = { 0 };
	SNDFILE *f = sf_open(path, SFM_READ, &info);
	if (f) {
		sf_close(f);
		if (info.samplerate > 0 && info.frames > 0) {
			*seconds = (double)info.frames / (double)info.samplerate;
			return 0;
		}
	}
	*seconds = (double)st.st_size / SB_MEDIA_FALLBACK_BYTES_PER_SECOND;
	return 1;
}
