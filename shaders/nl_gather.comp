// Neighbour list, every force evaluation (engine/forces/neighbor.c): each
// slot's current position relative to its cluster's anchor, the frame the
// prune and the pair kernel work in. Formed from the exact positions
// (common/positions.glsl: the split parts in the split modes), so a pair's
// displacement keeps float's relative precision however far the atoms are
// from the origin; the anchor lies on the split-float coarse grid, so the
// subtraction is exact up to the fine part. An atom wrapped by the
// integrator since the build is put back into the image of its build
// position (whole box edges, the edge as a float pair). Padding slots get
// the far point.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"
#include "common/positions.glsl"

VKMD_POS_LOAD(load_pos, pos, pos_x)

const uint C = VKMD_NL_CLUSTER_SIZE;

// The anchor (a multiple of the 1/8 A quantum) in the positions' form.
vkmd_pos anchor_pos(vec3 a)
{
    vkmd_pos p = pos_zero();
    p.c = a;
    if (POSITIONS == VKMD_POSITIONS_SPLIT_INT) {
        vec3 whole = floor(a);
        p.hi = ivec3(whole);
        p.lo = uvec3((a - whole) * float(VKMD_POSITIONS_INT_SCALE)); // k/8 * 2^32: exact
    }
    return p;
}

void main()
{
    uint used = (st.slot_count + C - 1u) / C * C;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint s = gl_GlobalInvocationID.x; s < used; s += stride) {
        uint a = order[s];
        if (a == VKMD_NL_EMPTY) {
            rel[NL_SLOTS + s] = vec4(vec3(VKMD_NL_FAR), 0.0);
            continue;
        }
        vec3 r = pos_sub(load_pos(a), anchor_pos(cluster[3u * (s / C)].xyz));
        vec3 k = floor((r - rel[s].xyz) / pc.box.xyz + 0.5);
        r = (r - k * pc.box.xyz) - k * pc.box_lo.xyz;
        rel[NL_SLOTS + s] = vec4(r, 1.0);
    }
}
