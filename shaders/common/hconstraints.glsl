// SHAKE and RATTLE for one H cluster (constraints.comp has the method):
// shake_positions and rattle_velocities on a vkmd_hcluster_record. The
// includer declares the buffers pos, vel (and through the VKMD_POS_* macros
// load_pos, store_pos, load_ref) and defines HC_TOL (relative tolerance),
// HC_MAX_ITER and HC_INV_DT (1/fs; 0 leaves the velocities alone in the
// position part).
#ifndef VKMD_HCONSTRAINTS_GLSL
#define VKMD_HCONSTRAINTS_GLSL

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
    for (uint it = 0u; it < HC_MAX_ITER; ++it) {
        vec3 sum = g[0] * s[0] + g[1] * s[1] + g[2] * s[2] + g[3] * s[3];
        vec3 r[N];
        vec4 f;
        float err = 0.0;
        for (uint k = 0u; k < N; ++k) {
            r[k] = q[k] + (wh[k] * g[k]) * s[k] + wc * sum;
            f[k] = dot(r[k], r[k]) - d2[k];
            err = max(err, abs(f[k]) / (2.0 * d2[k]));
        }
        if (err <= HC_TOL)
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
    if (HC_INV_DT > 0.0)
        vel[c].xyz += dc * HC_INV_DT;
    for (uint k = 0u; k < N; ++k) {
        if (k < n) {
            uint h = cl.h[k];
            vec3 dh = (wh[k] * g[k]) * s[k];
            store_pos(h, pos_add(load_pos(h), dh));
            if (HC_INV_DT > 0.0)
                vel[h].xyz += dh * HC_INV_DT;
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

#endif
