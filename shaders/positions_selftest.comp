// Self-test of common/positions.glsl for tests/test_gpu_positions.c, in the
// mode given by the POSITIONS specialization constant; the host compares
// with its double arithmetic. For i < n:
//   positions i moved by d[i] (pos_add), written back in place;
//   disp[i] = pos_sub(position i+1, position i) of the moved positions,
//   computed after a barrier-free second dispatch (push flag) so every move
//   is done.
// Grid-stride loop; workgroup size 64.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/positions.glsl"

layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) buffer PosX { uvec4 pos_x[]; };
layout(std430, binding = 2) readonly buffer Move { vec4 d[]; };
layout(std430, binding = 3) writeonly buffer Disp { vec4 disp[]; };
// x: count; y: 0 = move, 1 = displacements.
layout(push_constant) uniform Push { uvec4 n; } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)

void main()
{
    uint stride = gl_NumWorkGroups.x * 64u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n.x; i += stride) {
        if (pc.n.y == 0u)
            store_pos(i, pos_add(load_pos(i), d[i].xyz));
        else if (i + 1u < pc.n.x)
            disp[i] = vec4(pos_sub(load_pos(i + 1u), load_pos(i)), 0.0);
    }
}
