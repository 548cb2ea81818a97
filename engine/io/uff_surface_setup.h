/* Everything a molecules-on-a-surface evaluation needs on the host, built
 * from a substrate name or file: the UFF parameters, the substrate, the
 * surface for the molecules' UFF types (or a loaded grid's), the replicas
 * placed above it, and the potential grid (loaded from XSF, or allocated
 * for its values to be computed on a device or by the CPU reference).
 * What `vkmd uff energy --surface` sets up before evaluating. */
#ifndef VKMD_IO_UFF_SURFACE_SETUP_H
#define VKMD_IO_UFF_SURFACE_SETUP_H

#include "system/uff_surface.h"
#include "system/uff_surface_replicas.h"

#include <stddef.h>

typedef struct vkmd_uff_surface_setup_desc {
    const char *spec;      /* "nacl", "graphene" or an extended-XYZ path */
    int form;              /* VKMD_UFF_SURFACE_FORM_* */
    int grid;              /* 1: through the potential grid; 0: direct pair sums */
    double spacing_a;      /* grid spacing, A; 0: the default (allocated grids only) */
    const char *load_grid; /* XSF saved by vkmd_uff_surface_grid_save; NULL: allocate */
    double height_a;       /* lowest atom of each replica this far above the top layer, A */
} vkmd_uff_surface_setup_desc;

typedef struct vkmd_uff_surface_setup {
    vkmd_uff_param_table params;
    vkmd_uff_substrate sub;
    vkmd_uff_surface surf;
    vkmd_uff_surface_grid grid;       /* desc->grid only: loaded (values ready) or allocated */
    vkmd_uff_surface_replicas placed; /* replicas translated in z, x and y kept */
} vkmd_uff_surface_setup;

/* Builds `out` (overwritten; free with vkmd_uff_surface_setup_free, also on
 * failure) for `count` replicas `reps` of molecules typed `types[mol_count]`
 * (borrowed). A loaded grid is checked against the surface; an allocated
 * one holds no values yet. Errors: those of the parameter, substrate and
 * grid readers, of vkmd_uff_surface_build, _grid_check, _grid_alloc and
 * _replicas_place; VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_surface_setup_build(const vkmd_uff_surface_setup_desc *desc,
                                         const vkmd_uff_typing *const *types, int32_t mol_count,
                                         const vkmd_uff_replica *reps, int32_t count,
                                         vkmd_uff_surface_setup *out);

/* One line describing the setup (substrate, direct or the grid's shape,
 * pair form, cutoff, height) into out[size]. */
void vkmd_uff_surface_setup_describe(const vkmd_uff_surface_setup *s,
                                     const vkmd_uff_surface_setup_desc *desc, char *out,
                                     size_t size);

/* Frees everything and zeroes `s`. Safe on a zeroed struct. */
void vkmd_uff_surface_setup_free(vkmd_uff_surface_setup *s);

#endif
