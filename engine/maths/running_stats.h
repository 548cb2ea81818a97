/* Mean and standard deviation of a series, one value at a time (Welford's
 * update, so a density's small spread about 1 g/cm^3 loses no digits):
 * the run summaries and the equilibration's stage figures. No Vulkan. */
#ifndef VKMD_MATHS_RUNNING_STATS_H
#define VKMD_MATHS_RUNNING_STATS_H

#include <stdint.h>

typedef struct vkmd_running_stats {
    int64_t n;
    double mean, m2; /* m2: sum of squared deviations from the mean */
} vkmd_running_stats;

void vkmd_running_stats_add(vkmd_running_stats *r, double x);

/* The sample standard deviation (n - 1); 0 for fewer than two values. */
double vkmd_running_stats_sd(const vkmd_running_stats *r);

#endif
