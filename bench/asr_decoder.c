/* Real-time factor and memory of steno-sandbox's speech decoder (sandbox/asr_decode.c), the
 * code the sandbox runs, outside the server: loads `decoders` decoders one after another
 * (resident memory after each), then decodes the media `runs` times with the first one.
 * Usage: bench/asr_decoder MEDIA [runs] [decoders]. Prints Markdown rows. */
#include "config.h"

#include "asr_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_DECODERS 4

/* A line of /proc/self/status ("VmRSS", "VmHWM") in MB; -1 when absent. */
static double status_mb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	double kb = -1;
	size_t n = strlen(key);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, key, n) == 0 && line[n] == ':')
			kb = atof(line + n + 1);
	if (f)
		fclose(f);
	return kb < 0 ? -1 : kb / 1024.0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s MEDIA [runs] [decoders]\n", argv[0]);
		return 2;
	}
	int runs = argc > 2 ? atoi(argv[2]) : 3, ndec = argc > 3 ? atoi(argv[3]) : 2;
	if (runs < 1 || ndec < 1 || ndec > MAX_DECODERS) {
		fprintf(stderr, "runs >= 1, decoders 1-%d\n", MAX_DECODERS);
		return 2;
	}
	struct asr_decoder *dec[MAX_DECODERS] = {0};
	char err[256];
	int status = 0;
	double rss = status_mb("VmRSS");
	printf("| Step | Wall (s) | Resident memory (MB) | Increase (MB) |\n|---|---|---|---|\n");
	printf("| process start | | %.1f | |\n", rss);
	for (int i = 0; i < ndec; i++) {
		double t0 = now_s();
		dec[i] = asr_decoder_new(ASR_MODELDIR "/en-us", err, sizeof err);
		if (!dec[i]) {
			fprintf(stderr, "decoder: %s\n", err);
			status = 1;
			goto out;
		}
		double after = status_mb("VmRSS");
		printf("| load decoder %d | %.2f | %.1f | %.1f |\n", i + 1, now_s() - t0, after, after - rss);
		rss = after;
	}
	printf("\n| Run | Media (s) | Wall (s) | CPU (s) | Real-time factor (wall / media) | Words |\n"
	       "|---|---|---|---|---|---|\n");
	for (int r = 0; r < runs; r++) {
		struct sb_transcript t;
		double secs = 0, t0 = now_s(), c0 = cpu_s();
		if (asr_decoder_run(dec[0], argv[1], "en", NULL, &t, &secs, err, sizeof err) != 0) {
			fprintf(stderr, "decode: %s\n", err);
			status = 1;
			goto out;
		}
		double wall = now_s() - t0, cpu = cpu_s() - c0;
		printf("| %d | %.1f | %.2f | %.2f | %.3f | %zu |\n", r + 1, secs, wall, cpu, wall / secs,
		       sb_transcript_word_count(&t));
		sb_transcript_free(&t);
	}
	printf("\nPeak resident memory of the process: %.1f MB\n", status_mb("VmHWM"));
out:
	for (int i = 0; i < ndec; i++)
		asr_decoder_free(dec[i]);
	return status;
}
