// UFF surface, direct mode: every batch atom against every image of the
// substrate atoms within the cutoff (list built on the host: the images that
// can reach a point of the cell), after wrapping the atom into the cell.
// Adds the force to the batch's fixed-point force planes and the energy to
// the replica's VKMD_UFF_ENERGY_SURFACE slot. One thread per atom,
// grid-stride loop. The oracle is ref_uff_surface_direct.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/uff_surface.glsl"

void main()
{
    uint n = pc.counts.x;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < n; a += stride) {
        uvec4 info = atoms[a];
        vec3 p = pos[a].xyz;
        vec2 u = surface_frac(p.xy);
        vec3 w = vec3(u.x * pc.cell.xy + u.y * pc.cell.zw, p.z);
        vec3 grad;
        float e = surface_sum(info.x, w, grad);
        force_add(VKMD_FORCE_INDEX(0, a, n), to_fixed(-grad.x));
        force_add(VKMD_FORCE_INDEX(1, a, n), to_fixed(-grad.y));
        force_add(VKMD_FORCE_INDEX(2, a, n), to_fixed(-grad.z));
        vkmd_fixed q = to_fixed(e);
        if (!fixed_is_zero(q))
            energy_add(info.y * VKMD_UFF_ENERGY_STRIDE + VKMD_UFF_ENERGY_SURFACE, q);
    }
}
