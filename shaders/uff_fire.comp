// One FIRE step (engine/sim/uff_fire.h gives the algorithm and parameters;
// the update itself is common/fire.glsl, shared with minimize_fire.comp)
// for every replica of a UFF batch, after the force pass (uff.comp) has
// filled the force planes at the current positions. One workgroup per
// replica, looping over replicas when there are more than workgroups; the
// threads stride over the replica's atoms and the per-replica sums reduce in
// shared memory in a fixed tree order: the same bits on every run. Mirrors
// engine/ref/ref_uff_fire.c in float.
//
// The forces and energies read are zeroed here (each thread zeroes the
// atoms it read; thread 0 the energy row), converged replicas included, so
// the next force pass adds into zeros without a clear in between.
//
// Fixed-point values through common/fixed_point.glsl: int64 or, in the
// "+words" build for devices without 64-bit integers, uvec2 of the same bits.
//
// Positions: the pass reads float positions (pos); pos_lo holds what float
// lost, and each move adds dx to the pair with an exact two-sum, so steps
// far below a coordinate's ulp near convergence are kept, not dropped.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/fire.glsl"
#include "common/two_sum.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_FIRE_WORKGROUP_SIZE;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_FIRE_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_FIRE_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_UFF_FIRE_BINDING_ENERGIES) writeonly buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_UFF_FIRE_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_UFF_FIRE_BINDING_POS_LO) buffer PosLo { vec4 pos_lo[]; };
layout(std430, binding = VKMD_UFF_FIRE_BINDING_REPLICAS) readonly buffer Replicas { uvec4 replicas[]; };
layout(std430, binding = VKMD_UFF_FIRE_BINDING_STATE) buffer State { vkmd_uff_fire_state state[]; };
layout(push_constant) uniform Push { VKMD_UFF_FIRE_PUSH_FIELDS } pc;

shared float s_f2[WORKGROUP_SIZE];
shared float s_fmax2[WORKGROUP_SIZE];
shared float s_p[WORKGROUP_SIZE];
shared float s_v2[WORKGROUP_SIZE];

vec3 atom_force(uint a)
{
    const float inv = float(VKMD_FIXED_INV_SCALE);
    return vec3(fixed_to_float(force[VKMD_FORCE_INDEX(0u, a, pc.atom_count)]),
                fixed_to_float(force[VKMD_FORCE_INDEX(1u, a, pc.atom_count)]),
                fixed_to_float(force[VKMD_FORCE_INDEX(2u, a, pc.atom_count)])) * inv;
}

void zero_replica(uint r, uint first, uint n, uint tid)
{
    for (uint a = tid; a < n; a += WORKGROUP_SIZE)
        for (uint c = 0u; c < 3u; ++c)
            force[VKMD_FORCE_INDEX(c, first + a, pc.atom_count)] = VKMD_FIXED_ZERO;
    if (tid == 0u)
        for (uint s = 0u; s < VKMD_UFF_ENERGY_STRIDE; ++s)
            energy[r * VKMD_UFF_ENERGY_STRIDE + s] = VKMD_FIXED_ZERO;
}

void main()
{
    const uint tid = gl_LocalInvocationID.x;
    for (uint r = gl_WorkGroupID.x; r < pc.replica_count; r += gl_NumWorkGroups.x) {
        const uint first = replicas[r].x, n = replicas[r].y;
        vkmd_uff_fire_state st = state[r];
        // Uniform across the workgroup: every thread reads the same state.
        if (st.u.z != 0u) {
            zero_replica(r, first, n, tid);
            continue;
        }

        float f2 = 0.0, fmax2 = 0.0, p = 0.0, v2 = 0.0;
        for (uint a = tid; a < n; a += WORKGROUP_SIZE) {
            const vec3 f = atom_force(first + a);
            const vec3 v = vel[first + a].xyz;
            const float fa2 = dot(f, f);
            f2 += fa2;
            fmax2 = max(fmax2, fa2);
            p += dot(f, v);
            v2 += dot(v, v);
        }
        s_f2[tid] = f2;
        s_fmax2[tid] = fmax2;
        s_p[tid] = p;
        s_v2[tid] = v2;
        barrier();
        for (uint s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
            if (tid < s) {
                s_f2[tid] += s_f2[tid + s];
                s_fmax2[tid] = max(s_fmax2[tid], s_fmax2[tid + s]);
                s_p[tid] += s_p[tid + s];
                s_v2[tid] += s_v2[tid + s];
            }
            barrier();
        }
        const float fnorm = sqrt(s_f2[0]);
        const float fmax = sqrt(s_fmax2[0]);
        const float frms = sqrt(s_f2[0] / float(n));
        const float power = s_p[0];
        const float vnorm = sqrt(s_v2[0]);
        barrier(); // everyone has read the sums before the next replica reuses them

        st.f.z = fmax;
        st.f.w = frms;
        const float crit = pc.criterion == 1u ? frms : fmax;
        if (crit < pc.ftol || st.u.y >= pc.max_steps) {
            st.u.z = crit < pc.ftol ? VKMD_UFF_FIRE_CONVERGED : VKMD_UFF_FIRE_STOPPED;
            if (tid == 0u)
                state[r] = st;
            zero_replica(r, first, n, tid);
            continue;
        }

        float dt = st.f.x, alpha = st.f.y, keep, mix;
        uint n_pos = st.u.x;
        fire_update(pc.fire, power, fnorm, vnorm, st.u.y, dt, alpha, n_pos, keep, mix);
        st.u.x = n_pos;
        st.f.x = dt;
        st.f.y = alpha;
        st.u.y += 1u;

        for (uint a = tid; a < n; a += WORKGROUP_SIZE) {
            const uint i = first + a;
            const vec3 f = atom_force(i);
            const vec3 v = fire_velocity(vel[i].xyz, f, f, dt, keep, mix); // unit masses: a = f
            vel[i] = vec4(v, 0.0);
            const vec3 dx = fire_displacement(pc.fire, v, dt);
            vec3 hi = pos[i].xyz, lo = pos_lo[i].xyz;
            for (int c = 0; c < 3; ++c) {
                float s, e;
                vkmd_two_sum(lo[c], dx[c], s, e); // lo + dx exactly as s + e
                float h2, e2;
                vkmd_two_sum(hi[c], s, h2, e2);
                hi[c] = h2;
                lo[c] = e2 + e;
            }
            pos[i] = vec4(hi, 0.0);
            pos_lo[i] = vec4(lo, 0.0);
        }
        zero_replica(r, first, n, tid);
        if (tid == 0u)
            state[r] = st;
    }
}
