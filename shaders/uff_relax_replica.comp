// The whole quasi-Newton relaxation of one UFF replica in one invocation:
// the CPU-device shape of uff_lbfgs.comp (dense BFGS), for devices such as
// lavapipe whose SIMD lanes are invocations (8 replicas per 8-wide vector)
// and where every dispatch, barrier and host round trip costs directly.
// Same algorithm step for step (engine/ref/ref_uff_lbfgs.h; RDKit's
// constants, gradient scale and backtracking in common/uff_lbfgs.glsl), the
// same terms (common/uff_terms.glsl, the force pass's code), but:
//   - energy + gradient are evaluated here, the gradient summed per atom in
//     float in a private array (no fixed-point conversion per term and atom),
//     the energy in 64-bit fixed point, one conversion per term: the same
//     integer total as the force pass gives, so E - E0 stays exact;
//   - the replica's vectors (x0 as float pair, gradient, direction, trial
//     positions and gradient) are private arrays of DIM floats (the batch's
//     largest padded dimension); the inverse Hessian is the replica's in
//     HISTORY;
//   - a converged replica leaves the loop: its lane idles until the others
//     of its vector are done; no pass evaluates it again.
// A workgroup covers up to its size of one molecule's replicas (GROUPS), so
// the term loops read the same table entry in every lane; one dispatch
// covers the batch.
//
// Dispatches are resumable: each makes at most eval_budget evaluations
// per replica, then saves the replica's line search (planes X0_HI, X0_LO,
// GRAD, DIR, E0 and the state record) and the next dispatch goes on from
// there. llvmpipe ends every loop of an invocation once 65,535 loop
// iterations have run in it, all loops together (gallivm's loop limiter,
// LP_MAX_TGSI_LOOP_ITERATIONS); the host sizes the budget so a dispatch
// stays well below that (sim/uff_lbfgs.c).
//
// The inverse Hessian rows are padded to dim_padded = dim rounded up to 4
// (zero padding, which the updates keep zero), and its loops go 16 columns
// (four vec4, summed in the same order as one at a time) a step, then 4 at
// a time for the rest of the row: the loop limiter counts iterations, and
// this lets one evaluation of a molecule of up to about 120 atoms (a dense
// 3N x 3N update) fit one dispatch.
//
// The two hot tables, the inverse Hessian and the term table, are read
// through texel views (vk/pipeline.h) and the sweeps read the vectors they
// multiply from vec4 copies: on llvmpipe a storage-buffer load that differs
// by lane is a loop over the lanes, a texel load or a vec4 of a private
// array one gather. Same values, same order: the same bits as before.
//
// Results differ from uff_lbfgs.comp only by the float rounding of the
// gradient sums (and of the dot products, summed in order here, in a tree
// there); the tests hold both to the same criteria.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/layout_uff_lbfgs.h"
#include "common/fixed_point.glsl"
#include "common/two_sum.glsl"
#include "common/uff_forms.glsl"
#include "common/uff_lbfgs.glsl"
#include "common/vkmd_math.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_RELAX_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_UFF_RELAX_DIM) const uint DIM = 4u;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_RELAX_BINDING_POSITIONS) writeonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_PLANES) buffer Planes { float plane[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_REPLICAS) readonly buffer Replicas { uvec4 replicas[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_STATE) buffer State { vkmd_uff_lbfgs_state state[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_HISTORY) buffer History { vec4 hist[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_E0) buffer E0 { vkmd_fixed e0buf[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_TERMS) readonly buffer Terms { vkmd_uff_term terms[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_RANGES) readonly buffer Ranges { vkmd_uff_range ranges[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_SLOTS) readonly buffer Slots { uvec4 slots[]; };
layout(std430, binding = VKMD_UFF_RELAX_BINDING_GROUPS) readonly buffer Groups { vkmd_uff_relax_group groups[]; };
layout(push_constant) uniform Push { VKMD_UFF_RELAX_PUSH_FIELDS } pc;
// The hot reads, through texel views of HISTORY and TERMS (written through
// `hist` only, by this invocation, in program order).
layout(binding = VKMD_UFF_RELAX_BINDING_HISTORY_TEXELS, rgba32ui) uniform readonly uimageBuffer hist_t;
layout(binding = VKMD_UFF_RELAX_BINDING_TERMS_TEXELS, rgba32ui) uniform readonly uimageBuffer terms_t;

