// The fused MD step of a periodic system with PME (engine/sim/step.c,
// common/layout_step.h): one thread
// per constraint unit (a rigid water, an H cluster, an atom in neither), in
// three grid-stride loops, one per kind of unit (a loop body holds one
// kind's code only). A thread kicks its atoms, constrains their velocities,
// drifts them, constrains their positions, then does for each atom the work
// the next force evaluation needs from it: its charge onto the PME grid, its
// displacements for the neighbour list and its position relative to its
// cluster's anchor, and its force accumulators cleared. The last workgroup
// decides on the list (common/nl_atom.glsl).
//
// Every piece is the code of the pass-by-pass step (md.comp, constraints.comp,
// pme_spread.comp, nl_check.comp, nl_gather.comp; the
// reciprocal-space force as pme_gather.comp adds it, in fixed point): same
// operations on the same values, so the two give the same bits when the
// list is rebuilt at the same steps (tests/test_md_fused.c). The CPU oracle
// is ref_md_step (engine/ref/ref_md.h).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/philox.glsl"
#include "common/positions.glsl"
#include "common/group_order.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_STEP_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_STEP_MODE) const uint MODE = VKMD_STEP_MODE_LM;
layout(constant_id = VKMD_SPEC_PME_ORDER) const int ORDER = 5;
layout(constant_id = VKMD_SPEC_TEXEL_READS) const bool TEXEL_READS = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

struct vkmd_nl_params {
    VKMD_NL_PUSH_FIELDS
};

layout(std430, binding = VKMD_STEP_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_STEP_BINDING_POSITIONS_X) buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_STEP_BINDING_REF) buffer PositionsRef { vec4 ref[]; };
layout(std430, binding = VKMD_STEP_BINDING_REF_X) buffer PositionsRefX { uvec4 ref_x[]; };
layout(std430, binding = VKMD_STEP_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_STEP_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_STEP_BINDING_COUNTER) readonly buffer Counter { uvec4 counter; };
layout(std430, binding = VKMD_STEP_BINDING_WATERS) readonly buffer Waters { uvec4 waters[]; };
layout(std430, binding = VKMD_STEP_BINDING_HCLUSTERS) readonly buffer Clusters { vkmd_hcluster_record hclusters[]; };
layout(std430, binding = VKMD_STEP_BINDING_FREE) readonly buffer Free { uint free_atoms[]; };
struct vkmd_step_params {
    VKMD_STEP_PARAM_FIELDS
    vkmd_nl_params nl;
};
layout(std430, binding = VKMD_STEP_BINDING_PARAMS) readonly buffer Params { vkmd_step_params p; } params_buf;
// The parameters, copied once per invocation: read from the buffer inside
// the loops, every use would be a load (lavapipe does not hoist them).
vkmd_step_params prm;
layout(std430, binding = VKMD_STEP_BINDING_NL_STATE) buffer State { VKMD_NL_STATE_FIELDS } st;
layout(std430, binding = VKMD_STEP_BINDING_NL_SAVED) buffer Saved { vec4 saved[]; };
layout(std430, binding = VKMD_STEP_BINDING_NL_GATE) buffer Gate { uint gate[]; };
layout(std430, binding = VKMD_STEP_BINDING_NL_SLOT_OF) readonly buffer SlotOf { uint slot_of[]; };
layout(std430, binding = VKMD_STEP_BINDING_NL_CLUSTER) readonly buffer Cluster { vec4 cluster[]; };
layout(std430, binding = VKMD_STEP_BINDING_NL_REL) buffer Rel { vec4 rel[]; };
layout(std430, binding = VKMD_STEP_BINDING_NL_ARGS) buffer Args { uvec4 dispatch_args[]; };
layout(std430, binding = VKMD_STEP_BINDING_CHARGES) readonly buffer Charges { float charge[]; };
layout(std430, binding = VKMD_STEP_BINDING_QGRID) buffer ChargeGrid { vkmd_fixed qgrid[]; };
layout(std430, binding = VKMD_STEP_BINDING_GRID) readonly buffer FftGrid { float grid[]; };
layout(std430, binding = VKMD_STEP_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(push_constant) uniform Push { VKMD_STEP_PUSH_FIELDS } pc;
// The gather's reads of phi through a texel view on CPU devices (as
// forces.comp's tiles).
layout(binding = VKMD_STEP_BINDING_GRID_TEXELS, r32ui) uniform readonly uimageBuffer grid_t;
float phi_at(uint i)
{
    if (TEXEL_READS)
        return uintBitsToFloat(imageLoad(grid_t, int(i)).x);
    return grid[i];
}
#define PME_PHI(i) phi_at(i)

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)
VKMD_POS_LOAD(load_ref, ref, ref_x)
VKMD_POS_STORE(store_ref, ref, ref_x)

