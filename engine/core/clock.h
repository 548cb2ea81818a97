/* Wall-clock time for speed reports: a monotonic clock and simulated
 * nanoseconds per day. */
#ifndef VKMD_CORE_CLOCK_H
#define VKMD_CORE_CLOCK_H

#include <stdint.h>

/* Monotonic clock in seconds (CLOCK_MONOTONIC). */
double vkmd_clock_now_s(void);

/* Simulated ns per day of wall time for `steps` of dt_fs in wall_s seconds
 * (0 if wall_s <= 0). */
double vkmd_ns_per_day(int64_t steps, double dt_fs, double wall_s);

#endif
