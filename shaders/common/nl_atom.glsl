// The neighbour list's per-atom work and its decision (engine/forces/
// pass_neighbor.c), shared by nl_check.comp / nl_gather.comp and the fused MD
// step (step.comp): the displacements since the build and the prune, the
// look ahead, the decision of the last workgroup, and a slot's position
// relative to its cluster's anchor. The includer declares the buffers st
// (the state), saved, rel, cluster, dispatch_args, gate and the block NLP
// (the list's push constants, VKMD_NL_PUSH_FIELDS), WORKGROUP_SIZE, and
// includes positions.glsl.
#ifndef VKMD_NL_ATOM_GLSL
#define VKMD_NL_ATOM_GLSL

#include "common/box.glsl"

// b - a under the minimum-image convention (a triclinic box: L in box.xyz,
// T in box_lo.xyz, common/box.glsl).
vec3 nl_atom_delta(vec3 a, vec3 b)
{
    vec3 d = b - a;
    if (TRICLINIC)
        return box_tri_min_image(d, NLP.box.xyz, NLP.box_lo.xyz);
    return d - NLP.box.xyz * floor(d / NLP.box.xyz + 0.5);
}

// max that lets NaN through (a broken position must trigger a rebuild, not
// vanish in max()).
float nl_nan_max(float a, float b)
{
    return (b > a || isnan(b)) ? b : a;
}

vec3 nl_nan_max3(vec3 a, vec3 b)
{
    return vec3(nl_nan_max(a.x, b.x), nl_nan_max(a.y, b.y), nl_nan_max(a.z, b.z));
}

// Atom a at position p: squared displacements since the build (x) and since
// the prune (y), and (z) the square of the displacement since the build
// plus VKMD_NL_PREDICT_STEPS times its motion since the last check, a bound
// on its displacement at the next check (its motion per step changes
// little from one step to the next: the factor covers that change). Saves
// p as the last check's position.
vec3 nl_measure(uint a, vec3 p)
{
    uint n = NLP.sizes.x;
    vec3 db = nl_atom_delta(saved[a].xyz, p);
    vec3 dp = nl_atom_delta(saved[n + a].xyz, p);
    vec3 dl = nl_atom_delta(saved[2u * n + a].xyz, p);
    saved[2u * n + a] = vec4(p, 0.0);
    float ahead = length(db) + VKMD_NL_PREDICT_STEPS * length(dl);
    return vec3(dot(db, db), dot(dp, dp), ahead * ahead);
}

// The decision, by the last workgroup of the check. may_rebuild: the
// rebuild dispatches follow this check. A rebuild is due when forced, when
// the box changed, or when an atom moved more than the trigger since the
// build; where none can follow, the state is marked `missed` (the caller
// repeats the steps). In a gated batch (predict) a check that does not
// rebuild looks one step ahead: when an atom may pass the trigger by the
// next check, it halts the batch after this step (the gate words of the
// steps after it are set, so their conditional rendering skips them) and
// forces a rebuild at the next check, which the caller records at the start
// of the next batch. So no step runs on a list that may miss a pair, and
// steps that do not rebuild record no rebuild work.
void nl_decide(uint bits_build, uint bits_prune, uint bits_ahead, bool may_rebuild)
{
    float d2 = uintBitsToFloat(bits_build), d2p = uintBitsToFloat(bits_prune);
    float a2 = uintBitsToFloat(bits_ahead);
    bool box_changed = any(notEqual(st.build_box.xyz, NLP.box.xyz));
    bool hard = st.force != 0u || !(d2 <= NLP.cell.w) || box_changed;
    bool rebuild = may_rebuild && hard;
    if (hard && !may_rebuild)
        st.missed = 1u;
    bool prune = rebuild || !(d2p <= uintBitsToFloat(NLP.limits.y));
    uint run = st.batch_checks + 1u; // steps of the batch run, this one included
    bool halt = st.predict != 0u && !rebuild && (hard || !(a2 <= NLP.cell.w));
    st.last_disp2 = bits_build;
    st.max_disp2 = 0u;
    st.max_disp2_p = 0u;
    st.max_ahead2 = 0u;
    st.checks += 1u;
    st.batch_checks = run;
    if (halt) {
        st.halt = 1u;
        st.halts += 1u;
        st.force = 1u;
        for (uint k = run; k < VKMD_NL_GATE_WORDS; ++k)
            gate[k] = 1u;
    }
    if (rebuild) {
        st.tiles_outer = 0u;
        st.builds += 1u;
        st.force = 0u;
        st.build_box = vec4(NLP.box.xyz, 0.0);
    }
    st.prune_now = prune ? 1u : 0u;
    if (prune) {
        st.tiles_inner = 0u;
        st.prunes += 1u;
    }
    uint g[8] = uint[8](NLP.groups_a.x, NLP.groups_a.y, NLP.groups_a.z, NLP.groups_a.w,
                        NLP.groups_b.x, NLP.groups_b.y, NLP.groups_b.z, NLP.groups_b.w);
    for (uint k = 0; k < VKMD_NL_DISPATCH_COUNT; ++k) {
        bool due = k == VKMD_NL_DISPATCH_PRUNE ? prune : rebuild;
        dispatch_args[k] = uvec4(due ? g[k] : 0u, 1u, 1u, 0u);
    }
    dispatch_args[VKMD_NL_DISPATCH_COUNT] = uvec4(rebuild ? 1u : 0u, prune ? 1u : 0u, 0u, 0u);
}

