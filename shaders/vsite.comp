// Virtual sites (extra points): layout in common/layout_vsite.h, host side
// engine/forces/pass_vsite.c, CPU oracle engine/ref/ref_vsite.c. One thread
// per site (grid-stride loop); MODE (specialization constant) picks:
//   VKMD_VSITE_MODE_BUILD: the site's position from its parents,
//     x0 + w1 r1 + w2 r2 (AVERAGE3) or x0 + w12 r1 + w13 r2 + wc r1 x r2
//     (OUT_OF_PLANE), r_k = x_k - x0 formed by pos_sub (exact parts in the
//     split modes) and added to x0 by pos_add, so the site is as precise as
//     its parents.
//   VKMD_VSITE_MODE_SPREAD: after every force pass, the site's fixed-point
//     force F goes to its parents: f1 and f2 (the chain rule, ref_vsite.c)
//     rounded to fixed point, f0 = F - f1 - f2 in fixed point, so the three
//     shares add up to F exactly (total force and torque kept); the site's
//     row is zeroed. Parents are never sites (the host checks), so the
//     site's row is read and written by this thread alone; parents shared by
//     two sites (TIP5P) take atomic adds.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/layout_vsite.h"
#include "common/fixed_point.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_VSITE_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_VSITE_MODE) const uint MODE = VKMD_VSITE_MODE_BUILD;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_VSITE_BINDING_POSITIONS) buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_VSITE_BINDING_POSITIONS_X) buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_VSITE_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_VSITE_BINDING_RECORDS) readonly buffer Records { vkmd_vsite_record rec[]; };
layout(push_constant) uniform Push { VKMD_VSITE_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_STORE(store_pos, pos, pos_x)
VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)

void build(vkmd_vsite_record r)
{
    vkmd_pos p0 = load_pos(r.atoms.y);
    vec3 r1 = pos_sub(load_pos(r.atoms.z), p0);
    vec3 r2 = pos_sub(load_pos(r.atoms.w), p0);
    vec3 d;
    if (r.info.x == VKMD_VSITE_KIND_OUT_OF_PLANE)
        d = r.w.x * r1 + r.w.y * r2 + r.w.z * cross(r1, r2);
    else
        d = r.w.y * r1 + r.w.z * r2;
    store_pos(r.atoms.x, pos_add(p0, d));
}

void spread(vkmd_vsite_record r)
{
    const uint n = pc.atom_count;
    vkmd_fixed F[3];
    vec3 f;
    for (uint c = 0u; c < 3u; ++c) {
        F[c] = force[VKMD_FORCE_INDEX(c, r.atoms.x, n)];
        f[c] = fixed_to_float(F[c]) * float(VKMD_FIXED_INV_SCALE);
    }
    vec3 f1, f2;
    if (r.info.x == VKMD_VSITE_KIND_OUT_OF_PLANE) {
        vkmd_pos p0 = load_pos(r.atoms.y);
        vec3 r1 = pos_sub(load_pos(r.atoms.z), p0);
        vec3 r2 = pos_sub(load_pos(r.atoms.w), p0);
        f1 = r.w.x * f + r.w.z * cross(r2, f);
        f2 = r.w.y * f - r.w.z * cross(r1, f);
    } else {
        f1 = r.w.y * f;
        f2 = r.w.z * f;
    }
    for (uint c = 0u; c < 3u; ++c) {
        vkmd_fixed a = to_fixed(f1[c]), b = to_fixed(f2[c]);
        vkmd_fixed rest = fixed_add(F[c], fixed_neg(fixed_add(a, b)));
        force_add(VKMD_FORCE_INDEX(c, r.atoms.y, n), rest);
        force_add(VKMD_FORCE_INDEX(c, r.atoms.z, n), a);
        force_add(VKMD_FORCE_INDEX(c, r.atoms.w, n), b);
        force[VKMD_FORCE_INDEX(c, r.atoms.x, n)] = VKMD_FIXED_ZERO;
    }
}

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < pc.vsite_count;
         i += gl_NumWorkGroups.x * WORKGROUP_SIZE) {
        if (MODE == VKMD_VSITE_MODE_BUILD)
            build(rec[i]);
        else
            spread(rec[i]);
    }
}
