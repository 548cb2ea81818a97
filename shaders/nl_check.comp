// Neighbour-list check (engine/forces/neighbor.c), one dispatch per force
// evaluation:
//
// The largest squared displacement of any atom since the last build and
// since the last prune (minimum image, so an atom wrapped by the integrator
// is not a jump), reduced per workgroup in shared memory and then with one
// atomicMax each on the float bits (non-negative floats order like their
// bits). The last workgroup to finish (counted with an atomic in the state)
// decides, and writes the indirect dispatch arguments of every rebuild
// kernel and of the prune: their group counts when due, zero otherwise.
//   rebuild: forced, the box changed, or an atom moved more than the outer
//            list allows since the build (the outer list then no longer
//            holds every pair that can come within the inner radius);
//   prune:   after every rebuild, or when an atom moved more than half the
//            inner skin since the last prune (the inner list then no longer
//            holds every pair that can come within the cutoff).
// A recorded MD loop therefore never asks the host.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

shared vec2 red[WORKGROUP_SIZE];

void decide(uint bits_build, uint bits_prune);

// max that lets NaN through (a broken position must trigger a rebuild, not
// vanish in max()).
float nan_max(float a, float b)
{
    return (b > a || isnan(b)) ? b : a;
}

void main()
{
    vec2 m = vec2(0.0);
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < NL_ATOMS; a += stride) {
        vec3 p = pos[a].xyz;
        vec3 db = nl_delta(saved[a].xyz, p);
        vec3 dp = nl_delta(saved[NL_ATOMS + a].xyz, p);
        m.x = nan_max(m.x, dot(db, db));
        m.y = nan_max(m.y, dot(dp, dp));
    }
    uint lid = gl_LocalInvocationID.x;
    red[lid] = m;
    barrier();
    for (uint h = WORKGROUP_SIZE / 2; h > 0; h /= 2) {
        if (lid < h) {
            vec2 o = red[lid + h];
            red[lid] = vec2(nan_max(red[lid].x, o.x), nan_max(red[lid].y, o.y));
        }
        barrier();
    }
    if (lid != 0)
        return;
    if (red[0].x != 0.0)
        atomicMax(st.max_disp2, floatBitsToUint(red[0].x));
    if (red[0].y != 0.0)
        atomicMax(st.max_disp2_p, floatBitsToUint(red[0].y));
    // The last workgroup sees every other group's atomicMax (atomics on one
    // location are ordered) and decides.
    memoryBarrierBuffer();
    if (atomicAdd(st.done_groups, 1u) + 1u != gl_NumWorkGroups.x)
        return;
    memoryBarrierBuffer();
    st.done_groups = 0u;
    decide(atomicOr(st.max_disp2, 0u), atomicOr(st.max_disp2_p, 0u));
}

void decide(uint bits_build, uint bits_prune)
{
    float d2 = uintBitsToFloat(bits_build), d2p = uintBitsToFloat(bits_prune);
    bool box_changed = any(notEqual(st.build_box.xyz, pc.box.xyz));
    bool rebuild = st.force != 0u || !(d2 <= pc.cell.w) || box_changed;
    bool prune = rebuild || !(d2p <= uintBitsToFloat(pc.limits.y));
    st.last_disp2 = bits_build;
    st.max_disp2 = 0u;
    st.max_disp2_p = 0u;
    st.checks += 1u;
    if (rebuild) {
        st.tiles_outer = 0u;
        st.builds += 1u;
        st.force = 0u;
        st.build_box = vec4(pc.box.xyz, 0.0);
    }
    if (prune) {
        st.tiles_inner = 0u;
        st.prunes += 1u;
    }
    uint g[8] = uint[8](pc.groups_a.x, pc.groups_a.y, pc.groups_a.z, pc.groups_a.w,
                        pc.groups_b.x, pc.groups_b.y, pc.groups_b.z, pc.groups_b.w);
    for (uint k = 0; k < VKMD_NL_DISPATCH_COUNT; ++k) {
        bool due = k == VKMD_NL_DISPATCH_PRUNE ? prune : rebuild;
        dispatch_args[k] = uvec4(due ? g[k] : 0u, 1u, 1u, 0u);
    }
    dispatch_args[VKMD_NL_DISPATCH_COUNT] = uvec4(rebuild ? 1u : 0u, prune ? 1u : 0u, 0u, 0u);
}
