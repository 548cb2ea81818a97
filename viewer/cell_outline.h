/* The outline the viewer draws for a triclinic cell: the Wigner-Seitz cell
 * (the polyhedron of points nearer the cell's centre than any of its
 * images) for the truncated octahedron and the rhombic dodecahedron, whose
 * Wigner-Seitz cells are those polyhedra, and the parallelepiped of a, b, c
 * for any other cell. Host maths only, no Vulkan. */
#ifndef VKMD_VIEWER_CELL_OUTLINE_H
#define VKMD_VIEWER_CELL_OUTLINE_H

#include "system/box.h"

#define VKMD_CELL_OUTLINE_MAX_EDGES 64 /* a Wigner-Seitz cell has at most 36 */

/* 1 when `box` is a truncated octahedron (every angle 109.4712 or 70.5288
 * degrees) or a rhombic dodecahedron (angles 60, 60, 90 in any order, or
 * 120 for 60), within 0.01 degrees; 0 otherwise (and for rectangular
 * boxes). */
int vkmd_cell_outline_is_wigner_seitz(const vkmd_box *box);

/* The edges of the drawn outline of `box` (periodic), as pairs of end points
 * relative to the cell's centre (a + b + c) / 2, A, into out_xyz [6 *
 * VKMD_CELL_OUTLINE_MAX_EDGES]; *out_wigner_seitz says which outline it is.
 * Returns the number of edges (12 for a parallelepiped; 0 for a
 * non-periodic box). */
int vkmd_cell_outline(const vkmd_box *box, float *out_xyz, int *out_wigner_seitz);

#endif
