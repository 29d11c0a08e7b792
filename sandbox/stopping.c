/* stopping: the sandbox-wide "stopping" state and a sleep that ends with it. */
#include "config.h"

#include "stopping.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_wake;
static pthread_once_t stop_wake_once = PTHREAD_ONCE_INIT;
static atomic_int stop_raised;

/* The condition times out on the monotonic clock: a wall clock set back does not stretch a delay. */
static void stop_wake_init(void)
{
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&stop_wake, &attr);
	pthread_condattr_destroy(&attr);
}

void stopping_begin(void)
{
	pthread_once(&stop_wake_once, stop_wake_init);
	pthread_mutex_lock(&stop_lock);
	atomic_store(&stop_raised, 1);
	pthread_cond_broadcast(&stop_wake);
	pthread_mutex_unlock(&stop_lock);
}

int stopping_now(void)
{
	return atomic_load(&stop_raised);
}

int stopping_sleep_ms(int ms)
{
	pthread_once(&stop_wake_once, stop_wake_init);
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&stop_lock);
	int timed_out = 0;
	while (!atomic_load(&stop_raised) && !timed_out)
		timed_out = pthread_cond_timedwait(&stop_wake, &stop_lock, &until) != 0;
	int cut = atomic_load(&stop_raised);
	pthread_mutex_unlock(&stop_lock);
	return cut ? -1 : 0;
}