vec4 hist_at(uint k)
{
    return uintBitsToFloat(imageLoad(hist_t, int(k)));
}

vkmd_uff_term term_at(uint i)
{
    vkmd_uff_term t;
    t.atoms = imageLoad(terms_t, int(3u * i));
    t.params = uintBitsToFloat(imageLoad(terms_t, int(3u * i + 1u)));
    t.aux = uintBitsToFloat(imageLoad(terms_t, int(3u * i + 2u)));
    return t;
}

float xt[DIM];  // trial positions (what the terms read); H y after an accepted step
float gt[DIM];  // gradient at the trial; y after an accepted step
float x0h[DIM]; // accepted point, float part
float x0l[DIM]; // its float correction
float g[DIM];   // gradient at x0
float d[DIM];   // search direction
// vec4 copies for the inverse-Hessian sweeps (a vec4 of a private array is
// one gather on llvmpipe, four floats are four): y, then s; H y; g.
vec4 va[DIM / 4u], vb[DIM / 4u], vc[DIM / 4u];
vkmd_fixed e_acc; // energy of the trial

uint h4;           // the replica's inverse Hessian (vec4 index into hist)
uint dim, dim_padded, molecule_record, eval_budget; // the workgroup's molecule (GROUPS)
float lambda, lambda2, de2, slope, lambda_min, cc; // line search; RDKit's factor c
bool sd;           // the direction is steepest descent with no memory

vec3 atom_pos(uint a)
{
    return vec3(xt[3u * a], xt[3u * a + 1u], xt[3u * a + 2u]);
}

void add_force(uint a, vec3 f) // gradient = -force
{
    gt[3u * a] -= f.x;
    gt[3u * a + 1u] -= f.y;
    gt[3u * a + 2u] -= f.z;
}

void add_energy(uint slot, float e)
{
    e_acc = fixed_add(e_acc, to_fixed(e));
}

void debug_write(vkmd_uff_term t, uint kind, uint index, vec4 geom, vec4 en, vec3 f0, vec3 f1,
                 vec3 f2, vec3 f3)
{
}

#include "common/uff_terms.glsl"

