// Smooth-PME work of one atom, shared by pme_spread.comp, pme_gather.comp
// and the fused MD step (step.comp): the spread of its charge onto the
// 64-bit fixed-point charge grid and the interpolation of its force from the
// convolved grid phi, over the same ORDER^3 points (the B-splines are
// recomputed from the same position, so they are the same bits), exactly as
// ref_pme.c. The includer declares ORDER (then includes pme_spline.glsl), the
// grids it uses (qgrid and qgrid_add, the fp32 grid `grid`), defines PME_BOX
// (vec3, A), PME_GRID (uvec4: K0, K1, K2, K2/2 + 1), and picks the parts with
// PME_ATOM_SPREAD, PME_ATOM_GATHER, PME_ATOM_CONVERT. A triclinic cell
// (TRICLINIC, common/box.glsl): PME_BOX is (ax, by, cz), PME_BOX_T (vec3) the
// off-diagonal terms T and PME_SHEAR (vec3) the shear of layout_pme.h;
// positions move into the brick by a lattice translation taken as a float
// pair (box_tri_wrap_pair: exact for the coarse part, so an atom 1,000 A out
// keeps its fine part's bits), are sheared so that x / PME_BOX are the
// fractional coordinates, and the force goes back through the reciprocal
// rows.
#ifndef VKMD_PME_ATOM_GLSL
#define VKMD_PME_ATOM_GLSL

#include "common/box.glsl"

#ifndef PME_BOX_T
#define PME_BOX_T vec3(0.0) // the fused step takes rectangular boxes only
#endif

// Float i of the convolved grid phi (the includer may read it through a
// texel view, as step.comp does).
#ifndef PME_PHI
#define PME_PHI(i) grid[i]
#endif

// (x + s0 y + s1 z, y + s2 z, z): ax, by, cz times the fractional
// coordinates of a triclinic cell.
vec3 pme_shear(vec3 v)
{
    return vec3(v.x + PME_SHEAR.x * v.y + PME_SHEAR.y * v.z, v.y + PME_SHEAR.z * v.z, v.z);
}

#ifdef PME_ATOM_SPREAD
// Adds q Mx My Mz at the atom's ORDER^3 points (x: coarse part, fine: the
// split positions' fine part, 0 in fp32).
void pme_spread_atom(float q, vec3 x, vec3 fine)
{
    uint i0x, i0y, i0z;
    float wx, wy, wz;
    float tx[VKMD_PME_MAX_ORDER], ty[VKMD_PME_MAX_ORDER], tz[VKMD_PME_MAX_ORDER];
    float d[VKMD_PME_MAX_ORDER]; // derivatives: not needed here
    if (TRICLINIC) {
        box_tri_wrap_pair(x, fine, PME_BOX, PME_BOX_T);
        x = pme_shear(x);
        fine = pme_shear(fine);
    }
    pme_grid_coord(x.x, fine.x, PME_BOX.x, PME_GRID.x, i0x, wx);
    pme_grid_coord(x.y, fine.y, PME_BOX.y, PME_GRID.y, i0y, wy);
    pme_grid_coord(x.z, fine.z, PME_BOX.z, PME_GRID.z, i0z, wz);
    pme_spline(wx, tx, d);
    pme_spline(wy, ty, d);
    pme_spline(wz, tz, d);
    for (int ix = 0; ix < ORDER; ++ix) {
        uint gx = pme_wrap(i0x, ix, PME_GRID.x);
        for (int iy = 0; iy < ORDER; ++iy) {
            uint gy = pme_wrap(i0y, iy, PME_GRID.y);
            float qxy = q * tx[ix] * ty[iy];
            uint row = (gx * PME_GRID.y + gy) * PME_GRID.z;
            for (int iz = 0; iz < ORDER; ++iz) {
                uint gz = pme_wrap(i0z, iz, PME_GRID.z);
                qgrid_add(row + gz, fixed_trunc(qxy * tz[iz] * float(VKMD_PME_GRID_SCALE)));
            }
        }
    }
}

#endif

#ifdef PME_ATOM_GATHER
// The reciprocal-space force on the atom from phi (after the inverse FFT),
//   F = -q (K0/L0 sum dMx My Mz phi, K1/L1 sum Mx dMy Mz phi, K2/L2 sum Mx My dMz phi).
vec3 pme_gather_atom(float q, vec3 x, vec3 fine)
{
    uint row_len = 2u * PME_GRID.w; // padded floats per real row
    uint i0x, i0y, i0z;
    float wx, wy, wz;
    float tx[VKMD_PME_MAX_ORDER], ty[VKMD_PME_MAX_ORDER], tz[VKMD_PME_MAX_ORDER];
    float dx[VKMD_PME_MAX_ORDER], dy[VKMD_PME_MAX_ORDER], dz[VKMD_PME_MAX_ORDER];
    if (TRICLINIC) {
        box_tri_wrap_pair(x, fine, PME_BOX, PME_BOX_T);
        x = pme_shear(x);
        fine = pme_shear(fine);
    }
    pme_grid_coord(x.x, fine.x, PME_BOX.x, PME_GRID.x, i0x, wx);
    pme_grid_coord(x.y, fine.y, PME_BOX.y, PME_GRID.y, i0y, wy);
    pme_grid_coord(x.z, fine.z, PME_BOX.z, PME_GRID.z, i0z, wz);
    pme_spline(wx, tx, dx);
    pme_spline(wy, ty, dy);
    pme_spline(wz, tz, dz);
    vec3 f = vec3(0.0);
    for (int ix = 0; ix < ORDER; ++ix) {
        uint gx = pme_wrap(i0x, ix, PME_GRID.x);
        for (int iy = 0; iy < ORDER; ++iy) {
            uint gy = pme_wrap(i0y, iy, PME_GRID.y);
            uint row = (gx * PME_GRID.y + gy) * row_len;
            float s = 0.0, sd = 0.0; // sum_z Mz phi, sum_z dMz phi
            for (int iz = 0; iz < ORDER; ++iz) {
                float phi = PME_PHI(row + pme_wrap(i0z, iz, PME_GRID.z));
                s += tz[iz] * phi;
                sd += dz[iz] * phi;
            }
            f.x += dx[ix] * ty[iy] * s;
            f.y += tx[ix] * dy[iy] * s;
            f.z += tx[ix] * ty[iy] * sd;
        }
    }
    f *= -q * vec3(PME_GRID.xyz) / PME_BOX;
    if (TRICLINIC) // sum over k of f_k (L_k r_k): the reciprocal rows
        f = vec3(f.x, f.x * PME_SHEAR.x + f.y, f.x * PME_SHEAR.y + f.y * PME_SHEAR.z + f.z);
    return f;
}

#endif

#ifdef PME_ATOM_CONVERT
// Padded float p of the FFT grid from the fixed-point charge grid (padding
// 0); with CLEAR the charge grid point is zeroed for the next spread.
float pme_convert_point(uint p, const bool CLEAR)
{
    uint row_len = 2u * PME_GRID.w;
    uint z = p % row_len, row = p / row_len;
    if (z >= PME_GRID.z)
        return 0.0;
    uint at = row * PME_GRID.z + z;
    float v = fixed_to_float(qgrid[at]) * float(VKMD_PME_GRID_INV_SCALE);
    if (CLEAR)
        qgrid[at] = VKMD_FIXED_ZERO;
    return v;
}
#endif

#endif
