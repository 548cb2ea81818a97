/* JSON reports of runs over replicas of one UFF molecule, what `vkmd uff
 * relax --json` and `vkmd uff md --json` print: the run's settings and one
 * object per replica, with units named. */
#ifndef VKMD_IO_UFF_REPLICAS_JSON_H
#define VKMD_IO_UFF_REPLICAS_JSON_H

#include "system/fire_settings.h"
#include "system/uff_terms.h"

#include <stdio.h>

/* A FIRE relaxation of replicas (sim/uff_relax.h or the CPU reference). */
typedef struct vkmd_uff_relax_report {
    const char *molecule, *device, *out; /* names as reported (not escaped) */
    int32_t atom_count, replica_count;
    int32_t host_checks;                 /* device submissions (0 on the CPU) */
    vkmd_uff_fire_params params;         /* as resolved (vkmd_uff_fire_params_resolve) */
    const vkmd_uff_fire_result *results; /* [replica_count] */
} vkmd_uff_relax_report;

/* Langevin dynamics of replicas (sim/uff_md.h). */
typedef struct vkmd_uff_md_report {
    const char *molecule, *device;
    int32_t atom_count, replica_count, steps;
    double dt_fs, temperature_k, friction_per_ps;
    int64_t seed;
    const double *mean_temperature_k;    /* [replica_count] K */
    const vkmd_uff_energy *final_energy; /* [replica_count]: .total reported */
} vkmd_uff_md_report;

/* Writes the report as one JSON object (and a newline) to out. */
void vkmd_uff_relax_write_json(FILE *out, const vkmd_uff_relax_report *rep);
void vkmd_uff_md_write_json(FILE *out, const vkmd_uff_md_report *rep);

#endif
