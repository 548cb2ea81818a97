/* Layouts of the quasi-Newton minimiser of UFF replicas (shaders/uff_lbfgs.comp,
 * engine/sim/uff_lbfgs.c), shared by C and GLSL; include after
 * common/vkmd_layout.h. The algorithm is in engine/ref/ref_uff_lbfgs.h.
 *
 * One workgroup per replica (grid-stride over replicas); the threads stride
 * over the replica's 3 n coordinates (i = 3 atom + axis) and per-replica
 * sums and maxima reduce in shared memory in a fixed tree order, so a run
 * is deterministic. Each dispatch follows one force pass: it consumes one
 * energy + gradient evaluation per running replica (the start, or a line
 * search trial) and writes the next trial positions, so every replica goes
 * at its own pace in the same batch. Like uff_fire.comp, it zeroes the
 * forces and energies it read.
 *
 * Per-coordinate planes (float [VKMD_UFF_LBFGS_PLANE_COUNT][3 * atom_count],
 * plane p of coordinate i of the replica whose first atom is f at
 * p * 3 * atom_count + 3 f + i): the accepted point x0 as float plus its
 * float correction (two-sums, as FIRE's positions), the gradient at x0, the
 * search direction, y and H y.
 *
 * Curvature memory (float, binding HISTORY), per replica from its offset
 * (replicas[r].z): MEMORY == 0 (dense BFGS, RDKit's): the inverse Hessian,
 * (3 n)^2 floats, row-major; MEMORY = m > 0 (L-BFGS): m s planes then m y
 * planes of 3 n floats each. */
#ifndef VKMD_LAYOUT_UFF_LBFGS_H
#define VKMD_LAYOUT_UFF_LBFGS_H

#define VKMD_UFF_LBFGS_BINDING_POSITIONS 0 /* vec4 [atom_count]: the pass's positions, written */
#define VKMD_UFF_LBFGS_BINDING_FORCES                                                              \
    1 /* int64 [3 * atom_count]: force planes, zeroed once read                                    \
       */
/* int64 [replica_count * VKMD_UFF_ENERGY_STRIDE]: the pass's energies, zeroed once read */
#define VKMD_UFF_LBFGS_BINDING_ENERGIES 2
#define VKMD_UFF_LBFGS_BINDING_PLANES   3 /* float [VKMD_UFF_LBFGS_PLANE_COUNT * 3 * atom_count] */
/* uvec4 [replica_count]: (first atom, atoms, memory offset in floats, -) */
#define VKMD_UFF_LBFGS_BINDING_REPLICAS 4
#define VKMD_UFF_LBFGS_BINDING_STATE    5 /* vkmd_uff_lbfgs_state [replica_count] */
#define VKMD_UFF_LBFGS_BINDING_HISTORY  6 /* float: inverse Hessians or (s, y) pairs (above) */
#define VKMD_UFF_LBFGS_BINDING_E0       7 /* int64 [2 * replica_count]: E at x0, E at the start */
#define VKMD_UFF_LBFGS_BINDING_COUNT    8
#define VKMD_UFF_LBFGS_WORKGROUP_SIZE   64 /* at most; 16-64 by molecule size */

#define VKMD_SPEC_LBFGS_MEMORY           5  /* uff_lbfgs.comp: 0 dense BFGS, m > 0 L-BFGS pairs */
#define VKMD_UFF_LBFGS_DEVICE_MAX_MEMORY 16 /* L-BFGS pairs, at most (shared-memory arrays) */
/* Dense BFGS: coordinates of a replica, at most (3 x 256 atoms; its
 * vectors sit in shared memory, and its inverse Hessian is 2.4 MB) */
#define VKMD_UFF_LBFGS_DENSE_MAX_DIM 768

