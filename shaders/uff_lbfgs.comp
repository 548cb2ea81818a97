// Quasi-Newton minimisation of every replica of a UFF batch: RDKit's BFGS
// (dense inverse Hessian; MEMORY == 0) or L-BFGS (MEMORY pairs), with
// RDKit's backtracking line search and convergence tests. The algorithm is
// engine/ref/ref_uff_lbfgs.h (the CPU double reference this mirrors in
// float); layouts and the per-dispatch contract are in
// common/layout_uff_lbfgs.h.
//
// Each dispatch follows one force pass and consumes its evaluation:
//   START: the gradient at the start; the first direction -c g; a line
//          search begins (trial x0 + d written to the pass's positions);
//   TRIAL: Armijo test on E - E0 (exact: both are 64-bit fixed-point sums,
//          and their difference is taken there) and the slope g.d, or, with
//          |E - E0| below the float energies' noise, g.d < 0 at the trial;
//          accepted: x0 <- trial, convergence tests, curvature update, the
//          next direction, a new line search; rejected: RDKit's quadratic
//          or cubic backtrack, or, below lambda_min, a stall: a retry along
//          steepest descent with no curvature memory, and if that stalls
//          too, the replica goes back to x0 and stops (RDKit's "step too
//          small").
// Stopped replicas only zero their forces and energies.
//
// Positions: x0 is kept as float plus float correction; a trial x0 + lambda d
// is formed with two-sums, and its float part is what the pass reads.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/layout_uff_lbfgs.h"
#include "common/fixed_point.glsl"
#include "common/two_sum.glsl"
#include "common/uff_lbfgs.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_LBFGS_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_LBFGS_MEMORY) const uint MEMORY = 0u;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_LBFGS_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_PLANES) buffer Planes { float plane[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_REPLICAS) readonly buffer Replicas { uvec4 replicas[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_STATE) buffer State { vkmd_uff_lbfgs_state state[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_HISTORY) buffer History { float hist[]; };
layout(std430, binding = VKMD_UFF_LBFGS_BINDING_E0) buffer E0 { vkmd_fixed e0[]; };
layout(push_constant) uniform Push { VKMD_UFF_LBFGS_PUSH_FIELDS } pc;

shared vec4 s_sum[WORKGROUP_SIZE];
shared vec4 s_max[WORKGROUP_SIZE];
shared float s_alpha[VKMD_UFF_LBFGS_DEVICE_MAX_MEMORY];
shared float s_rho[VKMD_UFF_LBFGS_DEVICE_MAX_MEMORY];
// Dense BFGS: s, y, H y, then g, of one replica (3 n <= VKMD_UFF_LBFGS_DENSE_MAX_DIM).
shared float s_va[VKMD_UFF_LBFGS_DENSE_MAX_DIM];
shared float s_vb[VKMD_UFF_LBFGS_DENSE_MAX_DIM];
shared float s_vc[VKMD_UFF_LBFGS_DENSE_MAX_DIM];

uint tid;
uint g_first; // first atom of the replica
uint g_dim;   // 3 * its atoms
uint g_hoff;  // its curvature memory offset (floats)

uint pidx(uint p, uint i)
{
    return p * 3u * pc.atom_count + 3u * g_first + i;
}

float grad_at(uint i) // dE/dx_i from the pass's forces
{
    const uint a = g_first + i / 3u;
    return -fixed_to_float(force[VKMD_FORCE_INDEX(i % 3u, a, pc.atom_count)]) *
           float(VKMD_FIXED_INV_SCALE);
}

// The replica's planes written by other threads become visible.
void sync_buffers()
{
    memoryBarrierBuffer();
    barrier();
}

// Sums (componentwise) and maxima over the workgroup, fixed tree order.
void reduce(inout vec4 sum, inout vec4 mx)
{
    s_sum[tid] = sum;
    s_max[tid] = mx;
    barrier();
    for (uint s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            s_sum[tid] += s_sum[tid + s];
            s_max[tid] = max(s_max[tid], s_max[tid + s]);
        }
        barrier();
    }
    sum = s_sum[0];
    mx = s_max[0];
    barrier();
}

// x0 + lambda d of coordinate i, exactly as a float pair.
void trial_of(uint i, float lambda, out float hi, out float lo)
{
    float s, e, h2, e2;
    vkmd_two_sum(plane[pidx(VKMD_UFF_LBFGS_X0_LO, i)], lambda * plane[pidx(VKMD_UFF_LBFGS_DIR, i)],
                 s, e);
    vkmd_two_sum(plane[pidx(VKMD_UFF_LBFGS_X0_HI, i)], s, h2, e2);
    hi = h2;
    lo = e2 + e;
}

void write_pos(uint i, float x)
{
    pos[g_first + i / 3u][i % 3u] = x;
}

