// Self-test of common/fixed_point.glsl for tests/test_gpu_fixed_point.c, run
// in both builds (this file and its "+words" build, shaders/variants.cmake)
// and compared with the host's int64 arithmetic:
//   out_trunc[i] = fixed_trunc(in_float[i])          i < n.x
//   out_float[i] = fixed_to_float(in_fixed[i])       i < n.y
//   out_add[i]   = fixed_add(in_fixed[i], fixed_neg(in_fixed[(i + 1) % n.y]))
//   sums[i % n.z] += in_fixed[i] with the atomic add (every thread races)
// Grid-stride loops; workgroup size 64.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer InFloat { float in_float[]; };
layout(std430, binding = 1) writeonly buffer OutTrunc { vkmd_fixed out_trunc[]; };
layout(std430, binding = 2) readonly buffer InFixed { vkmd_fixed in_fixed[]; };
layout(std430, binding = 3) writeonly buffer OutFloat { float out_float[]; };
layout(std430, binding = 4) writeonly buffer OutAdd { vkmd_fixed out_add[]; };
layout(std430, binding = 5) buffer Sums { vkmd_fixed sums[]; };
// n: float count, fixed count, sum slots, unused.
layout(push_constant) uniform Push { uvec4 n; } pc;

VKMD_FIXED_DEFINE_ATOMIC_ADD(sum_add, sums)

void main()
{
    uint stride = gl_NumWorkGroups.x * 64u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n.x; i += stride)
        out_trunc[i] = fixed_trunc(in_float[i]);
    for (uint i = gl_GlobalInvocationID.x; i < pc.n.y; i += stride) {
        vkmd_fixed v = in_fixed[i];
        out_float[i] = fixed_to_float(v);
        out_add[i] = fixed_add(v, fixed_neg(in_fixed[(i + 1u) % pc.n.y]));
        sum_add(i % pc.n.z, v);
    }
}
