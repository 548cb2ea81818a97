/* Layouts shared by C (engine/) and GLSL (shaders/): storage-buffer records,
 * push-constant blocks, workgroup sizes, specialization-constant ids, binding
 * numbers, energy slots and the fixed-point scale. Valid as both languages:
 * the C side (under __STDC__, which glslang does not define) maps the field
 * types to layout-compatible structs and _Static_asserts every size and
 * offset; the GLSL side maps them to the built-in types.
 *
 * Surprises:
 * - Field types are VKMD_VEC4 / VKMD_UINT / ..., not vec4 / uint, so that C
 *   code that also includes cglm (whose vec4 is float[4]) does not clash.
 * - Records use vec4 / uvec4 only: std430 pads a vec3 array element to 16
 *   bytes, which a hand-written C struct easily gets wrong.
 * - Push-constant blocks are written once as a field-list macro expanded in
 *   both languages; push constants use std430 offsets.
 * - Forces and energies are accumulated as 64-bit fixed point (see
 *   VKMD_FIXED_SCALE): integer addition is associative, so the result does not
 *   depend on the order in which threads add (bitwise reproducible runs). */
#ifndef VKMD_LAYOUT_H
#define VKMD_LAYOUT_H

#ifdef __STDC__
#include <stddef.h>
#include <stdint.h>
typedef struct vkmd_gpu_vec4 {
    _Alignas(16) float x;
    float y, z, w;
} vkmd_gpu_vec4;
typedef struct vkmd_gpu_uvec4 {
    _Alignas(16) uint32_t x;
    uint32_t y, z, w;
} vkmd_gpu_uvec4;
#define VKMD_VEC4  vkmd_gpu_vec4
#define VKMD_UVEC4 vkmd_gpu_uvec4
#define VKMD_UINT  uint32_t
#define VKMD_INT   int32_t
#define VKMD_FLOAT float
#else
#define VKMD_VEC4  vec4
#define VKMD_UVEC4 uvec4
#define VKMD_UINT  uint
#define VKMD_INT   int
#define VKMD_FLOAT float
#endif

/* ---- Fixed point ---------------------------------------------------------
 * Forces: int64 per component, value = round_toward_zero(F * 2^32) with F in
 * kcal/mol/A (OpenMM's scale): resolution 2.3e-10, range +-2.1e9 kcal/mol/A.
 * Energies: int64 per slot, same scale in kcal/mol. */
#define VKMD_FIXED_SCALE     4294967296.0           /* 2^32 */
#define VKMD_FIXED_INV_SCALE 2.3283064365386963e-10 /* 2^-32 */

/* Force buffer: int64 [3 * atom_count] in planes x | y | z. */
#define VKMD_FORCE_INDEX(axis, atom, atom_count) ((axis) * (atom_count) + (atom))

/* Energy buffer: int64 [VKMD_ENERGY_SLOT_COUNT]; each pass adds into its slots. */
#define VKMD_ENERGY_BOND              0
#define VKMD_ENERGY_ANGLE             1
#define VKMD_ENERGY_PROPER            2  /* proper dihedrals */
#define VKMD_ENERGY_IMPROPER          3  /* improper dihedrals */
#define VKMD_ENERGY_LJ14              4  /* scaled 1-4 LJ (bonded.comp) */
#define VKMD_ENERGY_COULOMB14         5  /* scaled 1-4 Coulomb (bonded.comp) */
#define VKMD_ENERGY_COUL_EXCL         6  /* Ewald excluded-pair correction (bonded.comp) */
#define VKMD_ENERGY_LJ                7  /* LJ within the cutoff (nonbonded.comp) */
#define VKMD_ENERGY_COUL_REAL         8  /* Ewald real space within the cutoff (nonbonded.comp) */
#define VKMD_ENERGY_COUL_RECIP        9  /* PME reciprocal space (pme_*.comp) */
#define VKMD_ENERGY_RESTRAINT         10 /* positional restraints (bonded.comp) */
#define VKMD_ENERGY_UREY_BRADLEY      11 /* CHARMM Urey-Bradley (bonded.comp) */
#define VKMD_ENERGY_IMPROPER_HARMONIC 12 /* CHARMM harmonic impropers (bonded.comp) */
#define VKMD_ENERGY_CMAP              13 /* CMAP (bonded.comp) */
#define VKMD_ENERGY_GB                14 /* generalized Born polar solvation (gb.comp) */
#define VKMD_ENERGY_NONPOLAR          15 /* ACE nonpolar solvation (gb.comp) */
#define VKMD_ENERGY_SLOT_COUNT        16

