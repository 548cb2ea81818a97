// Runtime self-test for tests/test_vk_runtime.c: scales a float buffer by a
// specialization constant, data[i] *= SCALE for i < count (push constant).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_SELFTEST_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_SELFTEST_SCALE) const float SCALE = 1.0;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Push { VKMD_SELFTEST_PUSH_FIELDS } pc;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count)
        data[i] *= SCALE;
}
