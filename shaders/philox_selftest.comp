// Self-test of common/philox.glsl for tests/test_gpu_philox.c, compared with
// engine/core/philox.c: for i < n.x
//   bits[i]   = philox4x32_10(ctr[i], key[i].xy)
//   gauss[i]  = philox_gauss3(key[i].xy, step lo ctr[i].y, step hi ctr[i].z,
//                             atom ctr[i].x, stream ctr[i].w)
//   edge[i]   = philox_box_muller3(words[i])       (chosen words, any value)
// Grid-stride loop; workgroup size 64.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/philox.glsl"

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Ctr { uvec4 ctr[]; };
layout(std430, binding = 1) readonly buffer Key { uvec4 key[]; };
layout(std430, binding = 2) readonly buffer Words { uvec4 words[]; };
layout(std430, binding = 3) writeonly buffer Bits { uvec4 bits[]; };
layout(std430, binding = 4) writeonly buffer Gauss { vec4 gauss[]; };
layout(std430, binding = 5) writeonly buffer Edge { vec4 edge[]; };
// n: case count, -, -, -.
layout(push_constant) uniform Push { uvec4 n; } pc;

void main()
{
    const uint stride = gl_NumWorkGroups.x * 64u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n.x; i += stride) {
        const uvec4 c = ctr[i];
        const uvec2 k = key[i].xy;
        bits[i] = philox4x32_10(c, k);
        gauss[i] = vec4(philox_gauss3(k, c.y, c.z, c.x, c.w), 0.0);
        edge[i] = vec4(philox_box_muller3(words[i]), 0.0);
    }
}
