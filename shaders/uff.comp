// UFF for many replicas in one dispatch: every term (bond, angle, torsion,
// inversion, van der Waals + Coulomb pair) of every replica. The global id
// runs over items (one term of one replica) grouped in ranges, one per
// (term kind, molecule); inside a range neighbouring ids are the same term
// of different replicas (layout in common/layout_uff.h), so a warp/wave
// shares parameters and branches. Grid-stride loop: any item count fits the
// device's workgroup-count limit.
//
// Mirrors engine/ref/ref_uff_bonded.c and ref_uff_nonbonded.c in float: the
// same cosines and the same Cartesian gradients of the cosine (no 1/sin), no
// periodic box. Forms from common/uff_forms.glsl, which work from the
// minimum-relative quantities (see there); for that every angular term also
// computes the sine from unit vectors (|a x b|), which the reference has no
// need of.
//
// Determinism: forces and energies are int64 fixed point (2^32 per kcal/mol/A
// or kcal/mol) added with int64 atomics, so the sums are the same bits for
// any thread order. Each item adds its energy to its replica's slot directly:
// neighbouring threads belong to different replicas, so these atomics do not
// collide the way one slot per workgroup would. The int64 values and
// atomics are 32-bit word pairs with the same bits in the "+words" build
// (common/fixed_point.glsl), for devices without them.
//
// Debug: with DEBUG_REPLICA != VKMD_UFF_DEBUG_NONE (specialization constant),
// the items of that replica also write their geometry, energy and force
// pieces to the debug buffer; otherwise the compiler removes those writes.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/uff_forms.glsl"
#include "common/vkmd_math.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_UFF_DEBUG_REPLICA) const uint DEBUG_REPLICA = VKMD_UFF_DEBUG_NONE;
layout(constant_id = VKMD_SPEC_UFF_PER_REPLICA) const bool PER_REPLICA = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_UFF_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_UFF_BINDING_TERMS) readonly buffer Terms { vkmd_uff_term terms[]; };
layout(std430, binding = VKMD_UFF_BINDING_RANGES) readonly buffer Ranges { vkmd_uff_range ranges[]; };
layout(std430, binding = VKMD_UFF_BINDING_SLOTS) readonly buffer Slots { uvec4 slots[]; };
layout(std430, binding = VKMD_UFF_BINDING_DEBUG) writeonly buffer Debug { vkmd_uff_debug_record dbg[]; };
layout(push_constant) uniform Push { VKMD_UFF_PUSH_FIELDS } pc;

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

// The item being evaluated: its replica's first atom and energy row, and
// whether its details go to the debug buffer (record index dbg_index).
uint atom_base;
uint energy_base;
bool debugging;
uint dbg_index;

vec3 atom_pos(uint a)
{
    return pos[atom_base + a].xyz;
}

void add_force(uint a, vec3 f)
{
    uint n = pc.atom_count;
    uint atom = atom_base + a;
    if (PER_REPLICA) { // this invocation owns the replica's atoms
        for (uint c = 0u; c < 3u; ++c) {
            uint i = VKMD_FORCE_INDEX(c, atom, n);
            force[i] = fixed_add(force[i], to_fixed(f[c]));
        }
        return;
    }
    force_add(VKMD_FORCE_INDEX(0, atom, n), to_fixed(f.x));
    force_add(VKMD_FORCE_INDEX(1, atom, n), to_fixed(f.y));
    force_add(VKMD_FORCE_INDEX(2, atom, n), to_fixed(f.z));
}

void add_energy(uint slot, float e)
{
    vkmd_fixed q = to_fixed(e);
    if (fixed_is_zero(q))
        return;
    if (PER_REPLICA)
        energy[energy_base + slot] = fixed_add(energy[energy_base + slot], q);
    else
        energy_add(energy_base + slot, q);
}

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

