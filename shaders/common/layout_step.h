/* Layouts of the fused MD step (engine/sim/step.c): step.comp, the
 * integration of every atom with its constraints and the per-atom work of
 * the next force evaluation, and forces.comp, the pair tiles, bonded terms
 * and charge-grid conversion of one evaluation in one dispatch. Shared by C
 * and GLSL: included by common/vkmd_layout.h; same rules as there. Spec ids
 * 64..71 are this module's.
 *
 * One step (Langevin middle) is then: step.comp, [the neighbour list's
 * rebuild, recorded at the first step of a batch that follows a halt],
 * forces.comp, VkFFT R2C, the PME convolution, VkFFT C2R; step.comp of the
 * next step gathers the reciprocal-space forces from the convolved grid. */
#ifndef VKMD_LAYOUT_STEP_H
#define VKMD_LAYOUT_STEP_H

/* ---- Specialization constants (ids 64..71) ------------------------------ */
#define VKMD_SPEC_STEP_MODE 64 /* step.comp: VKMD_STEP_MODE_* */

/* step.comp, per constraint unit (a rigid water, an H cluster, a free atom):
 *   LM        Langevin middle: v += dt a; velocity constraints; x_ref = x;
 *             x += dt/2 v; v = c1 v + c2 g / sqrt(m); x += dt/2 v; position
 *             constraints (v += correction / dt)
 *   VV_OPEN   Verlet, first half: x_ref = x; v += dt/2 a; x += dt v;
 *             position constraints (v += correction / dt)
 *   VV_STEP   Verlet, the second half of the last step then the first half of
 *             this one: v += dt/2 a; velocity constraints; VV_OPEN
 *   VV_CLOSE  Verlet, second half only: v += dt/2 a; velocity constraints
 * Every mode but VV_CLOSE then, for each atom at its new position: spreads
 * its charge onto the PME charge grid, measures its displacements for the
 * neighbour list and stores its position relative to its cluster's anchor,
 * and clears its force accumulators; the last workgroup decides on the list
 * (engine/forces/pass_neighbor.h). a = F / m with F the accumulated force plus,
 * when the push constants ask (gather), the reciprocal-space force
 * interpolated from the convolved grid, added in fixed point exactly as
 * pme_gather.comp adds it. */
#define VKMD_STEP_MODE_LM       0
#define VKMD_STEP_MODE_VV_OPEN  1
#define VKMD_STEP_MODE_VV_STEP  2
#define VKMD_STEP_MODE_VV_CLOSE 3
#define VKMD_STEP_MODE_COUNT    4

#define VKMD_STEP_WORKGROUP_SIZE 64

/* ---- step.comp bindings --------------------------------------------------- */
#define VKMD_STEP_BINDING_POSITIONS   0  /* vec4 [N] xyz A */
#define VKMD_STEP_BINDING_POSITIONS_X 1  /* uvec4 [2N] split parts */
#define VKMD_STEP_BINDING_REF         2  /* vec4 [N] positions before the update */
#define VKMD_STEP_BINDING_REF_X       3  /* uvec4 [2N] */
#define VKMD_STEP_BINDING_VELOCITIES  4  /* vec4 [N] xyz A/fs, w 1/m */
#define VKMD_STEP_BINDING_FORCES      5  /* fixed [3N]: read, then cleared */
#define VKMD_STEP_BINDING_COUNTER     6  /* uvec4 step counter (md.comp) */
#define VKMD_STEP_BINDING_WATERS      7  /* uvec4 [waters] (o, h1, h2, -) */
#define VKMD_STEP_BINDING_HCLUSTERS   8  /* vkmd_hcluster_record [clusters] */
#define VKMD_STEP_BINDING_FREE        9  /* uint [free]: atoms in no water or cluster */
#define VKMD_STEP_BINDING_PARAMS      10 /* vkmd_step_params */
#define VKMD_STEP_BINDING_NL_STATE    11 /* the list's vkmd_nl_state */
#define VKMD_STEP_BINDING_NL_SAVED    12 /* vec4 [2N] */
#define VKMD_STEP_BINDING_NL_SLOT_OF  13 /* uint [N] */
#define VKMD_STEP_BINDING_NL_CLUSTER  14 /* vec4 [3 clusters] */
#define VKMD_STEP_BINDING_NL_REL      15 /* vec4 [2 slots] */
#define VKMD_STEP_BINDING_NL_ARGS     16 /* uvec4 dispatch arguments */
#define VKMD_STEP_BINDING_CHARGES     17 /* float [N], e (PME) */
#define VKMD_STEP_BINDING_QGRID       18 /* fixed [K0 K1 K2] charge grid */
#define VKMD_STEP_BINDING_GRID        19 /* float: the convolved grid phi */
#define VKMD_STEP_BINDING_ENERGIES    20 /* fixed [VKMD_ENERGY_SLOT_COUNT]: cleared on request */
#define VKMD_STEP_BINDING_NL_GATE     21 /* uint [VKMD_NL_GATE_WORDS] */
#define VKMD_STEP_BINDING_COUNT       22
/* A texel view (uint texels) of GRID for the gather's reads, as the forces'
 * views below. */
