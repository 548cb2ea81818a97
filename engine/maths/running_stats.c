/* Mean and standard deviation of a series (maths/running_stats.h). */
#include "maths/running_stats.h"

#include <math.h>

void vkmd_running_stats_add(vkmd_running_stats *r, double x)
{
    ++r->n;
    const double delta = x - r->mean;
    r->mean += delta / (double)r->n;
    r->m2 += delta * (x - r->mean);
}

double vkmd_running_stats_sd(const vkmd_running_stats *r)
{
    return r->n > 1 ? sqrt(r->m2 / (double)(r->n - 1)) : 0.0;
}