#define VKMD_UFF_LBFGS_X0_HI       0
#define VKMD_UFF_LBFGS_X0_LO       1
#define VKMD_UFF_LBFGS_GRAD        2
#define VKMD_UFF_LBFGS_DIR         3
#define VKMD_UFF_LBFGS_Y           4 /* y = g_new - g_old of the last accepted step */
#define VKMD_UFF_LBFGS_HY          5 /* dense BFGS: H y */
#define VKMD_UFF_LBFGS_PLANE_COUNT 6

/* Phases (state.u.x). */
#define VKMD_UFF_LBFGS_PHASE_START 0u /* the evaluation is at the start */
#define VKMD_UFF_LBFGS_PHASE_TRIAL 1u /* the evaluation is a line-search trial */
#define VKMD_UFF_LBFGS_PHASE_DONE  2u /* stopped: state.u.w says why */

/* Per-replica state.
 * f:  lambda, previous lambda (0: first trial), its E - E0, slope g.d;
 * g:  lambda_min, RDKit's gradient factor c, -, -;
 * u:  phase, iterations, evaluations, status (VKMD_UFF_RELAX_* of
 *     system/uff_lbfgs_settings.h);
 * h:  (s, y) pairs held, newest slot, 1 when the direction is steepest
 *     descent with no memory (start, reset, retry), -. */
#define VKMD_UFF_LBFGS_STATE_FIELDS                                                                \
    VKMD_VEC4 f;                                                                                   \
    VKMD_VEC4 g;                                                                                   \
    VKMD_UVEC4 u;                                                                                  \
    VKMD_UVEC4 h;

#define VKMD_UFF_LBFGS_PUSH_FIELDS                                                                 \
    VKMD_UINT replica_count;                                                                       \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT max_iterations;                                                                      \
    VKMD_FLOAT force_tol;                                                                          \
    VKMD_FLOAT energy_tol;                                                                         \
    VKMD_FLOAT max_step; /* A */

