// Every bonded term (bonds, angles, proper and improper dihedrals) in one
// dispatch: the global id ranges over one term array, bonds first, then
// angles, then dihedrals (layout in common/vkmd_layout.h). Grid-stride loop,
// so any number of terms fits the device's workgroup-count limit.
//
// Mirrors engine/ref/ref_bonded.c line by line in float: minimum image with
// floor(d / L + 0.5); angles from atan2(|a x b|, a . b) and forces from cross
// products (no 1/sin); dihedrals with the IUPAC sign and the Bekker force
// split. Functional forms come from common/forms.glsl; atan2 from
// common/vkmd_math.glsl (the built-in may be 4096 ulp off, see there).
//
// Determinism: forces are added with int64 atomics in fixed point (2^32 per
// kcal/mol/A). Integer addition is associative, so the sum is the same for any
// thread order. Energies too: each term's energy is converted to fixed point,
// summed per workgroup by a shared-memory tree (exact integer sums) and added
// once per workgroup and slot with an int64 atomic. A float reduction would
// round differently for each order; this one cannot.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#include "common/vkmd_layout.h"
#include "common/forms.glsl"
#include "common/vkmd_math.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_BONDED_WORKGROUP_SIZE;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_BONDED_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_BONDED_BINDING_FORCES) buffer Forces { int64_t force[]; };
layout(std430, binding = VKMD_BONDED_BINDING_ENERGIES) buffer Energies { int64_t energy[]; };
layout(std430, binding = VKMD_BONDED_BINDING_TERMS) readonly buffer Terms { vkmd_bonded_term terms[]; };
layout(push_constant) uniform Push { VKMD_BONDED_PUSH_FIELDS } pc;

// The four slots this pass owns, VKMD_ENERGY_BOND .. VKMD_ENERGY_IMPROPER.
const uint SLOTS = 4;
shared int64_t red[SLOTS][WORKGROUP_SIZE];

int64_t to_fixed(float v)
{
    return int64_t(v * float(VKMD_FIXED_SCALE));
}

// b - a under the minimum-image convention when the box is periodic.
vec3 delta(vec3 a, vec3 b)
{
    vec3 d = b - a;
    if (pc.box.w != 0.0)
        d -= pc.box.xyz * floor(d / pc.box.xyz + 0.5);
    return d;
}

void add_force(uint atom, vec3 f)
{
    uint n = pc.atom_count;
    atomicAdd(force[VKMD_FORCE_INDEX(0, atom, n)], to_fixed(f.x));
    atomicAdd(force[VKMD_FORCE_INDEX(1, atom, n)], to_fixed(f.y));
    atomicAdd(force[VKMD_FORCE_INDEX(2, atom, n)], to_fixed(f.z));
}

float bond(vkmd_bonded_term t)
{
    vec3 d = delta(pos[t.atoms.x].xyz, pos[t.atoms.y].xyz); // r_j - r_i
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
    vec3 xj = pos[t.atoms.y].xyz;
    vec3 a = delta(xj, pos[t.atoms.x].xyz); // apex -> i
    vec3 b = delta(xj, pos[t.atoms.z].xyz); // apex -> k
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
    vec3 xj = pos[t.atoms.y].xyz, xk = pos[t.atoms.z].xyz;
    vec3 b1 = delta(pos[t.atoms.x].xyz, xj);
    vec3 b2 = delta(xj, xk);
    vec3 b3 = delta(xk, pos[t.atoms.w].xyz);
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

void main()
{
    uint angles_end = pc.bond_count + pc.angle_count;
    uint total = angles_end + pc.dihedral_count;
    int64_t e[SLOTS] = int64_t[SLOTS](0l, 0l, 0l, 0l);
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint id = gl_GlobalInvocationID.x; id < total; id += stride) {
        vkmd_bonded_term t = terms[id];
        if (id < pc.bond_count)
            e[0] += to_fixed(bond(t));
        else if (id < angles_end)
            e[1] += to_fixed(angle(t));
        else if (t.params.w != 0.0)
            e[3] += to_fixed(dihedral(t));
        else
            e[2] += to_fixed(dihedral(t));
    }

    uint lid = gl_LocalInvocationID.x;
    for (uint s = 0; s < SLOTS; ++s)
        red[s][lid] = e[s];
    barrier();
    for (uint half_size = WORKGROUP_SIZE / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size)
            for (uint s = 0; s < SLOTS; ++s)
                red[s][lid] += red[s][lid + half_size];
        barrier();
    }
    if (lid == 0)
        for (uint s = 0; s < SLOTS; ++s)
            if (red[s][0] != 0)
                atomicAdd(energy[VKMD_ENERGY_BOND + s], red[s][0]);
}
