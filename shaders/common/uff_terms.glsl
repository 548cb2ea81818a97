// The UFF terms of one replica (bond, angle, torsion, inversion, van der
// Waals + Coulomb pair), shared by the force pass (uff.comp) and the
// whole-relaxation kernel (uff_relax_replica.comp): geometry and Cartesian
// gradients here, functional forms in common/uff_forms.glsl, as
// engine/ref/ref_uff_bonded.c and ref_uff_nonbonded.c do in double.
//
// The includer defines, before including this file (and after
// common/uff_forms.glsl and common/vkmd_math.glsl):
//   vec3 atom_pos(uint a)            position of the replica's atom a, A;
//   void add_force(uint a, vec3 f)   adds force f (kcal/mol/A) to atom a;
//   void add_energy(uint slot, float e)  adds e kcal/mol to VKMD_UFF_ENERGY_*;
//   void debug_write(vkmd_uff_term t, uint kind, uint index, vec4 geom,
//                    vec4 en, vec3 f0, vec3 f1, vec3 f2, vec3 f3)
//                                    per-interaction details (may do nothing);
// and a storage buffer array `terms` of vkmd_uff_term (layout_uff.h).
#ifndef VKMD_UFF_TERMS_GLSL
#define VKMD_UFF_TERMS_GLSL

// Cosine and sine of the angle between a and b, and the gradient of the
// cosine (dc/da, dc/db), as ref_uff_bonded.c's cos_between: a zero-length
// vector gives c = 1, s = 0 and no gradient.
float cos_between(vec3 a, vec3 b, out float s, out vec3 ga, out vec3 gb)
{
    float la2 = dot(a, a), lb2 = dot(b, b);
    if (!(la2 > 0.0) || !(lb2 > 0.0)) {
        s = 0.0;
        ga = vec3(0.0);
        gb = vec3(0.0);
        return 1.0;
    }
    float inv_a = inversesqrt(la2), inv_b = inversesqrt(lb2);
    vec3 ua = a * inv_a, ub = b * inv_b;
    float c = dot(ua, ub);
    s = length(cross(ua, ub));
    ga = (ub - c * ua) * inv_a;
    gb = (ua - c * ub) * inv_b;
    return c;
}

void bond(vkmd_uff_term t, uint index)
{
    vec3 d; // r_i - r_j
    float r;
    float dr = uff_bond_stretch(atom_pos(t.atoms.x), atom_pos(t.atoms.y), t.params.y, t.params.z,
                                t.params.w, d, r);
    float de_dr;
    float e = uff_form_bond(dr, t.params.x, de_dr);
    vec3 f = vec3(0.0);
    if (r > 0.0) {
        f = (de_dr / r) * d; // force on j; i gets the opposite
        add_force(t.atoms.x, -f);
        add_force(t.atoms.y, f);
    }
    add_energy(VKMD_UFF_ENERGY_BOND, e);
    debug_write(t, VKMD_UFF_KIND_BOND, index, vec4(r, dr, 0.0, 0.0),
                vec4(e, de_dr, 0.0, 0.0), -f, f, vec3(0.0), vec3(0.0));
}

// Angle i-j-k at the given positions: E, the forces on i, j, k; c, s and
// dE/dc for the debug records.
float angle_force(vkmd_uff_term t, vec3 xi, vec3 xj, vec3 xk, out vec3 fi, out vec3 fj,
                  out vec3 fk, out float c, out float s, out float de_dc)
{
    vec3 u_hi, u_lo, v_hi, v_lo; // xi - xj, xk - xj exactly
    uff_df_sub3(xj, xi, u_hi, u_lo);
    uff_df_sub3(xj, xk, v_hi, v_lo);
    vec3 gi, gk;
    c = cos_between(u_hi, v_hi, s, gi, gk);
    int order = int(t.aux.w);
    vec2 c_min = order == 0 ? t.params.zw : vec2(uff_angle_minimum(order, c), 0.0);
    float d = uff_cos_deviation(u_hi, u_lo, v_hi, v_lo, c_min);
    float e = uff_form_angle(c, d, t.params.x, order, t.params.y, t.aux.x, de_dc);
    fi = -de_dc * gi;
    fk = -de_dc * gk;
    fj = -(fi + fk);
    return e;
}

void angle(vkmd_uff_term t, uint index)
{
    vec3 fi, fj, fk;
    float c, s, de_dc;
    float e = angle_force(t, atom_pos(t.atoms.x), atom_pos(t.atoms.y), atom_pos(t.atoms.z), fi,
                          fj, fk, c, s, de_dc);
    add_force(t.atoms.x, fi);
    add_force(t.atoms.y, fj);
    add_force(t.atoms.z, fk);
    add_energy(VKMD_UFF_ENERGY_ANGLE, e);
    debug_write(t, VKMD_UFF_KIND_ANGLE, index, vec4(c, s, vkmd_atan2(s, c), 0.0),
                vec4(e, de_dc, 0.0, 0.0), fi, fj, fk, vec3(0.0));
}

