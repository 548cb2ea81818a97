/* SETTLE for rigid waters and SHAKE / RATTLE per H-bond cluster on the
 * host, in double precision. The CPU reference integrator (ref/ref_md.h)
 * uses it as the oracle of the device's constraint passes, and the
 * simulation (sim/md.c) at setup and at report steps (constraining the
 * starting positions and velocities, the reported kinetic energy), so both
 * share one definition. Conventions: positions [3 * atom_count] A,
 * velocities A/fs, masses amu; molecules whole (plain differences); `tol`
 * relative (|r - d| <= tol * d). No Vulkan. */
#ifndef VKMD_MATHS_HOST_CONSTRAINTS_H
#define VKMD_MATHS_HOST_CONSTRAINTS_H

#include "core/result.h"
#include "system/constraints.h"

/* Moves `pos` (after an unconstrained update from `ref`) so that every
 * constraint holds: SETTLE for waters, SHAKE per H cluster (iterated to
 * `tol` along the reference bond vectors, at most 1000 iterations). If `vel`
 * is not NULL and dt_fs > 0, adds (pos_after - pos_before) / dt_fs to it.
 * Errors: VKMD_ERROR_NUMERIC (a cluster did not converge; names the atom). */
vkmd_result vkmd_host_constraints_positions(const vkmd_constraint_set *set, const double *mass,
                                            const double *ref, double *pos, double *vel,
                                            double dt_fs, double tol);

/* Removes from `vel` every relative velocity along a constraint (SETTLE's
 * velocity part for waters, RATTLE per cluster, solved exactly per cluster). */
vkmd_result vkmd_host_constraints_velocities(const vkmd_constraint_set *set, const double *mass,
                                             const double *pos, double *vel, double tol);

/* Largest |r - d| in A over water O-H and H-H distances, and largest
 * |r - d| / d over cluster constraints (0 when there are none). */
void vkmd_host_constraints_violation(const vkmd_constraint_set *set, const double *pos,
                                     double *out_water_max_a, double *out_hbond_max_rel);

#endif
