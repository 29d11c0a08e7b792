/* stopping: the sandbox-wide "stopping" state. Raised once, when the server stops (SIGTERM,
 * SIGINT); whatever a thread waits for then ends early: an injected delay, a download, a
 * webhook call. */
#ifndef SB_STOPPING_H
#define SB_STOPPING_H

/* Raises the state and wakes every stopping_sleep_ms. Idempotent. */
void stopping_begin(void);
/* 1 once stopping_begin ran. */
int stopping_now(void);
/* Waits ms milliseconds (monotonic clock) unless the sandbox stops first: 0 when the whole
 * delay passed, -1 when it was cut short (or the sandbox was already stopping). */
int stopping_sleep_ms(int ms);

#endif
