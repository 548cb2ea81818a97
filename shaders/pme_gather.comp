// PME step 4 (after VkFFT's inverse C2R, unnormalised as OpenMM's and
// ref_pme.c's): interpolates the convolved grid phi back onto the atoms,
//   F = -q (K0/L0 sum dMx My Mz phi, K1/L1 sum Mx dMy Mz phi, K2/L2 sum Mx My dMz phi),
// over the same ORDER^3 points pme_spread.comp used (the B-splines are
// recomputed from the same positions, so they are the same bits). One thread
// per atom, grid-stride loop; each thread sums in a fixed order and adds its
// three components into the shared force accumulator with 64-bit atomics
// (other passes add to the same atoms): int64 or, in the "+words" build,
// pairs of 32-bit words with the same bits (common/fixed_point.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_PME_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_PME_ORDER) const int ORDER = 5;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;
#include "common/pme_spline.glsl"

layout(std430, binding = VKMD_PME_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_PME_BINDING_CHARGES) readonly buffer Charges { float charge[]; };
layout(std430, binding = VKMD_PME_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_PME_BINDING_FFT_GRID) readonly buffer FftGrid { float grid[]; };
layout(std430, binding = VKMD_PME_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(push_constant) uniform Push { VKMD_PME_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)

void main()
{
    uint row_len = 2 * pc.grid.w; // padded floats per real row
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < pc.atom_count; a += stride) {
        float q = charge[a];
        if (q == 0.0)
            continue;
        vec3 x, fine;
        pos_pair(load_pos(a), x, fine);
        uint i0x, i0y, i0z;
        float wx, wy, wz;
        float tx[VKMD_PME_MAX_ORDER], ty[VKMD_PME_MAX_ORDER], tz[VKMD_PME_MAX_ORDER];
        float dx[VKMD_PME_MAX_ORDER], dy[VKMD_PME_MAX_ORDER], dz[VKMD_PME_MAX_ORDER];
        pme_grid_coord(x.x, fine.x, pc.box.x, pc.grid.x, i0x, wx);
        pme_grid_coord(x.y, fine.y, pc.box.y, pc.grid.y, i0y, wy);
        pme_grid_coord(x.z, fine.z, pc.box.z, pc.grid.z, i0z, wz);
        pme_spline(wx, tx, dx);
        pme_spline(wy, ty, dy);
        pme_spline(wz, tz, dz);
        vec3 f = vec3(0.0);
        for (int ix = 0; ix < ORDER; ++ix) {
            uint gx = pme_wrap(i0x, ix, pc.grid.x);
            for (int iy = 0; iy < ORDER; ++iy) {
                uint gy = pme_wrap(i0y, iy, pc.grid.y);
                uint row = (gx * pc.grid.y + gy) * row_len;
                float s = 0.0, sd = 0.0; // sum_z Mz phi, sum_z dMz phi
                for (int iz = 0; iz < ORDER; ++iz) {
                    float phi = grid[row + pme_wrap(i0z, iz, pc.grid.z)];
                    s += tz[iz] * phi;
                    sd += dz[iz] * phi;
                }
                f.x += dx[ix] * ty[iy] * s;
                f.y += tx[ix] * dy[iy] * s;
                f.z += tx[ix] * ty[iy] * sd;
            }
        }
        f *= -q * vec3(pc.grid.xyz) / pc.box.xyz;
        uint n = pc.atom_count;
        force_add(VKMD_FORCE_INDEX(0, a, n), to_fixed(f.x));
        force_add(VKMD_FORCE_INDEX(1, a, n), to_fixed(f.y));
        force_add(VKMD_FORCE_INDEX(2, a, n), to_fixed(f.z));
    }
}
