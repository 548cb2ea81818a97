/* The force-evaluation benchmark behind `vkmd bench --forces`, beside the
 * force field it measures: how long one full evaluation takes on a device
 * and where the time goes, from GPU timestamps around every pass.
 *
 * Two figures per system: the steady state (positions unchanged, so the
 * neighbour list is only checked, as on most MD steps) and an evaluation
 * that rebuilds the list (as every 10-20 steps in MD). Each is the mean over
 * `repeat` submissions (repeat / 4 for the rebuild) after one warm-up
 * evaluation (drivers compile pipelines on first use). Wall time per
 * evaluation includes the submit and fence wait, which a recorded MD loop
 * amortises over many steps. */
#ifndef VKMD_SIM_BENCH_FORCES_H
#define VKMD_SIM_BENCH_FORCES_H

#include "forces/forcefield.h"

#include <stdio.h>

typedef struct vkmd_bench_forces_desc {
    int repeat;                    /* submissions averaged per figure (>= 1) */
    int lj;                        /* VKMD_LJ_FP32 (0) or an fp16 form (VKMD_LJ_*) ... */
    double lj_min_r_a;             /* 0; ... for pairs beyond this, A */
    int positions;                 /* VKMD_POSITIONS_FP32 (0) or another VKMD_POSITIONS_* */
    const double *ref_forces;      /* NULL; else reference forces [3 * atoms] kcal/mol/A ... */
    const vkmd_energy *ref_energy; /* ... and energies, for the errors below (borrowed) */
} vkmd_bench_forces_desc;

typedef struct vkmd_bench_forces_result {
    const char *system; /* the spec timed (borrowed from the call) */
    int32_t atoms;
    double steady_ms, rebuild_ms, wall_ms; /* GPU ms per evaluation; wall ms (steady) */
    double prune_ms;                       /* GPU ms per evaluation that prunes the list */
    double steady_pass_ms[VKMD_FF_PASS_COUNT], rebuild_pass_ms[VKMD_FF_PASS_COUNT];
    double prune_pass_ms[VKMD_FF_PASS_COUNT]; /* the prune is in the nonbonded pass's time */
    double memory_mib;                        /* the force field's device memory */
    uint32_t builds;                          /* neighbour-list builds over the whole benchmark */
    int lj;                                   /* VKMD_LJ_* */
    double lj_min_r;                          /* A */
    int positions;                            /* VKMD_POSITIONS_* */
    double force_rms_rel;   /* RMS(F - F_ref) / RMS(F_ref) of the warm-up; < 0: no reference */
    double lj_energy_error; /* |E_lj_pair - ref|, kcal/mol; < 0: no reference */
} vkmd_bench_forces_result;

/* Times the system `spec` (vkmd_system_load: prmtop path or water:N, default
 * force-field settings) on ctx. Errors: loading, settings, device and
 * memory errors; a neighbour-list overflow as in any evaluation. */
vkmd_result vkmd_bench_forces_run(vkmd_vk_context *ctx, const char *spec,
                                  const vkmd_bench_forces_desc *desc,
                                  vkmd_bench_forces_result *out);

/* Writes the `n` results of a run averaging `repeat` evaluations on the
 * device d as one JSON object ("benchmark": "forces", units in "units",
 * one object per result) to `path`. Errors: VKMD_ERROR_IO naming the path. */
vkmd_result vkmd_bench_forces_write(const char *path, const vkmd_vk_device_info *d,
                                    const vkmd_bench_forces_result *r, int n, int repeat);

/* The results as `vkmd bench --forces` prints them: a row per run (system,
 * positions, LJ, force error, steady / rebuild / wall ms, then ms per pass,
 * steady and rebuild) after the device's line (bench_tables.c). */
void vkmd_bench_forces_write_table(FILE *out, const vkmd_vk_device_info *d,
                                   const vkmd_bench_forces_result *r, int n);

#endif
