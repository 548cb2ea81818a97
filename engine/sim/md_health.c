/* Health of an MD state (see md_health.h). */
#include "sim/md_health.h"

#include <math.h>
#include <stdio.h>

double vkmd_md_runaway_temperature(double t_target_k)
{
    return fmax(10 * t_target_k, VKMD_MD_RUNAWAY_MIN_K);
}

int vkmd_md_health_check(const vkmd_md_report *r, double t_target_k, char *why, size_t size)
{
    const double t_max = vkmd_md_runaway_temperature(t_target_k);
    if (!isfinite(r->potential.total)) {
        snprintf(why, size, "potential energy %g kcal/mol", r->potential.total);
        return 1;
    }
    if (!isfinite(r->kinetic)) {
        snprintf(why, size, "kinetic energy %g kcal/mol", r->kinetic);
        return 1;
    }
    if (r->temperature_k > t_max) {
        snprintf(why, size, "temperature %.4g K (runaway: above %.4g K)", r->temperature_k, t_max);
        return 1;
    }
    if (fabs(r->total) > VKMD_MD_RUNAWAY_ENERGY) {
        snprintf(why, size, "total energy %.4g kcal/mol (runaway)", r->total);
        return 1;
    }
    return 0;
}
