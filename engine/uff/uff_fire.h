/* FIRE minimisation of many UFF replicas at once on a Vulkan device
 * (shaders/uff_fire.comp after the multi-replica force pass,
 * forces/pass_uff.h), plus what the CPU reference (ref/ref_uff_fire.h) and
 * the tools share: the parameters, the per-replica report and the seeded
 * perturbation of starting coordinates.
 *
 * FIRE (Bitzek, Koskinen, Gaehler, Moseler, Gumbsch, PRL 97, 170201, 2006),
 * per replica, each with its own dt, alpha, velocity, step counter and
 * convergence, in the form most codes use (the MD step is semi-implicit
 * Euler, unit masses):
 *   F = -grad E at x; if max_a |F_a| (or RMS) < ftol: converged, stop;
 *   P = F.v;  v <- (1 - alpha) v + alpha |v| F/|F|;
 *   P > 0: after more than N_min such steps dt <- min(f_inc dt, dt_max),
 *          alpha <- f_alpha alpha;
 *   P <= 0: dt <- f_dec dt, v <- 0, alpha <- alpha_start, count <- 0;
 *   v <- v + dt F;  dx <- dt v (each atom's |dx| capped at max_step_a);
 *   x <- x + dx.
 * Parameters: the paper's N_min 5, f_inc 1.1, f_dec 0.5, alpha_start 0.1,
 * f_alpha 0.99. Time is in units where a unit-mass atom under F kcal/mol/A
 * moves dt^2 F A: the stiffest UFF stretch (X-H, k ~ 700 kcal/mol/A^2, two
 * unit masses: omega = sqrt(2k) ~ 37) is stable for dt < 2/omega ~ 0.054,
 * hence dt_max 0.05 and dt_start 0.01 (FIRE grows dt when it can).
 *
 * Surprise: converged replicas still go through the force pass (it
 * evaluates the whole batch); they just no longer move, so their energies
 * stay those of their final coordinates. */
#ifndef VKMD_UFF_UFF_FIRE_H
#define VKMD_UFF_UFF_FIRE_H

#include "core/result.h"
#include "uff/uff_batch.h"

#include <stdint.h>

#define VKMD_UFF_FIRE_MAX_FORCE 0 /* converged when max_a |F_a| < ftol */
#define VKMD_UFF_FIRE_RMS_FORCE 1 /* converged when sqrt(sum |F_a|^2 / N) < ftol */

typedef struct vkmd_uff_fire_params {
    double ftol;            /* 1e-3 kcal/mol/A */
    int criterion;          /* 0: VKMD_UFF_FIRE_MAX_FORCE; VKMD_UFF_FIRE_RMS_FORCE */
    int32_t max_steps;      /* 20000 FIRE steps per replica */
    double dt_start;        /* 0.01 (see the file comment for the time unit) */
    double dt_max;          /* 0.05 */
    double max_step_a;      /* 0.1 A: cap on one atom's displacement per step */
    int32_t n_min;          /* 5 */
    double f_inc;           /* 1.1 */
    double f_dec;           /* 0.5 */
    double alpha_start;     /* 0.1 */
    double f_alpha;         /* 0.99 */
    int32_t check_interval; /* 100: steps recorded per command buffer between host checks */
} vkmd_uff_fire_params;

/* `p` with every zero field replaced by its default (p may be NULL). */
vkmd_uff_fire_params vkmd_uff_fire_params_resolve(const vkmd_uff_fire_params *p);

/* Outcome of one replica's minimisation. */
typedef struct vkmd_uff_fire_result {
    double energy_initial; /* kcal/mol at the start */
    double energy_final;   /* kcal/mol at the final coordinates */
    double fmax;           /* max_a |F_a| at the final coordinates, kcal/mol/A */
    double frms;           /* RMS force at the final coordinates, kcal/mol/A */
    int32_t steps;         /* FIRE steps taken (moves) */
    int converged;         /* 1 when the criterion was met within max_steps */
} vkmd_uff_fire_result;

/* Displaces `xyz` ([3 * atom_count] A) by a uniform random amount in
 * [-amplitude_a, amplitude_a] per coordinate into out_xyz (may be xyz). The
 * numbers come from splitmix64 seeded with seed + 0x9E3779B97F4A7C15 *
 * (replica + 1), one 53-bit double per coordinate in atom-major order, so
 * the same (seed, replica) give the same start everywhere
 * (tools/uff_relax_rdkit.py repeats it for RDKit). */
void vkmd_uff_perturb(const double *xyz, int32_t atom_count, double amplitude_a, uint64_t seed,
                      uint32_t replica, double *out_xyz);

/* ---- On a Vulkan device ------------------------------------------------- */
struct vkmd_vk_context;
typedef struct vkmd_uff_fire vkmd_uff_fire;

/* Sets up the force pass and FIRE state for `batch` (borrowed during the
 * call only) with `params` (NULL: defaults). Errors: those of
 * vkmd_pass_uff_create, VKMD_ERROR_INVALID_ARGUMENT (a parameter out of
 * range), Vulkan and memory errors. */
vkmd_result vkmd_uff_fire_create(struct vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                 const vkmd_uff_fire_params *params, vkmd_uff_fire **out_fire);

/* Minimises every replica from `xyz` ([3 * batch atom_count] A, batch
 * order): FIRE steps recorded check_interval at a time in one command
 * buffer and replayed until every replica has converged or max_steps is
 * reached. out_xyz (may be NULL) receives the final coordinates (float
 * positions plus their float correction, as double), out_results
 * [replica_count] (may be NULL) each replica's report with device energies
 * and forces. Runs again from new coordinates on each call. Errors: Vulkan
 * errors, VKMD_ERROR_NUMERIC (a replica's forces became non-finite; named). */
vkmd_result vkmd_uff_fire_run(struct vkmd_vk_context *ctx, vkmd_uff_fire *fire, const double *xyz,
                              double *out_xyz, vkmd_uff_fire_result *out_results);

/* Host checks (command-buffer submissions) made by the last run. */
int32_t vkmd_uff_fire_submissions(const vkmd_uff_fire *fire);

/* NULL: no-op. */
void vkmd_uff_fire_destroy(struct vkmd_vk_context *ctx, vkmd_uff_fire *fire);

#endif
