// Bond constraints to hydrogen, one thread per cluster (a heavy atom and its
// 1..4 hydrogens; system/constraints.h says why clusters), grid-stride loop.
// Layout in common/layout_constraints.h, host side engine/sim/constraints.c,
// CPU oracle ref_constraints_* (engine/ref/ref_md.h). MODE (specialization
// constant) picks the part:
//   VKMD_CONSTRAINTS_MODE_POSITIONS: SHAKE. The constraint displacements lie
//     along the reference bond vectors s_k (positions_ref): hydrogen k moves
//     by g_k s_k / m_k and the heavy atom by -sum_k g_k s_k / m_c. The
//     cluster's n equations |r_k(g)|^2 = d_k^2 are solved together by Newton
//     iteration (full Jacobian, quadratic convergence: 3-4 iterations for
//     0.05 A displacements) until every |r_k^2 - d_k^2| / (2 d_k^2) <= tol;
//     the solution is the one SHAKE converges to. With inv_dt > 0 the
//     displacement / dt is added to the velocities.
//   VKMD_CONSTRAINTS_MODE_VELOCITIES: RATTLE's velocity part, exact: the
//     impulses along the current bond vectors that remove every relative
//     velocity along a bond, one n x n linear solve.
// Both solve a 4 x 4 system always (unused rows are identity rows with a zero
// right-hand side), so the loops have constant bounds and stay in registers.
// No pivoting: both matrices are strongly diagonally dominant (the heavy
// atom's 1/m_c couples the rows; the hydrogen's 1/m_k sits on the diagonal
// only), also with repartitioned hydrogen masses.
//
// Precision: positions are taken relative to the heavy atom's reference
// position, so fp32 precision does not depend on the distance from the
// origin; only the write-back rounds at the size of a coordinate.
// Masses come from velocities.w = 1/m.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_CONSTRAINTS_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_CONSTRAINTS_MODE) const uint MODE = VKMD_CONSTRAINTS_MODE_POSITIONS;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_CONSTRAINTS_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_POSITIONS_REF) readonly buffer PositionsRef { vec4 ref[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_VELOCITIES) buffer Velocities { vec4 vel[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_RECORDS) readonly buffer Clusters { vkmd_hcluster_record clusters[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_POSITIONS_X) buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_CONSTRAINTS_BINDING_REF_X) readonly buffer PositionsRefX { uvec4 ref_x[]; };
layout(push_constant) uniform Push { VKMD_HCONSTRAINTS_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)
VKMD_POS_LOAD(load_ref, ref, ref_x)

const uint N = VKMD_HCONSTRAINTS_MAX_H;

// Solves a x = b (rows a[i], 4 x 4) by Gaussian elimination without pivoting.
vec4 solve4(vec4 a[N], vec4 b)
{
    for (uint k = 0u; k < N; ++k) {
        for (uint i = k + 1u; i < N; ++i) {
            float f = a[i][k] / a[k][k];
            a[i] -= f * a[k];
            b[i] -= f * b[k];
        }
    }
    vec4 x = vec4(0.0);
    for (uint kk = 0u; kk < N; ++kk) {
        uint k = N - 1u - kk;
        x[k] = (b[k] - dot(a[k], x)) / a[k][k];
    }
    return x;
}

