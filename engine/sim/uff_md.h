/* Langevin dynamics of many UFF replicas at once on a Vulkan device
 * (shaders/uff_md.comp around the multi-replica force pass,
 * forces/pass_uff.h), no constraints, no periodic box.
 *
 * Integrator: BAOAB (Leimkuhler and Matthews, Appl. Math. Res. Express
 * 2013): B v += dt/2 F/m; A x += dt/2 v; O v = c1 v + c2 sqrt(kT/m) R
 * (c1 = exp(-gamma dt), c2 = sqrt(1 - c1^2)); A x += dt/2 v; forces; B.
 * Units: A, fs, amu, kcal/mol (F/m in kcal/mol/A/amu times 4.184e-4 is
 * A/fs^2).
 *
 * Random numbers: the shared Philox4x32-10 of the AMBER thermostat
 * (core/philox.h, shaders/common/philox.glsl), counter-based, so every
 * number is a pure function of (seed, step, replica, atom): the key is the
 * 64-bit seed, the counter (step, replica, atom, stream), stream 0 the
 * thermostat's noise and stream 1 the initial velocities. The block's four
 * words give the x, y, z normals by the shared Box-Muller
 * (vkmd_philox_box_muller3 / philox_box_muller3). A run is bitwise
 * repeatable for a seed, whatever the batch's order of work.
 *
 * Temperature: 2 KE / (3 N kB) per replica after each full step (no
 * constraints; the Langevin bath does not conserve momentum, so 3N degrees
 * of freedom), averaged over the steps of a run. */
#ifndef VKMD_SIM_UFF_MD_H
#define VKMD_SIM_UFF_MD_H

#include "core/result.h"
#include "system/uff_batch.h"
#include "system/uff_molecule.h"

#include <stdint.h>

#define VKMD_KB_KCAL_PER_MOL_K 0.0019872041 /* Boltzmann constant, kcal/mol/K */
#define VKMD_ACCEL_UNIT        4.184e-4     /* (kcal/mol/A/amu) in A/fs^2 */

/* Standard atomic weights (amu) of m's atoms into out_mass [atom_count].
 * Errors: VKMD_ERROR_INVALID_ARGUMENT naming an atom of an element beyond
 * xenon (no mass tabled). */
vkmd_result vkmd_uff_masses(const vkmd_uff_molecule *m, double *out_mass);

typedef struct vkmd_uff_md_params {
    double dt_fs;           /* 0.5 fs */
    double temperature_k;   /* 300 K */
    double friction_per_ps; /* 5 per ps */
    uint64_t seed;          /* 0 */
    int32_t check_interval; /* 50: steps per replayed command buffer */
} vkmd_uff_md_params;

typedef struct vkmd_uff_md vkmd_uff_md;
struct vkmd_vk_context;

/* Sets up the force pass, state and pipelines for `batch` with per-atom
 * masses_amu [batch atom_count] (batch order) and `params` (NULL: defaults).
 * Errors: pass errors, VKMD_ERROR_INVALID_ARGUMENT (a non-positive mass,
 * dt, friction or temperature out of range), Vulkan and memory errors. */
vkmd_result vkmd_uff_md_create(struct vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                               const double *masses_amu, const vkmd_uff_md_params *params,
                               vkmd_uff_md **out_md);

/* Positions xyz [3 * atom_count] A and velocities vel (A/fs, same layout)
 * or, vel NULL, Maxwell-Boltzmann velocities at the temperature drawn from
 * Philox stream 1 of the seed. Resets the step counter to 0. */
vkmd_result vkmd_uff_md_set_state(struct vkmd_vk_context *ctx, vkmd_uff_md *md, const double *xyz,
                                  const double *vel);

/* Runs `steps` BAOAB steps of every replica from the current state (forces
 * evaluated afresh first). out_mean_temperature [replica_count] (may be
 * NULL): each replica's temperature (K) averaged over these steps.
 * Errors: Vulkan errors, VKMD_ERROR_NUMERIC (a non-finite temperature). */
vkmd_result vkmd_uff_md_run(struct vkmd_vk_context *ctx, vkmd_uff_md *md, int32_t steps,
                            double *out_mean_temperature);

/* Current positions (A), velocities (A/fs) [3 * atom_count] and potential
 * energies [replica_count] at those positions (kcal/mol); any may be NULL. */
vkmd_result vkmd_uff_md_read(struct vkmd_vk_context *ctx, vkmd_uff_md *md, double *out_xyz,
                             double *out_vel, vkmd_uff_energy *out_energies);

/* Steps made since the last vkmd_uff_md_set_state. */
int64_t vkmd_uff_md_steps(const vkmd_uff_md *md);

/* The device buffers, e.g. for the viewer (owned by the MD): positions
 * vec4 [atom_count] A, velocities vec4 (xyz A/fs, w = mass amu), forces
 * int64 fixed point [3 * atom_count] planes x | y | z. */
struct vkmd_vk_buffer;
const struct vkmd_vk_buffer *vkmd_uff_md_positions(const vkmd_uff_md *md);
const struct vkmd_vk_buffer *vkmd_uff_md_velocities(const vkmd_uff_md *md);
const struct vkmd_vk_buffer *vkmd_uff_md_forces(const vkmd_uff_md *md);

/* NULL: no-op. */
void vkmd_uff_md_destroy(struct vkmd_vk_context *ctx, vkmd_uff_md *md);

#endif
