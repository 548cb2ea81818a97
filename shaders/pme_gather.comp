// PME step 4 (after VkFFT's inverse C2R, unnormalised as OpenMM's and
// ref_pme.c's): interpolates the convolved grid phi back onto the atoms,
//   F = -q (K0/L0 sum dMx My Mz phi, K1/L1 sum Mx dMy Mz phi, K2/L2 sum Mx My dMz phi),
// over the same ORDER^3 points pme_spread.comp used (the B-splines are
// recomputed from the same positions, so they are the same bits). One thread
// per atom, grid-stride loop; each thread sums in a fixed order and adds its
// three components into the shared force accumulator with 64-bit atomics
// (other passes add to the same atoms): int64 or, in the "+words" build,
// pairs of 32-bit words with the same bits (common/fixed_point.glsl).
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
layout(std430, binding = VKMD_PME_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_PME_BINDING_FFT_GRID) readonly buffer FftGrid { float grid[]; };
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

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)

#define PME_BOX  (pc.box.xyz)
#define PME_SHEAR uintBitsToFloat(uvec3(pc.shear0, pc.shear1, pc.shear2))
#define PME_BOX_T (pc.box_t.xyz)
#define PME_GRID (pc.grid)
#define PME_ATOM_GATHER
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
            continue;
        vec3 x, fine;
        pos_pair(load_pos(a), x, fine);
        vec3 f = pme_gather_atom(q, x, fine);
        uint n = pc.atom_count;
        force_add(VKMD_FORCE_INDEX(0, a, n), to_fixed(f.x));
        force_add(VKMD_FORCE_INDEX(1, a, n), to_fixed(f.y));
        force_add(VKMD_FORCE_INDEX(2, a, n), to_fixed(f.z));
    }
}
