// FIRE energy minimisation of the AMBER force field, one piece of an
// iteration per MODE (common/layout_minimize.h lists them; the algorithm and
// its units are in engine/sim/minimize.h; engine/ref/ref_minimize.c is the
// same in double, the oracle). FIRE's update itself is common/fire.glsl,
// shared with uff_fire.comp; this file holds the system-wide reductions,
// the state buffer and the moves through common/positions.glsl.
//
// Sums (|f|^2, max |f|^2, f.v, |v|^2) are trees in a fixed order: per
// workgroup of REDUCE in shared memory, then over the partials by the one
// workgroup of STATE (each thread first adds its strided partials in index
// order). No float atomics, so every run gives the same bits.
//
// Forces come from the fixed-point planes through common/fixed_point.glsl
// (int64, or the "+words" build for devices without 64-bit integers). With
// CONSTRAINED, ACCEL writes a = F/m (A/fs^2) into velocities.xyz, the caller
// projects it with the velocity constraint, and REDUCE and MOVE read the
// projected a_c and f_c = m a_c from there instead of the planes.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/positions.glsl"
#include "common/fire.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_MINIMIZE_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_MINIMIZE_MODE) const uint MODE = VKMD_MINIMIZE_MODE_REDUCE;
layout(constant_id = VKMD_SPEC_MINIMIZE_CONSTRAINED) const bool CONSTRAINED = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_MINIMIZE_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_POSITIONS_REF) buffer PositionsRef { vec4 pos_ref[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_POSITIONS_X) buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_REF_X) buffer PositionsRefX { uvec4 ref_x[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_FORCES) readonly buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_FIRE_VEL) buffer FireVel { vec4 fire_vel[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_PARTIALS) buffer Partials { vec4 partials[]; };
layout(std430, binding = VKMD_MINIMIZE_BINDING_STATE) buffer State { vkmd_minimize_state state; };
layout(push_constant) uniform Push { VKMD_MINIMIZE_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)
VKMD_POS_STORE(store_ref, pos_ref, ref_x)

shared vec4 s_sum[WORKGROUP_SIZE]; // (sum |f|^2, max |f|^2, sum f.v, sum |v|^2)

vec3 plane_force(uint a)
{
    const float inv = float(VKMD_FIXED_INV_SCALE);
    return vec3(fixed_to_float(force[VKMD_FORCE_INDEX(0u, a, pc.atom_count)]),
                fixed_to_float(force[VKMD_FORCE_INDEX(1u, a, pc.atom_count)]),
                fixed_to_float(force[VKMD_FORCE_INDEX(2u, a, pc.atom_count)])) * inv;
}

// The force f (kcal/mol/A) and acceleration a (A/fs^2) FIRE uses for atom i:
// the plain ones, or with CONSTRAINED the projected a_c and f_c = a_c m.
// Atoms with w = 1/m = 0 do not move (f = a = 0).
void force_accel(uint i, out vec3 f, out vec3 a)
{
    const vec4 va = vel[i];
    const float k = va.w * pc.accel_per_force_mass;
    if (k == 0.0) {
        f = vec3(0.0);
        a = vec3(0.0);
    } else if (CONSTRAINED) {
        a = va.xyz;
        f = a / k;
    } else {
        f = plane_force(i);
        a = f * k;
    }
}

// Fixed-order tree over s_sum; the result is in s_sum[0] for every thread.
void tree_reduce(uint tid)
{
    barrier();
    for (uint s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            const vec4 x = s_sum[tid], y = s_sum[tid + s];
            s_sum[tid] = vec4(x.x + y.x, max(x.y, y.y), x.z + y.z, x.w + y.w);
        }
        barrier();
    }
}

void accel()
{
    const uint i = gl_GlobalInvocationID.x;
    if (i >= pc.atom_count)
        return;
    const float w = vel[i].w;
    vel[i] = vec4(plane_force(i) * (w * pc.accel_per_force_mass), w);
}

