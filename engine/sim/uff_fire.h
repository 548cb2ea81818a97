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
 * FIRE's update itself is shared with the AMBER minimiser (sim/minimize.h):
 * shaders/common/fire.glsl on the device, engine/ref/ref_fire.h in the
 * reference, parameters in vkmd_fire_params (params.fire). The paper mixes
 * v before its P test and zeroes it after when P <= 0; both implementations
 * mix only when P > 0, which gives the same velocities.
 *
 * Surprise: converged replicas still go through the force pass (it
 * evaluates the whole batch); they just no longer move, so their energies
 * stay those of their final coordinates. */
#ifndef VKMD_SIM_UFF_FIRE_H
#define VKMD_SIM_UFF_FIRE_H

#include "core/result.h"
#include "system/fire_settings.h"
#include "system/uff_batch.h"

#include <stdint.h>

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
