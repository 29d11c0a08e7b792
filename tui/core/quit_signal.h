#ifndef STENO_CORE_QUIT_SIGNAL_H
#define STENO_CORE_QUIT_SIGNAL_H

/* SIGHUP (a dropped SSH connection), SIGTERM, SIGINT and SIGQUIT (^\: curses' cbreak mode
 * leaves ISIG on, so the key sends it) end the browser the way `q` does:
 * the handler only notes the signal and writes a byte to a non-blocking self-pipe whose read
 * end the loop's wait polls beside the terminal, so the loop leaves, the state is saved, and
 * `--sandbox` stops its sandbox and removes its directory (core/sandbox_launch.c). Installed
 * before ncurses starts, so that initscr keeps its hands off SIGINT and SIGTERM. No curses. */

/* Installs the handlers (once; later calls do nothing). 0, or -1 when the pipe could not be
 * made (the handlers still note the signal; waits then see it at their next wake-up). */
int quit_signal_install(void);

/* The pipe's read end, -1 when none. It stays readable once a signal came (it is never
 * drained: the program is on its way out), so every later wait returns at once. */
int quit_signal_fd(void);

/* The number of the first signal that came, 0 when none. */
int quit_signal_caught(void);

#endif
