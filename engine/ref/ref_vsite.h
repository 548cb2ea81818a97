/* CPU double-precision reference of virtual sites (system/vsite.h): the
 * positions built from the parents and the exact spreading of a site's force
 * to its parents (the chain rule of the site's position; for the linear
 * AVERAGE3 f_k += w_k F, for OUT_OF_PLANE also the cross-product terms).
 * Spreading keeps the total force and torque (virial-consistent). No
 * Vulkan. */
#ifndef VKMD_REF_REF_VSITE_H
#define VKMD_REF_REF_VSITE_H

#include "system/system.h"

/* Sets the position of every site in `positions` [3 * atom_count] A from its
 * parents (displacements under the minimum image of sys->box, so a site is
 * built next to its first parent). */
void ref_vsite_build(const vkmd_system *sys, double *positions);

/* Moves each site's force in `f` [3 * atom_count] kcal/mol/A to its parents
 * and zeroes the site's row. `positions` must hold built sites. */
void ref_vsite_spread(const vkmd_system *sys, const double *positions, double *f);

#endif
