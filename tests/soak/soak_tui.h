/* soak_tui: the steno TUI on a pty whose screen is kept by libvterm, for the soak driver.
 * It starts the real binary against a sandbox, feeds it keys, waits for text, samples the
 * resident set size of the process, and stops it. Sanitizer reports of the TUI go to files
 * (log_path) in its private directory, because its stderr is the pty. */
#ifndef STENO_TESTS_SOAK_TUI_H
#define STENO_TESTS_SOAK_TUI_H

#include <stddef.h>
#include <sys/types.h>

#include "../integration/sandbox_fixture.h"

/* Ownership: soak_tui_start fills it, soak_tui_stop frees it. */
struct soak_tui {
	pid_t pid;
	int fd;               /* the pty's master */
	void *vt;             /* VTerm * (kept opaque so that callers need no libvterm header) */
	void *screen;         /* VTermScreen * */
	int rows, cols;
	int exited, status;   /* after soak_tui_quit */
	char dir[256];        /* private XDG dirs and sanitizer logs */
	long rss_first_kb, rss_last_kb, rss_max_kb;
	long rss_samples;
	char *raw;            /* every byte the program wrote, when keep_raw was set (malloc'ed) */
	size_t rawlen, rawcap;
	int keep_raw;         /* set after soak_tui_start to record raw output (up to 8 MiB) */
};

/* Starts STENO_BIN with the sandbox's account on a rows x cols pty; trace (may be NULL) is
 * given as --trace. 0 or -1. */
int soak_tui_start(struct soak_tui *t, const struct sbx *s, int rows, int cols, const char *trace);
/* Feeds the program's output to libvterm for at most ms. 0 when the pty closed. */
int soak_tui_pump(struct soak_tui *t, int ms);
/* Writes keys to the pty. 0 or -1. */
int soak_tui_send(struct soak_tui *t, const char *keys);
/* Waits up to seconds for needle to appear (present != 0) or disappear. 0 or -1 (timeout
 * or exit). */
int soak_tui_wait(struct soak_tui *t, const char *needle, int present, double seconds);
/* The screen as UTF-8 text, one line per row (a static buffer). */
const char *soak_tui_text(struct soak_tui *t);
/* Reads VmRSS from /proc and updates the figures. The value in kB, or -1. */
long soak_tui_sample_rss(struct soak_tui *t);
/* Sends q and waits up to seconds for the exit; fills exited/status. 0 or -1. */
int soak_tui_quit(struct soak_tui *t, double seconds);
/* Number of sanitizer report files the TUI left (log_path). */
int soak_tui_sanitizer_reports(const struct soak_tui *t);
/* Kills the process if still running, frees everything, removes dir. */
void soak_tui_stop(struct soak_tui *t);

double soak_now(void);

#endif
