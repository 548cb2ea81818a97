// One half of a BAOAB Langevin step (engine/sim/uff_md.h) for every replica
// of a UFF batch, around the force pass (uff.comp). PHASE (specialization
// constant) picks the half:
//   VKMD_UFF_MD_PHASE_BAOA: B (kick with the forces at x), A (drift), O
//     (Ornstein-Uhlenbeck: v = c1 v + c2 sqrt(kT/m) R), A (drift); then the
//     forces and energies read are zeroed for the force pass;
//   VKMD_UFF_MD_PHASE_B: B with the new forces, then the replica's kinetic
//     energy, reduced in shared memory in a fixed order, added to its state
//     (Kahan-compensated), and the step counted.
// One workgroup per replica (grid-stride over replicas). Noise: the shared
// Philox4x32-10 and Box-Muller of common/philox.glsl, keyed by the seed,
// counter (step, replica, atom, 0): the noise of an atom at a step is the
// same whatever runs where. A replica at its run's step limit does nothing
// but the zeroing.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/philox.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_MD_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_UFF_MD_PHASE) const uint PHASE = VKMD_UFF_MD_PHASE_BAOA;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_MD_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_MD_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_UFF_MD_BINDING_ENERGIES) writeonly buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_UFF_MD_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_UFF_MD_BINDING_REPLICAS) readonly buffer Replicas { uvec4 replicas[]; };
layout(std430, binding = VKMD_UFF_MD_BINDING_STATE) buffer State { vkmd_uff_md_state state[]; };
layout(push_constant) uniform Push { VKMD_UFF_MD_PUSH_FIELDS } pc;

shared float s_ke[WORKGROUP_SIZE];

const float ACCEL = 4.184e-4; // (kcal/mol/A/amu) in A/fs^2, VKMD_ACCEL_UNIT

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
        vkmd_uff_md_state st = state[r];
        const bool running = st.u.x < st.u.y; // uniform across the workgroup
        const float half_dt = 0.5 * pc.dt_fs;
        if (PHASE == VKMD_UFF_MD_PHASE_BAOA) {
            if (running) {
                for (uint a = tid; a < n; a += WORKGROUP_SIZE) {
                    const uint i = first + a;
                    const vec4 vm = vel[i];
                    const float m = vm.w;
                    vec3 v = vm.xyz + half_dt * (ACCEL / m) * atom_force(i);
                    vec3 x = pos[i].xyz + half_dt * v;
                    const uvec4 bits = philox4x32_10(uvec4(st.u.x, r, a, 0u), uvec2(pc.seed_lo, pc.seed_hi));
                    const vec3 g = philox_box_muller3(bits);
                    v = pc.c1 * v + pc.c2 * sqrt(pc.kt * ACCEL / m) * g;
                    x += half_dt * v;
                    vel[i] = vec4(v, m);
                    pos[i] = vec4(x, 0.0);
                }
            }
            zero_replica(r, first, n, tid);
        } else {
            if (!running)
                continue;
            float ke = 0.0;
            for (uint a = tid; a < n; a += WORKGROUP_SIZE) {
                const uint i = first + a;
                const vec4 vm = vel[i];
                const vec3 v = vm.xyz + half_dt * (ACCEL / vm.w) * atom_force(i);
                vel[i] = vec4(v, vm.w);
                ke += 0.5 * vm.w * dot(v, v);
            }
            s_ke[tid] = ke;
            barrier();
            for (uint s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
                if (tid < s)
                    s_ke[tid] += s_ke[tid + s];
                barrier();
            }
            if (tid == 0u) {
                const float ke_kcal = s_ke[0] / ACCEL;
                // Kahan: sum in f.x, lost low part in f.y
                precise float y = ke_kcal - st.f.y;
                precise float t = st.f.x + y;
                st.f.y = (t - st.f.x) - y;
                st.f.x = t;
                st.f.z = ke_kcal;
                st.u.x += 1u;
                state[r] = st;
            }
            barrier(); // s_ke read before the next replica overwrites it
        }
    }
}