#define VKMD_STEP_BINDING_GRID_TEXELS 22
#define VKMD_STEP_TEXEL_COUNT         1
#define VKMD_STEP_TEXEL_SCALAR_MASK   1u

/* Parameters of step.comp, uploaded at create and on a new box.
 * box: edges A (0 for vacuum), w 1 when periodic.
 * counts: atoms, waters, H clusters, free atoms.
 * md: dt (fs), c1 = exp(-gamma dt), c2 = sqrt(kT (1 - c1^2) accel unit),
 *   1 / dt.
 * seed: Philox key (lo, hi); unused; the workgroup order's stride
 *   (common/group_order.glsl).
 * hold: SETTLE's H-H distance and O height (A), the H clusters' tolerance
 *   and iteration limit (uint bits).
 * pme_grid: K0, K1, K2, K2/2 + 1.
 * nl: the list's push constants (vkmd_nl_push). */
#define VKMD_STEP_PARAM_FIELDS                                                                     \
    VKMD_VEC4 box;                                                                                 \
    VKMD_UVEC4 counts;                                                                             \
    VKMD_VEC4 md;                                                                                  \
    VKMD_UVEC4 seed;                                                                               \
    VKMD_VEC4 hold;                                                                                \
    VKMD_UVEC4 pme_grid;

/* step.comp push constants: step offset in the batch (counter + offset is
 * the step), gather (1: add the reciprocal-space forces to the accumulated
 * ones), may_rebuild (1: the list's rebuild is recorded after this
 * dispatch), energy (1: clear the energy slots for this evaluation). */
#define VKMD_STEP_PUSH_FIELDS                                                                      \
    VKMD_UINT step_offset;                                                                         \
    VKMD_UINT gather;                                                                              \
    VKMD_UINT may_rebuild;                                                                         \
    VKMD_UINT energy;

/* ---- forces.comp ----------------------------------------------------------
 * One dispatch, three roles by workgroup (interleaved, so that a driver that
 * hands out contiguous ranges of workgroups spreads them evenly): the pair
 * tiles (with the prune first when the list asks), the bonded terms and
 * fixed pairs, and the charge grid's conversion to the FFT grid (clearing it
 * for the next spread). */
#define VKMD_FORCES_ROLE_PAIRS  0
#define VKMD_FORCES_ROLE_BONDED 1
#define VKMD_FORCES_ROLE_GRID   2
#define VKMD_FORCES_ROLES       3

