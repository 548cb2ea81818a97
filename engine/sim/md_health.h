/* Whether an MD state is usable: the one definition of a blown-up or
 * runaway simulation that the run controller (run/run.h, which stops and
 * replays), the benchmarks and the tests share. */
#ifndef VKMD_SIM_MD_HEALTH_H
#define VKMD_SIM_MD_HEALTH_H

#include "sim/md.h"

#include <stddef.h>

/* Runaway bounds: the kinetic temperature above max(10 T_target,
 * VKMD_MD_RUNAWAY_MIN_K), or |E_total| above VKMD_MD_RUNAWAY_ENERGY kcal/mol. */
#define VKMD_MD_RUNAWAY_MIN_K  5000.0
#define VKMD_MD_RUNAWAY_ENERGY 1e9

/* max(10 t_target_k, VKMD_MD_RUNAWAY_MIN_K), K. */
double vkmd_md_runaway_temperature(double t_target_k);

/* 0 if the report's energies are finite and below the runaway bounds (for a
 * bath or starting temperature t_target_k), else 1 and a short reason in
 * `why` ("temperature 1.2e+04 K (runaway: above 5000 K)"). */
int vkmd_md_health_check(const vkmd_md_report *r, double t_target_k, char *why, size_t size);

#endif
