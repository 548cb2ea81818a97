// UFF surface, grid mode: energy and force of every batch atom from the
// tricubic B-spline of its channel's prefiltered coefficients
// [channel][nz + 2][ny][nx] (plane k stored at k + 1; periodic in x and y).
// Above the top plane the energy is 0; below plane 0 the atom is evaluated
// at plane 0's height and counted in VKMD_UFF_ENERGY_SURFACE_BELOW (an
// integer count, not fixed point). One thread per atom, grid-stride loop.
// Mirrors vkmd_uff_surface_grid_eval.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/uff_surface.glsl"

void bspline(float f, out vec4 w, out vec4 dw)
{
    float g = 1.0 - f;
    w = vec4(g * g * g, 3.0 * f * f * f - 6.0 * f * f + 4.0, -3.0 * f * f * f + 3.0 * f * f + 3.0 * f + 1.0,
             f * f * f) / 6.0;
    dw = vec4(-g * g, 3.0 * f * f - 4.0 * f, -3.0 * f * f + 2.0 * f + 1.0, f * f) * 0.5;
}

void main()
{
    uint n = pc.counts.x;
    uint nx = pc.grid_n.x, ny = pc.grid_n.y, nz = pc.grid_n.z;
    uint plane = nx * ny;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < n; a += stride) {
        uvec4 info = atoms[a];
        vec3 p = pos[a].xyz;
        float tz = (p.z - pc.zgrid.x) / pc.zgrid.y;
        if (tz >= float(nz - 1u))
            continue;
        uint ebase = info.y * VKMD_UFF_ENERGY_STRIDE;
        if (tz < 0.0) {
            tz = 0.0;
            energy_add(ebase + VKMD_UFF_ENERGY_SURFACE_BELOW, fixed_one()); /* a count */
        }
        vec2 t = surface_frac(p.xy) * vec2(float(nx), float(ny));
        ivec2 i0 = ivec2(floor(t));
        vec2 f = t - vec2(i0);
        i0 = ivec2(uvec2(i0) % uvec2(nx, ny));
        int iz = min(int(floor(tz)), int(nz) - 2);
        float fz = tz - float(iz);
        vec4 wx, dwx, wy, dwy, wz, dwz;
        bspline(f.x, wx, dwx);
        bspline(f.y, wy, dwy);
        bspline(fz, wz, dwz);
        uint base = info.x * plane * (nz + 2u);
        float e = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
        for (int r = 0; r < 4; ++r) {
            uint pl = base + uint(iz + r) * plane;
            for (int q = 0; q < 4; ++q) {
                uint j = uint(i0.y - 1 + q + int(ny)) % ny;
                uint row = pl + j * nx;
                float sx = 0.0, sdx = 0.0;
                for (int o = 0; o < 4; ++o) {
                    float v = grid[row + uint(i0.x - 1 + o + int(nx)) % nx];
                    sx += wx[o] * v;
                    sdx += dwx[o] * v;
                }
                e += wz[r] * wy[q] * sx;
                gx += wz[r] * wy[q] * sdx;
                gy += wz[r] * dwy[q] * sx;
                gz += dwz[r] * wy[q] * sx;
            }
        }
        float du0 = gx * float(nx), du1 = gy * float(ny);
        // gradient through u = inv (x, y): dE/dx = du0 i00 + du1 i10, dE/dy = du0 i01 + du1 i11
        vec3 grad = vec3(du0 * pc.inv_cell.x + du1 * pc.inv_cell.z, du0 * pc.inv_cell.y + du1 * pc.inv_cell.w,
                         gz / pc.zgrid.y);
        force_add(VKMD_FORCE_INDEX(0, a, n), to_fixed(-grad.x));
        force_add(VKMD_FORCE_INDEX(1, a, n), to_fixed(-grad.y));
        force_add(VKMD_FORCE_INDEX(2, a, n), to_fixed(-grad.z));
        vkmd_fixed q = to_fixed(e);
        if (!fixed_is_zero(q))
            energy_add(ebase + VKMD_UFF_ENERGY_SURFACE, q);
    }
}