/* ---- Specialization-constant ids (one namespace for every shader) ------- */
#define VKMD_SPEC_WORKGROUP_SIZE 0 /* local_size_x of every 1-D pass */
#define VKMD_SPEC_SELFTEST_SCALE 1 /* vk_selftest.comp: float factor */
#define VKMD_SPEC_POSITIONS      2 /* every reader of MD positions: VKMD_POSITIONS_* */
#define VKMD_SPEC_ENERGY         3 /* force passes: bool, sum energies (0: forces only) */
#define VKMD_SPEC_TRICLINIC      4 /* readers of the box: bool, triclinic cell (common/box.glsl) */
/* shaders with texel bindings (vk/pipeline.h) for their hot reads: bool,
 * read through them (CPU devices) rather than the storage buffers */
#define VKMD_SPEC_TEXEL_READS 5
/* Ranges reserved per module (ids are defined in the module's layout header):
 * 8..15 neighbour list, 16..23 nonbonded, 24..31 PME, 32..39 UFF,
 * 40..47 constraints, 48..55 MD integration, 56..63 minimisation,
 * 64..71 fused step, 72..75 virtual sites, 80..87 generalized Born. */

/* ---- Positions (common/positions.glsl has the arithmetic) ---------------
 * Every shader that reads or writes MD positions binds two buffers: the
 * float positions, vec4 [N] (xyz A, w unused), and the "extra" parts,
 * uvec4 [2N] (a placeholder in FP32 mode):
 *   FP32         x = pos.xyz.
 *   SPLIT_FLOAT  x = c + f exactly: c = the float bits of extra[2a].xyz, a
 *                multiple of VKMD_POSITIONS_QUANTUM (so |c| < 2^24 quanta is
 *                exact), f = the float bits of extra[2a + 1].xyz, |f| <= half
 *                a quantum after every move.
 *   SPLIT_INT    x = hi + lo * 2^-32 A exactly, hi = int(extra[2a].xyz) A,
 *                lo = extra[2a + 1].xyz (uint).
 * In every mode pos.xyz is x rounded to float, kept up to date by every
 * writer: approximate readers (neighbour binning and checks, the viewer)
 * use it and never touch the extra parts. */
#define VKMD_POSITIONS_FP32        0
#define VKMD_POSITIONS_SPLIT_FLOAT 1
#define VKMD_POSITIONS_SPLIT_INT   2
#define VKMD_POSITIONS_QUANTUM     0.125                  /* A: SPLIT_FLOAT's coarse grid */
#define VKMD_POSITIONS_QUANTA      8.0                    /* 1 / VKMD_POSITIONS_QUANTUM */
#define VKMD_POSITIONS_FLOAT_RANGE 2097152.0              /* 2^24 quanta, A: |x| below */
#define VKMD_POSITIONS_INT_SCALE   4294967296.0           /* 2^32 lo units per A */
#define VKMD_POSITIONS_INT_INV     2.3283064365386963e-10 /* 2^-32 A per lo unit */
#define VKMD_POSITIONS_INT_RANGE   2147483647.0           /* 2^31 A: |x| below */

/* ---- vk_selftest.comp: data[i] *= SCALE for i < count ------------------- */
#define VKMD_SELFTEST_WORKGROUP_SIZE 64
#define VKMD_SELFTEST_PUSH_FIELDS    VKMD_UINT count;

/* ---- bonded.comp ---------------------------------------------------------
 * One dispatch for every bonded term and every fixed pair: global ids
 * [0, bonds) are bonds (then CHARMM Urey-Bradley terms, the same form), then
 * angles, then dihedrals (propers and impropers, then CHARMM harmonic
 * impropers), then scaled 1-4 pairs, then Ewald excluded-pair corrections,
 * then CMAP terms, then positional restraints, over one term array; after
 * the terms, the CMAP maps' bicubic cells, two entries of 8 floats each (16
 * coefficients: atoms as float bits, params, atoms, params). */