// E (e_acc) and dE/dx (gt) at xt.
void evaluate()
{
    for (uint i = 0u; i < dim; ++i)
        gt[i] = 0.0;
    e_acc = VKMD_FIXED_ZERO;
    const vkmd_uff_range mt = ranges[molecule_record];
    const uint start[VKMD_UFF_KIND_COUNT + 1] =
        uint[VKMD_UFF_KIND_COUNT + 1](mt.a.x, mt.a.y, mt.a.z, mt.a.w, mt.b.x, mt.b.y);
    // Every private-array access is a gather or scatter of 8 lanes on
    // llvmpipe, so terms that share atoms with the one before them (the
    // batch lists angles by centre, torsions by central bond and pairs by
    // first atom) read those atoms' positions and add their forces once
    // per run.
    for (uint term = start[VKMD_UFF_KIND_BOND]; term < start[VKMD_UFF_KIND_ANGLE]; ++term)
        bond(term_at(term), 0u);
    uint term = start[VKMD_UFF_KIND_ANGLE];
    while (term < start[VKMD_UFF_KIND_TORSION]) { // angles by centre j
        const uint aj = imageLoad(terms_t, int(3u * term)).y;
        const vec3 xj = atom_pos(aj);
        vec3 fj_run = vec3(0.0);
        for (; term < start[VKMD_UFF_KIND_TORSION]; ++term) {
            const vkmd_uff_term t = term_at(term);
            if (t.atoms.y != aj)
                break;
            vec3 fi, fj, fk;
            float c, s, de_dc;
            const float e = angle_force(t, atom_pos(t.atoms.x), xj, atom_pos(t.atoms.z), fi, fj,
                                        fk, c, s, de_dc);
            add_force(t.atoms.x, fi);
            fj_run += fj;
            add_force(t.atoms.z, fk);
            add_energy(VKMD_UFF_ENERGY_ANGLE, e);
        }
        add_force(aj, fj_run);
    }
    while (term < start[VKMD_UFF_KIND_INVERSION]) { // torsions by central bond j-k
        const uvec2 jk = imageLoad(terms_t, int(3u * term)).yz;
        const vec3 xj = atom_pos(jk.x), xk = atom_pos(jk.y);
        vec3 fj_run = vec3(0.0), fk_run = vec3(0.0);
        for (; term < start[VKMD_UFF_KIND_INVERSION]; ++term) {
            const vkmd_uff_term t = term_at(term);
            if (t.atoms.y != jk.x || t.atoms.z != jk.y)
                break;
            vec3 fi, fj, fk, fl;
            float c, s, de_dc;
            const float e = torsion_force(t, atom_pos(t.atoms.x), xj, xk, atom_pos(t.atoms.w), fi,
                                          fj, fk, fl, c, s, de_dc);
            add_force(t.atoms.x, fi);
            fj_run += fj;
            fk_run += fk;
            add_force(t.atoms.w, fl);
            add_energy(VKMD_UFF_ENERGY_TORSION, e);
        }
        add_force(jk.x, fj_run);
        add_force(jk.y, fk_run);
    }
    for (term = start[VKMD_UFF_KIND_INVERSION]; term < start[VKMD_UFF_KIND_PAIR]; ++term)
        inversion(term_at(term), 0u);
    term = start[VKMD_UFF_KIND_PAIR];
    const uint end = start[VKMD_UFF_KIND_PAIR + 1];
    while (term < end) {
        const uint ai = imageLoad(terms_t, int(3u * term)).x;
        const vec3 pi = atom_pos(ai);
        vec3 fi = vec3(0.0);
        for (; term < end; ++term) {
            const vkmd_uff_term t = term_at(term);
            if (t.atoms.x != ai)
                break;
            const vec3 d = pi - atom_pos(t.atoms.y); // r_i - r_j
            const float r2 = dot(d, d);
            if (!(r2 > 0.0))
                continue;
            float e_vdw, f_vdw, e_coul, f_coul;
            bool within, applies;
            const vec3 f = pair_force(t, d, r2, e_vdw, f_vdw, e_coul, f_coul, within, applies);
            if (applies) {
                fi += f;
                add_force(t.atoms.y, -f);
            }
            add_energy(VKMD_UFF_ENERGY_VDW, e_vdw);
            add_energy(VKMD_UFF_ENERGY_COULOMB, e_coul);
        }
        add_force(ai, fi);
    }
}

// x0 + lam d into xt (float part of the exact float-pair sum).
void trial(float lam)
{
    for (uint i = 0u; i < dim; ++i) {
        float s, e, h2, e2;
        vkmd_two_sum(x0l[i], lam * d[i], s, e);
        vkmd_two_sum(x0h[i], s, h2, e2);
        xt[i] = h2;
    }
}

// v[j .. j + 3] (a macro: a function would take the array by value).
#define FOUR(v, j) vec4(v[j], v[(j) + 1u], v[(j) + 2u], v[(j) + 3u])

// Row-major vec4 k of c I (padding rows and columns zero).
vec4 identity4(uint k, float c)
{
    const uint np = dim_padded, n = dim;
    const uint i = 4u * k / np, j = 4u * k % np;
    vec4 v = vec4(0.0);
    if (i < n && i >= j && i < j + 4u)
        v[i - j] = c;
    return v;
}

// H = c I over the whole padded matrix, four vec4 a step.
void set_identity(float c)
{
    const uint np = dim_padded;
    for (uint k = 0u; k < np * np / 4u; k += 4u) {
        hist[h4 + k] = identity4(k, c);
        hist[h4 + k + 1u] = identity4(k + 1u, c);
        hist[h4 + k + 2u] = identity4(k + 2u, c);
        hist[h4 + k + 3u] = identity4(k + 3u, c);
    }
}

void steepest_descent()
{
    sd = true;
    set_identity(cc);
    for (uint i = 0u; i < dim; ++i)
        d[i] = -cc * g[i];
}