void reduce()
{
    const uint i = gl_GlobalInvocationID.x, tid = gl_LocalInvocationID.x;
    vec4 x = vec4(0.0);
    if (i < pc.atom_count) {
        vec3 f, a;
        force_accel(i, f, a);
        const vec3 v = fire_vel[i].xyz;
        const float f2 = dot(f, f);
        x = vec4(f2, f2, dot(f, v), dot(v, v));
    }
    s_sum[tid] = x;
    tree_reduce(tid);
    if (tid == 0u)
        partials[gl_WorkGroupID.x] = s_sum[0];
}

void advance_state()
{
    const uint tid = gl_LocalInvocationID.x;
    vec4 x = vec4(0.0);
    for (uint g = tid; g < pc.group_count; g += WORKGROUP_SIZE) {
        const vec4 y = partials[g];
        x = vec4(x.x + y.x, max(x.y, y.y), x.z + y.z, x.w + y.w);
    }
    s_sum[tid] = x;
    tree_reduce(tid);
    if (tid != 0u)
        return;

    const vec4 t = s_sum[0];
    const float fnorm = sqrt(t.x), fmax = sqrt(t.y), frms = sqrt(t.x / float(pc.atom_count));
    const float power = t.z, vnorm = sqrt(t.w);
    vkmd_minimize_state st = state;
    if (pc.measure_only == 0u && st.u.z != VKMD_MINIMIZE_RUNNING)
        return; // finished: the iterations left in the batch change nothing
    st.g = vec4(fmax, frms, power, vnorm);
    st.u.w = st.u.y;
    const bool finite = !isnan(t.x) && !isinf(t.x) && !isnan(t.z) && !isinf(t.z);
    if (!finite)
        st.u.z = VKMD_MINIMIZE_NONFINITE;
    if (pc.measure_only != 0u || !finite) {
        // The convergence test holds at the final positions too (a run
        // that stopped at max_iterations may end converged).
        if (finite && fmax < pc.force_tol && st.u.z == VKMD_MINIMIZE_RUNNING)
            st.u.z = VKMD_MINIMIZE_CONVERGED;
        state = st;
        return;
    }
    if (fmax < pc.force_tol) {
        st.u.z = VKMD_MINIMIZE_CONVERGED;
    } else if (st.u.y >= pc.max_iterations) {
        st.u.z = VKMD_MINIMIZE_STOPPED;
    } else {
        float dt = st.f.x, alpha = st.f.y, keep, mix;
        uint n_pos = st.u.x;
        fire_update(pc.fire, power, fnorm, vnorm, st.u.y, dt, alpha, n_pos, keep, mix);
        st.u.x = n_pos;
        st.f = vec4(dt, alpha, keep, mix);
        st.u.y += 1u;
    }
    state = st;
}

void move()
{
    const uint i = gl_GlobalInvocationID.x;
    if (i >= pc.atom_count)
        return;
    const vkmd_minimize_state st = state;
    const vkmd_pos x = load_pos(i);
    // The reference of the position constraint is the position before this
    // (possibly null) move, so an unmoved atom stays where it is.
    store_ref(i, x);
    if (st.u.z != VKMD_MINIMIZE_RUNNING || st.u.w + 1u != st.u.y)
        return; // finished, or this iteration's STATE made no move
    vec3 f, a;
    force_accel(i, f, a);
    const float dt = st.f.x;
    const vec3 v = fire_velocity(fire_vel[i].xyz, f, a, dt, st.f.z, st.f.w);
    fire_vel[i] = vec4(v, 0.0);
    store_pos(i, pos_add(x, fire_displacement(pc.fire, v, dt)));
}

void main()
{
    if (MODE == VKMD_MINIMIZE_MODE_ACCEL)
        accel();
    else if (MODE == VKMD_MINIMIZE_MODE_REDUCE)
        reduce();
    else if (MODE == VKMD_MINIMIZE_MODE_STATE)
        advance_state();
    else
        move();
}
