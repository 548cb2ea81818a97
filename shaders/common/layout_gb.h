/* Layout of the generalized Born pass (shaders/gb.comp,
 * engine/forces/pass_gb.h), shared by C and GLSL; include after
 * common/vkmd_layout.h. Spec ids 80..87.
 *
 * Three dispatches of one shader, MODE picking the phase, one invocation per
 * atom i summing over every atom j (all pairs, or those within the cutoff) in
 * index order, j staged through shared memory a workgroup's width at a time:
 *   RADII   the descreening sum I_i, then the Born radius B_i and dB_i/dI_i
 *           into the scratch buffer, with V_i = sum_j dI_i/dr_ij (r_j - r_i) /
 *           r_ij (the forces phase's c_i V_i: one descreening per ordered
 *           pair there instead of two);
 *   ENERGY  the self term, half of each pair term, ACE, and
 *           dE/dB_i = self' + ACE' + sum_j dPair_ij/dB_i; stores
 *           c_i = dE/dB_i dB_i/dI_i and the direct pair force on i in the
 *           scratch buffer; energies (when asked) into the GB and NONPOLAR
 *           slots;
 *   FORCES  the force on i: the direct pair force, c_i V_i, and along each
 *           pair c_j dI_j/dr_ji / r_ij (r_j - r_i), added to the
 *           fixed-point accumulator once per atom and component.
 * Each ordered pair is summed by one invocation in a fixed order, so results
 * are the same bits run to run. */
#ifndef VKMD_LAYOUT_GB_H
#define VKMD_LAYOUT_GB_H

/* ---- Specialization constants (ids 80..87 are this module's) ------------ */
#define VKMD_SPEC_GB_MODE 80 /* VKMD_GB_MODE_* */

#define VKMD_GB_MODE_RADII  0
#define VKMD_GB_MODE_ENERGY 1
#define VKMD_GB_MODE_FORCES 2

#define VKMD_GB_WORKGROUP_SIZE 64 /* default; a power of two the device allows */

/* push.flags */
#define VKMD_GB_FLAG_RESCALE  1u /* OBC/GBn tanh rescaling of the Born radius (not HCT) */
#define VKMD_GB_FLAG_NONPOLAR 2u /* ACE nonpolar term */
#define VKMD_GB_FLAG_CUTOFF   4u /* only pairs with r^2 < cut2 */

/* ---- Bindings ------------------------------------------------------------ */
#define VKMD_GB_BINDING_POSITIONS   0 /* vec4 [atom_count], xyz A */
#define VKMD_GB_BINDING_POSITIONS_X 1 /* uvec4 [2 * atom_count]: split parts */
#define VKMD_GB_BINDING_FORCES      2 /* int64 [3 * atom_count] planes x | y | z, added to */
#define VKMD_GB_BINDING_ENERGIES    3 /* int64 [VKMD_ENERGY_SLOT_COUNT], GB and NONPOLAR added to */
#define VKMD_GB_BINDING_ATOMS       4 /* vkmd_gb_atom [atom_count] */
#define VKMD_GB_BINDING_NECK        5 /* vkmd_gb_neck [radius_count^2] */
#define VKMD_GB_BINDING_SCRATCH     6 /* vec4 [3 * atom_count], written by the pass */
#define VKMD_GB_BINDING_COUNT       7

/* Scratch: [i] = (B_i A, dB_i/dI_i A^2, 0, 0), written by RADII;
 * [atom_count + i] = (the direct pair force on i, xyz kcal/mol/A;
 * c_i = dE/dB_i dB_i/dI_i kcal/mol), written by ENERGY. No phase reads
 * what it writes. */

/* a: (rho = radius - offset A, scaled radius s = screen rho A, radius A,
 *     q sqrt(coulomb_k) e (kcal/mol A)^1/2);
 * b: (alpha, beta, gamma of the rescaling, the float bits of the atom's
 *     index among the system's distinct radii, the neck table's row). */
#define VKMD_GB_ATOM_FIELDS                                                                        \
    VKMD_VEC4 a;                                                                                   \
    VKMD_VEC4 b;

/* The neck integral's (d0 A, m0 1/A) of j in the sum of i, at
 * [index_i * radius_count + index_j] (vkmd_gb_neck_lookup(radius_i,
 * radius_j)); one unread entry for models without a neck. */
#define VKMD_GB_NECK_FIELDS                                                                        \
    VKMD_FLOAT d0;                                                                                 \
    VKMD_FLOAT m0;

/* kappa 1/A (0: no salt); inv_eps_in, inv_eps_out: 1/dielectrics; inv_cut
 * 1/A and cut2 A^2 (0 without a cutoff); neck_scale (0: no neck), neck_cut
 * A (pairs within radius_i + radius_j + neck_cut); probe A and ace_factor
 * (4 pi gamma, kcal/mol/A^2) of ACE. */
#define VKMD_GB_PUSH_FIELDS                                                                        \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT radius_count;                                                                        \
    VKMD_UINT flags;                                                                               \
    VKMD_UINT pad0;                                                                                \
    VKMD_FLOAT kappa;                                                                              \
    VKMD_FLOAT inv_eps_in;                                                                         \
    VKMD_FLOAT inv_eps_out;                                                                        \
    VKMD_FLOAT inv_cut;                                                                            \
    VKMD_FLOAT cut2;                                                                               \
    VKMD_FLOAT neck_scale;                                                                         \
    VKMD_FLOAT neck_cut;                                                                           \
    VKMD_FLOAT probe;                                                                              \
    VKMD_FLOAT ace_factor;                                                                         \
    VKMD_FLOAT pad1;                                                                               \
    VKMD_FLOAT pad2;                                                                               \
    VKMD_FLOAT pad3;

struct vkmd_gb_atom {
    VKMD_GB_ATOM_FIELDS
};

struct vkmd_gb_neck {
    VKMD_GB_NECK_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_gb_atom vkmd_gb_atom;
typedef struct vkmd_gb_neck vkmd_gb_neck;
typedef struct vkmd_gb_push {
    VKMD_GB_PUSH_FIELDS
} vkmd_gb_push;
_Static_assert(sizeof(vkmd_gb_atom) == 32, "std430 vkmd_gb_atom is 32 bytes");
_Static_assert(offsetof(vkmd_gb_atom, b) == 16, "gb_atom.b at 16");
_Static_assert(sizeof(vkmd_gb_neck) == 8, "std430 vkmd_gb_neck is 8 bytes");
_Static_assert(offsetof(vkmd_gb_neck, m0) == 4, "gb_neck.m0 at 4");
_Static_assert(sizeof(vkmd_gb_push) == 64, "gb push constants are 64 bytes");
_Static_assert(offsetof(vkmd_gb_push, kappa) == 16, "gb push.kappa at 16");
_Static_assert(offsetof(vkmd_gb_push, cut2) == 32, "gb push.cut2 at 32");
_Static_assert(offsetof(vkmd_gb_push, ace_factor) == 48, "gb push.ace_factor at 48");
_Static_assert(VKMD_ENERGY_NONPOLAR == VKMD_ENERGY_GB + 1 &&
                   VKMD_ENERGY_NONPOLAR < VKMD_ENERGY_SLOT_COUNT,
               "gb.comp writes its two slots consecutively");
#endif

#endif
