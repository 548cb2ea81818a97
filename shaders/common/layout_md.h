/* Layouts of the MD integration pass (shaders/md.comp; engine/sim/md.c),
 * shared by C and GLSL: included by common/vkmd_layout.h; same rules as
 * there. Spec ids 48..55 are this module's.
 *
 * md.comp is one shader with a MODE specialization constant per piece of a
 * step (integrators in engine/ref/ref_md.h's formulas, which are the CPU
 * oracle):
 *   VV_KICK_DRIFT  x_ref = x; v += dt/2 a(x); x += dt v          (Verlet, before the constraints)
 *   VV_KICK        v += dt/2 a(x)                                (Verlet, after the forces)
 *   LM_KICK        v += dt a(x)                                  (Langevin middle: B)
 *   LM_DRIFT       x_ref = x; x += dt/2 v; v = c1 v + c2 g / sqrt(m); x += dt/2 v   (A O A)
 *   COM_SUM        momentum sum m v into the fixed-point accumulator (workgroup
 *                  tree sums in a fixed order, one atomic per workgroup)
 *   COM_APPLY      v -= P / M, for every atom
 *   WRAP_SHIFT     per molecule: the box translation putting its first atom in [0, L)
 *                  (a triclinic cell: the lattice counts of the translation into its
 *                  brick, common/box.glsl)
 *   WRAP_APPLY     per atom: x += shift(molecule), x_ref too (triclinic: the counts'
 *                  translation as a float pair, each part added exactly)
 *   ADVANCE        one thread: step counter += pc.steps (in a gated batch, sim/md_batch.c,
 *                  the steps it ran: the neighbour list's batch_checks), momentum cleared
 * VV_KICK_DRIFT and LM_KICK, the last readers of a step's forces, clear the
 * force accumulators after reading them (flags.x) and the energy slots
 * (flags.y, a step that sums energies), so that a step records no transfer
 * commands (which a gated batch would not skip).
 * a(x) = F(x) / m * VKMD_ACCEL_PER_FORCE_MASS with F read from the int64
 * fixed-point force planes (forces/accum.h) and 1/m from velocities.w. */
#ifndef VKMD_LAYOUT_MD_H
#define VKMD_LAYOUT_MD_H

#define VKMD_SPEC_MD_MODE      48
#define VKMD_MD_WORKGROUP_SIZE 64

#define VKMD_MD_MODE_VV_KICK_DRIFT 0
#define VKMD_MD_MODE_VV_KICK       1
#define VKMD_MD_MODE_LM_KICK       2
#define VKMD_MD_MODE_LM_DRIFT      3
#define VKMD_MD_MODE_COM_SUM       4
#define VKMD_MD_MODE_COM_APPLY     5
#define VKMD_MD_MODE_WRAP_SHIFT    6
#define VKMD_MD_MODE_WRAP_APPLY    7
#define VKMD_MD_MODE_ADVANCE       8
#define VKMD_MD_MODE_COUNT         9

/* Bindings (every mode binds all of them). */
#define VKMD_MD_BINDING_POSITIONS     0  /* vec4 [N] xyz A */
#define VKMD_MD_BINDING_POSITIONS_REF 1  /* vec4 [N] */
#define VKMD_MD_BINDING_VELOCITIES    2  /* vec4 [N] xyz A/fs, w = 1/m (1/amu) */
#define VKMD_MD_BINDING_FORCES        3  /* fixed [3N], planes x | y | z */
#define VKMD_MD_BINDING_MOMENTUM      4  /* fixed [4]: sum of m v (x, y, z), amu A/fs at 2^32 */
#define VKMD_MD_BINDING_COUNTER       5  /* uvec4: x = step low bits, y = step high bits */
#define VKMD_MD_BINDING_MOLECULE      6  /* uint [N] molecule of each atom; then [M] first atoms */
#define VKMD_MD_BINDING_SHIFT         7  /* vec4 [M] translation of each molecule, A */
#define VKMD_MD_BINDING_POSITIONS_X   8  /* uvec4 [2N]: extra parts of POSITIONS (vkmd_layout.h) */
#define VKMD_MD_BINDING_REF_X         9  /* uvec4 [2N]: extra parts of POSITIONS_REF */
#define VKMD_MD_BINDING_ENERGIES      10 /* fixed [VKMD_ENERGY_SLOT_COUNT] (cleared on request) */
#define VKMD_MD_BINDING_NL_STATE                                                                   \
    11 /* the neighbour list's vkmd_nl_state (ADVANCE reads                                        \
          batch_checks); a placeholder for vacuum systems */
#define VKMD_MD_BINDING_COUNT 12

/* Momentum fixed-point scale: 2^32 per amu A/fs (a water at 300 K carries
 * ~0.09 amu A/fs; a 1M-atom sum stays far below 2^31). */
#define VKMD_MD_STEPS_RUN 0xFFFFFFFFu /* ADVANCE's steps: as many as the batch's checks */

#define VKMD_MD_MOMENTUM_SCALE     4294967296.0
#define VKMD_MD_MOMENTUM_INV_SCALE 2.3283064365386963e-10

#define VKMD_MD_PUSH_FIELDS                                                                        \
    VKMD_VEC4 box; /* xyz: box edges A (0 for vacuum: WRAP_* do nothing); triclinic (TRICLINIC):   \
                      ax, by, cz and w = bx (common/box.glsl) */                                   \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT molecule_count;                                                                      \
    VKMD_FLOAT dt_fs;                                                                              \
    VKMD_FLOAT c1;             /* Langevin: exp(-gamma dt) */                                      \
    VKMD_FLOAT c2;             /* Langevin: sqrt(kT (1 - c1^2) * accel unit), A/fs amu^1/2 */      \
    VKMD_FLOAT inv_total_mass; /* 1/amu */                                                         \
    VKMD_UINT seed_lo;                                                                             \
    VKMD_UINT seed_hi;                                                                             \
    VKMD_UINT step_offset; /* step = counter + step_offset (steps recorded before in the batch) */ \
    VKMD_UINT steps;       /* ADVANCE: steps to add (VKMD_MD_STEPS_RUN: the batch's checks) */     \
    VKMD_UINT tri_cx;      /* triclinic: cx, float bits (else 0) */                                \
    VKMD_UINT tri_cy;      /* triclinic: cy, float bits (else 0) */                                \
    VKMD_UVEC4 flags;      /* x: clear the forces after reading them; y: clear the energies */

#ifdef __STDC__
typedef struct vkmd_md_push {
    VKMD_MD_PUSH_FIELDS
} vkmd_md_push;
_Static_assert(sizeof(vkmd_md_push) == 80, "MD push constants are 80 bytes");
_Static_assert(offsetof(vkmd_md_push, flags) == 64, "md push flags at 64");
_Static_assert(offsetof(vkmd_md_push, atom_count) == 16, "md push atom_count at 16");
_Static_assert(offsetof(vkmd_md_push, steps) == 52, "md push steps at 52");
#endif

#endif
