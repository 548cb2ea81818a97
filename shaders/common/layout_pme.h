/* Layouts of the pme module, shared by C and GLSL: included by
 * common/vkmd_layout.h (which defines VKMD_VEC4 etc.); same rules as there
 * (vec4/uvec4 records, push-constant field-list macros, _Static_assert every
 * size and offset on the C side under __STDC__).
 *
 * The smooth-PME reciprocal pass (engine/forces/pass_pme.c) runs four shaders
 * in order: pme_spread.comp (charges onto an int64 fixed-point grid),
 * pme_grid_convert.comp (int64 grid -> fp32 grid for the FFT), VkFFT R2C,
 * pme_convolve.comp (Ewald kernel and energy), VkFFT C2R, pme_gather.comp
 * (forces). Grid conventions are those of engine/ref/ref_pme.c: K0 x K1 x K2
 * points, row-major with z fastest, i.e. point (x, y, z) of the charge grid
 * is index (x * K1 + y) * K2 + z. */
#ifndef VKMD_LAYOUT_PME_H
#define VKMD_LAYOUT_PME_H

/* ---- Specialization constants (ids 24..31 are this module's) ------------ */
#define VKMD_SPEC_PME_ORDER 24 /* B-spline order n, 3 .. VKMD_PME_MAX_ORDER */
#define VKMD_SPEC_PME_SORTED                                                                       \
    26 /* pme_spread / pme_gather: bool, atoms in the neighbour list's                             \
          slot order (spatially sorted: nearby grid addresses) */
#define VKMD_SPEC_PME_KERNEL                                                                       \
    25 /* pme_convolve.comp: bool, write the kernel (complex, the                                  \
          spectrum's layout) for VkFFT's fused convolution instead                                 \
          of convolving */

#define VKMD_PME_MAX_ORDER      12 /* the settings' limit (vkmd_ff_settings_resolve) */
#define VKMD_PME_WORKGROUP_SIZE 64 /* local_size_x of every pme_*.comp */

/* ---- Charge-grid fixed point ---------------------------------------------
 * Each atom adds q * Mx * My * Mz (fp32, |value| <= |q|) to n^3 points with
 * int64 atomics at 2^40 per e. Why 2^40: multiplying a float by a power of two
 * is exact, and every float >= 2^-17 e times 2^40 is an integer, so the
 * grid holds the exact sum of the fp32 contributions (contributions below
 * 2^-17 e are truncated by < 1e-12 e each, far under the fp32 rounding of the
 * grid value itself, done once by pme_grid_convert.comp). Range: a point may
 * hold up to +-2^23 = 8.4e6 e; only the final value must fit, because int64
 * additions wrap modulo 2^64 and the partial sums' overflows cancel. A point
 * never holds more than sum |q_i| (8.4e6 e is about 10^7 atoms of charge 1). */
#define VKMD_PME_GRID_SCALE     1099511627776.0       /* 2^40 per e */
#define VKMD_PME_GRID_INV_SCALE 9.094947017729282e-13 /* 2^-40 */

/* ---- Bindings: one table for every pme_*.comp (each uses a subset) ------- */
#define VKMD_PME_BINDING_POSITIONS 0 /* vec4 [atom_count], xyz in A (any image) */
#define VKMD_PME_BINDING_CHARGES   1 /* float [atom_count], e */
#define VKMD_PME_BINDING_FORCES    2 /* int64 [3 * atom_count], fixed point, added to */
#define VKMD_PME_BINDING_ENERGIES  3 /* int64 [VKMD_ENERGY_SLOT_COUNT], added to */
#define VKMD_PME_BINDING_CHARGE    4 /* int64 [K0 K1 K2], VKMD_PME_GRID_SCALE per e */
/* float [K0 K1 2 (K2/2+1)]: VkFFT's in-place R2C layout. Real grid with
 * rows of K2 values padded to 2 (K2/2+1) floats; after the forward FFT the
 * complex half spectrum, (K2/2+1) complex values (re, im) per row. */
#define VKMD_PME_BINDING_FFT_GRID 5
/* float [K0 + K1 + K2]: 1 / |b(m)|^2 per axis (B-spline moduli, computed in
 * double on the host exactly as vkmd_pme_moduli), axis x then y then z. */
#define VKMD_PME_BINDING_MODULI      6
#define VKMD_PME_BINDING_POSITIONS_X 7  /* uvec4 [2 * atom_count]: split parts (positions.glsl) */
#define VKMD_PME_BINDING_KERNEL      8  /* vec2 [K0 K1 (K2/2 + 1)]: the convolution kernel */
#define VKMD_PME_BINDING_ORDER       9  /* uint [slots]: the neighbour list's atom per slot */
#define VKMD_PME_BINDING_NL_STATE    10 /* the neighbour list's vkmd_nl_state (slot_count) */
#define VKMD_PME_BINDING_COUNT       11

/* One push-constant block for every pme_*.comp.
 * box:   xyz edge lengths in A (orthorhombic; a triclinic cell: ax, by, cz),
 *        w unused.
 * ewald: x = pi^2 / alpha^2 (A^2), y = coulomb_k / (pi V) (kcal/mol A^-2 e^-2
 *        with V in A^3), z, w unused.
 * grid:  K0, K1, K2, K2/2 + 1.
 * atom_count, then a triclinic cell's shear (float bits; unused when
 * rectangular): fractional coordinates are (x + s0 y + s1 z) / ax,
 * (y + s2 z) / by, z / cz, with s0 = -bx / by, s1 = (bx cy - by cx) / (by cz),
 * s2 = -cy / cz (ax a*, by b* of the reciprocal rows; common/pme_atom.glsl).
 * box_t: a triclinic cell's off-diagonal terms T = (bx, cx, cy) (common/box.glsl),
 *        w unused: positions move into the brick by exact lattice translations
 *        before the shear. */
#define VKMD_PME_PUSH_FIELDS                                                                       \
    VKMD_VEC4 box;                                                                                 \
    VKMD_VEC4 ewald;                                                                               \
    VKMD_UVEC4 grid;                                                                               \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT shear0;                                                                              \
    VKMD_UINT shear1;                                                                              \
    VKMD_UINT shear2;                                                                              \
    VKMD_VEC4 box_t;

#ifdef __STDC__
typedef struct vkmd_pme_push {
    VKMD_PME_PUSH_FIELDS
} vkmd_pme_push;

_Static_assert(offsetof(vkmd_pme_push, box) == 0, "pme push.box at 0");
_Static_assert(offsetof(vkmd_pme_push, ewald) == 16, "pme push.ewald at 16");
_Static_assert(offsetof(vkmd_pme_push, grid) == 32, "pme push.grid at 32");
_Static_assert(offsetof(vkmd_pme_push, atom_count) == 48, "pme push.atom_count at 48");
_Static_assert(offsetof(vkmd_pme_push, box_t) == 64, "pme push.box_t at 64");
_Static_assert(sizeof(vkmd_pme_push) == 80, "pme push constants are 80 bytes");
_Static_assert(sizeof(vkmd_pme_push) <= 128, "push constants fit the guaranteed 128 bytes");
_Static_assert(VKMD_SPEC_PME_ORDER >= 24 && VKMD_SPEC_PME_ORDER <= 31, "PME spec ids are 24..31");
#endif

#endif
