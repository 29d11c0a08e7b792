/* Media length for the sandbox. */
#ifndef SANDBOX_FORMATS_MEDIA_H
#define SANDBOX_FORMATS_MEDIA_H

/* Byte rate assumed for media libsndfile cannot read: 128 kbit/s. */
#define SB_MEDIA_FALLBACK_BYTES_PER_SECOND 16000.0

/* Length of the media file at path, in seconds.
 * Returns 0 when the duration was read from the audio itself (WAV, FLAC, OGG,
 * MP3 and whatever else libsndfile reads), 1 when it was derived from the file
 * size at SB_MEDIA_FALLBACK_BYTES_PER_SECOND (garbage, video, unknown), and -1
 * only when the file cannot be opened/stat'ed (*seconds is then 0). */
int sb_media_duration(const char *path, double *seconds);

#endif
