// The pieces of an MD step around the force evaluation (engine/sim/md.c);
// MODE (specialization constant) picks one, see common/layout_md.h for the
// formulas. One thread per atom (per molecule for WRAP_SHIFT, one thread for
// ADVANCE). The CPU oracle is ref_md_step (engine/ref/ref_md.h).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/philox.glsl"
#include "common/positions.glsl"
#include "common/box.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_MD_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_MD_MODE) const uint MODE = VKMD_MD_MODE_VV_KICK;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_MD_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_MD_BINDING_POSITIONS_REF) buffer PositionsRef { vec4 pos_ref[]; };
layout(std430, binding = VKMD_MD_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_MD_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_MD_BINDING_MOMENTUM) buffer Momentum { vkmd_fixed momentum[]; };
layout(std430, binding = VKMD_MD_BINDING_COUNTER) buffer Counter { uvec4 counter; };
layout(std430, binding = VKMD_MD_BINDING_MOLECULE) readonly buffer Molecule { uint molecule[]; };
layout(std430, binding = VKMD_MD_BINDING_SHIFT) buffer Shift { vec4 shift[]; };
layout(std430, binding = VKMD_MD_BINDING_POSITIONS_X) buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_MD_BINDING_REF_X) buffer PositionsRefX { uvec4 ref_x[]; };
layout(std430, binding = VKMD_MD_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_MD_BINDING_NL_STATE) readonly buffer NlState { VKMD_NL_STATE_FIELDS } nls;
layout(push_constant) uniform Push { VKMD_MD_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)
VKMD_POS_LOAD(load_ref, pos_ref, ref_x)
VKMD_POS_STORE(store_ref, pos_ref, ref_x)

VKMD_FIXED_DEFINE_ATOMIC_ADD(momentum_add, momentum)

const float ACCEL = 4.184e-4; // VKMD_ACCEL_PER_FORCE_MASS: (kcal/mol/A)/amu in A/fs^2

shared vec3 s_p[WORKGROUP_SIZE];

vec3 accel(uint a, float inv_mass)
{
    const float inv = float(VKMD_FIXED_INV_SCALE);
    vec3 f = vec3(fixed_to_float(force[VKMD_FORCE_INDEX(0u, a, pc.atom_count)]),
                  fixed_to_float(force[VKMD_FORCE_INDEX(1u, a, pc.atom_count)]),
                  fixed_to_float(force[VKMD_FORCE_INDEX(2u, a, pc.atom_count)]));
    return f * (inv * ACCEL * inv_mass);
}

// After the last read of a step's forces: the accumulators cleared for the
// next evaluation (flags.x).
void clear_after_read(uint a)
{
    if (pc.flags.x != 0u) {
        force[VKMD_FORCE_INDEX(0u, a, pc.atom_count)] = VKMD_FIXED_ZERO;
        force[VKMD_FORCE_INDEX(1u, a, pc.atom_count)] = VKMD_FIXED_ZERO;
        force[VKMD_FORCE_INDEX(2u, a, pc.atom_count)] = VKMD_FIXED_ZERO;
    }
}

// Momentum of the workgroup's atoms summed in a fixed tree order, then one
// fixed-point atomic per component: the total does not depend on scheduling.
void com_sum(uint a)
{
    const uint tid = gl_LocalInvocationID.x;
    vec3 p = vec3(0.0);
    if (a < pc.atom_count) {
        vec4 v = vel[a];
        p = v.w > 0.0 ? v.xyz / v.w : vec3(0.0);
    }
    s_p[tid] = p;
    barrier();
    for (uint s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s)
            s_p[tid] += s_p[tid + s];
        barrier();
    }
    if (tid == 0u) {
        vec3 t = s_p[0] * float(VKMD_MD_MOMENTUM_SCALE);
        momentum_add(0u, fixed_trunc(t.x));
        momentum_add(1u, fixed_trunc(t.y));
        momentum_add(2u, fixed_trunc(t.z));
    }
}

// A triclinic cell's off-diagonal terms T = (bx, cx, cy) (common/box.glsl).
vec3 tri_t()
{
    return vec3(pc.box.w, uintBitsToFloat(pc.tri_cx), uintBitsToFloat(pc.tri_cy));
}

