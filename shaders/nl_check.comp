// Neighbour-list check (engine/forces/neighbor.c), one dispatch:
//
// The largest squared displacement of any atom since the last build
// (minimum image, so an atom wrapped by the integrator is not a jump),
// reduced per workgroup in shared memory and then with one atomicMax on the
// float bits (non-negative floats order like their bits). The last workgroup
// to finish (counted with an atomic in the state) then decides whether to
// rebuild (forced, an atom moved past the trigger distance, or the box
// changed since the build) and writes the indirect dispatch arguments of
// every rebuild kernel: the full group counts or zero. A recorded MD loop
// therefore never asks the host.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

shared float red[WORKGROUP_SIZE];

void decide(uint bits);

void displacement()
{
    float m = 0.0;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < NL_ATOMS; a += stride) {
        vec3 d = nl_delta(saved[a].xyz, pos[a].xyz);
        float d2 = dot(d, d);
        // NaN (a broken position) must trigger a rebuild, not vanish in max().
        m = (d2 > m || isnan(d2)) ? d2 : m;
    }
    uint lid = gl_LocalInvocationID.x;
    red[lid] = m;
    barrier();
    for (uint h = WORKGROUP_SIZE / 2; h > 0; h /= 2) {
        if (lid < h) {
            float o = red[lid + h];
            red[lid] = (o > red[lid] || isnan(o)) ? o : red[lid];
        }
        barrier();
    }
    if (lid != 0)
        return;
    if (red[0] != 0.0)
        atomicMax(st.max_disp2, floatBitsToUint(red[0]));
    // The last workgroup sees every other group's atomicMax (atomics on one
    // location are ordered) and decides.
    memoryBarrierBuffer();
    if (atomicAdd(st.done_groups, 1u) + 1u != gl_NumWorkGroups.x)
        return;
    memoryBarrierBuffer();
    st.done_groups = 0u;
    decide(atomicOr(st.max_disp2, 0u));
}

void decide(uint bits)
{
    float d2 = uintBitsToFloat(bits);
    bool box_changed = any(notEqual(st.build_box.xyz, pc.box.xyz));
    bool rebuild = st.force != 0u || !(d2 <= pc.cell.w) || box_changed;
    st.last_disp2 = bits;
    st.max_disp2 = 0u;
    st.checks += 1u;
    if (rebuild) {
        st.builds += 1u;
        st.force = 0u;
        st.build_box = vec4(pc.box.xyz, 0.0);
    }
    uint g[8] = uint[8](pc.groups_a.x, pc.groups_a.y, pc.groups_a.z, pc.groups_a.w,
                        pc.groups_b.x, pc.groups_b.y, pc.groups_b.z, pc.groups_b.w);
    for (uint k = 0; k < VKMD_NL_DISPATCH_COUNT; ++k)
        dispatch_args[k] = uvec4(rebuild ? g[k] : 0u, 1u, 1u, 0u);
}

void main()
{
    displacement();
}