void debug_write(vkmd_uff_term t, uint kind, uint index, vec4 geom, vec4 en, vec3 f0, vec3 f1,
                 vec3 f2, vec3 f3)
{
    if (DEBUG_REPLICA == VKMD_UFF_DEBUG_NONE || !debugging)
        return;
    vkmd_uff_debug_record r;
    r.atoms = t.atoms;
    r.info = uvec4(kind, index, 1u, uint(t.aux.w));
    r.geom = geom;
    r.energy = en;
    r.force[0] = vec4(f0, 0.0);
    r.force[1] = vec4(f1, 0.0);
    r.force[2] = vec4(f2, 0.0);
    r.force[3] = vec4(f3, 0.0);
    dbg[dbg_index] = r;
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

void angle(vkmd_uff_term t, uint index)
{
    vec3 xj = atom_pos(t.atoms.y);
    vec3 u_hi, u_lo, v_hi, v_lo; // xi - xj, xk - xj exactly
    uff_df_sub3(xj, atom_pos(t.atoms.x), u_hi, u_lo);
    uff_df_sub3(xj, atom_pos(t.atoms.z), v_hi, v_lo);
    float s;
    vec3 gi, gk;
    float c = cos_between(u_hi, v_hi, s, gi, gk);
    int order = int(t.aux.w);
    vec2 c_min = order == 0 ? t.params.zw : vec2(uff_angle_minimum(order, c), 0.0);
    float d = uff_cos_deviation(u_hi, u_lo, v_hi, v_lo, c_min);
    float de_dc;
    float e = uff_form_angle(c, d, t.params.x, order, t.params.y, t.aux.x, de_dc);
    vec3 fi = -de_dc * gi, fk = -de_dc * gk, fj = -(fi + fk);
    add_force(t.atoms.x, fi);
    add_force(t.atoms.y, fj);
    add_force(t.atoms.z, fk);
    add_energy(VKMD_UFF_ENERGY_ANGLE, e);
    debug_write(t, VKMD_UFF_KIND_ANGLE, index, vec4(c, s, vkmd_atan2(s, c), 0.0),
                vec4(e, de_dc, 0.0, 0.0), fi, fj, fk, vec3(0.0));
}

void torsion(vkmd_uff_term t, uint index)
{
    vec3 xi = atom_pos(t.atoms.x), xj = atom_pos(t.atoms.y);
    vec3 xk = atom_pos(t.atoms.z), xl = atom_pos(t.atoms.w);
    vec3 r1 = xi - xj, r2 = xk - xj, r3 = xj - xk, r4 = xl - xk;
    float s;
    vec3 g1, g2;
    float c = cos_between(cross(r1, r2), cross(r3, r4), s, g1, g2);
    float de_dc;
    float e = uff_form_torsion(c, s, t.params.x, int(t.aux.w), t.params.y, de_dc);
    // gradient of c through t1 = r1 x r2 and t2 = r3 x r4 (as the reference)
    vec3 a = cross(r2, g1), b = cross(g1, r1), p = cross(r4, g2), q = cross(g2, r3);
    vec3 fi = -de_dc * a;
    vec3 fj = -de_dc * (p - a - b);
    vec3 fk = -de_dc * (b - p - q);
    vec3 fl = -de_dc * q;
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

// van der Waals within the threshold, and Coulomb (no cutoff) when qq != 0.
// Coincident atoms add nothing (the reference reports them as non-finite).
void pair(vkmd_uff_term t, uint index)
{
    vec3 d = atom_pos(t.atoms.x) - atom_pos(t.atoms.y); // r_i - r_j
    float r2 = dot(d, d);
    if (!(r2 > 0.0))
        return;
    float inv_r2 = 1.0 / r2;
    float e_vdw = 0.0, f_vdw = 0.0, e_coul = 0.0, f_coul = 0.0;
    bool within = r2 <= t.params.w;
    if (within)
        e_vdw = uff_form_vdw(inv_r2, t.params.x, t.params.y, f_vdw);
    if (t.params.z != 0.0)
        e_coul = uff_form_coulomb(inversesqrt(r2), t.params.z, f_coul);
    vec3 f = (f_vdw + f_coul) * d; // force on i; j gets the opposite
    if (within || t.params.z != 0.0) {
        add_force(t.atoms.x, f);
        add_force(t.atoms.y, -f);
    }
    add_energy(VKMD_UFF_ENERGY_VDW, e_vdw);
    add_energy(VKMD_UFF_ENERGY_COULOMB, e_coul);
    debug_write(t, VKMD_UFF_KIND_PAIR, index, vec4(sqrt(r2), within ? 1.0 : 0.0, 0.0, 0.0),
                vec4(e_vdw, f_vdw, e_coul, f_coul), f, -f, vec3(0.0), vec3(0.0));
}

// The range holding item `id` (ranges are sorted by item_start; the first
// starts at 0).
uint find_range(uint id)
{
    uint lo = 0, hi = pc.range_count - 1;
    while (lo < hi) {
        uint mid = (lo + hi + 1) / 2;
        if (ranges[mid].a.x <= id)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

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

// PER_REPLICA: replica slots r, r + stride, ...: every term of the slot's
// molecule in kind order (the table after the ranges, layout_uff.h).
void replicas(uint stride)
{
    for (uint r = gl_GlobalInvocationID.x; r < pc.replica_count; r += stride) {
        uvec4 slot = slots[r];
        atom_base = slot.y;
        energy_base = slot.x * VKMD_UFF_ENERGY_STRIDE;
        debugging = DEBUG_REPLICA != VKMD_UFF_DEBUG_NONE && slot.x == DEBUG_REPLICA;
        vkmd_uff_range mt = ranges[pc.range_count + slot.w];
        uint start[VKMD_UFF_KIND_COUNT + 1] =
            uint[VKMD_UFF_KIND_COUNT + 1](mt.a.x, mt.a.y, mt.a.z, mt.a.w, mt.b.x, mt.b.y);
        for (uint k = 0u; k < VKMD_UFF_KIND_COUNT; ++k)
            for (uint term = start[k]; term < start[k + 1u]; ++term) {
                dbg_index = term - start[0];
                term_of_kind(k, term, term - start[k]);
            }
    }
}

void main()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    if (PER_REPLICA) {
        replicas(stride);
        return;
    }
    for (uint id = gl_GlobalInvocationID.x; id < pc.item_count; id += stride) {
        vkmd_uff_range rg = ranges[find_range(id)];
        uint local_id = id - rg.a.x;
        uint n = rg.a.w;
        uint term = rg.a.y + local_id / n;
        uvec4 slot = slots[rg.a.z + local_id % n];
        atom_base = slot.y;
        energy_base = slot.x * VKMD_UFF_ENERGY_STRIDE;
        debugging = DEBUG_REPLICA != VKMD_UFF_DEBUG_NONE && slot.x == DEBUG_REPLICA;
        dbg_index = term - rg.b.y;
        term_of_kind(rg.b.x, term, term - rg.a.y); // index within its kind
    }
}