struct vkmd_uff_lbfgs_state {
    VKMD_UFF_LBFGS_STATE_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_uff_lbfgs_state vkmd_uff_lbfgs_state;
typedef struct vkmd_uff_lbfgs_push {
    VKMD_UFF_LBFGS_PUSH_FIELDS
} vkmd_uff_lbfgs_push;
_Static_assert(sizeof(vkmd_uff_lbfgs_state) == 64, "std430 L-BFGS state is 64 bytes");
_Static_assert(offsetof(vkmd_uff_lbfgs_state, u) == 32, "lbfgs state.u at 32");
_Static_assert(offsetof(vkmd_uff_lbfgs_state, h) == 48, "lbfgs state.h at 48");
_Static_assert(sizeof(vkmd_uff_lbfgs_push) == 24, "L-BFGS push constants are 24 bytes");
#endif

/* ---- Whole relaxation per invocation (shaders/uff_relax_replica.comp) ----
 * The CPU-device shape of the same minimiser (dense BFGS only): ONE
 * invocation relaxes one replica from start to end (energy + gradient, the
 * direction, RDKit's line search, the update, the convergence tests) in
 * resumable dispatches of a budget of evaluations each, with the replica's
 * vectors in private arrays and its inverse Hessian in HISTORY as above.
 * One dispatch covers the batch: each workgroup (a SIMD vector's lanes) takes
 * up to its size of one molecule's replicas (GROUPS names them), so every
 * lane walks the same term table (no divergence), and the workgroups spread
 * over the device's threads.
 * The gradient is summed per atom in float, the energy in 64-bit fixed point
 * (one conversion per term: the same integer total as the force pass, so
 * E - E0 stays exact). Planes X0_HI
 * and X0_LO carry the start in and the end out, GRAD and DIR the line
 * search from one dispatch to the next; Y and HY are not used.
 * sim/uff_lbfgs.h says when it is taken. */
#define VKMD_SPEC_UFF_RELAX_DIM          36 /* private array length: 3 x the batch's largest molecule */
#define VKMD_UFF_RELAX_BINDING_POSITIONS 0 /* vec4 [atom_count]: the pass's; the end written */
#define VKMD_UFF_RELAX_BINDING_PLANES    1 /* the planes above (X0_HI, X0_LO) */
#define VKMD_UFF_RELAX_BINDING_REPLICAS  2 /* as VKMD_UFF_LBFGS_BINDING_REPLICAS */
#define VKMD_UFF_RELAX_BINDING_STATE     3 /* vkmd_uff_lbfgs_state [replica_count], written */
#define VKMD_UFF_RELAX_BINDING_HISTORY   4 /* vec4: inverse Hessians, rows padded (GROUPS) */
#define VKMD_UFF_RELAX_BINDING_E0        5 /* int64 [2 * replica_count], as above */
#define VKMD_UFF_RELAX_BINDING_TERMS     6 /* the UFF pass's term table (layout_uff.h) */
#define VKMD_UFF_RELAX_BINDING_RANGES    7 /* the UFF pass's ranges + molecule records */
#define VKMD_UFF_RELAX_BINDING_SLOTS     8 /* the UFF pass's slots */
#define VKMD_UFF_RELAX_BINDING_GROUPS    9 /* vkmd_uff_relax_group [workgroups] */
#define VKMD_UFF_RELAX_BINDING_COUNT     10
/* Texel bindings (vk/pipeline.h: uvec4 texels through imageLoad), second
 * views of the two tables the kernel reads most: on a CPU device a
 * storage-buffer load that differs by lane costs several times an image
 * load. */
#define VKMD_UFF_RELAX_BINDING_HISTORY_TEXELS 10 /* HISTORY, one vec4 a texel */
#define VKMD_UFF_RELAX_BINDING_TERMS_TEXELS   11 /* TERMS, a term in three texels */
#define VKMD_UFF_RELAX_TEXEL_COUNT            2
#define VKMD_UFF_RELAX_WORKGROUP_SIZE         8 /* default: lavapipe's SIMD width */

/* The lbfgs push constants' settings; max_evaluations caps each replica's
 * evaluations (the host loop's cap of the per-evaluation kernel); a batch of
 * more workgroups than the device dispatches at once takes several
 * dispatches, from group_start. */
#define VKMD_UFF_RELAX_PUSH_FIELDS                                                                 \
    VKMD_UINT atom_count;                                                                          \
    VKMD_UINT max_iterations;                                                                      \
    VKMD_FLOAT force_tol;                                                                          \
    VKMD_FLOAT energy_tol;                                                                         \
    VKMD_FLOAT max_step; /* A */                                                                   \
    VKMD_UINT max_evaluations;                                                                     \
    VKMD_UINT group_start; /* the dispatch's first workgroup in GROUPS */

/* One workgroup's replicas: slots (a.x, a.x + a.y) of one molecule, whose
 * record is a.z = range_count + molecule (its terms by kind); a.w: the
 * evaluations per replica per dispatch, at most (the dispatch then saves its
 * line search; see the shader); b.x = dim = 3 x its atoms, b.y = dim
 * rounded up to 4 (the inverse Hessian's rows: b.y^2 floats per replica,
 * from the replica's offset, a multiple of 4); b.z = the molecule's budget,
 * the most a.w may be (the host's, which lowers a.w to pace submissions). */
#define VKMD_UFF_RELAX_GROUP_FIELDS                                                                \
    VKMD_UVEC4 a;                                                                                  \
    VKMD_UVEC4 b;

struct vkmd_uff_relax_group {
    VKMD_UFF_RELAX_GROUP_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_uff_relax_group vkmd_uff_relax_group;
typedef struct vkmd_uff_relax_push {
    VKMD_UFF_RELAX_PUSH_FIELDS
} vkmd_uff_relax_push;
_Static_assert(sizeof(vkmd_uff_relax_push) == 28, "whole-relaxation push constants are 28 bytes");
_Static_assert(sizeof(vkmd_uff_relax_group) == 32, "std430 whole-relaxation group is 32 bytes");
#endif

#endif
