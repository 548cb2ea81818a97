/* The tile masks of the vacuum (all pairs) non-bonded kernel
 * (shaders/nonbonded.comp, ALL_PAIRS).
 *
 * Atoms are taken in index order in clusters of VKMD_NL_CLUSTER_SIZE (8),
 * the last one padded. Cluster ci computes its tiles with clusters
 * (ci + t) mod nc for t = 0 .. vkmd_vacuum_tile_count(ci, nc) - 1, so each
 * unordered pair of clusters is one tile and every cluster has about half of
 * them. A tile's mask has one bit per lane pair in the rotated layout of
 * common/tile.glsl (lane l, rotation k: the pair of i atom l with j atom
 * (l + k) % 8; byte l & 3 of .x for l < 4, of .y otherwise): 1 computes the
 * pair. Only masks that are not all ones are listed: the diagonal tile
 * (each pair once, no self pair), tiles with padding atoms, and tiles with
 * excluded pairs; proteins' exclusions are local in index, so a cluster
 * lists a few. */
#ifndef VKMD_FORCES_VACUUM_TILES_H
#define VKMD_FORCES_VACUUM_TILES_H

#include "core/result.h"
#include "system/system.h"

#include <stddef.h>
#include <stdint.h>

/* Tiles of cluster ci among nc clusters. */
uint32_t vkmd_vacuum_tile_count(uint32_t ci, uint32_t nc);

/* Builds the mask table of `sys`: out_data[ci] .. out_data[ci + 1] - 1 (ci
 * < nc, nc = ceil(atoms / 8)) index cluster ci's entries, ascending in t,
 * each three words (t, mask.x, mask.y) from out_data[nc + 1 + 3 e].
 * *out_data is malloc'd (free()), *out_words its length. Errors:
 * VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_INVALID_ARGUMENT (an exclusion
 * naming an atom out of range or itself). */
vkmd_result vkmd_vacuum_tiles_build(const vkmd_system *sys, uint32_t **out_data, size_t *out_words);

#endif
