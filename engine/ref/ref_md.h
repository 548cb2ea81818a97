/* CPU double-precision reference for everything a molecular-dynamics step
 * does besides forces: SETTLE and H-bond cluster constraints (positions and
 * velocities), velocity Verlet and Langevin-middle (BAOAB) steps, kinetic
 * energy and temperature. The oracle for the GPU passes in engine/sim/ and
 * the integrator the short trajectory comparisons run. No Vulkan.
 *
 * Conventions (as the GPU path):
 * - positions and velocities [3 * atom_count], A and A/fs; masses amu;
 *   forces kcal/mol/A; a = F / m * VKMD_ACCEL_PER_FORCE_MASS (core/units.h).
 * - Molecules are whole (system/molecules.h): constraints use plain
 *   differences, not the minimum image.
 * - Constraint tolerance `tol` is relative: every constrained distance ends
 *   with |r - d| <= tol * d (SETTLE is analytic and exact to rounding).
 *
 * Velocity Verlet, one step of dt (forces f(x) given, f(x') returned):
 *   v += dt/2 a(x); x' = x + dt v; constrain x' (reference x), v += (x'c - x')/dt;
 *   f = F(x'); v += dt/2 a(x'); constrain velocities (RATTLE / SETTLE).
 * Langevin middle (OpenMM's LangevinMiddleIntegrator), one step of dt:
 *   v += dt a(x); constrain velocities;
 *   x' = x + dt/2 v;
 *   v = c1 v + c2 sqrt(1/m) g,  c1 = exp(-gamma dt), c2 = sqrt(kT (1 - c1^2)) in A/fs units,
 *       g = vkmd_philox_gauss3(seed, step, atom, 0);
 *   x' += dt/2 v; constrain x' (reference x); v += (x'c - x') / dt; f = F(x'c).
 * (The last velocity update is OpenMM's: only the constraint's displacement
 * changes v. v = (x'c - x) / dt would replace v by the mean of the two
 * half-step velocities around the O step, whose variance is (1 + c1) / 2 of
 * the thermal one even without constraints.)
 * After a Langevin step v keeps about half of the O step's noise along each
 * constraint (only the position correction feeds back into v); apply
 * vkmd_host_constraints_velocities before reading a temperature from it or before
 * continuing with velocity Verlet.
 */
#ifndef VKMD_REF_REF_MD_H
#define VKMD_REF_REF_MD_H

#include "maths/host_constraints.h"
#include "maths/kinetic.h"
#include "system/constraints.h"
#include "system/ff_settings.h"
#include "system/system.h"

typedef enum ref_integrator {
    REF_INTEGRATOR_VERLET = 0,
    REF_INTEGRATOR_LANGEVIN = 1
} ref_integrator;

typedef struct ref_md_params {
    ref_integrator integrator;
    double dt_fs;
    double temperature_k;   /* Langevin */
    double friction_per_ps; /* Langevin */
    uint64_t seed;          /* Langevin noise */
    double tol;             /* constraint tolerance (relative) */
} ref_md_params;

/* One step from `step` to step + 1 of `sys` (its masses and parameters; its
 * positions and velocities are not used). pos, vel: state in and out; forces:
 * F(pos) in, F(new pos) out; out_energy (may be NULL): the potential at the
 * new positions. Errors: constraint and force errors. */
vkmd_result ref_md_step(const vkmd_system *sys, const vkmd_ff_settings *settings,
                        const vkmd_constraint_set *set, const ref_md_params *p, uint64_t step,
                        double *pos, double *vel, double *forces, vkmd_energy *out_energy);

#endif
