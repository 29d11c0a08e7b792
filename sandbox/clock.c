/* clock: sandbox time. */
#include "config.h"

#include "clock.h"

#include "db.h"
#include "util.h"

#include <stdio.h>

#include <pthread.h>

static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static double clock_speed = 1.0;
static double clock_real_start;
static double clock_offset;

void clock_init(double speed, double offset)
{
	pthread_mutex_lock(&clock_lock);
	clock_speed = speed > 0 ? speed : 1.0;
	clock_real_start = util_real_now();
	clock_offset = offset;
	pthread_mutex_unlock(&clock_lock);
}

double clock_now(void)
{
	double real = util_real_now();
	pthread_mutex_lock(&clock_lock);
	double t = real + clock_offset + (real - clock_real_start) * (clock_speed - 1.0);
	pthread_mutex_unlock(&clock_lock);
	return t;
}

void clock_advance(double secs)
{
	if (secs <= 0)
		return;
	pthread_mutex_lock(&clock_lock);
	clock_offset += secs;
	pthread_mutex_unlock(&clock_lock);
}

double clock_offset_now(void)
{
	return clock_now() - util_real_now();
}

void clock_save(void)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.3f", clock_offset_now());
	db_meta_set("clock_offset", buf);
}
