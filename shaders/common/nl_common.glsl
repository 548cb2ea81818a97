// Declarations shared by every nl_*.comp (the neighbour-list kernels of
// engine/forces/pass_neighbor.c): the one binding layout, the push constants, the
// grid-stride helper and the periodic helpers. Each kernel uses a subset of
// the buffers; all of them are bound to every pipeline.
#ifndef VKMD_NL_COMMON_GLSL
#define VKMD_NL_COMMON_GLSL

#include "common/vkmd_layout.h"
#include "common/box.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_NL_WORKGROUP_SIZE;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_NL_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_NL_BINDING_STATE) buffer State { VKMD_NL_STATE_FIELDS } st;
layout(std430, binding = VKMD_NL_BINDING_SAVED) buffer Saved { vec4 saved[]; };
layout(std430, binding = VKMD_NL_BINDING_ATOM_KEY) buffer AtomKey { uint atom_key[]; };
layout(std430, binding = VKMD_NL_BINDING_CELLS) buffer Cells { uint cells[]; };
layout(std430, binding = VKMD_NL_BINDING_ROWS) buffer Rows { uint rows[]; };
layout(std430, binding = VKMD_NL_BINDING_ORDER) buffer Order { uint order[]; };
layout(std430, binding = VKMD_NL_BINDING_SLOT_OF) buffer SlotOf { uint slot_of[]; };
layout(std430, binding = VKMD_NL_BINDING_REL) buffer Rel { vec4 rel[]; };
layout(std430, binding = VKMD_NL_BINDING_CLUSTER) buffer Cluster { vec4 cluster[]; };
layout(std430, binding = VKMD_NL_BINDING_EXCL) readonly buffer Excl { uint excl[]; };
layout(std430, binding = VKMD_NL_BINDING_OUTER) buffer Outer { uvec4 outer[]; };
layout(std430, binding = VKMD_NL_BINDING_INNER) buffer Inner { uvec4 inner[]; };
layout(std430, binding = VKMD_NL_BINDING_MASKS) buffer Masks { uvec2 masks[]; };
layout(std430, binding = VKMD_NL_BINDING_COUNTS) buffer Counts { uvec4 counts[]; };
layout(std430, binding = VKMD_NL_BINDING_ARGS) buffer Args { uvec4 dispatch_args[]; };
layout(std430, binding = VKMD_NL_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_NL_BINDING_EXCL_TILES) buffer ExclTiles { uvec4 excl_tiles[]; };
layout(std430, binding = VKMD_NL_BINDING_GATE) buffer Gate { uint gate[]; };
layout(push_constant) uniform Push { VKMD_NL_PUSH_FIELDS } pc;

#define NL_ATOMS     (pc.sizes.x)
#define NL_SLOTS     (pc.sizes.y)
#define NL_CLUSTERS  (pc.sizes.z)
#define NL_OUTER     (pc.sizes.w)
#define NL_INNER     (pc.limits.x)
#define NL_NX        (pc.grid.x)
#define NL_NY        (pc.grid.y)
#define NL_NZ        (pc.grid.z)
#define NL_CELLS     (pc.grid.w)
#define NL_ROWS      (pc.grid.y * pc.grid.z)

// Half list: which of two clusters holds their tile. By index parity rather
// than by order, so that every cluster holds about half of its neighbours
// (cj >= ci alone would give the first clusters of the order all of theirs
// and the last none: strides twice as long, and uneven work).
bool owns(uint ci, uint cj)
{
    return ci == cj || ((ci + cj) & 1u) == (ci < cj ? 0u : 1u);
}

// Bit of the pair (lane l of an i-cluster, lane m of a j-cluster) in a
// tile's rotated mask.
uvec2 pair_bit(uint l, uint m)
{
    uint b = 8u * (l & 3u) + ((m - l) & 7u);
    return l < 4u ? uvec2(1u << b, 0u) : uvec2(0u, 1u << b);
}

// b - a under the minimum-image convention, as ref_delta. A triclinic box
// passes L = (ax, by, cz) in box.xyz and T = (bx, cx, cy) in box_lo.xyz
// (common/box.glsl).
vec3 nl_delta(vec3 a, vec3 b)
{
    vec3 d = b - a;
    if (TRICLINIC)
        return box_tri_min_image(d, pc.box.xyz, pc.box_lo.xyz);
    return d - pc.box.xyz * floor(d / pc.box.xyz + 0.5);
}

// Position wrapped into [0, L] (L itself only by rounding of tiny negatives);
// a triclinic cell's into the brick [0, ax) x [0, by) x [0, cz).
vec3 nl_wrap(vec3 p)
{
    if (TRICLINIC)
        return p + box_tri_wrap_shift(p, pc.box.xyz, pc.box_lo.xyz);
    return p - pc.box.xyz * floor(p / pc.box.xyz);
}

// Cell coordinates of a wrapped position, clamped into the grid.
uvec3 nl_cell_of(vec3 w)
{
    ivec3 c = ivec3(floor(w / pc.cell.xyz));
    return uvec3(clamp(c, ivec3(0), ivec3(pc.grid.xyz) - 1));
}

// Global cell key: the row's rank on the (y, z) Hilbert curve, then x.
uint nl_cell_key(uvec3 c)
{
    return rows[c.y * NL_NZ + c.z] * NL_NX + c.x;
}

#endif
