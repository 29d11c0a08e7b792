/* clock: the sandbox clock = real time x --clock-speed + an admin offset.
 * Every state machine reads it; the offset is persisted so states stay right after a restart. */
#ifndef SB_CLOCK_H
#define SB_CLOCK_H

/* speed > 0; offset: seconds ahead of real time saved by a previous run. */
void clock_init(double speed, double offset);
double clock_now(void);
/* Moves the clock forward by secs (>= 0). */
void clock_advance(double secs);
/* Seconds the sandbox clock is ahead of real time now (what to persist). */
double clock_offset_now(void);

/* Saves the offset in the data dir's meta table (on advance, periodically, at exit). */
void clock_save(void);

#endif