void shake_positions(vkmd_hcluster_record cl)
{
    const uint c = cl.info.x, n = cl.info.y;
    const vkmd_pos origin = load_ref(c);
    const float wc = vel[c].w;
    const vec3 pc_ = pos_sub(load_pos(c), origin);
    vec3 s[N], q[N];
    vec4 wh = vec4(0.0), d2 = vec4(1.0);
    for (uint k = 0u; k < N; ++k) {
        s[k] = vec3(0.0);
        q[k] = vec3(1.0, 0.0, 0.0); // unused: |q|^2 = d2 = 1, residual 0
        if (k < n) {
            uint h = cl.h[k];
            s[k] = pos_sub(load_ref(h), origin);
            q[k] = pos_sub(load_pos(h), origin) - pc_; // unconstrained bond vector
            wh[k] = vel[h].w;
            d2[k] = cl.d[k] * cl.d[k];
        }
    }
    vec4 g = vec4(0.0);
    for (uint it = 0u; it < pc.max_iter; ++it) {
        vec3 sum = g[0] * s[0] + g[1] * s[1] + g[2] * s[2] + g[3] * s[3];
        vec3 r[N];
        vec4 f;
        float err = 0.0;
        for (uint k = 0u; k < N; ++k) {
            r[k] = q[k] + (wh[k] * g[k]) * s[k] + wc * sum;
            f[k] = dot(r[k], r[k]) - d2[k];
            err = max(err, abs(f[k]) / (2.0 * d2[k]));
        }
        if (err <= pc.tol)
            break;
        // J_kj = d f_k / d g_j = 2 r_k . s_j (wc + delta_kj wh_k)
        vec4 jac[N];
        for (uint k = 0u; k < N; ++k) {
            for (uint j = 0u; j < N; ++j)
                jac[k][j] = 2.0 * wc * dot(r[k], s[j]);
            jac[k][k] += 2.0 * wh[k] * dot(r[k], s[k]);
            if (k >= n) { // identity row: g_k stays 0
                jac[k] = vec4(0.0);
                jac[k][k] = 1.0;
            }
        }
        g -= solve4(jac, f);
    }
    const vec3 dc = -wc * (g[0] * s[0] + g[1] * s[1] + g[2] * s[2] + g[3] * s[3]);
    store_pos(c, pos_add(load_pos(c), dc));
    if (pc.inv_dt > 0.0)
        vel[c].xyz += dc * pc.inv_dt;
    for (uint k = 0u; k < N; ++k) {
        if (k < n) {
            uint h = cl.h[k];
            vec3 dh = (wh[k] * g[k]) * s[k];
            store_pos(h, pos_add(load_pos(h), dh));
            if (pc.inv_dt > 0.0)
                vel[h].xyz += dh * pc.inv_dt;
        }
    }
}

void rattle_velocities(vkmd_hcluster_record cl)
{
    const uint c = cl.info.x, n = cl.info.y;
    const vkmd_pos xc = load_pos(c);
    const vec4 vc = vel[c];
    const float wc = vc.w;
    vec3 r[N], vh[N];
    vec4 wh = vec4(0.0), u = vec4(0.0);
    for (uint k = 0u; k < N; ++k) {
        r[k] = vec3(0.0);
        vh[k] = vec3(0.0);
        if (k < n) {
            uint h = cl.h[k];
            r[k] = pos_sub(load_pos(h), xc);
            vec4 v = vel[h];
            vh[k] = v.xyz;
            wh[k] = v.w;
            u[k] = dot(r[k], v.xyz - vc.xyz);
        }
    }
    // Impulse mu_k along r_k: v_k += wh_k mu_k r_k, v_c -= wc mu_k r_k, so
    // r_k . (v_k - v_c) changes by sum_j (wc r_k.r_j + delta_kj wh_k r_k.r_k) mu_j.
    vec4 m[N];
    for (uint k = 0u; k < N; ++k) {
        for (uint j = 0u; j < N; ++j)
            m[k][j] = wc * dot(r[k], r[j]);
        m[k][k] += wh[k] * dot(r[k], r[k]);
        if (k >= n) {
            m[k] = vec4(0.0);
            m[k][k] = 1.0;
        }
    }
    const vec4 mu = solve4(m, -u);
    vel[c].xyz = vc.xyz - wc * (mu[0] * r[0] + mu[1] * r[1] + mu[2] * r[2] + mu[3] * r[3]);
    for (uint k = 0u; k < N; ++k)
        if (k < n)
            vel[cl.h[k]].xyz = vh[k] + (wh[k] * mu[k]) * r[k];
}

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < pc.cluster_count;
         i += gl_NumWorkGroups.x * WORKGROUP_SIZE) {
        if (MODE == VKMD_CONSTRAINTS_MODE_POSITIONS)
            shake_positions(clusters[i]);
        else
            rattle_velocities(clusters[i]);
    }
}
