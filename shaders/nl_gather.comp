// Neighbour list, every force evaluation (engine/forces/pass_neighbor.c): each
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

#define NLP pc
#include "common/nl_atom.glsl"

VKMD_POS_LOAD(load_pos, pos, pos_x)

const uint C = VKMD_NL_CLUSTER_SIZE;

void main()
{
    uint used = (st.slot_count + C - 1u) / C * C;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint s = gl_GlobalInvocationID.x; s < used; s += stride) {
        uint a = order[s];
        rel[NL_SLOTS + s] =
            a == VKMD_NL_EMPTY ? vec4(vec3(VKMD_NL_FAR), 0.0) : vec4(nl_relative(s, load_pos(a)), 1.0);
    }
}
