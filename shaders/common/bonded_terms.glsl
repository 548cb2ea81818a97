// Every bonded term and fixed pair (bonded.comp has the design), shared by
// bonded.comp and the fused force dispatch (forces.comp). The includer
// declares the buffers (terms, force through force_add, positions through
// load_pos), the specialization constant ENERGY and defines BD_BOX (vec4:
// edges, w 1 when periodic), BD_ATOMS, BD_ALPHA, BD_ALPHA_LO, the counts
// BD_BONDS, BD_ANGLES, BD_DIHEDRALS, BD_PAIRS14, BD_EXCL, BD_CMAPS,
// BD_RESTRAINTS and the restraints' flat-bottom radius BD_RESTRAINT_FB.
// Energies go to BD_SLOTS sums: the seven slots from VKMD_ENERGY_BOND, then
// VKMD_ENERGY_RESTRAINT, then the three from VKMD_ENERGY_UREY_BRADLEY
// (bonded_slot). CHARMM's Urey-Bradley terms ride in the bond range and its
// harmonic impropers in the dihedral range (a flag in params picks the form
// and the slot), so systems without them run the same code. A triclinic cell
// (TRICLINIC, common/box.glsl; always periodic) passes L = (ax, by, cz) in
// BD_BOX.xyz and T = (bx, cx, cy) as BD_BOX_T (the push block's box_t.xyz).
#ifndef VKMD_BONDED_TERMS_GLSL
#define VKMD_BONDED_TERMS_GLSL

#include "common/box.glsl"

// d under the minimum-image convention when the box is periodic.
vec3 bonded_min_image(vec3 d)
{
    if (TRICLINIC)
        return box_tri_min_image(d, BD_BOX.xyz, BD_BOX_T);
    if (BD_BOX.w != 0.0)
        d -= BD_BOX.xyz * floor(d / BD_BOX.xyz + 0.5);
    return d;
}

// x_b - x_a under the minimum-image convention when the box is periodic.
vec3 delta(uint a, uint b)
{
    return bonded_min_image(pos_sub(load_pos(b), load_pos(a)));
}

