// Shared by the UFF surface shaders (uff_surface_direct, _grid_build,
// _grid_eval): bindings, push constants, the pair form and the sum over the
// substrate's images. Mirrors engine/system/uff_surface.c (vkmd_uff_surface_pair,
// vkmd_uff_surface_wrap) and engine/ref/ref_uff_surface.c in float.
#ifndef VKMD_UFF_SURFACE_GLSL
#define VKMD_UFF_SURFACE_GLSL

#include "common/fixed_point.glsl"
#include "common/vkmd_layout.h"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_UFF_SURFACE_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_UFF_SURFACE_FORM) const uint FORM = VKMD_UFF_SURFACE_FORM_LJ;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_UFF_SURFACE_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_UFF_SURFACE_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_UFF_SURFACE_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_UFF_SURFACE_BINDING_ATOMS) readonly buffer Atoms { uvec4 atoms[]; };
layout(std430, binding = VKMD_UFF_SURFACE_BINDING_IMAGES) readonly buffer Images { vec4 images[]; };
layout(std430, binding = VKMD_UFF_SURFACE_BINDING_PAIRS) readonly buffer Pairs { vec4 pairs[]; };
layout(std430, binding = VKMD_UFF_SURFACE_BINDING_GRID) buffer Grid { float grid[]; };
layout(push_constant) uniform Push { VKMD_UFF_SURFACE_PUSH_FIELDS } pc;

// Fixed-point adds (common/fixed_point.glsl: int64 atomics, or the "+words"
// build's exact 32-bit word adds; same bits).
VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

// The integer 1 (not 2^-32: counts share the energy rows).
vkmd_fixed fixed_one()
{
#ifdef VKMD_FIXED_WORDS
    return uvec2(1u, 0u);
#else
    return 1l;
#endif
}

// Energy (shifted to 0 at the cutoff) of one pair at squared distance r2 < cutoff^2,
// and -(dE/dr)/r in f_over_r; p = (D, r0, alpha, E(cutoff)).
float surface_pair(vec4 p, float r2, out float f_over_r)
{
    if (FORM == VKMD_UFF_SURFACE_FORM_MORSE) {
        float r = sqrt(r2);
        float e = exp(-p.z * (r - p.y));
        f_over_r = 2.0 * p.z * p.x * e * (e - 1.0) / r;
        return p.x * (e * e - 2.0 * e) - p.w;
    }
    float s = p.y * p.y / r2;
    float s3 = s * s * s;
    float s6 = s3 * s3;
    f_over_r = 12.0 * p.x * (s6 - s3) / r2;
    return p.x * (s6 - 2.0 * s3) - p.w;
}

// Fractional coordinates of (x, y) wrapped into [0, 1).
vec2 surface_frac(vec2 xy)
{
    vec2 u = vec2(dot(pc.inv_cell.xy, xy), dot(pc.inv_cell.zw, xy));
    u -= floor(u);
    return mix(u, vec2(0.0), greaterThanEqual(u, vec2(1.0)));
}

// Potential of channel c at p (x, y already inside the cell) and its gradient.
float surface_sum(uint c, vec3 p, out vec3 grad)
{
    float e = 0.0;
    grad = vec3(0.0);
    uint kinds = pc.counts.z;
    for (uint i = 0u; i < pc.counts.y; ++i) {
        vec4 img = images[i];
        vec3 d = p - img.xyz;
        float r2 = dot(d, d);
        if (r2 < pc.zgrid.z) {
            float fr;
            e += surface_pair(pairs[c * kinds + uint(img.w)], r2, fr);
            grad -= fr * d;
        }
    }
    return e;
}

#endif