shared vec3 nl_red[WORKGROUP_SIZE];

// Reduces the workgroup's measures m (nl_measure; every invocation calls
// it, in uniform control flow), adds them to the state, and lets the last
// workgroup of the dispatch decide.
void nl_check_reduce(vec3 m, bool may_rebuild)
{
    uint lid = gl_LocalInvocationID.x;
    nl_red[lid] = m;
    barrier();
    for (uint h = WORKGROUP_SIZE / 2; h > 0; h /= 2) {
        if (lid < h)
            nl_red[lid] = nl_nan_max3(nl_red[lid], nl_red[lid + h]);
        barrier();
    }
    if (lid != 0)
        return;
    if (nl_red[0].x != 0.0)
        atomicMax(st.max_disp2, floatBitsToUint(nl_red[0].x));
    if (nl_red[0].y != 0.0)
        atomicMax(st.max_disp2_p, floatBitsToUint(nl_red[0].y));
    if (nl_red[0].z != 0.0)
        atomicMax(st.max_ahead2, floatBitsToUint(nl_red[0].z));
    // The last workgroup sees every other group's atomicMax (atomics on one
    // location are ordered) and decides.
    memoryBarrierBuffer();
    if (atomicAdd(st.done_groups, 1u) + 1u != gl_NumWorkGroups.x)
        return;
    memoryBarrierBuffer();
    st.done_groups = 0u;
    nl_decide(atomicOr(st.max_disp2, 0u), atomicOr(st.max_disp2_p, 0u),
              atomicOr(st.max_ahead2, 0u), may_rebuild);
}

// The anchor (a multiple of the 1/8 A quantum) in the positions' form.
vkmd_pos nl_anchor_pos(vec3 a)
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

// Slot s's position (of atom position x) relative to its cluster's anchor,
// in the image of its build position (an atom wrapped since the build is
// put back, whole box edges, the edge as a float pair; in a triclinic cell
// the lattice translation as a pair, common/box.glsl: its grid part moves
// the anchor exactly and its rest is subtracted from the small difference,
// so the result does not round at the scale of the translation).
vec3 nl_relative(uint s, vkmd_pos x)
{
    vec3 a = cluster[3u * (s / VKMD_NL_CLUSTER_SIZE)].xyz;
    vec3 r = pos_sub(x, nl_anchor_pos(a));
    if (TRICLINIC) {
        vec3 n = box_tri_image_counts(r - rel[s].xyz, NLP.box.xyz, NLP.box_lo.xyz);
        vec3 hi, lo;
        box_tri_translation_pair(a, n, NLP.box.xyz, NLP.box_lo.xyz, hi, lo);
        return pos_sub_lo(x, nl_anchor_pos(hi), lo);
    }
    vec3 k = floor((r - rel[s].xyz) / NLP.box.xyz + 0.5);
    return (r - k * NLP.box.xyz) - k * NLP.box_lo.xyz;
}

#endif