void main()
{
    const uint a = gl_GlobalInvocationID.x;
    if (MODE == VKMD_MD_MODE_COM_SUM) {
        com_sum(a); // every thread reaches the barriers
        return;
    }
    if (MODE == VKMD_MD_MODE_ADVANCE) {
        if (a == 0u) {
            uint lo = counter.x + (pc.steps == VKMD_MD_STEPS_RUN ? nls.batch_checks : pc.steps);
            counter.y += lo < counter.x ? 1u : 0u;
            counter.x = lo;
            for (uint c = 0u; c < 4u; ++c)
                momentum[c] = VKMD_FIXED_ZERO;
        }
        return;
    }
    if (MODE == VKMD_MD_MODE_WRAP_SHIFT) {
        if (a >= pc.molecule_count)
            return;
        vec3 x = pos[molecule[pc.atom_count + a]].xyz;
        if (TRICLINIC) // the lattice counts: WRAP_APPLY moves by the exact pair
            shift[a] = vec4(box_tri_wrap_counts(x, pc.box.xyz, tri_t()), 0.0);
        else
            shift[a] = vec4(-pc.box.xyz * floor(x / pc.box.xyz), 0.0);
        return;
    }
    if ((MODE == VKMD_MD_MODE_LM_KICK || MODE == VKMD_MD_MODE_VV_KICK_DRIFT) && pc.flags.y != 0u &&
        a < VKMD_ENERGY_SLOT_COUNT)
        energy[a] = VKMD_FIXED_ZERO; // the step's evaluation sums energies
    if (a >= pc.atom_count)
        return;
    const float dt = pc.dt_fs;
    vec4 v = vel[a];
    if (MODE == VKMD_MD_MODE_VV_KICK_DRIFT) {
        vkmd_pos x = load_pos(a);
        store_ref(a, x);
        v.xyz += (0.5 * dt) * accel(a, v.w);
        clear_after_read(a);
        vel[a] = v;
        store_pos(a, pos_add(x, dt * v.xyz));
    } else if (MODE == VKMD_MD_MODE_VV_KICK) {
        v.xyz += (0.5 * dt) * accel(a, v.w);
        vel[a] = v;
    } else if (MODE == VKMD_MD_MODE_LM_KICK) {
        v.xyz += dt * accel(a, v.w);
        clear_after_read(a);
        vel[a] = v;
    } else if (MODE == VKMD_MD_MODE_LM_DRIFT) {
        vkmd_pos x = load_pos(a);
        store_ref(a, x);
        vec3 d = (0.5 * dt) * v.xyz;
        uint lo = counter.x + pc.step_offset;
        uint hi = counter.y + (lo < counter.x ? 1u : 0u);
        vec3 g = philox_gauss3(uvec2(pc.seed_lo, pc.seed_hi), lo, hi, a, 0u);
        v.xyz = pc.c1 * v.xyz + (pc.c2 * sqrt(v.w)) * g;
        vel[a] = v;
        // fp32: two half drifts, each rounded to the position's float;
        // split modes: one exact move by their sum (rounded once, at the
        // size of a displacement, not of a coordinate).
        if (POSITIONS == VKMD_POSITIONS_FP32)
            store_pos(a, pos_add(pos_add(x, d), (0.5 * dt) * v.xyz));
        else
            store_pos(a, pos_add(x, d + (0.5 * dt) * v.xyz));
    } else if (MODE == VKMD_MD_MODE_COM_APPLY) {
        const float inv = float(VKMD_MD_MOMENTUM_INV_SCALE);
        vec3 p = vec3(fixed_to_float(momentum[0]), fixed_to_float(momentum[1]),
                      fixed_to_float(momentum[2])) * inv;
        if (v.w > 0.0)
            v.xyz -= p * pc.inv_total_mass;
        vel[a] = v;
    } else if (MODE == VKMD_MD_MODE_WRAP_APPLY) {
        vec3 s = shift[molecule[a]].xyz;
        if (TRICLINIC) {
            // the translation as a pair (common/box.glsl), each part added
            // exactly by the split modes: a float sum of the lattice
            // vectors would round at the scale of the translation
            vec3 hi, lo;
            box_tri_translation_pair(vec3(0.0), s, pc.box.xyz, tri_t(), hi, lo);
            store_pos(a, pos_add(pos_add(load_pos(a), hi), lo));
            store_ref(a, pos_add(pos_add(load_ref(a), hi), lo));
        } else {
            store_pos(a, pos_add(load_pos(a), s));
            store_ref(a, pos_add(load_ref(a), s));
        }
    }
}