void set_identity(float c)
{
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
        for (uint j = 0u; j < g_dim; ++j)
            hist[g_hoff + i * g_dim + j] = i == j ? c : 0.0;
}

void zero_replica(uint r)
{
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
        force[VKMD_FORCE_INDEX(i % 3u, g_first + i / 3u, pc.atom_count)] = VKMD_FIXED_ZERO;
    if (tid == 0u)
        for (uint s = 0u; s < VKMD_UFF_ENERGY_STRIDE; ++s)
            energy[r * VKMD_UFF_ENERGY_STRIDE + s] = VKMD_FIXED_ZERO;
}

// Starts a line search along DIR from x0 (GRAD the gradient there): the
// slope (steepest descent and no memory if it is not downhill), lambda_min,
// the first trial x0 + d.
void begin_line_search(inout vkmd_uff_lbfgs_state st)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        sync_buffers();
        vec4 sum = vec4(0.0), mx = vec4(0.0);
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
            const float d = plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
            sum.x += plane[pidx(VKMD_UFF_LBFGS_GRAD, i)] * d;
            mx.x = max(mx.x, abs(d) / max(abs(plane[pidx(VKMD_UFF_LBFGS_X0_HI, i)]), 1.0));
            mx.y = max(mx.y, abs(d));
        }
        reduce(sum, mx);
        if (sum.x < 0.0 && mx.x > 0.0) {
            if (mx.y > pc.max_step) { // no coordinate moves more than max_step
                const float k = pc.max_step / mx.y;
                for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
                    plane[pidx(VKMD_UFF_LBFGS_DIR, i)] *= k;
                sum.x *= k;
                mx.x *= k;
            }
            st.f = vec4(1.0, 0.0, 0.0, sum.x);
            st.g.x = MOVETOL / mx.x;
            for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
                float hi, lo;
                trial_of(i, 1.0, hi, lo);
                write_pos(i, hi);
            }
            st.u.x = VKMD_UFF_LBFGS_PHASE_TRIAL;
            return;
        }
        if (mx.x == 0.0 || attempt == 1)
            break;
        // Not downhill: forget the curvature, steepest descent.
        st.h.x = 0u;
        st.h.z = 1u;
        if (MEMORY == 0u)
            set_identity(st.g.y);
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
            plane[pidx(VKMD_UFF_LBFGS_DIR, i)] = -st.g.y * plane[pidx(VKMD_UFF_LBFGS_GRAD, i)];
    }
    // No direction to follow (a zero gradient): stop where it is.
    st.u.x = VKMD_UFF_LBFGS_PHASE_DONE;
    st.u.w = ST_STEP;
}

// d = -H g with the dense inverse Hessian, after its BFGS update with the
// step s = lambda d (DIR), y (Y plane) when the curvature guard passes.
// H stays exactly symmetric (the update's products are formed as
// s_i s_j, which float evaluates the same for (i, j) and (j, i)), so each
// thread works on its own columns, read along the lanes: consecutive
// addresses, and no other thread's writes to wait for. s, y, H y and g sit
// in shared memory for the inner loops.
void dense_direction(float lambda, float sy, float yy, float ss)
{
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
        s_va[i] = lambda * plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
        s_vb[i] = plane[pidx(VKMD_UFF_LBFGS_Y, i)];
    }
    barrier();
    if (sy > sqrt(CURV * yy * ss)) {
        vec4 sum = vec4(0.0), mx = vec4(0.0);
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
            float hy = 0.0;
            for (uint j = 0u; j < g_dim; ++j)
                hy += hist[g_hoff + j * g_dim + i] * s_vb[j];
            s_vc[i] = hy;
            sum.x += s_vb[i] * hy;
        }
        reduce(sum, mx); // also publishes s_vc
        const float fae = sum.x, fac = 1.0 / sy, fad = 1.0 / fae;
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
            const float ui = fac * s_va[i] - fad * s_vc[i];
            for (uint j = 0u; j < g_dim; ++j) {
                const float uj = fac * s_va[j] - fad * s_vc[j];
                hist[g_hoff + j * g_dim + i] +=
                    fac * (s_va[i] * s_va[j]) - fad * (s_vc[i] * s_vc[j]) + fae * (ui * uj);
            }
        }
    }
    barrier(); // s_vb is reused
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
        s_vb[i] = plane[pidx(VKMD_UFF_LBFGS_GRAD, i)];
    barrier();
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
        float d = 0.0;
        for (uint j = 0u; j < g_dim; ++j)
            d -= hist[g_hoff + j * g_dim + i] * s_vb[j];
        plane[pidx(VKMD_UFF_LBFGS_DIR, i)] = d;
    }
}

uint sidx(uint slot, uint i) // s of pair `slot`
{
    return g_hoff + slot * g_dim + i;
}