#define VKMD_BONDED_WORKGROUP_SIZE    64 /* default; any power of two the device allows */
#define VKMD_BONDED_BINDING_POSITIONS 0  /* vec4 [atom_count], xyz in A */
#define VKMD_BONDED_BINDING_FORCES    1  /* int64 [3 * atom_count], fixed point, added to */
#define VKMD_BONDED_BINDING_ENERGIES  2  /* int64 [VKMD_ENERGY_SLOT_COUNT], added to */
#define VKMD_BONDED_BINDING_TERMS     3  /* vkmd_bonded_term [bonds + ... + restraints] */
#define VKMD_BONDED_BINDING_POSITIONS_X                                                            \
    4 /* uvec4 [2 * atom_count]: split parts (positions.glsl)                                      \
       */
#define VKMD_BONDED_BINDING_COUNT 5

/* atoms: bond (i, j, -, -); angle (i, j apex, k, -); dihedral (i, j, k, l);
 * CMAP (i, j, k, l: phi; psi is j, k, l, m);
 * 1-4 pair (i, j, -, -); excluded pair (i, j, -, -); restraint (i, and the
 * float bits of r0 - float(r0) for x, y, z: the reference to ~1e-14 A).
 * params: bond (k kcal/mol/A^2, r0 A, 0, -; Urey-Bradley: z = 1); angle
 * (k kcal/mol/rad^2, theta0 rad, -, -); dihedral (k kcal/mol, phase rad, n,
 * 1 if improper; harmonic improper: k kcal/mol/rad^2, psi0 rad, -, 2);
 * CMAP (as float bits: m, the index of the map's first cell entry, the map's
 * resolution, -);
 * 1-4 pair (k q_i q_j / scee kcal/mol A, A_ij / scnb kcal/mol A^12,
 * B_ij / scnb kcal/mol A^6, -); excluded pair (k q_i q_j kcal/mol A, -, -, -);
 * restraint (float(r0) x, y, z A, k kcal/mol/A^2; E = k |r - r0|^2). */
#define VKMD_BONDED_TERM_FIELDS                                                                    \
    VKMD_UVEC4 atoms;                                                                              \
    VKMD_VEC4 params;

/* box: xyz edge lengths in A, w = 1 when periodic (minimum image), else 0.
 * ewald_alpha: 1/A, for the excluded-pair correction, as a float pair
 * (ewald_alpha + ewald_alpha_lo): a plain float would bias every pair alike.
 * restraint_count: positional restraints (last in the term array);
 * restraint_fb: their flat-bottom radius in A (0: plain harmonic);
 * cmap_count: CMAP terms (before the restraints). Counts: bond_count
 * includes the Urey-Bradley terms, dihedral_count the harmonic impropers.
 * box_t: a triclinic cell's off-diagonal terms (bx, cx, cy) in A, w unused
 * (zero and unread for rectangular boxes). */
#define VKMD_BONDED_PUSH_FIELDS                                                                    \
    VKMD_VEC4 box;                                                                                 \
    VKMD_UINT bond_count;                                                                          \
    VKMD_UINT angle_count;                                                                         \
    VKMD_UINT dihedral_count;                                                                      \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT pair14_count;                                                                        \
    VKMD_UINT excl_count;                                                                          \
    VKMD_FLOAT ewald_alpha;                                                                        \
    VKMD_FLOAT ewald_alpha_lo;                                                                     \
    VKMD_UINT restraint_count;                                                                     \
    VKMD_FLOAT restraint_fb;                                                                       \
    VKMD_UINT cmap_count;                                                                          \
    VKMD_UINT pad1;                                                                                \
    VKMD_VEC4 box_t;