void add_force(uint atom, vec3 f)
{
    uint n = BD_ATOMS;
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

// The dihedral angle of the bond vectors b1, b2, b3 (IUPAC sign).
float dihedral_angle(vec3 b1, vec3 b2, vec3 b3)
{
    vec3 n1 = cross(b1, b2), n2 = cross(b2, b3);
    return vkmd_atan2(sqrt(dot(b2, b2)) * dot(b1, n2), dot(n1, n2));
}

// Forces of dE/dphi = de_dphi on the dihedral a-b-c-d with bond vectors b1,
// b2, b3 (the Bekker split); a collinear triple has no plane and no torque.
void dihedral_force(uvec4 at, vec3 b1, vec3 b2, vec3 b3, float de_dphi)
{
    vec3 n1 = cross(b1, b2), n2 = cross(b2, b3);
    float b2_len2 = dot(b2, b2), b2_len = sqrt(b2_len2);
    float n1_len2 = dot(n1, n1), n2_len2 = dot(n2, n2);
    if (n1_len2 < 1e-24 || n2_len2 < 1e-24 || b2_len2 <= 0.0)
        return;
    vec3 fi = (de_dphi * b2_len / n1_len2) * n1;
    vec3 fl = (-de_dphi * b2_len / n2_len2) * n2;
    float p = dot(b1, b2) / b2_len2, q = dot(b3, b2) / b2_len2;
    add_force(at.x, fi);
    add_force(at.y, q * fl - (1.0 + p) * fi);
    add_force(at.z, p * fi - (1.0 + q) * fl);
    add_force(at.w, fl);
}

// Periodic dihedral, or (params.w == 2) a CHARMM harmonic improper.
float dihedral(vkmd_bonded_term t)
{
    vec3 b1 = delta(t.atoms.x, t.atoms.y);
    vec3 b2 = delta(t.atoms.y, t.atoms.z);
    vec3 b3 = delta(t.atoms.z, t.atoms.w);
    float phi = dihedral_angle(b1, b2, b3);
    float de_dphi;
    float e = t.params.w == 2.0
                  ? form_improper_harmonic(phi, t.params.x, t.params.y, de_dphi)
                  : form_dihedral(phi, t.params.x, int(t.params.z), t.params.y, de_dphi);
    dihedral_force(t.atoms, b1, b2, b3, de_dphi);
    return e;
}

// CMAP: phi = i-j-k-l, psi = j-k-l-m; the map's bicubic cell (two term
// entries of 8 coefficients after the terms, maths/cmap_spline.h) at the
// fractions of theta = angle + pi along each axis.
float cmap(vkmd_bonded_term t)
{
    uint m = floatBitsToUint(t.params.x);
    uint first = floatBitsToUint(t.params.y);
    uint res = floatBitsToUint(t.params.z);
    vec3 b1 = delta(t.atoms.x, t.atoms.y);
    vec3 b2 = delta(t.atoms.y, t.atoms.z);
    vec3 b3 = delta(t.atoms.z, t.atoms.w);
    vec3 b4 = delta(t.atoms.w, m);
    float per_rad = float(res) / 6.28318530717958647692;
    float x = (dihedral_angle(b1, b2, b3) + VKMD_PI) * per_rad;
    float y = (dihedral_angle(b2, b3, b4) + VKMD_PI) * per_rad;
    uint s = min(uint(max(x, 0.0)), res - 1u), u = min(uint(max(y, 0.0)), res - 1u);
    uint cell = first + 2u * (s + res * u);
    vkmd_bonded_term c0 = terms[cell], c1 = terms[cell + 1u];
    float c[16];
    for (int k = 0; k < 4; ++k) {
        c[k] = uintBitsToFloat(c0.atoms[k]);
        c[4 + k] = c0.params[k];
        c[8 + k] = uintBitsToFloat(c1.atoms[k]);
        c[12 + k] = c1.params[k];
    }
    float de_da, de_db;
    float e = form_cmap(c, x - float(s), y - float(u), de_da, de_db);
    dihedral_force(t.atoms, b1, b2, b3, de_da * per_rad);
    dihedral_force(uvec4(t.atoms.yzw, m), b2, b3, b4, de_db * per_rad);
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
    float ar = BD_ALPHA * r;
    float erf_lo;
    float erf_hi = form_erf(ar, erf_lo);
    if (!(erf_hi > 1e-6)) // coincident sites: as the reference
        return;
    float ex = exp(-ar * ar);
    erf_lo += FORM_TWO_OVER_SQRT_PI * ex * (BD_ALPHA_LO * r); // d erf/d alpha * alpha_lo
    float inv_r = 1.0 / r;
    float kqq = t.params.x, kqq_lo = t.params.y;
    float e = -kqq * erf_hi * inv_r;
    float e_lo = -(kqq_lo * erf_hi + kqq * erf_lo) * inv_r;
    if (ENERGY)
        e_sum = fixed_add(e_sum, fixed_add(to_fixed(e), to_fixed(e_lo)));
    float f_over_r = (e + kqq * BD_ALPHA * FORM_TWO_OVER_SQRT_PI * ex) * inv_r * inv_r;
    vec3 f = f_over_r * d;
    add_force(t.atoms.x, -f);
    add_force(t.atoms.y, f);
}

// Positional restraint E = k |d|^2 (or flat bottom), d = r - r0 minimum
// image; r0 arrives as float + float residual (atoms.yzw bits) and r as the
// exact coarse + fine pair, so d keeps the positions' precision. k = 0 (a
// taper's last stage) costs one load and one test.
float restraint(vkmd_bonded_term t)
{
    float k = t.params.w;
    if (k == 0.0)
        return 0.0;
    vec3 coarse, fine;
    pos_pair(load_pos(t.atoms.x), coarse, fine);
    vec3 d = bonded_min_image((coarse - t.params.xyz) + (fine - uintBitsToFloat(t.atoms.yzw)));
    float g;
    float e = form_restraint(dot(d, d), k, BD_RESTRAINT_FB, g);
    if (g != 0.0)
        add_force(t.atoms.x, -g * d);
    return e;
}

const uint BD_SLOTS = 11;

// The energy slot of sum s of bonded_terms.
uint bonded_slot(uint s)
{
    return s < 7u ? VKMD_ENERGY_BOND + s
                  : (s == 7u ? VKMD_ENERGY_RESTRAINT : VKMD_ENERGY_UREY_BRADLEY + (s - 8u));
}

// One grid-stride loop per kind of term, each over its own range: a loop
// body holds one kind only (on lavapipe a kind's code in every iteration,
// even skipped, costs registers and time), and a kind with no terms costs
// one test. Thread g of `stride`; energies into e (ENERGY).
void bonded_terms(uint g, uint stride, inout vkmd_fixed e[BD_SLOTS])
{
    uint angles_end = BD_BONDS + BD_ANGLES;
    uint dihedrals_end = angles_end + BD_DIHEDRALS;
    uint pairs_end = dihedrals_end + BD_PAIRS14;
    for (uint id = g; id < BD_BONDS; id += stride) {
        vkmd_bonded_term t = terms[id];
        float en = bond(t);
        if (ENERGY) {
            if (t.params.z != 0.0)
                e[8] = fixed_add(e[8], to_fixed(en));
            else
                e[0] = fixed_add(e[0], to_fixed(en));
        }
    }
    for (uint id = BD_BONDS + g; id < angles_end; id += stride) {
        float en = angle(terms[id]);
        if (ENERGY)
            e[1] = fixed_add(e[1], to_fixed(en));
    }
    for (uint id = angles_end + g; id < dihedrals_end; id += stride) {
        vkmd_bonded_term t = terms[id];
        float en = dihedral(t);
        if (ENERGY) {
            if (t.params.w == 2.0)
                e[9] = fixed_add(e[9], to_fixed(en));
            else if (t.params.w != 0.0)
                e[3] = fixed_add(e[3], to_fixed(en));
            else
                e[2] = fixed_add(e[2], to_fixed(en));
        }
    }
    for (uint id = dihedrals_end + g; id < pairs_end; id += stride)
        pair14(terms[id], e[4], e[5]);
    uint excl_end = pairs_end + BD_EXCL;
    for (uint id = pairs_end + g; id < excl_end; id += stride)
        excluded(terms[id], e[6]);
    uint cmap_end = excl_end + BD_CMAPS;
    for (uint id = excl_end + g; id < cmap_end; id += stride) {
        float en = cmap(terms[id]);
        if (ENERGY)
            e[10] = fixed_add(e[10], to_fixed(en));
    }
    for (uint id = cmap_end + g; id < cmap_end + BD_RESTRAINTS; id += stride) {
        float en = restraint(terms[id]);
        if (ENERGY)
            e[7] = fixed_add(e[7], to_fixed(en));
    }
}

#endif