VKMD_FIXED_DEFINE_ATOMIC_ADD(qgrid_add, qgrid)

#include "common/pme_spline.glsl"
#define PME_BOX  (prm.box.xyz)
#define PME_SHEAR vec3(0.0) // the fused step takes rectangular boxes only
#define PME_GRID (prm.pme_grid)
#define PME_ATOM_SPREAD
#define PME_ATOM_GATHER
#include "common/pme_atom.glsl"

#define NLP (prm.nl)
#include "common/nl_atom.glsl"

// Position constraints add the correction / dt to the velocities.
#define SETTLE_D_HH   (prm.hold.x)
#define SETTLE_HEIGHT (prm.hold.y)
#define SETTLE_INV_DT (prm.md.w)
#include "common/settle.glsl"
#define HC_TOL      (prm.hold.z)
#define HC_MAX_ITER (floatBitsToUint(prm.hold.w))
#define HC_INV_DT   (prm.md.w)
#include "common/hconstraints.glsl"

const float ACCEL = 4.184e-4; // VKMD_ACCEL_PER_FORCE_MASS: (kcal/mol/A)/amu in A/fs^2

// a = F / m of atom a, F in fixed point plus (gather) the reciprocal-space
// force added in fixed point as pme_gather.comp adds it.
vec3 accel(uint a, float inv_mass)
{
    uint n = prm.counts.x;
    vkmd_fixed fx = force[VKMD_FORCE_INDEX(0u, a, n)];
    vkmd_fixed fy = force[VKMD_FORCE_INDEX(1u, a, n)];
    vkmd_fixed fz = force[VKMD_FORCE_INDEX(2u, a, n)];
    if (pc.gather != 0u) {
        float q = charge[a];
        if (q != 0.0) {
            vec3 x, fine;
            pos_pair(load_pos(a), x, fine);
            vec3 f = pme_gather_atom(q, x, fine);
            fx = fixed_add(fx, to_fixed(f.x));
            fy = fixed_add(fy, to_fixed(f.y));
            fz = fixed_add(fz, to_fixed(f.z));
        }
    }
    const float inv = float(VKMD_FIXED_INV_SCALE);
    vec3 f = vec3(fixed_to_float(fx), fixed_to_float(fy), fixed_to_float(fz));
    return f * (inv * ACCEL * inv_mass);
}

// Kick by `h` dt: v += h dt a.
void kick(uint a, float h)
{
    vec4 v = vel[a];
    v.xyz += (h * prm.md.x) * accel(a, v.w);
    vel[a] = v;
}

// Langevin middle's A O A (md.comp LM_DRIFT).
void lm_drift(uint a)
{
    const float dt = prm.md.x;
    vec4 v = vel[a];
    vkmd_pos x = load_pos(a);
    store_ref(a, x);
    vec3 d = (0.5 * dt) * v.xyz;
    uint lo = counter.x + pc.step_offset;
    uint hi = counter.y + (lo < counter.x ? 1u : 0u);
    vec3 g = philox_gauss3(prm.seed.xy, lo, hi, a, 0u);
    v.xyz = prm.md.y * v.xyz + (prm.md.z * sqrt(v.w)) * g;
    vel[a] = v;
    if (POSITIONS == VKMD_POSITIONS_FP32)
        store_pos(a, pos_add(pos_add(x, d), (0.5 * dt) * v.xyz));
    else
        store_pos(a, pos_add(x, d + (0.5 * dt) * v.xyz));
}

// Verlet's half kick and drift (md.comp VV_KICK_DRIFT).
void vv_open(uint a)
{
    const float dt = prm.md.x;
    vkmd_pos x = load_pos(a);
    store_ref(a, x);
    vec4 v = vel[a];
    v.xyz += (0.5 * dt) * accel(a, v.w);
    vel[a] = v;
    store_pos(a, pos_add(x, dt * v.xyz));
}