uint yidx(uint slot, uint i) // y of pair `slot`
{
    return g_hoff + (MEMORY + slot) * g_dim + i;
}

// L-BFGS: keeps (s, y) when the curvature guard passes, then d = -H g by
// the two-loop recursion over the held pairs, H0 = (s.y / y.y) I of the
// newest (c I with none). Each thread works on its own coordinates; only
// the dot products cross threads.
void lbfgs_direction(inout vkmd_uff_lbfgs_state st, float lambda, float sy, float yy, float ss)
{
    uint pairs = st.h.x, newest = st.h.y;
    if (sy > sqrt(CURV * yy * ss)) {
        newest = pairs == 0u ? 0u : (newest + 1u) % MEMORY;
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
            hist[sidx(newest, i)] = lambda * plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
            hist[yidx(newest, i)] = plane[pidx(VKMD_UFF_LBFGS_Y, i)];
        }
        pairs = min(pairs + 1u, MEMORY);
        st.h.x = pairs;
        st.h.y = newest;
    }
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
        plane[pidx(VKMD_UFF_LBFGS_DIR, i)] = plane[pidx(VKMD_UFF_LBFGS_GRAD, i)];
    for (uint k = 0u; k < pairs; ++k) {
        const uint j = (newest + MEMORY - k) % MEMORY;
        vec4 sum = vec4(0.0), mx = vec4(0.0);
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
            sum.x += hist[sidx(j, i)] * plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
            sum.y += hist[sidx(j, i)] * hist[yidx(j, i)];
            sum.z += hist[yidx(j, i)] * hist[yidx(j, i)];
        }
        reduce(sum, mx);
        const float rho = 1.0 / sum.y, alpha = rho * sum.x;
        if (tid == 0u) {
            s_rho[j] = rho;
            s_alpha[j] = alpha;
        }
        if (k == 0u)
            st.g.z = sum.y / sum.z; // H0 from the newest pair
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
            plane[pidx(VKMD_UFF_LBFGS_DIR, i)] -= alpha * hist[yidx(j, i)];
    }
    barrier(); // s_rho, s_alpha
    const float h0 = pairs > 0u ? st.g.z : st.g.y;
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
        plane[pidx(VKMD_UFF_LBFGS_DIR, i)] *= h0;
    for (uint k = pairs; k-- > 0u;) {
        const uint j = (newest + MEMORY - k) % MEMORY;
        vec4 sum = vec4(0.0), mx = vec4(0.0);
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
            sum.x += hist[yidx(j, i)] * plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
        reduce(sum, mx);
        const float beta = s_rho[j] * sum.x;
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
            plane[pidx(VKMD_UFF_LBFGS_DIR, i)] += (s_alpha[j] - beta) * hist[sidx(j, i)];
    }
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
        plane[pidx(VKMD_UFF_LBFGS_DIR, i)] = -plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
}

void accept(uint r, inout vkmd_uff_lbfgs_state st, vkmd_fixed e, float de)
{
    const float lambda = st.f.x;
    vec4 sum = vec4(0.0), mx = vec4(0.0, -1e30, 0.0, 0.0);
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
        const float gn = grad_at(i);
        const float s = lambda * plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
        const float y = gn - plane[pidx(VKMD_UFF_LBFGS_GRAD, i)];
        float hi, lo;
        trial_of(i, lambda, hi, lo);
        plane[pidx(VKMD_UFF_LBFGS_X0_HI, i)] = hi;
        plane[pidx(VKMD_UFF_LBFGS_X0_LO, i)] = lo;
        plane[pidx(VKMD_UFF_LBFGS_GRAD, i)] = gn;
        plane[pidx(VKMD_UFF_LBFGS_Y, i)] = y;
        const float ax = max(abs(hi), 1.0);
        sum += vec4(s * y, y * y, s * s, 0.0);
        mx = max(mx, vec4(abs(s) / ax, 0.1 * gn, abs(gn) * ax, 0.0));
    }
    reduce(sum, mx);
    st.u.y += 1u;
    if (tid == 0u)
        e0[2u * r] = e;
    float c;
    const float sc = rdkit_scale(mx.y, c);
    const float ef = fixed_to_float(e) * float(VKMD_FIXED_INV_SCALE);
    uint status = ST_RUNNING;
    if (mx.x < TOLX)
        status = ST_STEP;
    else if (mx.z * c / max(ef * sc, 1.0) < pc.force_tol)
        status = ST_GRADIENT;
    else if (pc.energy_tol > 0.0 && abs(de) <= pc.energy_tol * max(abs(ef), 1.0))
        status = ST_ENERGY;
    if (status != ST_RUNNING || st.u.y >= pc.max_iterations) {
        st.u.x = VKMD_UFF_LBFGS_PHASE_DONE;
        st.u.w = status;
        return;
    }
    st.g.y = c;
    st.h.z = 0u;
    sync_buffers();
    if (MEMORY == 0u)
        dense_direction(lambda, sum.x, sum.y, sum.z);
    else
        lbfgs_direction(st, lambda, sum.x, sum.y, sum.z);
    begin_line_search(st);
}