#define VKMD_FORCES_BINDING_POSITIONS   0  /* vec4 [N] */
#define VKMD_FORCES_BINDING_POSITIONS_X 1  /* uvec4 [2N] */
#define VKMD_FORCES_BINDING_FORCES      2  /* fixed [3N], added to */
#define VKMD_FORCES_BINDING_ENERGIES    3  /* fixed slots, added to */
#define VKMD_FORCES_BINDING_NB_PARAMS   4  /* vec4 [N] nonbonded parameters */
#define VKMD_FORCES_BINDING_LJ          5  /* float: the LJ tables */
#define VKMD_FORCES_BINDING_ORDER       6  /* uint [slots] */
#define VKMD_FORCES_BINDING_REL         7  /* vec4 [2 slots] */
#define VKMD_FORCES_BINDING_OUTER       8  /* uvec4 outer tiles */
#define VKMD_FORCES_BINDING_INNER       9  /* uvec4 inner tiles (written by the prune) */
#define VKMD_FORCES_BINDING_MASKS       10 /* uvec2 tile masks */
#define VKMD_FORCES_BINDING_COUNTS      11 /* uvec4 [clusters] */
#define VKMD_FORCES_BINDING_NL_STATE    12 /* vkmd_nl_state */
#define VKMD_FORCES_BINDING_NL_SAVED    13 /* vec4 [2N]: the prune saves its positions */
#define VKMD_FORCES_BINDING_TERMS       14 /* vkmd_bonded_term [] */
#define VKMD_FORCES_BINDING_QGRID       15 /* fixed charge grid: read, cleared */
#define VKMD_FORCES_BINDING_GRID        16 /* float FFT grid: written */
#define VKMD_FORCES_BINDING_PARAMS      17 /* vkmd_forces_params */
#define VKMD_FORCES_BINDING_COUNT       18
/* Texel views (vk/pipeline.h) of ORDER (uint texels), REL and NB_PARAMS
 * (uvec4), read instead of the storage buffers with VKMD_SPEC_TEXEL_READS;
 * a placeholder otherwise. */
#define VKMD_FORCES_BINDING_ORDER_TEXELS     18
#define VKMD_FORCES_BINDING_REL_TEXELS       19
#define VKMD_FORCES_BINDING_NB_PARAMS_TEXELS 20
#define VKMD_FORCES_TEXEL_COUNT              3
#define VKMD_FORCES_TEXEL_SCALAR_MASK        1u /* ORDER */

/* Parameters of forces.comp (uploaded at create and on a new box):
 * pme_grid: K0, K1, K2, K2/2 + 1; roles: x workgroups per role, y the
 * bonded role's workgroup order stride (common/group_order.glsl); then the
 * nonbonded pass's push constants (vkmd_nb_push), the bonded pass's
 * (vkmd_bonded_push) and the neighbour list's (vkmd_nl_push). */
#define VKMD_FORCES_PARAM_FIELDS                                                                   \
    VKMD_UVEC4 pme_grid;                                                                           \
    VKMD_UVEC4 roles;

#ifdef __STDC__
typedef struct vkmd_step_params {
    VKMD_STEP_PARAM_FIELDS
    vkmd_nl_push nl;
} vkmd_step_params;
typedef struct vkmd_step_push {
    VKMD_STEP_PUSH_FIELDS
} vkmd_step_push;
typedef struct vkmd_forces_params {
    VKMD_FORCES_PARAM_FIELDS
    vkmd_nb_push nb;
    vkmd_bonded_push bd;
    vkmd_nl_push nl;
} vkmd_forces_params;

_Static_assert(offsetof(vkmd_step_params, nl) == 96, "step params.nl at 96");
_Static_assert(sizeof(vkmd_step_params) == 224, "step params are 224 bytes");
_Static_assert(sizeof(vkmd_step_push) == 16, "step push constants are 16 bytes");
_Static_assert(offsetof(vkmd_forces_params, nb) == 32, "forces params.nb at 32");
_Static_assert(offsetof(vkmd_forces_params, bd) == 128, "forces params.bd at 128");
_Static_assert(offsetof(vkmd_forces_params, nl) == 208, "forces params.nl at 208");
_Static_assert(sizeof(vkmd_forces_params) == 336, "forces params are 336 bytes");
#endif

#endif
