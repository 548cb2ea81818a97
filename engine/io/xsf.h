/* XSF (XCrySDen structure file) 3-D data grids, ASCII: the cell (PRIMVEC)
 * and one BEGIN_BLOCK_DATAGRID_3D block of named DATAGRID_3D grids. Enough
 * of the format for potential grids (system/uff_surface.h); atoms are neither
 * written nor read (PRIMCOORD/ATOMS sections are skipped).
 *
 * A DATAGRID_3D is "general": n0 n1 n2 points, an origin and three spanning
 * vectors, the values with the FIRST index fastest; in a periodic direction
 * the last point repeats the first (the caller writes it). Values are floats
 * written with 9 significant digits, which reads back to the same bits. */
#ifndef VKMD_IO_XSF_H
#define VKMD_IO_XSF_H

#include "core/result.h"

#include <stdint.h>

typedef struct vkmd_xsf_grid {
    char name[64];     /* the text after BEGIN_DATAGRID_3D_ (no spaces) */
    int32_t n[3];      /* points per direction, each >= 2 */
    double origin[3];  /* A */
    double span[3][3]; /* spanning vectors, A */
    float *values;     /* [n2][n1][n0], first index fastest; owned */
} vkmd_xsf_grid;

typedef struct vkmd_xsf {
    char comment[256];    /* one "# " line at the top; may be "" */
    double primvec[3][3]; /* cell vectors, A */
    int32_t grid_count;
    vkmd_xsf_grid *grids; /* [grid_count]; owned */
} vkmd_xsf;

/* Writes `x` to `path`. Errors: VKMD_ERROR_IO, VKMD_ERROR_INVALID_ARGUMENT
 * (a grid name with spaces, fewer than 2 points). */
vkmd_result vkmd_xsf_write(const char *path, const vkmd_xsf *x);

/* Reads PRIMVEC and every DATAGRID_3D of `path` into `out` (overwritten;
 * zeroed on failure). Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE
 * ("path:line: expected ..."), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_xsf_read(const char *path, vkmd_xsf *out);

/* Frees and zeroes. Safe on a zeroed struct. */
void vkmd_xsf_free(vkmd_xsf *x);

#endif
