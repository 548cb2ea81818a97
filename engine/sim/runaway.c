/* The runaway bounds of an MD report (see runaway.h). */
#include "sim/runaway.h"

#include <math.h>

double vkmd_md_runaway_temperature_k(double target_k)
{
    return fmax(10 * target_k, 5000.0);
}

int vkmd_md_report_runaway(const vkmd_md_report *r, double target_k)
{
    return !isfinite(r->total) || !isfinite(r->temperature_k) ||
           r->temperature_k > vkmd_md_runaway_temperature_k(target_k) ||
           fabs(r->total) > VKMD_MD_RUNAWAY_ENERGY_KCAL_MOL;
}
