// PME step 1: spreads every atom's charge onto the K0 x K1 x K2 charge grid
// with B-splines of order ORDER, q Mx(ix) My(iy) Mz(iz) onto the ORDER^3
// points from (i0x, i0y, i0z) forwards (mod K), exactly as ref_pme.c.
// One thread per atom, grid-stride loop.
//
// Determinism: neighbouring atoms hit the same grid points, so the adds race.
// They are 64-bit atomics in fixed point (VKMD_PME_GRID_SCALE = 2^40 per e, see
// common/layout_pme.h for the range and why the sum is exact): integer
// addition is associative, so the grid is the same bits for any thread order.
// The 64-bit values and atomics are int64 or, in the "+words" build, pairs of
// 32-bit words with the same bits (common/fixed_point.glsl).
// The grid is zeroed by the pass (vkCmdFillBuffer) before this dispatch.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_PME_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_PME_ORDER) const int ORDER = 5;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;
#include "common/pme_spline.glsl"

layout(std430, binding = VKMD_PME_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_PME_BINDING_CHARGES) readonly buffer Charges { float charge[]; };
layout(std430, binding = VKMD_PME_BINDING_CHARGE) buffer ChargeGrid { vkmd_fixed qgrid[]; };
layout(std430, binding = VKMD_PME_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_PME_BINDING_ORDER) readonly buffer Order { uint order[]; };
layout(std430, binding = VKMD_PME_BINDING_NL_STATE) readonly buffer NlState { VKMD_NL_STATE_FIELDS } nls;
layout(push_constant) uniform Push { VKMD_PME_PUSH_FIELDS } pc;
// Atoms in the neighbour list's slot order (cells along a Hilbert curve):
// neighbouring invocations touch nearby grid points, which a GPU's caches
// and atomics favour (OpenMM sorts atoms by grid cell for the same reason).
// The sums are fixed point: the same bits in any order.
layout(constant_id = VKMD_SPEC_PME_SORTED) const bool SORTED = false;

// The atom of work item i, VKMD_NL_EMPTY for a padding slot.
uint item_atom(uint i)
{
    return SORTED ? order[i] : i;
}

uint item_count()
{
    return SORTED ? (nls.slot_count + 7u) / 8u * 8u : pc.atom_count;
}

VKMD_POS_LOAD(load_pos, pos, pos_x)

VKMD_FIXED_DEFINE_ATOMIC_ADD(qgrid_add, qgrid)

#define PME_BOX  (pc.box.xyz)
#define PME_SHEAR uintBitsToFloat(uvec3(pc.shear0, pc.shear1, pc.shear2))
#define PME_BOX_T (pc.box_t.xyz)
#define PME_GRID (pc.grid)
#define PME_ATOM_SPREAD
#include "common/pme_atom.glsl"

void main()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    uint items = item_count();
    for (uint i = gl_GlobalInvocationID.x; i < items; i += stride) {
        uint a = item_atom(i);
        if (a == VKMD_NL_EMPTY)
            continue;
        float q = charge[a];
        if (q == 0.0)
            continue; // adds nothing (e.g. TIP4P's oxygen)
        vec3 x, fine;
        pos_pair(load_pos(a), x, fine);
        pme_spread_atom(q, x, fine);
    }
}
