/* Layouts of the nonbonded module, shared by C and GLSL: included by
 * common/vkmd_layout.h (which defines VKMD_VEC4 etc.); same rules as there
 * (vec4/uvec4 records, push-constant field-list macros, _Static_assert every
 * size and offset on the C side under __STDC__). */
#ifndef VKMD_LAYOUT_NONBONDED_H
#define VKMD_LAYOUT_NONBONDED_H

#define VKMD_NB_WORKGROUP_SIZE 64 /* default; a multiple of VKMD_NL_CLUSTER_SIZE */

/* ---- Specialization-constant ids (16..23) ------------------------------- */
#define VKMD_SPEC_NB_MODE 16 /* nonbonded.comp: which kernel */
/* nonbonded.comp's fp16 builds (+fp16, +fp16words): LJ pairs at r >= this
 * (float bits, A) use the half-precision form; closer pairs fp32. */
#define VKMD_SPEC_NB_FP16_MIN_R 17
/* ... the offset (in floats) of the packed half2 LJ table (sigma^2, 4 eps)
 * in the LJ buffer, after the A/B table; the fp32 (sigma^2, 4 eps) table
 * follows it; and the form (common/forms.glsl form_lj_fp16). */
#define VKMD_SPEC_NB_LJ16_OFFSET 18
#define VKMD_SPEC_NB_FP16_FORM   19
#define VKMD_NB_FP16_FORM_PURE   0 /* fp16 parameters and arithmetic */
#define VKMD_NB_FP16_FORM_POWERS 1 /* fp16 powers of sigma^2/r^2, the rest fp32 */

/* ... where LJ parameters come from (energies: VKMD_SPEC_ENERGY). */
#define VKMD_SPEC_NB_LJ_TABLE   20 /* bool: A/B table by type pair, not Lorentz-Berthelot */
#define VKMD_SPEC_NB_TILE_SPLIT 21 /* groups sharing an i-cluster's tiles (forces/tile.h) */

#define VKMD_NB_MODE_LIST      1 /* periodic: one group of 8 lanes per i-cluster over its tiles */
#define VKMD_NB_MODE_ALL_PAIRS 2 /* no box: the same tiles over every pair of clusters */

/* ---- Bindings ------------------------------------------------------------ */
#define VKMD_NB_BINDING_POSITIONS 0 /* vec4 [atom_count], xyz in A (vacuum only) */
#define VKMD_NB_BINDING_FORCES    1 /* int64 [3 * atom_count], fixed point, added to */
#define VKMD_NB_BINDING_ENERGIES  2 /* int64 [VKMD_ENERGY_SLOT_COUNT], added to */
#define VKMD_NB_BINDING_PARAMS                                                                     \
    3 /* vec4 [atom_count]: q sqrt(coulomb_k) (e (kcal/mol A)^1/2), sigma / 2 (A), 2 sqrt(eps)     \
         ((kcal/mol)^1/2), LJ type (uint bits) */
#define VKMD_NB_BINDING_LJ                                                                         \
    4 /* float [2 * types^2]: A (kcal/mol A^12), B (kcal/mol A^6); then uint [types^2]:            \
         packHalf2x16(sigma^2 A^2, 4 eps                                               kcal/mol);  \
         then float [2 * types^2]: sigma^2, 4 eps (both read by the fp16 builds only) */
#define VKMD_NB_BINDING_EXCL        5  /* uint: vacuum tile masks (forces/vacuum_tiles.h) */
#define VKMD_NB_BINDING_ORDER       6  /* uint [slot_capacity]: the list's atom per slot */
#define VKMD_NB_BINDING_REL         7  /* vec4 [2 * slot_capacity]: the list's relative positions */
#define VKMD_NB_BINDING_TILES       8  /* uvec4 [cluster_capacity * inner stride]: inner tiles */
#define VKMD_NB_BINDING_MASKS       9  /* uvec2: the list's tile masks (inner at extra.x) */
#define VKMD_NB_BINDING_COUNTS      10 /* uvec4 [cluster_capacity]: .zw inner tiles per kind */
#define VKMD_NB_BINDING_NL_STATE    11 /* the list's vkmd_nl_state (slot_count) */
#define VKMD_NB_BINDING_POSITIONS_X 12 /* uvec4 [2 * atom_count]: split parts (positions.glsl) */
#define VKMD_NB_BINDING_OUTER       13 /* uvec4: the list's outer tiles (the prune reads them) */
#define VKMD_NB_BINDING_NL_SAVED    14 /* vec4 [3 * atom_count]: the list's saved positions */
#define VKMD_NB_BINDING_COUNT       15
/* Texel views (vk/pipeline.h) of ORDER (uint texels), REL and PARAMS
 * (uvec4), read instead of the storage buffers with VKMD_SPEC_TEXEL_READS
 * (common/nb_texels.glsl); a placeholder otherwise. */
#define VKMD_NB_BINDING_ORDER_TEXELS  15
#define VKMD_NB_BINDING_REL_TEXELS    16
#define VKMD_NB_BINDING_PARAMS_TEXELS 17
#define VKMD_NB_TEXEL_COUNT           3
#define VKMD_NB_TEXEL_SCALAR_MASK     1u /* ORDER */

/* box: edges in A rounded to float, w = 1 when periodic; box_lo: edge minus
 * box.xyz (the rounding, so box + box_lo carries the edge to ~1e-14 A), w =
 * the list's inner radius (A, the prune's); box_inv: 1 / edge, w = the
 * list's outer stride (uint bits). params: cutoff^2 (A^2), Ewald alpha
 * (1/A). sizes: atom_count, slot_capacity, cluster_capacity, inner stride.
 * extra: index of the first inner mask, LJ types. A triclinic cell: box =
 * (ax, by, cz), box_lo.xyz = (bx, cx, cy) (common/box.glsl). */
#define VKMD_NB_PUSH_FIELDS                                                                        \
    VKMD_VEC4 box;                                                                                 \
    VKMD_VEC4 box_lo;                                                                              \
    VKMD_VEC4 box_inv;                                                                             \
    VKMD_VEC4 params;                                                                              \
    VKMD_UVEC4 sizes;                                                                              \
    VKMD_UVEC4 extra;

#ifdef __STDC__
typedef struct vkmd_nb_push {
    VKMD_NB_PUSH_FIELDS
} vkmd_nb_push;

_Static_assert(offsetof(vkmd_nb_push, box) == 0, "push.box at 0");
_Static_assert(offsetof(vkmd_nb_push, box_lo) == 16, "push.box_lo at 16");
_Static_assert(offsetof(vkmd_nb_push, box_inv) == 32, "push.box_inv at 32");
_Static_assert(offsetof(vkmd_nb_push, params) == 48, "push.params at 48");
_Static_assert(offsetof(vkmd_nb_push, sizes) == 64, "push.sizes at 64");
_Static_assert(offsetof(vkmd_nb_push, extra) == 80, "push.extra at 80");
_Static_assert(sizeof(vkmd_nb_push) == 96, "nonbonded push constants are 96 bytes");
#endif

#endif
