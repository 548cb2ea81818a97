/* Energy minimisation of the AMBER force field on the device before
 * dynamics: FIRE (Bitzek, Koskinen, Gaehler, Moseler, Gumbsch, PRL 97,
 * 170201, 2006) with the atoms' masses, entirely on the device
 * (shaders/minimize_fire.comp after the force field's passes); the host only
 * reads a 48-byte state between batches of iterations. The CPU oracle is
 * ref_minimize_run (engine/ref/ref_minimize.h), the same algorithm in double.
 * FIRE's update itself (the P test, mixing, dt and alpha, the step cap) is
 * written once for both minimisers: shaders/common/fire.glsl on the device,
 * engine/ref/ref_fire.h in the references, with the parameters in
 * vkmd_fire_params (desc.fire, system/fire_settings.h).
 *
 * One iteration, at positions x with force F = -grad E (kcal/mol/A),
 * a = F / m * VKMD_ACCEL_PER_FORCE_MASS (A/fs^2) and FIRE's velocity v
 * (A/fs, zero at the start):
 *   f = F (constrained: see below);
 *   converged when max_atoms |f_i| < force_tol: stop, no move;
 *   stop after max_iterations moves;
 *   P = f.v over all 3N components;  (the first move has no v to judge)
 *   P > 0:  v <- (1 - alpha) v + alpha |v| f / |f|; after more than N_min
 *           such iterations in a row, dt <- min(f_inc dt, dt_max) and
 *           alpha <- f_alpha alpha;
 *   P <= 0: v <- 0, dt <- f_dec dt, alpha <- alpha_start, count <- 0;
 *   v <- v + dt a;  x_ref <- x;  x <- x + dt v, each atom's step capped
 *   at max_step_a (v is not changed by the cap);
 *   constrained: x is constrained with x_ref as the reference.
 * (Semi-implicit Euler steps, as most FIRE codes; norms are plain Euclidean
 * over 3N components, as LAMMPS's and ASE's.) Parameters are the paper's:
 * N_min 5, f_inc 1.1, f_dec 0.5, alpha_start 0.1, f_alpha 0.99, with
 * dt_max = 10 dt_start.
 *
 * Time step: real masses make dt a time. The fastest unconstrained motion of
 * an AMBER system is an X-H stretch (TIP3P O-H: k = 553 kcal/mol/A^2,
 * reduced mass 0.95 amu, omega = 0.70 / fs), and a semi-implicit Euler step
 * is stable below dt = 2 / omega = 2.9 fs; dt_max 2 fs keeps a margin and
 * dt_start 0.2 fs takes the first steps from a clashing start gently (FIRE
 * raises dt while the power stays positive). max_step_a 0.1 A bounds the
 * first moves out of a clash.
 *
 * Constraints (optional; engine/sim/sim_constraints.h): the constraints object
 * must have been created on the same three buffers as given here (the force
 * field's positions, positions_ref, velocities). Then
 *   - the starting positions are constrained first (reference: themselves);
 *   - a = F / m is written to velocities.xyz and the velocity constraint
 *     removes from it every relative component along a constraint (the
 *     mass-weighted projection: a_c is the acceleration the constraint forces
 *     leave); f = m a_c (per atom) is the constrained force, and it is f that
 *     enters P, |f|, the mixing and the convergence test, and a_c the
 *     velocity update;
 *   - every move is followed by the position constraint with x_ref = the
 *     positions before the move.
 * velocities.xyz is scratch then (left holding a_c); without constraints it
 * is not written. Its w (1/m, 1/amu) is read in both cases and must be set.
 *
 * Batches: check_interval iterations are recorded into one command buffer
 * and replayed; after each the host reads the state (converged, stopped)
 * and the neighbour list's overflow flag. Iterations after convergence in a
 * batch still evaluate forces but change nothing. Every sum is a tree in a
 * fixed order: a run is bitwise repeatable.
 *
 * Neighbour-list overflow (periodic systems, vkmd_forcefield_readback
 * reports VKMD_ERROR_CAPACITY): each batch starts by saving positions,
 * FIRE's velocities and state on the device; on overflow they are restored,
 * vkmd_forcefield_evaluate grows the list (it re-creates the nonbonded
 * pass, so the batch is re-recorded) and the batch runs again. */
#ifndef VKMD_SIM_MINIMIZE_H
#define VKMD_SIM_MINIMIZE_H

#include "core/result.h"
#include "system/fire_settings.h"

#include <stdint.h>

/* ---- On a Vulkan device ------------------------------------------------- */
struct vkmd_vk_context;
struct vkmd_vk_buffer;
struct vkmd_forcefield;
struct vkmd_sim_constraints;

/* Minimises from the force field's current positions (left at the minimum
 * on return). positions_ref and velocities: vec4 [atom_count] buffers
 * (layouts in engine/sim/sim_constraints.h); velocities.w must hold 1/m.
 * positions_ref_x: the split parts of positions_ref when the force field's
 * positions are split (uvec4 [2 * atom_count]), else NULL; the moves then
 * go through common/positions.glsl like the MD drifts. `c` may
 * be NULL (no constraints); `d` may be NULL (defaults). Pipelines and
 * scratch buffers are made and freed per call. Not converging within
 * max_iterations is no error (out->converged = 0). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (parameters, buffer sizes, an atom whose
 * velocities.w is not a positive finite 1/m: named), VKMD_ERROR_NUMERIC
 * (forces became non-finite: the iteration is named), VKMD_ERROR_CAPACITY
 * (the neighbour list kept overflowing after growing), Vulkan and memory
 * errors. */
vkmd_result vkmd_minimize_run(struct vkmd_vk_context *ctx, struct vkmd_forcefield *ff,
                              const struct vkmd_sim_constraints *c,
                              const struct vkmd_vk_buffer *positions_ref,
                              const struct vkmd_vk_buffer *positions_ref_x,
                              const struct vkmd_vk_buffer *velocities, const vkmd_minimize_desc *d,
                              vkmd_minimize_result *out);

#endif
