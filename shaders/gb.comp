// Generalized Born implicit solvent (HCT, OBC1, OBC2, GBn, GBn2; salt, ACE,
// all pairs or OpenMM's non-periodic cutoff): layout and phases in
// common/layout_gb.h, host side engine/forces/pass_gb.c, CPU oracle
// engine/ref/ref_gb.c, functional forms common/forms.glsl (form_gb_*).
//
// One invocation per atom i; MODE (specialization constant) picks the
// phase, and the pass records the three with barriers between them. Every
// phase walks j = 0 .. atom_count - 1 in order, a workgroup's width at a time
// through shared memory, so each ordered pair is summed by one invocation
// in one order (the same bits every run). Positions in shared memory are
// relative to the workgroup's first atom (pos_sub: the split modes form them
// from their exact parts), as the vacuum pair tiles of nonbonded.comp do.
// Per-atom float sums are compensated (Kahan); what leaves an invocation is
// fixed point.
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef VKMD_GB_SUBGROUP_WORDS
#define VKMD_GB_SUBGROUP
#define VKMD_FIXED_WORDS
#endif
#ifdef VKMD_GB_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#include "common/vkmd_layout.h"
#include "common/layout_gb.h"
#include "common/fixed_point.glsl"
#include "common/forms.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_GB_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_GB_MODE) const uint MODE = VKMD_GB_MODE_RADII;
layout(constant_id = VKMD_SPEC_ENERGY) const bool ENERGY = true;
// The +subgroup builds (engine/forces/pass_gb.c takes them on CPU
// devices) take the j atoms from subgroup shuffles instead of shared memory
// (on llvmpipe a shared-memory read is a loop over the lanes, a shuffle one
// vector permute): each subgroup loads a tile of subgroup-size j atoms, a
// lane each, and passes them round. Same j order, same arithmetic: the same
// bits as the shared-memory tiles.
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_GB_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_GB_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_GB_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_GB_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_GB_BINDING_ATOMS) readonly buffer Atoms { vkmd_gb_atom atoms[]; };
layout(std430, binding = VKMD_GB_BINDING_NECK) readonly buffer Neck { vkmd_gb_neck neck[]; };
layout(std430, binding = VKMD_GB_BINDING_SCRATCH) buffer Scratch { vec4 scratch[]; };
layout(push_constant) uniform Push { VKMD_GB_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

// The j tile: xyz relative to the anchor, w the float bits of j's radius
// index; p the phase's parameters of j.
shared vec4 s_x[WORKGROUP_SIZE];
shared vec4 s_p[WORKGROUP_SIZE];
shared vkmd_fixed red[2][WORKGROUP_SIZE];

void kahan(inout float s, inout float c, float x)
{
    precise float y = x - c;
    precise float t = s + y;
    c = (t - s) - y;
    s = t;
}

void kahan3(inout vec3 s, inout vec3 c, vec3 x)
{
    precise vec3 y = x - c;
    precise vec3 t = s + y;
    c = (t - s) - y;
    s = t;
}

// The phase's parameters of atom j for the tile.
vec4 tile_params(uint j)
{
    vec4 a = atoms[j].a;
    if (MODE == VKMD_GB_MODE_RADII)
        return vec4(a.y, a.z, 0.0, 0.0);         // s_j, radius_j
    if (MODE == VKMD_GB_MODE_ENERGY)
        return vec4(a.w, scratch[j].x, 0.0, 0.0); // q_j sqrt(k), B_j
    return vec4(a.x, a.y, a.z, scratch[pc.atom_count + j].w); // rho_j, s_j, radius_j, c_j
}

// The descreening of i (offset radius rho) by j (scaled radius s) at r, with
// the neck of (row, column) when the model has one: I_ij and dI_ij/dr.
float descreen(float r, float rho, float s, float radius_i, float radius_j, uint row, uint col,
               out float di_dr)
{
    float di;
    float sum = form_gb_hct_integral(r, rho, s, di);
    if (pc.neck_scale > 0.0 && r <= radius_i + radius_j + pc.neck_cut) {
        vkmd_gb_neck nk = neck[row * pc.radius_count + col];
        float dn;
        sum += pc.neck_scale * form_gb_neck(r, nk.d0, nk.m0, dn);
        di += pc.neck_scale * dn;
    }
    di_dr = di;
    return sum;
}

// The pair (i, j) of the current mode: j's tile entries xj (position
// relative to the anchor, w its radius-table row bits) and pj
// (tile_params); adds to i's sums.
void pair_term(uint j, vec4 xj, vec4 pj, uint i, vec3 xi, vkmd_gb_atom ai, uint row, vec4 si,
               bool cutoff, inout float sum, inout float sum_c, inout float e, inout float e_c,
               inout vec3 f, inout vec3 f_c)
{
    if (j == i)
        return;
    const vec3 d = xj.xyz - xi; // r_j - r_i
    const float r2 = dot(d, d);
    if (cutoff && !(r2 < pc.cut2))
        return;
    const uint col = floatBitsToUint(xj.w);
    if (MODE == VKMD_GB_MODE_RADII) {
        // I_i, and sum_j dI_i/dr_ij (r_j - r_i) / r_ij, which the
        // forces phase multiplies by c_i (known only then).
        float di;
        const float r = sqrt(r2);
        kahan(sum, sum_c, descreen(r, ai.a.x, pj.x, ai.a.z, pj.y, row, col, di));
        kahan3(f, f_c, (di / r) * d);
    } else if (MODE == VKMD_GB_MODE_ENERGY) {
        float f_over_r, gi, gj;
        float ep = form_gb_pair(r2, si.x, pj.y, ai.a.w * pj.x, pc.kappa, pc.inv_eps_in,
                                pc.inv_eps_out, pc.inv_cut, f_over_r, gi, gj);
        kahan(sum, sum_c, gi);
        kahan3(f, f_c, -f_over_r * d);
        if (ENERGY)
            kahan(e, e_c, 0.5 * ep);
    } else {
        const float r = sqrt(r2);
        float di_ji;
        descreen(r, pj.x, ai.a.y, pj.z, ai.a.z, col, row, di_ji);
        kahan3(f, f_c, ((pj.w * di_ji) / r) * d);
    }
}

void main()
{
    const uint n = pc.atom_count;
    const uint lid = gl_LocalInvocationID.x;
    const uint i = gl_GlobalInvocationID.x;
    const bool vi = i < n;
    const bool cutoff = (pc.flags & VKMD_GB_FLAG_CUTOFF) != 0u;
    const vkmd_pos anchor = load_pos(gl_WorkGroupID.x * WORKGROUP_SIZE);
    const vec3 xi = vi ? pos_sub(load_pos(i), anchor) : vec3(0.0);
    const vkmd_gb_atom ai = atoms[vi ? i : 0u];
    const uint row = floatBitsToUint(ai.b.w);
    // ENERGY: (B_i, dB_i/dI_i, -, -); FORCES: (direct force on i, c_i)
    const vec4 si = vi && MODE == VKMD_GB_MODE_ENERGY ? scratch[i]
                    : vi && MODE == VKMD_GB_MODE_FORCES ? scratch[n + i]
                                                        : vec4(0.0);

    float sum = 0.0, sum_c = 0.0; // RADII: I_i; ENERGY: dPair/dB_i; FORCES: unused
    float e = 0.0, e_c = 0.0;     // ENERGY: half the pair energies
    vec3 f = vec3(0.0), f_c = vec3(0.0);

#ifdef VKMD_GB_SUBGROUP
    {
        // Every lane of the subgroup runs every shuffle (uniform control
        // flow); lanes without an atom (vi false) skip only the arithmetic.
        const uint sg = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
        for (uint base = 0u; base < n; base += sg) {
            const uint jl = base + lane;
            vec4 mx = vec4(0.0), mp = vec4(0.0);
            if (jl < n) {
                mx = vec4(pos_sub(load_pos(jl), anchor), atoms[jl].b.w);
                mp = tile_params(jl);
            }
            const uint count = min(sg, n - base);
            for (uint k = 0u; k < count; ++k) {
                const vec4 xj = subgroupShuffle(mx, k);
                const vec4 pj = subgroupShuffle(mp, k);
                if (vi)
                    pair_term(base + k, xj, pj, i, xi, ai, row, si, cutoff, sum, sum_c, e, e_c,
                              f, f_c);
            }
        }
    }
#else
    {
        for (uint base = 0u; base < n; base += WORKGROUP_SIZE) {
            const uint jl = base + lid;
            barrier();
            if (jl < n) {
                vec3 xj = pos_sub(load_pos(jl), anchor);
                s_x[lid] = vec4(xj, atoms[jl].b.w);
                s_p[lid] = tile_params(jl);
            }
            barrier();
            const uint count = min(WORKGROUP_SIZE, n - base);
            for (uint k = 0u; vi && k < count; ++k)
                pair_term(base + k, s_x[k], s_p[k], i, xi, ai, row, si, cutoff, sum, sum_c, e, e_c,
                          f, f_c);
        }
    }
#endif

    vkmd_fixed e_pol = VKMD_FIXED_ZERO, e_np = VKMD_FIXED_ZERO;
    if (vi && MODE == VKMD_GB_MODE_RADII) {
        float db_di;
        const bool rescale = (pc.flags & VKMD_GB_FLAG_RESCALE) != 0u;
        float born = form_gb_born_radius(sum - sum_c, ai.a.x, ai.a.z, rescale, ai.b.x, ai.b.y,
                                         ai.b.z, db_di);
        scratch[i] = vec4(born, db_di, 0.0, 0.0);
        scratch[2u * n + i] = vec4(f - f_c, 0.0);
    } else if (vi && MODE == VKMD_GB_MODE_ENERGY) {
        float g_self, g_ace = 0.0, e_ace = 0.0;
        float e_self = form_gb_self(si.x, ai.a.w * ai.a.w, pc.kappa, pc.inv_eps_in,
                                    pc.inv_eps_out, g_self);
        if ((pc.flags & VKMD_GB_FLAG_NONPOLAR) != 0u)
            e_ace = form_gb_ace(si.x, ai.a.z, pc.probe, pc.ace_factor, g_ace);
        float de_db = (sum - sum_c) + g_self + g_ace;
        scratch[n + i] = vec4(f - f_c, de_db * si.y);
        if (ENERGY) {
            e_pol = fixed_add(to_fixed(e_self), fixed_add(to_fixed(e), to_fixed(-e_c)));
            e_np = to_fixed(e_ace);
        }
    } else if (vi) {
        kahan3(f, f_c, si.xyz);                            // the direct pair force
        kahan3(f, f_c, si.w * scratch[2u * n + i].xyz); // c_i sum_j dI_i/dr_ij ...
        for (uint c = 0u; c < 3u; ++c)
            force_add(VKMD_FORCE_INDEX(c, i, n), fixed_add(to_fixed(f[c]), to_fixed(-f_c[c])));
    }

    if (!ENERGY || MODE != VKMD_GB_MODE_ENERGY)
        return;
    red[0][lid] = e_pol;
    red[1][lid] = e_np;
    barrier();
    for (uint half_size = WORKGROUP_SIZE / 2u; half_size > 0u; half_size /= 2u) {
        if (lid < half_size) {
            red[0][lid] = fixed_add(red[0][lid], red[0][lid + half_size]);
            red[1][lid] = fixed_add(red[1][lid], red[1][lid + half_size]);
        }
        barrier();
    }
    if (lid == 0u) {
        if (!fixed_is_zero(red[0][0]))
            energy_add(VKMD_ENERGY_GB, red[0][0]);
        if (!fixed_is_zero(red[1][0]))
            energy_add(VKMD_ENERGY_NONPOLAR, red[1][0]);
    }
}