// Starts a line search along d (uff_lbfgs.comp's begin_line_search): false
// when there is no downhill direction to follow.
bool begin_line_search()
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        float sl = 0.0, m1 = 0.0, m2 = 0.0;
        for (uint i = 0u; i < dim; ++i) {
            sl += g[i] * d[i];
            m1 = max(m1, abs(d[i]) / max(abs(x0h[i]), 1.0));
            m2 = max(m2, abs(d[i]));
        }
        if (sl < 0.0 && m1 > 0.0) {
            if (m2 > pc.max_step) { // no coordinate moves more than max_step
                const float k = pc.max_step / m2;
                for (uint i = 0u; i < dim; ++i)
                    d[i] *= k;
                sl *= k;
                m1 *= k;
            }
            lambda = 1.0;
            lambda2 = 0.0;
            de2 = 0.0;
            slope = sl;
            lambda_min = MOVETOL / m1;
            return true;
        }
        if (m1 == 0.0 || attempt == 1)
            break;
        steepest_descent(); // not downhill: forget the curvature
    }
    return false;
}

// One vec4 (columns j .. j + 3 of row i) of the BFGS update, then its
// share of d = -H g: returns dn - h_new . g[j .. j + 3].
vec4 update4(uint k, uint j, float si, float hyi, float ui, float fac, float fad, float fae,
             vec4 dn)
{
    const vec4 sj = va[j / 4u], hyj = vb[j / 4u];
    const vec4 uj = fac * sj - fad * hyj;
    const vec4 h = hist_at(k) + fac * (si * sj) - fad * (hyi * hyj) + fae * (ui * uj);
    hist[k] = h;
    return dn - h * vc[j / 4u];
}

// After an accepted step s = lambda d with y in gt: the BFGS update of H
// when the curvature guard passes (RDKit's form, as uff_lbfgs.comp; H is
// exactly symmetric, so row i is column i), then d = -H g. The update and
// the new direction share one sweep over H (the new d goes to gt, y's
// array, free once H y is formed in xt).
void dense_direction(float sy, float yy, float ss)
{
    const uint n = dim, np = dim_padded, row = np / 4u, np16 = np & ~15u;
    for (uint q = 0u; q < row; ++q) {
        va[q] = FOUR(gt, 4u * q);
        vc[q] = FOUR(g, 4u * q);
    }
    if (sy > sqrt(CURV * yy * ss)) {
        for (uint i = 0u; i < n; ++i) {
            vec4 hy = vec4(0.0);
            uint j = 0u;
            for (; j < np16; j += 16u) {
                const uint k = h4 + i * row + j / 4u, q = j / 4u;
                hy += hist_at(k) * va[q];
                hy += hist_at(k + 1u) * va[q + 1u];
                hy += hist_at(k + 2u) * va[q + 2u];
                hy += hist_at(k + 3u) * va[q + 3u];
            }
            for (; j < np; j += 4u)
                hy += hist_at(h4 + i * row + j / 4u) * va[j / 4u];
            xt[i] = (hy.x + hy.y) + (hy.z + hy.w);
        }
        float fae = 0.0;
        for (uint i = 0u; i < n; ++i)
            fae += gt[i] * xt[i];
        for (uint q = 0u; q < row; ++q) {
            va[q] = lambda * FOUR(d, 4u * q);
            vb[q] = FOUR(xt, 4u * q);
        }
        const float fac = 1.0 / sy, fad = 1.0 / fae;
        for (uint i = 0u; i < n; ++i) {
            const float si = lambda * d[i];
            const float ui = fac * si - fad * xt[i];
            const float hyi = xt[i];
            vec4 dn = vec4(0.0);
            uint j = 0u;
            for (; j < np16; j += 16u) {
                const uint k = h4 + i * row + j / 4u;
                dn = update4(k, j, si, hyi, ui, fac, fad, fae, dn);
                dn = update4(k + 1u, j + 4u, si, hyi, ui, fac, fad, fae, dn);
                dn = update4(k + 2u, j + 8u, si, hyi, ui, fac, fad, fae, dn);
                dn = update4(k + 3u, j + 12u, si, hyi, ui, fac, fad, fae, dn);
            }
            for (; j < np; j += 4u)
                dn = update4(h4 + i * row + j / 4u, j, si, hyi, ui, fac, fad, fae, dn);
            gt[i] = (dn.x + dn.y) + (dn.z + dn.w);
        }
    } else {
        for (uint i = 0u; i < n; ++i) {
            vec4 dn = vec4(0.0);
            uint j = 0u;
            for (; j < np16; j += 16u) {
                const uint k = h4 + i * row + j / 4u, q = j / 4u;
                dn -= hist_at(k) * vc[q];
                dn -= hist_at(k + 1u) * vc[q + 1u];
                dn -= hist_at(k + 2u) * vc[q + 2u];
                dn -= hist_at(k + 3u) * vc[q + 3u];
            }
            for (; j < np; j += 4u)
                dn -= hist_at(h4 + i * row + j / 4u) * vc[j / 4u];
            gt[i] = (dn.x + dn.y) + (dn.z + dn.w);
        }
    }
    for (uint i = 0u; i < n; ++i)
        d[i] = gt[i];
}

