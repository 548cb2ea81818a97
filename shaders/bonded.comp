// Every bonded term (bonds, angles, proper and improper dihedrals) and every
// fixed pair (scaled 1-4 LJ + Coulomb, Ewald excluded-pair corrections) in one
// dispatch: the global id ranges over one term array, bonds first, then
// angles, dihedrals, 1-4 pairs and excluded pairs (layout in
// common/vkmd_layout.h). Grid-stride loop, so any number of terms fits the
// device's workgroup-count limit.
//
// Mirrors engine/ref/ref_bonded.c, ref_pairs14.c and ref_nonbonded_excluded
// line by line in float: minimum image with
// floor(d / L + 0.5); angles from atan2(|a x b|, a . b) and forces from cross
// products (no 1/sin); dihedrals with the IUPAC sign and the Bekker force
// split. Functional forms come from common/forms.glsl; atan2 from
// common/vkmd_math.glsl (the built-in may be 4096 ulp off, see there).
//
// Determinism: forces are added with 64-bit atomics in fixed point (2^32 per
// kcal/mol/A). Integer addition is associative, so the sum is the same for any
// thread order. Energies too: each term's energy is converted to fixed point,
// summed per workgroup by a shared-memory tree (exact integer sums) and added
// once per workgroup and slot with a 64-bit atomic. A float reduction would
// round differently for each order; this one cannot. The 64-bit values and
// atomics are int64 or, in the "+words" build, pairs of 32-bit words with the
// same bits (common/fixed_point.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/forms.glsl"
#include "common/vkmd_math.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_BONDED_WORKGROUP_SIZE;
// false: forces only (steps that read no energies); the energy sums and
// their reduction are compiled out.
layout(constant_id = VKMD_SPEC_ENERGY) const bool ENERGY = true;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_BONDED_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_BONDED_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_BONDED_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_BONDED_BINDING_TERMS) readonly buffer Terms { vkmd_bonded_term terms[]; };
layout(std430, binding = VKMD_BONDED_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(push_constant) uniform Push { VKMD_BONDED_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)

// The seven slots this pass owns, VKMD_ENERGY_BOND .. VKMD_ENERGY_COUL_EXCL.
const uint SLOTS = 7;
shared vkmd_fixed red[SLOTS][WORKGROUP_SIZE];

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

// x_b - x_a under the minimum-image convention when the box is periodic.
vec3 delta(uint a, uint b)
{
    vec3 d = pos_sub(load_pos(b), load_pos(a));
    if (pc.box.w != 0.0)
        d -= pc.box.xyz * floor(d / pc.box.xyz + 0.5);
    return d;
}

void add_force(uint atom, vec3 f)
{
    uint n = pc.atom_count;
    force_add(VKMD_FORCE_INDEX(0, atom, n), to_fixed(f.x));
    force_add(VKMD_FORCE_INDEX(1, atom, n), to_fixed(f.y));
    force_add(VKMD_FORCE_INDEX(2, atom, n), to_fixed(f.z));
}

float bond(vkmd_bonded_term t)
{
    vec3 d = delta(t.atoms.x, t.atoms.y); // r_j - r_i
    float r = length(d);
    float de_dr;
    float e = form_bond(r, t.params.x, t.params.y, de_dr);
    if (r > 0.0) {
        vec3 f = (de_dr / r) * d; // pulls i towards j
        add_force(t.atoms.x, f);
        add_force(t.atoms.y, -f);
    }
    return e;
}

float angle(vkmd_bonded_term t)
{
    vec3 a = delta(t.atoms.y, t.atoms.x); // apex -> i
    vec3 b = delta(t.atoms.y, t.atoms.z); // apex -> k
    vec3 p = cross(a, b);
    float p_len = length(p);
    float theta = vkmd_atan2(p_len, dot(a, b));
    float de_dtheta;
    float e = form_angle(theta, t.params.x, t.params.y, de_dtheta);
    p_len = max(p_len, 1e-6);
    vec3 fi = (-de_dtheta / (dot(a, a) * p_len)) * cross(a, p);
    vec3 fk = (-de_dtheta / (dot(b, b) * p_len)) * cross(p, b);
    add_force(t.atoms.x, fi);
    add_force(t.atoms.z, fk);
    add_force(t.atoms.y, -(fi + fk));
    return e;
}

float dihedral(vkmd_bonded_term t)
{
    vec3 b1 = delta(t.atoms.x, t.atoms.y);
    vec3 b2 = delta(t.atoms.y, t.atoms.z);
    vec3 b3 = delta(t.atoms.z, t.atoms.w);
    vec3 n1 = cross(b1, b2), n2 = cross(b2, b3);
    float b2_len2 = dot(b2, b2), b2_len = sqrt(b2_len2);
    float phi = vkmd_atan2(b2_len * dot(b1, n2), dot(n1, n2));
    float de_dphi;
    float e = form_dihedral(phi, t.params.x, int(t.params.z), t.params.y, de_dphi);
    float n1_len2 = dot(n1, n1), n2_len2 = dot(n2, n2);
    // A collinear triple has no plane and no torque: no force.
    if (n1_len2 < 1e-24 || n2_len2 < 1e-24 || b2_len2 <= 0.0)
        return e;
    vec3 fi = (de_dphi * b2_len / n1_len2) * n1;
    vec3 fl = (-de_dphi * b2_len / n2_len2) * n2;
    float p = dot(b1, b2) / b2_len2, q = dot(b3, b2) / b2_len2;
    add_force(t.atoms.x, fi);
    add_force(t.atoms.y, q * fl - (1.0 + p) * fi);
    add_force(t.atoms.z, p * fi - (1.0 + q) * fl);
    add_force(t.atoms.w, fl);
    return e;
}

// Scaled 1-4 pair: plain 1/r Coulomb and LJ at any distance (no cutoff).
void pair14(vkmd_bonded_term t, inout vkmd_fixed e_lj, inout vkmd_fixed e_coul)
{
    vec3 d = delta(t.atoms.x, t.atoms.y); // r_j - r_i
    float inv_r = inversesqrt(dot(d, d));
    float f_lj, f_coul;
    float elj = form_lj(inv_r * inv_r, t.params.y, t.params.z, f_lj);
    if (ENERGY)
        e_lj = fixed_add(e_lj, to_fixed(elj));
    // kqq arrives as a float pair (x + w) so that identical pairs do not all
    // round the same way (see pass_bonded.c); the two energy halves go to
    // fixed point separately (see excluded()).
    float f_lo;
    float ec = form_coulomb(inv_r, t.params.x, f_coul);
    if (ENERGY)
        e_coul = fixed_add(e_coul, fixed_add(to_fixed(ec), to_fixed(form_coulomb(inv_r, t.params.w,
                                                                                 f_lo))));
    vec3 f = (f_lj + f_coul) * d; // force on j; i gets the opposite
    add_force(t.atoms.x, -f);
    add_force(t.atoms.y, f);
}

// Ewald excluded-pair correction -kqq erf(alpha r)/r. Every water has the
// same three exclusions, so a constant's float rounding (k q q, alpha,
// 2/sqrt(pi)) would bias all 3N of them alike: each constant arrives as a
// float pair and the energy leaves as a pair, both halves converted to
// fixed point separately (a float sum would round the correction away).
void excluded(vkmd_bonded_term t, inout vkmd_fixed e_sum)
{
    vec3 d = delta(t.atoms.x, t.atoms.y);
    float r = length(d);
    float ar = pc.ewald_alpha * r;
    float erf_lo;
    float erf_hi = form_erf(ar, erf_lo);
    if (!(erf_hi > 1e-6)) // coincident sites: as the reference
        return;
    float ex = exp(-ar * ar);
    erf_lo += FORM_TWO_OVER_SQRT_PI * ex * (pc.ewald_alpha_lo * r); // d erf/d alpha * alpha_lo
    float inv_r = 1.0 / r;
    float kqq = t.params.x, kqq_lo = t.params.y;
    float e = -kqq * erf_hi * inv_r;
    float e_lo = -(kqq_lo * erf_hi + kqq * erf_lo) * inv_r;
    if (ENERGY)
        e_sum = fixed_add(e_sum, fixed_add(to_fixed(e), to_fixed(e_lo)));
    float f_over_r = (e + kqq * pc.ewald_alpha * FORM_TWO_OVER_SQRT_PI * ex) * inv_r * inv_r;
    vec3 f = f_over_r * d;
    add_force(t.atoms.x, -f);
    add_force(t.atoms.y, f);
}

// One grid-stride loop per kind of term, each over its own range: a loop
// body holds one kind only (on lavapipe a kind's code in every iteration,
// even skipped, costs registers and time), and a kind with no terms costs
// one test.
void main()
{
    uint angles_end = pc.bond_count + pc.angle_count;
    uint dihedrals_end = angles_end + pc.dihedral_count;
    uint pairs_end = dihedrals_end + pc.pair14_count;
    vkmd_fixed e[SLOTS];
    for (uint s = 0; s < SLOTS; ++s)
        e[s] = VKMD_FIXED_ZERO;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    uint g = gl_GlobalInvocationID.x;
    for (uint id = g; id < pc.bond_count; id += stride) {
        float en = bond(terms[id]);
        if (ENERGY)
            e[0] = fixed_add(e[0], to_fixed(en));
    }
    for (uint id = pc.bond_count + g; id < angles_end; id += stride) {
        float en = angle(terms[id]);
        if (ENERGY)
            e[1] = fixed_add(e[1], to_fixed(en));
    }
    for (uint id = angles_end + g; id < dihedrals_end; id += stride) {
        vkmd_bonded_term t = terms[id];
        float en = dihedral(t);
        if (ENERGY) {
            if (t.params.w != 0.0)
                e[3] = fixed_add(e[3], to_fixed(en));
            else
                e[2] = fixed_add(e[2], to_fixed(en));
        }
    }
    for (uint id = dihedrals_end + g; id < pairs_end; id += stride)
        pair14(terms[id], e[4], e[5]);
    for (uint id = pairs_end + g; id < pairs_end + pc.excl_count; id += stride)
        excluded(terms[id], e[6]);
    if (!ENERGY)
        return;

    uint lid = gl_LocalInvocationID.x;
    for (uint s = 0; s < SLOTS; ++s)
        red[s][lid] = e[s];
    barrier();
    for (uint half_size = WORKGROUP_SIZE / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size)
            for (uint s = 0; s < SLOTS; ++s)
                red[s][lid] = fixed_add(red[s][lid], red[s][lid + half_size]);
        barrier();
    }
    if (lid == 0)
        for (uint s = 0; s < SLOTS; ++s)
            if (!fixed_is_zero(red[s][0]))
                energy_add(VKMD_ENERGY_BOND + s, red[s][0]);
}