// The next evaluation's per-atom work; m: the largest displacements so far.
void finish(uint a, inout vec3 m)
{
    uint n = prm.counts.x;
    vkmd_pos x = load_pos(a);
    float q = charge[a];
    if (q != 0.0) {
        vec3 c, fine;
        pos_pair(x, c, fine);
        pme_spread_atom(q, c, fine);
    }
    m = nl_nan_max3(m, nl_measure(a, pos_float(x)));
    uint s = slot_of[a];
    rel[NLP.sizes.y + s] = vec4(nl_relative(s, x), 1.0);
    force[VKMD_FORCE_INDEX(0u, a, n)] = VKMD_FIXED_ZERO;
    force[VKMD_FORCE_INDEX(1u, a, n)] = VKMD_FIXED_ZERO;
    force[VKMD_FORCE_INDEX(2u, a, n)] = VKMD_FIXED_ZERO;
}

// One unit: atoms u[0..n) (a water: o, h1, h2; a cluster: the heavy atom,
// then its hydrogens; a free atom), KIND 0 water, 1 cluster, 2 free (a
// constant at each call). The per-atom loops are kept loops: their bodies
// (the PME gather and spread) would otherwise be copied for every atom.
void unit(uint u[5], uint n, const uint KIND, uvec4 w, vkmd_hcluster_record cl, inout vec3 m)
{
    const bool vv = MODE != VKMD_STEP_MODE_LM;
    if (!vv || MODE == VKMD_STEP_MODE_VV_STEP || MODE == VKMD_STEP_MODE_VV_CLOSE) {
        [[dont_unroll]] for (uint k = 0u; k < n; ++k)
            kick(u[k], vv ? 0.5 : 1.0);
        if (KIND == 0u)
            settle_velocities(w);
        else if (KIND == 1u)
            rattle_velocities(cl);
    }
    if (MODE == VKMD_STEP_MODE_VV_CLOSE)
        return;
    [[dont_unroll]] for (uint k = 0u; k < n; ++k) {
        if (vv)
            vv_open(u[k]);
        else
            lm_drift(u[k]);
    }
    if (KIND == 0u)
        settle_positions(w);
    else if (KIND == 1u)
        shake_positions(cl);
    [[dont_unroll]] for (uint k = 0u; k < n; ++k)
        finish(u[k], m);
}

void main()
{
    prm = params_buf.p;
    // Waters by invocation (neighbouring waters are neighbours in space, so
    // a thread's spread stays in its part of the grid); H clusters and free
    // atoms, fewer, spread over the workgroups (common/group_order.glsl).
    uint g = gl_GlobalInvocationID.x, stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    uint gp = vkmd_group_block(gl_WorkGroupID.x, gl_NumWorkGroups.x, prm.seed.w) * WORKGROUP_SIZE +
              gl_LocalInvocationID.x;
    if (pc.energy != 0u && g < VKMD_ENERGY_SLOT_COUNT)
        energy[g] = VKMD_FIXED_ZERO;
    vec3 m = vec3(0.0);
    vkmd_hcluster_record no_cluster;
    no_cluster.h = uvec4(0u);
    no_cluster.info = uvec4(0u);
    no_cluster.d = vec4(0.0);
    for (uint i = g; i < prm.counts.y; i += stride) {
        uvec4 w = waters[i];
        uint u[5] = uint[5](w.x, w.y, w.z, 0u, 0u);
        unit(u, 3u, 0u, w, no_cluster, m);
    }
    for (uint i = gp; i < prm.counts.z; i += stride) {
        vkmd_hcluster_record cl = hclusters[i];
        uint u[5] = uint[5](cl.info.x, cl.h.x, cl.h.y, cl.h.z, cl.h.w);
        unit(u, 1u + cl.info.y, 1u, uvec4(0u), cl, m);
    }
    for (uint i = gp; i < prm.counts.w; i += stride) {
        uint u[5] = uint[5](free_atoms[i], 0u, 0u, 0u, 0u);
        unit(u, 1u, 2u, uvec4(0u), no_cluster, m);
    }
    if (MODE != VKMD_STEP_MODE_VV_CLOSE)
        nl_check_reduce(m, pc.may_rebuild != 0u);
}
