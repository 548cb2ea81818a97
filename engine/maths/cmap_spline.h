/* Bicubic patches of a CMAP grid, as OpenMM's CMAPTorsionForce builds them:
 * shared by the CPU reference (ref/ref_cmap.c) and the bonded GPU pass, which
 * evaluates the patches on the device. No Vulkan.
 *
 * The map is periodic in both angles. Derivatives at the grid points come
 * from periodic cubic splines through each row (d/dphi), each column
 * (d/dpsi), and through the columns' derivatives along phi (the cross
 * derivative); each cell then gets the bicubic Hermite patch through its four
 * corners' values and derivatives (the classic 16-coefficient bicubic
 * interpolation). Energy and gradient are continuous across cells.
 *
 * Angles: theta = phi + pi in [0, 2 pi) (so grid point 0 is -180 degrees,
 * as in the prmtop), cell s = floor(theta / delta), delta = 2 pi / resolution,
 * fraction a = theta / delta - s; likewise t and b for psi. */
#ifndef VKMD_MATHS_CMAP_SPLINE_H
#define VKMD_MATHS_CMAP_SPLINE_H

#include "core/result.h"
#include "system/system.h"

/* Coefficients of every cell of `map`: out_c[(s + res * t) * 16 + 4 * i + j]
 * multiplies a^i b^j (kcal/mol); out_c holds 16 * resolution^2 doubles,
 * owned by the caller. Errors: VKMD_ERROR_INVALID_ARGUMENT (resolution < 4 or
 * a non-finite grid value), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_cmap_spline_coefficients(const vkmd_cmap_map *map, double *out_c);

/* The cell and fractions of an angle in rad (any value; wrapped): *out_cell in
 * 0..resolution-1, *out_frac in [0, 1]. */
void vkmd_cmap_spline_cell(double angle, int32_t resolution, int32_t *out_cell, double *out_frac);

#endif
