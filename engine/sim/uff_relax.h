/* Relaxation of many UFF replicas on a Vulkan device, from their starts to
 * their reports, in one call: the minimiser (quasi-Newton, sim/uff_lbfgs.h,
 * or FIRE, sim/uff_fire.h) made, run and released inside. What
 * `vkmd uff relax` runs on a device and the entry point for other clients
 * (the Python package): vkmd_uff_relax_batch takes any batch, mixed
 * molecules included. CPU references: ref/ref_uff_lbfgs.h and
 * ref/ref_uff_fire.h, one replica at a time. */
#ifndef VKMD_SIM_UFF_RELAX_H
#define VKMD_SIM_UFF_RELAX_H

#include "sim/uff_fire.h"
#include "system/uff_lbfgs_settings.h"
#include "vk/context.h"

typedef enum vkmd_uff_minimizer_kind {
    VKMD_UFF_MIN_LBFGS = 0, /* quasi-Newton: RDKit's BFGS, or L-BFGS with memory > 0 */
    VKMD_UFF_MIN_FIRE = 1,
} vkmd_uff_minimizer_kind;

/* Zero means default. */
typedef struct vkmd_uff_relax_params {
    vkmd_uff_minimizer_kind minimizer; /* VKMD_UFF_MIN_LBFGS */
    /* L-BFGS: RDKit's forceTol test (system/uff_lbfgs_settings.h), 1e-4;
     * FIRE: max |F| < force_tol kcal/mol/A, 1e-3 */
    double force_tol;
    double energy_tol;      /* L-BFGS only: relative energy change; 0 off */
    int32_t max_iterations; /* L-BFGS 1000 line searches; FIRE 20000 steps */
    int32_t memory;         /* L-BFGS only: 0 dense BFGS; 1..16 L-BFGS pairs */
    int32_t check_interval; /* evaluations per host check: L-BFGS 64, FIRE 100 */
    int fire_rms;           /* FIRE only: converged on RMS |F| instead of max |F| */
} vkmd_uff_relax_params;

/* Relaxes every replica of `batch` (borrowed) from start ([3 * batch
 * atom_count] A, batch order) with `params` (NULL: defaults) on ctx.
 * out_xyz (same layout; may be NULL) receives the final coordinates,
 * out_results [replica_count] (may be NULL) each replica's report
 * (converged flag and why, iterations, energy evaluations, initial and
 * final energy, max and RMS |F|), *out_submissions (may be NULL) the host
 * checks made. Errors: those of the minimiser's create and run. */
vkmd_result vkmd_uff_relax_batch(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                 const vkmd_uff_relax_params *params, const double *start,
                                 double *out_xyz, vkmd_uff_relax_result *out_results,
                                 int32_t *out_submissions);

/* The minimisers' own parameters for `p` (the CPU references take them:
 * ref/ref_uff_fire.h, ref/ref_uff_lbfgs.h). */
vkmd_uff_fire_params vkmd_uff_relax_fire_params(const vkmd_uff_relax_params *p);
vkmd_uff_lbfgs_params vkmd_uff_relax_lbfgs_params(const vkmd_uff_relax_params *p);

#endif
