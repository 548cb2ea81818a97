/* The pure maths of a Monte Carlo volume move (sim/barostat.c), shared with
 * the tests' double-precision check: scaling whole molecules' centres of
 * mass with the box, and the Metropolis exponent of the trial. No Vulkan.
 *
 * Molecules move rigidly (each atom by its molecule's centre shift), so
 * bond lengths and constraints are untouched; velocities are not scaled
 * (as OpenMM's MonteCarloBarostat). */
#ifndef VKMD_MATHS_VOLUME_MOVE_H
#define VKMD_MATHS_VOLUME_MOVE_H

#include "system/molecules.h"
#include "system/system.h"

/* Moves every molecule of `mol` so that its centre of mass c becomes
 * (c_x s_x, c_y s_y, c_z s_z), scale[3] = new edge / old edge per axis.
 * positions [3 * atom_count] A, whole molecules, in place. */
void vkmd_volume_move_scale(const vkmd_system *sys, const vkmd_molecules *mol,
                            const double scale[3], double *positions);

/* The acceptance exponent w / kT of a trial volume change from v_old to
 * v_new (A^3) with energy change du (kcal/mol), pressure p (kcal/mol/A^3),
 * n_molecules molecules and kt (kcal/mol):
 *   w = du + p (v_new - v_old) - n_molecules kt ln(v_new / v_old).
 * The move is accepted with probability min(1, exp(-w / kT)). */
double vkmd_volume_move_exponent(double du, double p, double v_old, double v_new,
                                 int64_t n_molecules, double kt);

#endif
