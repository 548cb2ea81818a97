// Lane groups of 8 for cluster-pair tiles (the neighbour-list prune and the
// nonbonded pair kernel): each group of VKMD_NL_CLUSTER_SIZE consecutive
// invocations works on one i-cluster; lane l holds atom l of the i-cluster
// and, in turn, atom (l + k) % 8 of a j-cluster, passed around the group by
// tile_rotate (the OpenMM shape of a tile, at GROMACS's cluster size).
//
// Two builds of every shader that includes this file:
// - default: subgroup shuffles. A subgroup of 8 k lanes holds k groups;
//   rotations and broadcasts are shuffles inside the group (on lavapipe, one
//   vector permute each: the lane id is a constant vector there).
// - VKMD_TILE_SHARED (the "+shared" builds, for devices without subgroup
//   shuffles or with subgroups of fewer than 8 lanes): shared memory and
//   workgroup barriers. The workgroup must then be exactly one group of 8
//   invocations, so that every barrier is reached in uniform control flow.
// Callers keep every lane of a group in the same control flow around these
// calls (loop counts uniform over the group).
#ifndef VKMD_TILE_GLSL
#define VKMD_TILE_GLSL

#ifndef VKMD_TILE_SHARED
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

// Lane in the group (0..7) and the group's first lane in the subgroup.
uint tile_lane()
{
    return gl_SubgroupInvocationID & 7u;
}

uint tile_base_()
{
    return gl_SubgroupInvocationID & ~7u;
}

// Index of this invocation's group among all groups of the dispatch, and
// their number (WORKGROUP_SIZE: the includer's workgroup-size constant). A
// 1-D workgroup's invocations fill its subgroups in order, so 8 consecutive
// invocations from a multiple of 8 lie in one subgroup.
uint tile_group()
{
    return gl_GlobalInvocationID.x / 8u;
}

uint tile_group_count()
{
    return gl_NumWorkGroups.x * (WORKGROUP_SIZE / 8u);
}

#define TILE_ROTATE(T)                                                                             \
    T tile_rotate(T x)                                                                             \
    {                                                                                              \
        return subgroupShuffle(x, tile_base_() | ((gl_SubgroupInvocationID + 1u) & 7u));           \
    }                                                                                              \
    T tile_bcast(T x, uint t)                                                                      \
    {                                                                                              \
        return subgroupShuffle(x, tile_base_() | t);                                               \
    }
TILE_ROTATE(float)
TILE_ROTATE(vec2)
TILE_ROTATE(vec3)
TILE_ROTATE(vec4)
TILE_ROTATE(uint)
TILE_ROTATE(uvec2)
TILE_ROTATE(uvec4)

// Makes the group's buffer writes so far visible to the group's lanes (the
// group then reads what another lane wrote). Every lane of the subgroup
// must call it (uniform control flow across the subgroup's groups).
void tile_sync()
{
    subgroupMemoryBarrierBuffer();
    subgroupBarrier();
}

// OR of b over the group's 8 lanes (three xor steps).
bool tile_any(bool b)
{
    uint v = b ? 1u : 0u;
    uint base = tile_base_(), l = gl_SubgroupInvocationID & 7u;
    v |= subgroupShuffle(v, base | (l ^ 1u));
    v |= subgroupShuffle(v, base | (l ^ 2u));
    v |= subgroupShuffle(v, base | (l ^ 4u));
    return v != 0u;
}

#else // VKMD_TILE_SHARED: one group per workgroup of 8

uint tile_lane()
{
    return gl_LocalInvocationID.x;
}

uint tile_group()
{
    return gl_WorkGroupID.x;
}

uint tile_group_count()
{
    return gl_NumWorkGroups.x;
}

shared uvec4 tile_x_[8];

// Each call is one exchange through shared memory: write, barrier, read,
// barrier (so that the next call's write cannot overtake a slow reader).
uvec4 tile_exchange_(uvec4 v, uint from)
{
    tile_x_[gl_LocalInvocationID.x] = v;
    barrier();
    uvec4 r = tile_x_[from];
    barrier();
    return r;
}

uint tile_from_rotate_()
{
    return (gl_LocalInvocationID.x + 1u) & 7u;
}

float tile_rotate(float x)
{
    return uintBitsToFloat(tile_exchange_(uvec4(floatBitsToUint(x)), tile_from_rotate_()).x);
}
vec2 tile_rotate(vec2 x)
{
    return uintBitsToFloat(tile_exchange_(uvec4(floatBitsToUint(x), 0u, 0u), tile_from_rotate_()).xy);
}
vec3 tile_rotate(vec3 x)
{
    return uintBitsToFloat(tile_exchange_(uvec4(floatBitsToUint(x), 0u), tile_from_rotate_()).xyz);
}
vec4 tile_rotate(vec4 x)
{
    return uintBitsToFloat(tile_exchange_(floatBitsToUint(x), tile_from_rotate_()));
}
uint tile_rotate(uint x)
{
    return tile_exchange_(uvec4(x), tile_from_rotate_()).x;
}
uvec2 tile_rotate(uvec2 x)
{
    return tile_exchange_(uvec4(x, 0u, 0u), tile_from_rotate_()).xy;
}
uvec4 tile_rotate(uvec4 x)
{
    return tile_exchange_(x, tile_from_rotate_());
}
float tile_bcast(float x, uint t)
{
    return uintBitsToFloat(tile_exchange_(uvec4(floatBitsToUint(x)), t).x);
}
vec3 tile_bcast(vec3 x, uint t)
{
    return uintBitsToFloat(tile_exchange_(uvec4(floatBitsToUint(x), 0u), t).xyz);
}
vec4 tile_bcast(vec4 x, uint t)
{
    return uintBitsToFloat(tile_exchange_(floatBitsToUint(x), t));
}
uint tile_bcast(uint x, uint t)
{
    return tile_exchange_(uvec4(x), t).x;
}
uvec2 tile_bcast(uvec2 x, uint t)
{
    return tile_exchange_(uvec4(x, 0u, 0u), t).xy;
}
uvec4 tile_bcast(uvec4 x, uint t)
{
    return tile_exchange_(x, t);
}

void tile_sync()
{
    memoryBarrierBuffer();
    barrier();
}

shared uint tile_or_;

bool tile_any(bool b)
{
    if (gl_LocalInvocationID.x == 0u)
        tile_or_ = 0u;
    barrier();
    if (b)
        atomicOr(tile_or_, 1u);
    barrier();
    bool r = tile_or_ != 0u;
    barrier();
    return r;
}

#endif

// The 8 mask bits of this lane's row of a tile's rotated mask (bit k: the
// pair with j lane (l + k) % 8).
uint tile_row_bits(uvec2 mask)
{
    uint l = tile_lane();
    return ((l < 4u ? mask.x : mask.y) >> (8u * (l & 3u))) & 0xFFu;
}

#endif