void main()
{
    const vkmd_uff_relax_group grp = groups[pc.group_start + gl_WorkGroupID.x];
    const uint l = gl_LocalInvocationID.x;
    if (l >= grp.a.y)
        return;
    molecule_record = grp.a.z;
    eval_budget = grp.a.w;
    dim = grp.b.x;
    dim_padded = grp.b.y;
    const uint r = slots[grp.a.x + l].x;
    vkmd_uff_lbfgs_state st = state[r];
    if (st.u.x == VKMD_UFF_LBFGS_PHASE_DONE)
        return;
    const uvec4 rep = replicas[r];
    const uint n = dim, first = rep.x;
    const uint plane_len = 3u * pc.atom_count;
    const uint p0 = VKMD_UFF_LBFGS_X0_HI * plane_len + 3u * first;
    const uint p1 = VKMD_UFF_LBFGS_X0_LO * plane_len + 3u * first;
    const uint pg = VKMD_UFF_LBFGS_GRAD * plane_len + 3u * first;
    const uint pd = VKMD_UFF_LBFGS_DIR * plane_len + 3u * first;
    h4 = rep.z / 4u;
    for (uint i = n; i < dim_padded; ++i) { // padding: zero, and kept zero
        xt[i] = 0.0;
        gt[i] = 0.0;
        x0h[i] = 0.0;
        x0l[i] = 0.0;
        g[i] = 0.0;
        d[i] = 0.0;
    }
    for (uint i = 0u; i < n; ++i) {
        x0h[i] = plane[p0 + i];
        x0l[i] = plane[p1 + i];
    }
    uint evals = 0u, iters = 0u, spent = 0u, status = ST_RUNNING;
    vkmd_fixed e0;
    bool begin = false;
    // The first evaluation (at x0) is the loop's first pass, so that the
    // shader holds one copy of evaluate(): each call site is inlined, and a
    // second copy doubled the kernel's compile on a CPU driver.
    bool starting = st.u.x == VKMD_UFF_LBFGS_PHASE_START;
    if (!starting) { // resume the line search saved by the last dispatch
        for (uint i = 0u; i < n; ++i) {
            g[i] = plane[pg + i];
            d[i] = plane[pd + i];
        }
        e0 = e0buf[2u * r];
        lambda = st.f.x;
        lambda2 = st.f.y;
        de2 = st.f.z;
        slope = st.f.w;
        lambda_min = st.g.x;
        cc = st.g.y;
        iters = st.u.y;
        evals = st.u.z;
        sd = st.h.z != 0u;
    }
    bool done = false;
    for (;;) {
        if (begin) {
            if (!begin_line_search()) { // a zero gradient: stop where it is
                done = true;
                status = ST_STEP;
                break;
            }
            begin = false;
        }
        if (starting) {
            for (uint i = 0u; i < n; ++i)
                xt[i] = x0h[i];
        } else {
            if (evals >= pc.max_evaluations) { // stop unconverged
                done = true;
                break;
            }
            if (spent >= eval_budget)
                break; // the next dispatch goes on from here
            trial(lambda);
        }
        evaluate();
        ++evals;
        ++spent;
        if (starting) { // RDKit's first step: steepest descent on its scaled gradient
            starting = false;
            float gmax01 = -1e30;
            for (uint i = 0u; i < n; ++i) {
                g[i] = gt[i];
                gmax01 = max(gmax01, 0.1 * g[i]);
            }
            rdkit_scale(gmax01, cc);
            e0 = e_acc;
            e0buf[2u * r + 1u] = e0;
            steepest_descent();
            lambda = lambda2 = de2 = slope = lambda_min = 0.0;
            begin = true;
            continue;
        }
        const float de = fixed_to_float(fixed_add(e_acc, fixed_neg(e0))) *
                         float(VKMD_FIXED_INV_SCALE);
        // Sufficient decrease (Armijo), or, when E - E0 is within the float
        // energies' noise, still downhill at the trial (g.d < 0).
        bool level = false;
        const float e0f = fixed_to_float(e0) * float(VKMD_FIXED_INV_SCALE);
        if (de > ARMIJO * lambda * slope && abs(de) <= NOISE * max(abs(e0f), 1.0)) {
            float gd = 0.0;
            for (uint i = 0u; i < n; ++i)
                gd += gt[i] * d[i];
            level = gd < 0.0;
        }
        if (de <= ARMIJO * lambda * slope || level) { // accepted
            float sy = 0.0, yy = 0.0, ss = 0.0, mx = 0.0, mg = -1e30, mf = 0.0;
            for (uint i = 0u; i < n; ++i) {
                const float gn = gt[i];
                const float s = lambda * d[i];
                const float y = gn - g[i];
                float s1, e1, hi, lo;
                vkmd_two_sum(x0l[i], s, s1, e1);
                vkmd_two_sum(x0h[i], s1, hi, lo);
                x0h[i] = hi;
                x0l[i] = lo + e1;
                g[i] = gn;
                gt[i] = y;
                const float ax = max(abs(hi), 1.0);
                sy += s * y;
                yy += y * y;
                ss += s * s;
                mx = max(mx, abs(s) / ax);
                mg = max(mg, 0.1 * gn);
                mf = max(mf, abs(gn) * ax);
            }
            ++iters;
            e0 = e_acc;
            float c;
            const float sc = rdkit_scale(mg, c);
            const float ef = fixed_to_float(e0) * float(VKMD_FIXED_INV_SCALE);
            if (mx < TOLX)
                status = ST_STEP;
            else if (mf * c / max(ef * sc, 1.0) < pc.force_tol)
                status = ST_GRADIENT;
            else if (pc.energy_tol > 0.0 && abs(de) <= pc.energy_tol * max(abs(ef), 1.0))
                status = ST_ENERGY;
            if (status != ST_RUNNING || iters >= pc.max_iterations) {
                done = true;
                break;
            }
            cc = c;
            sd = false;
            dense_direction(sy, yy, ss);
            begin = true;
            continue;
        }
        const float tmp = rdkit_backtrack(lambda, lambda2, de, de2, slope);
        lambda2 = lambda;
        de2 = de;
        lambda = tmp;
        if (tmp < lambda_min && !sd) { // stalled: retry along steepest descent
            ++iters;
            steepest_descent();
            begin = true;
            continue;
        }
        if (tmp < lambda_min) { // stalled again: stay at x0 (RDKit's "step too small")
            ++iters;
            done = true;
            status = ST_STEP;
            break;
        }
    }
    for (uint i = 0u; i < n; ++i) {
        plane[p0 + i] = x0h[i];
        plane[p1 + i] = x0l[i];
    }
    if (!done)
        for (uint i = 0u; i < n; ++i) {
            plane[pg + i] = g[i];
            plane[pd + i] = d[i];
        }
    for (uint a = 0u; 3u * a < n; ++a)
        pos[first + a] = vec4(x0h[3u * a], x0h[3u * a + 1u], x0h[3u * a + 2u], 0.0);
    e0buf[2u * r] = e0;
    st.f = vec4(lambda, lambda2, de2, slope);
    st.g = vec4(lambda_min, cc, 0.0, 0.0);
    st.u = uvec4(done ? VKMD_UFF_LBFGS_PHASE_DONE : VKMD_UFF_LBFGS_PHASE_TRIAL, iters, evals,
                 status);
    st.h = uvec4(0u, 0u, sd ? 1u : 0u, 0u);
    state[r] = st;
}
