/* Monotonic clock and simulation speed (see clock.h). */
#include "core/clock.h"

#include <time.h>

double vkmd_clock_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double vkmd_ns_per_day(int64_t steps, double dt_fs, double wall_s)
{
    if (!(wall_s > 0))
        return 0;
    return (double)steps * dt_fs * 1e-6 * (86400.0 / wall_s);
}
