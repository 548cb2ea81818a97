// The bond constraints of MD on the device, both kinds in one dispatch (they
// touch disjoint atoms): thread i constrains rigid water i (SETTLE) and H
// cluster i (SHAKE / RATTLE), grid-stride loop. Layout in
// common/layout_constraints.h, host side engine/sim/sim_constraints.c, CPU
// oracle ref_constraints_* (engine/ref/ref_md.h); the fused MD step
// (step.comp) runs the same code (common/settle.glsl, hconstraints.glsl).
// MODE (specialization constant) picks the part: positions or velocities.
//
// ---- Rigid waters ----
// SETTLE (Miyamoto & Kollman, J. Comput. Chem. 13, 952 (1992)) for rigid
// 3-site waters, one thread per water (grid-stride loop), layout in
// common/layout_constraints.h, host side engine/sim/sim_constraints.c, CPU
// oracle ref_constraints_* (engine/ref/ref_md.h). MODE (specialization
// constant) picks the part:
//   VKMD_CONSTRAINTS_MODE_POSITIONS: the analytic position solution. The
//     water is moved as a rigid body whose O-H and H-H distances are the
//     targets, so that the constraint displacements point along the
//     reference (positions_ref) bond vectors and keep the centre of mass;
//     with inv_dt > 0 the displacement / dt is added to the velocities.
//   VKMD_CONSTRAINTS_MODE_VELOCITIES: the relative velocities along the
//     three bonds are removed exactly (the 3x3 linear system of the impulses
//     along the unit bond vectors, solved by Cramer's rule; this allows three
//     different masses, unlike equations B1-B2 of the paper).
//
// Precision: everything is computed relative to the oxygen's reference
// position (differences of nearby floats are exact or nearly), so the fp32
// result does not depend on the distance from the origin (with split
// positions the differences come from common/positions.glsl); the O-H "height"
// of the canonical triangle comes from the host in double, and the H-H
// half-width is corrected after the rotation out of plane so that the H-H
// distance is d_hh to rounding (as OpenMM's SETTLE does). The only rounding
// left at the size of a coordinate is the final write-back.
//
// Masses come from velocities.w = 1/m. The position part assumes equal
// hydrogen masses (the host checks it): the canonical triangle puts the
// centre of mass on its symmetry axis.
//
// ---- H clusters ----
// Bond constraints to hydrogen, one thread per cluster (a heavy atom and its
// 1..4 hydrogens; system/constraints.h says why clusters), grid-stride loop.
// Layout in common/layout_constraints.h, host side engine/sim/sim_constraints.c,
// CPU oracle ref_constraints_* (engine/ref/ref_md.h). MODE (specialization
// constant) picks the part:
//   VKMD_CONSTRAINTS_MODE_POSITIONS: SHAKE. The constraint displacements lie
//     along the reference bond vectors s_k (positions_ref): hydrogen k moves
//     by g_k s_k / m_k and the heavy atom by -sum_k g_k s_k / m_c. The
//     cluster's n equations |r_k(g)|^2 = d_k^2 are solved together by Newton
//     iteration (full Jacobian, quadratic convergence: 3-4 iterations for
//     0.05 A displacements) until every |r_k^2 - d_k^2| / (2 d_k^2) <= tol;
//     the solution is the one SHAKE converges to. With inv_dt > 0 the
//     displacement / dt is added to the velocities.
//   VKMD_CONSTRAINTS_MODE_VELOCITIES: RATTLE's velocity part, exact: the
//     impulses along the current bond vectors that remove every relative
//     velocity along a bond, one n x n linear solve.
// Both solve a 4 x 4 system always (unused rows are identity rows with a zero
// right-hand side), so the loops have constant bounds and stay in registers.
// No pivoting: both matrices are strongly diagonally dominant (the heavy
// atom's 1/m_c couples the rows; the hydrogen's 1/m_k sits on the diagonal
// only), also with repartitioned hydrogen masses.
//
// Precision: positions are taken relative to the heavy atom's reference
// position, so fp32 precision does not depend on the distance from the
// origin; only the write-back rounds at the size of a coordinate.
// Masses come from velocities.w = 1/m.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_CONSTRAINTS_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_CONSTRAINTS_MODE) const uint MODE = VKMD_CONSTRAINTS_MODE_POSITIONS;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_CONSTRAINTS_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_POSITIONS_REF) readonly buffer PositionsRef { vec4 ref[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_WATERS) readonly buffer Waters { uvec4 waters[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_CLUSTERS) readonly buffer Clusters { vkmd_hcluster_record clusters[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_POSITIONS_X) buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_REF_X) readonly buffer PositionsRefX { uvec4 ref_x[]; };
layout(push_constant) uniform Push { VKMD_CONSTRAINTS_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)
VKMD_POS_LOAD(load_ref, ref, ref_x)

#define SETTLE_D_HH   (pc.d_hh)
#define SETTLE_HEIGHT (pc.height)
#define SETTLE_INV_DT (pc.inv_dt)
#include "common/settle.glsl"

#define HC_TOL      (pc.tol)
#define HC_MAX_ITER (pc.max_iter)
#define HC_INV_DT   (pc.inv_dt)
#include "common/hconstraints.glsl"

void main()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint i = gl_GlobalInvocationID.x; i < pc.water_count; i += stride) {
        if (MODE == VKMD_CONSTRAINTS_MODE_POSITIONS)
            settle_positions(waters[i]);
        else
            settle_velocities(waters[i]);
    }
    for (uint i = gl_GlobalInvocationID.x; i < pc.cluster_count; i += stride) {
        if (MODE == VKMD_CONSTRAINTS_MODE_POSITIONS)
            shake_positions(clusters[i]);
        else
            rattle_velocities(clusters[i]);
    }
}
