/* When an MD run has blown up: the one definition of a runaway report that
 * the run controller's checks and the benchmark share. A report is bad when
 * its total energy is not finite, its temperature is above
 * max(10 T_target, 5000 K), or |E_total| is above 1e9 kcal/mol. */
#ifndef VKMD_SIM_RUNAWAY_H
#define VKMD_SIM_RUNAWAY_H

#include "sim/md.h"

/* |E_total| above this is a runaway, kcal/mol. */
#define VKMD_MD_RUNAWAY_ENERGY_KCAL_MOL 1e9

/* Temperature above which a run at target_k is a runaway: max(10 target_k,
 * 5000 K). */
double vkmd_md_runaway_temperature_k(double target_k);

/* 1 when report r of a run at target_k is non-finite or a runaway (above),
 * else 0. */
int vkmd_md_report_runaway(const vkmd_md_report *r, double target_k);

#endif
