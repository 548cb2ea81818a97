// UFF surface grid: the direct potential of every channel (molecule atom
// type) at every grid point, written as float to the grid buffer
// [channel][nz][ny][nx]. Point (i, j, k) is at (i/nx) a + (j/ny) b in x-y
// and z0 + k dz. One thread per value, grid-stride loop. The host
// prefilters the values into B-spline coefficients afterwards
// (system/uff_surface.h). The oracle is ref_uff_surface_grid_values.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/uff_surface.glsl"

void main()
{
    uint points = pc.grid_n.w;
    uint total = points * pc.counts.w;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint idx = gl_GlobalInvocationID.x; idx < total; idx += stride) {
        uint c = idx / points;
        uint rest = idx - c * points;
        uint plane = pc.grid_n.x * pc.grid_n.y;
        uint k = rest / plane;
        uint j = (rest - k * plane) / pc.grid_n.x;
        uint i = rest - k * plane - j * pc.grid_n.x;
        float u = float(i) / float(pc.grid_n.x);
        float v = float(j) / float(pc.grid_n.y);
        vec3 p = vec3(u * pc.cell.xy + v * pc.cell.zw, pc.zgrid.x + float(k) * pc.zgrid.y);
        vec3 grad;
        grid[idx] = surface_sum(c, p, grad);
    }
}