struct vkmd_bonded_term {
    VKMD_BONDED_TERM_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_bonded_term vkmd_bonded_term;
typedef struct vkmd_bonded_push {
    VKMD_BONDED_PUSH_FIELDS
} vkmd_bonded_push;
typedef struct vkmd_selftest_push {
    VKMD_SELFTEST_PUSH_FIELDS
} vkmd_selftest_push;

_Static_assert(sizeof(vkmd_gpu_vec4) == 16, "vec4 is 16 bytes");
_Static_assert(sizeof(vkmd_gpu_uvec4) == 16, "uvec4 is 16 bytes");
_Static_assert(sizeof(vkmd_bonded_term) == 32, "std430 vkmd_bonded_term is 32 bytes");
_Static_assert(offsetof(vkmd_bonded_term, atoms) == 0, "term.atoms at 0");
_Static_assert(offsetof(vkmd_bonded_term, params) == 16, "term.params at 16");
_Static_assert(offsetof(vkmd_bonded_push, box) == 0, "push.box at 0");
_Static_assert(offsetof(vkmd_bonded_push, bond_count) == 16, "push.bond_count at 16");
_Static_assert(offsetof(vkmd_bonded_push, angle_count) == 20, "push.angle_count at 20");
_Static_assert(offsetof(vkmd_bonded_push, dihedral_count) == 24, "push.dihedral_count at 24");
_Static_assert(offsetof(vkmd_bonded_push, atom_count) == 28, "push.atom_count at 28");
_Static_assert(offsetof(vkmd_bonded_push, pair14_count) == 32, "push.pair14_count at 32");
_Static_assert(offsetof(vkmd_bonded_push, excl_count) == 36, "push.excl_count at 36");
_Static_assert(offsetof(vkmd_bonded_push, ewald_alpha) == 40, "push.ewald_alpha at 40");
_Static_assert(offsetof(vkmd_bonded_push, restraint_count) == 48, "push.restraint_count at 48");
_Static_assert(offsetof(vkmd_bonded_push, restraint_fb) == 52, "push.restraint_fb at 52");
_Static_assert(offsetof(vkmd_bonded_push, box_t) == 64, "push.box_t at 64");
_Static_assert(sizeof(vkmd_bonded_push) == 80, "bonded push constants are 80 bytes");
_Static_assert(sizeof(vkmd_bonded_push) <= 128, "push constants fit the guaranteed 128 bytes");
_Static_assert(sizeof(vkmd_selftest_push) == 4, "selftest push constants are 4 bytes");
_Static_assert(VKMD_ENERGY_ANGLE == VKMD_ENERGY_BOND + 1 &&
                   VKMD_ENERGY_PROPER == VKMD_ENERGY_BOND + 2 &&
                   VKMD_ENERGY_IMPROPER == VKMD_ENERGY_BOND + 3 &&
                   VKMD_ENERGY_LJ14 == VKMD_ENERGY_BOND + 4 &&
                   VKMD_ENERGY_COULOMB14 == VKMD_ENERGY_BOND + 5 &&
                   VKMD_ENERGY_COUL_EXCL == VKMD_ENERGY_BOND + 6,
               "bonded.comp writes its seven slots consecutively from VKMD_ENERGY_BOND");
_Static_assert(offsetof(vkmd_bonded_push, cmap_count) == 56, "push.cmap_count at 56");
_Static_assert(VKMD_ENERGY_RESTRAINT < VKMD_ENERGY_SLOT_COUNT, "energy slots fit");
_Static_assert(VKMD_ENERGY_IMPROPER_HARMONIC == VKMD_ENERGY_UREY_BRADLEY + 1 &&
                   VKMD_ENERGY_CMAP == VKMD_ENERGY_UREY_BRADLEY + 2 &&
                   VKMD_ENERGY_CMAP < VKMD_ENERGY_SLOT_COUNT,
               "bonded.comp writes its three CHARMM slots consecutively");
#endif

/* Per-module layouts, each written in the same two-language style. */
#include "common/layout_neighbor.h"
#include "common/layout_nonbonded.h"
#include "common/layout_pme.h"
#include "common/layout_fire.h"
#include "common/layout_uff.h"
#include "common/layout_constraints.h"
#include "common/layout_md.h"
#include "common/layout_step.h"
#include "common/layout_minimize.h"
#include "common/layout_viewer.h"

#endif
