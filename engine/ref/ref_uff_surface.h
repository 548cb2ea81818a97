/* Double-precision reference for molecules on surfaces (system/uff_surface.h):
 * the oracle of the device passes in forces/pass_uff_surface.h.
 *
 * Direct: every atom against every substrate atom image within the cutoff
 * (the surface's image list, after wrapping the atom into the cell). Grid:
 * the values the device computes (same sum at the grid points, rounded to
 * float at the end as the device stores them) and the tricubic B-spline
 * evaluation of a prefiltered grid. */
#ifndef VKMD_REF_REF_UFF_SURFACE_H
#define VKMD_REF_REF_UFF_SURFACE_H

#include "system/uff_surface.h"

/* Surface energy (kcal/mol) of `atom_count` atoms at pos [atom_count][3] A,
 * atom a of channel channel[a]; forces (kcal/mol/A) ADDED to f
 * [atom_count][3] (may be NULL). */
double ref_uff_surface_direct(const vkmd_uff_surface *s, const int32_t *channel, int32_t atom_count,
                              const double *pos, double *f);

/* The direct potential of channel c at point p (A), no force. */
double ref_uff_surface_point(const vkmd_uff_surface *s, int32_t c, const double p[3]);

/* Fills g->values (grid of s, from vkmd_uff_surface_grid_alloc) with the
 * direct potential at every grid point, rounded to float. */
void ref_uff_surface_grid_values(const vkmd_uff_surface *s, vkmd_uff_surface_grid *g);

/* Surface energy from a prefiltered grid, forces ADDED to f (may be NULL);
 * *out_below (may be NULL) counts atoms below the grid. */
double ref_uff_surface_grid(const vkmd_uff_surface_grid *g, const int32_t *channel,
                            int32_t atom_count, const double *pos, double *f, int32_t *out_below);

#endif
