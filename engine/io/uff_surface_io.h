/* Reading and writing the host side of molecules on surfaces
 * (system/uff_surface.h): substrates from extended XYZ files or by name,
 * and the potential grid as XSF (io/xsf.h). */
#ifndef VKMD_IO_UFF_SURFACE_IO_H
#define VKMD_IO_UFF_SURFACE_IO_H

#include "system/uff_surface.h"

/* Extended XYZ with Lattice="..." in the comment line. UFF types by element:
 * C -> C_R, otherwise the first row of the table for that element ("Na",
 * "O_3", "H_"). Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE (path:line), an
 * out-of-plane a or b or a degenerate cell, an element without UFF type
 * (VKMD_ERROR_UNSUPPORTED), memory. */
vkmd_result vkmd_uff_substrate_read_xyz(const char *path, const vkmd_uff_param_table *params,
                                        vkmd_uff_substrate *out);

/* "nacl", "graphene" or an extended-XYZ path. Errors: as above. */
vkmd_result vkmd_uff_substrate_load(const char *spec, const vkmd_uff_param_table *params,
                                    vkmd_uff_substrate *out);

/* Saves the values as XSF (one DATAGRID_3D per channel, named by its label;
 * periodic x and y written with their repeated end points, as XSF wants;
 * the first comment line records the pair form and cutoff).
 * Errors: VKMD_ERROR_IO. */
vkmd_result vkmd_uff_surface_grid_save(const char *path, const vkmd_uff_surface_grid *g);

/* Loads values saved by vkmd_uff_surface_grid_save (bitwise the same floats)
 * and prefilters them. Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE (not such a
 * grid: a non-orthogonal z span, planes of different shapes, periodic end
 * points that differ), memory. */
vkmd_result vkmd_uff_surface_grid_load(const char *path, vkmd_uff_surface_grid *out);

#endif
