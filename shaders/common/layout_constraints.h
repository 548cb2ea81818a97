/* Layouts of the constraint passes (settle.comp, hconstraints.comp;
 * engine/sim/sim_constraints.h). Included by vkmd_layout.h. Spec ids 40..47.
 *
 * Both shaders run one thread per unit (a water, an H cluster) over the same
 * four bindings, and both have a position mode and a velocity mode chosen by
 * VKMD_SPEC_CONSTRAINTS_MODE (four pipelines, one source per algorithm).
 * Positions are solved in coordinates relative to a reference atom of the
 * unit (the oxygen's, the heavy atom's reference position), so fp32
 * precision does not depend on how far the molecule is from the origin. */
#ifndef VKMD_LAYOUT_CONSTRAINTS_H
#define VKMD_LAYOUT_CONSTRAINTS_H

/* ---- Specialization constants (ids 40..47 are this module's) ------------ */
#define VKMD_SPEC_CONSTRAINTS_MODE 40 /* VKMD_CONSTRAINTS_MODE_* */

/* positions: constrain `positions` along the `positions_ref` bond vectors
 * (and, with inv_dt > 0, add the correction / dt to the velocities);
 * velocities: remove every relative velocity along a constraint. */
#define VKMD_CONSTRAINTS_MODE_POSITIONS  0
#define VKMD_CONSTRAINTS_MODE_VELOCITIES 1

#define VKMD_CONSTRAINTS_WORKGROUP_SIZE 64 /* default; any power of two the device allows */
#define VKMD_HCONSTRAINTS_MAX_H         4  /* hydrogens per cluster (VKMD_HCLUSTER_MAX) */
#define VKMD_HCONSTRAINTS_MAX_ITER      64 /* Newton iterations per cluster, at most */

/* ---- Bindings (both shaders) -------------------------------------------- */
#define VKMD_CONSTRAINTS_BINDING_POSITIONS     0 /* vec4 [atom_count], xyz A, constrained in place */
#define VKMD_CONSTRAINTS_BINDING_POSITIONS_REF 1 /* vec4 [atom_count], xyz A, before the update */
#define VKMD_CONSTRAINTS_BINDING_VELOCITIES    2 /* vec4 [atom_count], xyz A/fs, w 1/amu */
/* settle.comp: uvec4 [water_count] (o, h1, h2, -);
 * hconstraints.comp: vkmd_hcluster_record [cluster_count] */
#define VKMD_CONSTRAINTS_BINDING_RECORDS 3
#define VKMD_CONSTRAINTS_BINDING_POSITIONS_X                                                       \
    4                                    /* uvec4 [2 * atom_count]: split parts (positions.glsl) */
#define VKMD_CONSTRAINTS_BINDING_REF_X 5 /* uvec4 [2 * atom_count]: split parts of the ref */
#define VKMD_CONSTRAINTS_BINDING_COUNT 6

/* One H cluster: h hydrogens (entries past count unused, 0), info (heavy
 * atom, count 1..VKMD_HCONSTRAINTS_MAX_H, -, -), d the heavy atom-h[k]
 * distances in A (unused 0). */
#define VKMD_HCLUSTER_RECORD_FIELDS                                                                \
    VKMD_UVEC4 h;                                                                                  \
    VKMD_UVEC4 info;                                                                               \
    VKMD_VEC4 d;

/* settle.comp. inv_dt: 1/fs, position mode only, 0 leaves the velocities
 * alone; d_hh: H-H distance, A; height: distance of O from the H-H line,
 * sqrt(d_oh^2 - d_hh^2 / 4) A, computed on the host in double. */
#define VKMD_SETTLE_PUSH_FIELDS                                                                    \
    VKMD_UINT water_count;                                                                         \
    VKMD_FLOAT inv_dt;                                                                             \
    VKMD_FLOAT d_hh;                                                                               \
    VKMD_FLOAT height;

/* hconstraints.comp. inv_dt as settle's; tol: relative, Newton iterations
 * stop once every |r^2 - d^2| / (2 d^2) <= tol; max_iter: iterations at most. */
#define VKMD_HCONSTRAINTS_PUSH_FIELDS                                                              \
    VKMD_UINT cluster_count;                                                                       \
    VKMD_FLOAT inv_dt;                                                                             \
    VKMD_FLOAT tol;                                                                                \
    VKMD_UINT max_iter;

struct vkmd_hcluster_record {
    VKMD_HCLUSTER_RECORD_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_hcluster_record vkmd_hcluster_record;
typedef struct vkmd_settle_push {
    VKMD_SETTLE_PUSH_FIELDS
} vkmd_settle_push;
typedef struct vkmd_hconstraints_push {
    VKMD_HCONSTRAINTS_PUSH_FIELDS
} vkmd_hconstraints_push;

_Static_assert(sizeof(vkmd_hcluster_record) == 48, "std430 vkmd_hcluster_record is 48 bytes");
_Static_assert(offsetof(vkmd_hcluster_record, info) == 16, "hcluster.info at 16");
_Static_assert(offsetof(vkmd_hcluster_record, d) == 32, "hcluster.d at 32");
_Static_assert(sizeof(vkmd_settle_push) == 16, "settle push constants are 16 bytes");
_Static_assert(offsetof(vkmd_settle_push, inv_dt) == 4, "settle push.inv_dt at 4");
_Static_assert(offsetof(vkmd_settle_push, d_hh) == 8, "settle push.d_hh at 8");
_Static_assert(offsetof(vkmd_settle_push, height) == 12, "settle push.height at 12");
_Static_assert(sizeof(vkmd_hconstraints_push) == 16, "hconstraints push constants are 16 bytes");
_Static_assert(offsetof(vkmd_hconstraints_push, inv_dt) == 4, "hconstraints push.inv_dt at 4");
_Static_assert(offsetof(vkmd_hconstraints_push, tol) == 8, "hconstraints push.tol at 8");
_Static_assert(offsetof(vkmd_hconstraints_push, max_iter) == 12,
               "hconstraints push.max_iter at 12");
#endif

#endif
