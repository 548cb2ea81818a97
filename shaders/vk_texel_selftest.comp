// Runtime self-test of texel bindings (vk/pipeline.h) for
// tests/test_vk_runtime.c: words[4 t + c] = component c of texel n - 1 - t
// of the texel view of the second buffer, t < n = count (push constant), so
// every lane reads another texel, and the words come back bit for bit.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_SELFTEST_WORKGROUP_SIZE;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = 0) writeonly buffer Words { uvec4 words[]; };
layout(binding = 1, rgba32ui) uniform readonly uimageBuffer texels;
layout(push_constant) uniform Push { VKMD_SELFTEST_PUSH_FIELDS } pc;

void main()
{
    uint t = gl_GlobalInvocationID.x;
    if (t < pc.count)
        words[t] = imageLoad(texels, int(pc.count - 1u - t));
}
