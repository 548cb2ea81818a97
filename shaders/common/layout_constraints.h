/* Layouts of the constraint pass (constraints.comp;
 * engine/sim/sim_constraints.h). Included by vkmd_layout.h. Spec ids 40..47.
 *
 * One thread per unit (a water and an H cluster by the same index, disjoint
 * atoms), a position mode and a velocity mode chosen by
 * VKMD_SPEC_CONSTRAINTS_MODE (two pipelines, one source).
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

/* ---- Bindings ------------------------------------------------------------ */
#define VKMD_CONSTRAINTS_BINDING_POSITIONS     0 /* vec4 [atom_count], xyz A, constrained in place */
#define VKMD_CONSTRAINTS_BINDING_POSITIONS_REF 1 /* vec4 [atom_count], xyz A, before the update */
#define VKMD_CONSTRAINTS_BINDING_VELOCITIES    2 /* vec4 [atom_count], xyz A/fs, w 1/amu */
#define VKMD_CONSTRAINTS_BINDING_WATERS        3 /* uvec4 [water_count] (o, h1, h2, -) */
#define VKMD_CONSTRAINTS_BINDING_POSITIONS_X                                                       \
    4 /* uvec4 [2 * atom_count]: split parts (positions.glsl) */
#define VKMD_CONSTRAINTS_BINDING_REF_X    5 /* uvec4 [2 * atom_count]: split parts of the ref */
#define VKMD_CONSTRAINTS_BINDING_CLUSTERS 6 /* vkmd_hcluster_record [cluster_count] */
#define VKMD_CONSTRAINTS_BINDING_COUNT    7

/* One H cluster: h hydrogens (entries past count unused, 0), info (heavy
 * atom, count 1..VKMD_HCONSTRAINTS_MAX_H, -, -), d the heavy atom-h[k]
 * distances in A (unused 0). */
#define VKMD_HCLUSTER_RECORD_FIELDS                                                                \
    VKMD_UVEC4 h;                                                                                  \
    VKMD_UVEC4 info;                                                                               \
    VKMD_VEC4 d;

/* inv_dt: 1/fs, position mode only, 0 leaves the velocities alone; waters:
 * d_hh: H-H distance, A; height: distance of O from the H-H line,
 * sqrt(d_oh^2 - d_hh^2 / 4) A, computed on the host in double; clusters:
 * tol: relative, Newton iterations stop once every |r^2 - d^2| / (2 d^2) <=
 * tol; max_iter: iterations at most. */
#define VKMD_CONSTRAINTS_PUSH_FIELDS                                                               \
    VKMD_UINT water_count;                                                                         \
    VKMD_UINT cluster_count;                                                                       \
    VKMD_FLOAT inv_dt;                                                                             \
    VKMD_FLOAT d_hh;                                                                               \
    VKMD_FLOAT height;                                                                             \
    VKMD_FLOAT tol;                                                                                \
    VKMD_UINT max_iter;                                                                            \
    VKMD_UINT pad0;

struct vkmd_hcluster_record {
    VKMD_HCLUSTER_RECORD_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_hcluster_record vkmd_hcluster_record;
typedef struct vkmd_constraints_push {
    VKMD_CONSTRAINTS_PUSH_FIELDS
} vkmd_constraints_push;

_Static_assert(sizeof(vkmd_hcluster_record) == 48, "std430 vkmd_hcluster_record is 48 bytes");
_Static_assert(offsetof(vkmd_hcluster_record, info) == 16, "hcluster.info at 16");
_Static_assert(offsetof(vkmd_hcluster_record, d) == 32, "hcluster.d at 32");
_Static_assert(sizeof(vkmd_constraints_push) == 32, "constraints push constants are 32 bytes");
_Static_assert(offsetof(vkmd_constraints_push, inv_dt) == 8, "constraints push.inv_dt at 8");
_Static_assert(offsetof(vkmd_constraints_push, tol) == 20, "constraints push.tol at 20");
_Static_assert(offsetof(vkmd_constraints_push, max_iter) == 24, "constraints push.max_iter at 24");
#endif

#endif
