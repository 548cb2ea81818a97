// PME step 2: converts the 64-bit fixed-point charge grid (pme_spread.comp)
// into the fp32 grid VkFFT transforms in place: rows of K2 reals padded to
// 2 (K2/2 + 1) floats, padding set to 0. One thread per padded float,
// grid-stride loop. The one fp32 rounding of each grid value happens here
// (to nearest even, the same in the int64 and "+words" builds,
// common/fixed_point.glsl). The charge grid is left zero for the next
// spread (so no evaluation clears it with a transfer command).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_PME_WORKGROUP_SIZE;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_PME_BINDING_CHARGE) buffer ChargeGrid { vkmd_fixed qgrid[]; };
layout(std430, binding = VKMD_PME_BINDING_FFT_GRID) writeonly buffer FftGrid { float grid[]; };
layout(push_constant) uniform Push { VKMD_PME_PUSH_FIELDS } pc;

void main()
{
    uint row_len = 2 * pc.grid.w; // padded floats per row
    uint total = pc.grid.x * pc.grid.y * row_len;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint p = gl_GlobalInvocationID.x; p < total; p += stride) {
        uint z = p % row_len, row = p / row_len;
        float v = 0.0;
        if (z < pc.grid.z) {
            uint at = row * pc.grid.z + z;
            v = fixed_to_float(qgrid[at]) * float(VKMD_PME_GRID_INV_SCALE);
            qgrid[at] = VKMD_FIXED_ZERO; // the next spread adds onto a cleared grid
        }
        grid[p] = v;
    }
}