void backtrack(inout vkmd_uff_lbfgs_state st, float de)
{
    const float lambda = st.f.x, lambda2 = st.f.y, de2 = st.f.z, slope = st.f.w;
    const float tmp = rdkit_backtrack(lambda, lambda2, de, de2, slope);
    st.f.y = lambda;
    st.f.z = de;
    st.f.x = tmp;
    if (tmp < st.g.x && st.h.z == 0u) { // stalled: retry along steepest descent
        st.u.y += 1u;
        st.h.x = 0u;
        st.h.z = 1u;
        if (MEMORY == 0u)
            set_identity(st.g.y);
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
            plane[pidx(VKMD_UFF_LBFGS_DIR, i)] = -st.g.y * plane[pidx(VKMD_UFF_LBFGS_GRAD, i)];
        begin_line_search(st);
        return;
    }
    if (tmp < st.g.x) { // stalled again: back to x0, stop (RDKit's "step too small")
        st.u.y += 1u;
        st.u.x = VKMD_UFF_LBFGS_PHASE_DONE;
        st.u.w = ST_STEP;
        for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
            write_pos(i, plane[pidx(VKMD_UFF_LBFGS_X0_HI, i)]);
        return;
    }
    for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
        float hi, lo;
        trial_of(i, tmp, hi, lo);
        write_pos(i, hi);
    }
}

void main()
{
    tid = gl_LocalInvocationID.x;
    for (uint r = gl_WorkGroupID.x; r < pc.replica_count; r += gl_NumWorkGroups.x) {
        g_first = replicas[r].x;
        g_dim = 3u * replicas[r].y;
        g_hoff = replicas[r].z;
        vkmd_uff_lbfgs_state st = state[r]; // uniform across the workgroup
        if (st.u.x == VKMD_UFF_LBFGS_PHASE_DONE) {
            zero_replica(r);
            continue;
        }
        vkmd_fixed e = VKMD_FIXED_ZERO;
        for (uint s = 0u; s < VKMD_UFF_ENERGY_COUNT; ++s)
            e = fixed_add(e, energy[r * VKMD_UFF_ENERGY_STRIDE + s]);
        if (st.u.x == VKMD_UFF_LBFGS_PHASE_START) {
            vec4 sum = vec4(0.0), mx = vec4(-1e30);
            for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE) {
                const float g = grad_at(i);
                plane[pidx(VKMD_UFF_LBFGS_GRAD, i)] = g;
                mx.x = max(mx.x, 0.1 * g);
            }
            reduce(sum, mx);
            float c;
            rdkit_scale(mx.x, c);
            st.g = vec4(0.0, c, 0.0, 0.0);
            st.u = uvec4(VKMD_UFF_LBFGS_PHASE_TRIAL, 0u, 1u, ST_RUNNING);
            st.h = uvec4(0u, 0u, 1u, 0u); // no pairs; the direction is steepest descent
            if (tid == 0u) {
                e0[2u * r] = e;
                e0[2u * r + 1u] = e;
            }
            for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
                plane[pidx(VKMD_UFF_LBFGS_DIR, i)] = -c * plane[pidx(VKMD_UFF_LBFGS_GRAD, i)];
            if (MEMORY == 0u)
                set_identity(c);
            begin_line_search(st);
        } else {
            st.u.z += 1u;
            const float de = fixed_to_float(fixed_add(e, fixed_neg(e0[2u * r]))) *
                             float(VKMD_FIXED_INV_SCALE);
            // Sufficient decrease (Armijo), or, when E - E0 is within the
            // float energies' noise, still downhill at the trial (g.d < 0).
            bool level = false;
            const float e0f = fixed_to_float(e0[2u * r]) * float(VKMD_FIXED_INV_SCALE);
            if (de > ARMIJO * st.f.x * st.f.w && abs(de) <= NOISE * max(abs(e0f), 1.0)) {
                vec4 sum = vec4(0.0), mx = vec4(0.0);
                for (uint i = tid; i < g_dim; i += WORKGROUP_SIZE)
                    sum.x += grad_at(i) * plane[pidx(VKMD_UFF_LBFGS_DIR, i)];
                reduce(sum, mx);
                level = sum.x < 0.0;
            }
            if (de <= ARMIJO * st.f.x * st.f.w || level)
                accept(r, st, e, de);
            else
                backtrack(st, de);
        }
        zero_replica(r);
        if (tid == 0u)
            state[r] = st;
        barrier(); // the next replica of this workgroup reuses the shared arrays
    }
}
