/* The periodic box: rectangular or triclinic, in the reduced form OpenMM and
 * AMBER use.
 *
 * A box is the lattice spanned by three vectors a, b, c (A). vkmd keeps them
 * in the reduced lower-triangular form
 *     a = (ax, 0, 0),  b = (bx, by, 0),  c = (cx, cy, cz),
 *     ax, by, cz > 0,  |bx| <= ax/2,  |cx| <= ax/2,  |cy| <= by/2,
 * which every lattice has (the truncated octahedron, IFBOX = 2 with all angles
 * 109.4712 degrees, and the rhombic dodecahedron are special cases). The
 * file-level description (edge lengths and angles, as prmtop BOX_DIMENSIONS,
 * rst7 box lines, PDB CRYST1 and DCD unit cells carry it) is kept beside the
 * vectors and written back unchanged; `vec` is the reduced basis of the same
 * lattice and is what the physics uses.
 *
 * Minimum image (vkmd_box_min_image): remove c, then b, then a by rounding
 * (floor(x + 0.5)),
 * as OpenMM does; when the result is longer than half the box's smallest
 * width, the 27 neighbouring images are searched, so the result is the true
 * minimum image for any separation (a pair found by rounding alone within
 * half the smallest width is provably the nearest image). Cutoffs must not
 * exceed half the smallest perpendicular width (vkmd_box_min_width).
 *
 * Rectangular boxes have triclinic = 0, angles 90 and a diagonal `vec`
 * equal to `len`; for them `len` is authoritative (older code and tests set
 * only periodic and len, and every function here reads len then). Code that
 * handles only rectangular boxes checks `triclinic` and refuses the others
 * with a clear message. */
#ifndef VKMD_SYSTEM_BOX_H
#define VKMD_SYSTEM_BOX_H

#include "core/result.h"

#include <stdint.h>

typedef struct vkmd_box {
    int32_t periodic;    /* 0: no box (vacuum, no cutoff); 1: periodic */
    int32_t triclinic;   /* 0: rectangular (vec diagonal); 1: any angle is not 90 degrees */
    double len[3];       /* edge lengths |a|, |b|, |c| as the file gave them, A */
    double angle_deg[3]; /* alpha (b^c), beta (a^c), gamma (a^b), degrees; 90 when rectangular */
    double vec[3][3];    /* rows a, b, c in the reduced lower-triangular form above, A */
} vkmd_box;

/* Angles closer to 90 degrees than this count as right angles (the
 * precision of a PDB CRYST1 or rst7 angle field). */
#define VKMD_BOX_RIGHT_ANGLE_TOL_DEG 1e-4

/* A periodic rectangular box with edges len[3] (A). Edges are not checked
 * (vkmd_system_check_coordinates does). */
void vkmd_box_set_rect(vkmd_box *box, const double len[3]);

/* A periodic box from edge lengths (A) and angles alpha, beta, gamma
 * (degrees): the vectors are built as AMBER and OpenMM build them (a along
 * x, b in the xy plane) and then reduced. Angles within
 * VKMD_BOX_RIGHT_ANGLE_TOL_DEG of 90 give a rectangular box. Fails with
 * VKMD_ERROR_PARSE naming `source` when a length is not positive or the
 * angles describe no cell (e.g. alpha + beta + gamma >= 360). `len` and
 * `angle_deg` may point into *box (its own len and angle_deg). */
vkmd_result vkmd_box_set(vkmd_box *box, const double len[3], const double angle_deg[3],
                         const char *source);

/* A periodic box from three vectors (rows, A) in lower-triangular form
 * (a along x, b in the xy plane), reduced in place; lengths and angles are
 * computed from the vectors as given. Fails like vkmd_box_set. */
vkmd_result vkmd_box_set_vectors(vkmd_box *box, const double vec[3][3], const char *source);

/* Scales the box uniformly by `s` (a barostat's move): vectors and lengths,
 * angles unchanged. */
void vkmd_box_scale(vkmd_box *box, double s);

/* Cell volume ax * by * cz in A^3; 0 for a non-periodic box. */
double vkmd_box_volume_a3(const vkmd_box *box);

/* The smallest of the three perpendicular widths (distances between opposite
 * faces of the cell), A: cutoffs up to half of it see one image per pair. */
double vkmd_box_min_width(const vkmd_box *box);

/* Reciprocal vectors (rows a*, b*, c*, 1/A, without 2 pi) with
 * a_i . r_j = delta_ij: upper-triangular for the reduced form. */
void vkmd_box_reciprocal(const vkmd_box *box, double out_recip[3][3]);

/* Replaces the separation d (A) by its minimum image (see the header
 * comment). Does nothing for a non-periodic box. */
void vkmd_box_min_image(const vkmd_box *box, double d[3]);

/* The lattice translation (A) that moves point x into the brick
 * 0 <= x < ax, 0 <= y < by, 0 <= z < cz (a unit cell of the same volume as
 * the parallelepiped; c first, then b, then a, as OpenMM wraps), written to
 * out_shift; x itself is not changed. Zero when not periodic. */
void vkmd_box_wrap_shift(const vkmd_box *box, const double x[3], double out_shift[3]);

#endif
