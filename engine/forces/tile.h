/* Which build of a tile shader (shaders/common/tile.glsl: the neighbour-list
 * prune, the nonbonded pair kernel) a device runs, and its workgroup size.
 *
 * Tiles are 8 x 8 lane pairs worked on by groups of 8 lanes. With subgroup
 * shuffles in subgroups of a multiple of 8 lanes (lavapipe 8, NVIDIA 32, AMD
 * 32 or 64) the default build passes data around a group with shuffles and a
 * workgroup holds several groups. Without them, the "+shared" build does the
 * same through shared memory and barriers, one group per workgroup of 8.
 * Separate SPIR-V builds, not a specialization constant, because the
 * GroupNonUniformShuffle capability is declared per module (shaders/
 * variants.cmake). VKMD_FORCE_TILE_SHARED=1 (vk/context.c) makes every
 * device take the shared build, for tests. */
#ifndef VKMD_FORCES_TILE_H
#define VKMD_FORCES_TILE_H

#include "vk/context.h"

/* The embedded module of `shader` for ctx's device: the shuffle or the
 * shared build, and (fixed != 0, shaders that add fixed-point sums) the
 * int64 or 32-bit-words build of it (forces/fixed_point.h). *out_wg is the
 * workgroup size to use: `wg` (a multiple of 8) for the shuffle build, 8 for
 * the shared one. Errors: VKMD_ERROR_UNSUPPORTED when that build is not
 * embedded; `pass` names the caller in the message. */
vkmd_result vkmd_tile_shader(const vkmd_vk_context *ctx, const char *pass, const char *shader,
                             uint32_t wg, int fixed, const char **out_name, uint32_t *out_wg);

/* How many groups of 8 lanes share one i-cluster's inner tiles in the pair
 * kernels (nonbonded.comp, forces.comp; VKMD_SPEC_NB_TILE_SPLIT): each takes
 * a contiguous 1/split of the cluster's tiles and adds its own partial i
 * forces. 1 on a CPU device, where a dispatch runs on a few threads and
 * more groups only cost; 8 on a GPU, where one group per cluster leaves the
 * chip nearly idle and every group waits on its own chain of loads (an
 * H200 spent 228 us on the pair tiles of a 3,000-atom box and 771 us on
 * 96,000 atoms). $VKMD_TILE_SPLIT (1..64) overrides it, so the tests run the
 * split kernels on lavapipe too. */
uint32_t vkmd_tile_split(const vkmd_vk_context *ctx);

#endif