// Torsion i-j-k-l at the given positions: E, the forces on i, j, k, l; c, s
// and dE/dc for the debug records.
float torsion_force(vkmd_uff_term t, vec3 xi, vec3 xj, vec3 xk, vec3 xl, out vec3 fi,
                    out vec3 fj, out vec3 fk, out vec3 fl, out float c, out float s,
                    out float de_dc)
{
    vec3 r1 = xi - xj, r2 = xk - xj, r3 = xj - xk, r4 = xl - xk;
    vec3 g1, g2;
    c = cos_between(cross(r1, r2), cross(r3, r4), s, g1, g2);
    float e = uff_form_torsion(c, s, t.params.x, int(t.aux.w), t.params.y, de_dc);
    // gradient of c through t1 = r1 x r2 and t2 = r3 x r4 (as the reference)
    vec3 a = cross(r2, g1), b = cross(g1, r1), p = cross(r4, g2), q = cross(g2, r3);
    fi = -de_dc * a;
    fj = -de_dc * (p - a - b);
    fk = -de_dc * (b - p - q);
    fl = -de_dc * q;
    return e;
}

void torsion(vkmd_uff_term t, uint index)
{
    vec3 fi, fj, fk, fl;
    float c, s, de_dc;
    float e = torsion_force(t, atom_pos(t.atoms.x), atom_pos(t.atoms.y), atom_pos(t.atoms.z),
                            atom_pos(t.atoms.w), fi, fj, fk, fl, c, s, de_dc);
    add_force(t.atoms.x, fi);
    add_force(t.atoms.y, fj);
    add_force(t.atoms.z, fk);
    add_force(t.atoms.w, fl);
    add_energy(VKMD_UFF_ENERGY_TORSION, e);
    debug_write(t, VKMD_UFF_KIND_TORSION, index, vec4(c, s, vkmd_atan2(s, c), 0.0),
                vec4(e, de_dc, 0.0, 0.0), fi, fj, fk, fl);
}

void inversion(vkmd_uff_term t, uint index)
{
    vec3 xj = atom_pos(t.atoms.y);
    vec3 u = atom_pos(t.atoms.x) - xj, v = atom_pos(t.atoms.z) - xj, w = atom_pos(t.atoms.w) - xj;
    float s;
    vec3 gn, gw;
    float c = cos_between(cross(u, v), w, s, gn, gw);
    float de_dc;
    float e = uff_form_inversion(c, s, t.params.x, int(t.aux.w), t.params.y, t.params.z,
                                 t.params.w, de_dc);
    vec3 fi = -de_dc * cross(v, gn);
    vec3 fk = -de_dc * cross(gn, u);
    vec3 fl = -de_dc * gw;
    vec3 fj = -(fi + fk + fl);
    add_force(t.atoms.x, fi);
    add_force(t.atoms.y, fj);
    add_force(t.atoms.z, fk);
    add_force(t.atoms.w, fl);
    add_energy(VKMD_UFF_ENERGY_INVERSION, e);
    debug_write(t, VKMD_UFF_KIND_INVERSION, index, vec4(c, s, vkmd_atan2(s, c), 0.0),
                vec4(e, de_dc, 0.0, 0.0), fi, fj, fk, fl);
}

// The pair's van der Waals (within the threshold) and Coulomb (no cutoff,
// when qq != 0) at d = r_i - r_j, r2 = |d|^2 > 0: the force on i (j gets
// the opposite), the energies and -(dE/dr)/r of each; `applies` is false
// when neither term acts (the force is then zero and need not be added).
vec3 pair_force(vkmd_uff_term t, vec3 d, float r2, out float e_vdw, out float f_vdw,
                out float e_coul, out float f_coul, out bool within, out bool applies)
{
    float inv_r2 = 1.0 / r2;
    e_vdw = 0.0;
    f_vdw = 0.0;
    e_coul = 0.0;
    f_coul = 0.0;
    within = r2 <= t.params.w;
    if (within)
        e_vdw = uff_form_vdw(inv_r2, t.params.x, t.params.y, f_vdw);
    if (t.params.z != 0.0)
        e_coul = uff_form_coulomb(inversesqrt(r2), t.params.z, f_coul);
    applies = within || t.params.z != 0.0;
    return (f_vdw + f_coul) * d;
}

// van der Waals within the threshold, and Coulomb (no cutoff) when qq != 0.
// Coincident atoms add nothing (the reference reports them as non-finite).
void pair(vkmd_uff_term t, uint index)
{
    vec3 d = atom_pos(t.atoms.x) - atom_pos(t.atoms.y); // r_i - r_j
    float r2 = dot(d, d);
    if (!(r2 > 0.0))
        return;
    float e_vdw, f_vdw, e_coul, f_coul;
    bool within, applies;
    vec3 f = pair_force(t, d, r2, e_vdw, f_vdw, e_coul, f_coul, within, applies);
    if (applies) {
        add_force(t.atoms.x, f);
        add_force(t.atoms.y, -f);
    }
    add_energy(VKMD_UFF_ENERGY_VDW, e_vdw);
    add_energy(VKMD_UFF_ENERGY_COULOMB, e_coul);
    debug_write(t, VKMD_UFF_KIND_PAIR, index, vec4(sqrt(r2), within ? 1.0 : 0.0, 0.0, 0.0),
                vec4(e_vdw, f_vdw, e_coul, f_coul), f, -f, vec3(0.0), vec3(0.0));
}

// Term `term` of the includer's `terms` table, of kind `kind`; index is its
// index within its kind (debug records).
void term_of_kind(uint kind, uint term, uint index)
{
    vkmd_uff_term t = terms[term];
    if (kind == VKMD_UFF_KIND_BOND)
        bond(t, index);
    else if (kind == VKMD_UFF_KIND_ANGLE)
        angle(t, index);
    else if (kind == VKMD_UFF_KIND_TORSION)
        torsion(t, index);
    else if (kind == VKMD_UFF_KIND_INVERSION)
        inversion(t, index);
    else
        pair(t, index);
}

#endif
