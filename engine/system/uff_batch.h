/* A batch of UFF replicas for the GPU pass (forces/pass_uff.h): R replicas,
 * each a copy of one of M molecules (its terms from uff_terms.h) with its
 * own coordinates. This module is the host side only: it packs the term
 * tables, ranges and per-replica offsets the shader reads (layouts in
 * shaders/common/layout_uff.h); no Vulkan here.
 *
 * Packing: the terms of each molecule are stored once, kind by kind (bonds,
 * angles, torsions, inversions, pairs), whatever the number of replicas
 * using it; the molecules' tables are concatenated. Replicas are grouped by
 * molecule into slots (stable: in the caller's order within a molecule); a
 * replica's atoms are contiguous in the batch's coordinate array, in the
 * caller's replica order, starting at replica_atom_offset[r]. The dispatch
 * runs over items = (term, replica), in ranges of one kind of one molecule,
 * term-major and replica-minor (see layout_uff.h for why).
 *
 * Parameters are derived in double for the float forms (angle minimum
 * cosines, inversion forms, float pairs for lengths; see uff_forms.glsl),
 * so the device never subtracts two rounded O(1) constants. */
#ifndef VKMD_SYSTEM_UFF_BATCH_H
#define VKMD_SYSTEM_UFF_BATCH_H

#include "common/vkmd_layout.h"
#include "system/uff_terms.h"

#include <stdint.h>

/* Items (terms x replicas) of one batch stay below 2^31, so that the
 * shader's 32-bit grid-stride index cannot wrap. */
#define VKMD_UFF_BATCH_MAX_ITEMS (1u << 31)

/* One replica of a molecule: its index into a caller's molecule array and
 * its coordinates [3 * atoms] A (borrowed). */
typedef struct vkmd_uff_replica {
    int32_t molecule;
    const double *positions;
} vkmd_uff_replica;

typedef struct vkmd_uff_batch {
    int32_t molecule_count;
    int32_t replica_count;
    int32_t atom_count;           /* atoms of all replicas */
    int32_t *replica_molecule;    /* [replica_count]: molecule of each replica */
    int32_t *replica_atom_offset; /* [replica_count]: first atom in the batch's coordinates */
    int32_t *molecule_atom_count; /* [molecule_count] */
    /* [molecule_count][VKMD_UFF_KIND_COUNT]: terms per kind; the pair count is
     * that of t->pairs (van der Waals and Coulomb share the pair items) */
    int32_t (*molecule_term_count)[VKMD_UFF_KIND_COUNT];
    uint32_t *molecule_term_start; /* [molecule_count]: first term in `terms` */
    int coulomb;                   /* 1 if some molecule has charges (t->coulomb) */
    /* Device tables, all owned: */
    vkmd_uff_term *terms; /* [term_count] */
    uint32_t term_count;
    vkmd_uff_range *ranges; /* [range_count + molecule_count]: the ranges, then each
                               molecule's terms by kind (layout_uff.h) */
    uint32_t range_count;
    vkmd_gpu_uvec4 *slots; /* [replica_count]: (replica, atom offset, atom count, molecule) */
    uint32_t item_count;   /* terms summed over replicas; < VKMD_UFF_BATCH_MAX_ITEMS */
} vkmd_uff_batch;

/* Packs `replica_count` replicas of the `molecule_count` molecules
 * `molecules` (borrowed; only read here). replica_molecule[r] is the
 * molecule of replica r; NULL: every replica is molecule 0. Out: `out`
 * (overwritten; free with vkmd_uff_batch_free; zeroed on failure).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (no molecules or replicas, a molecule
 * index out of range, a term naming an atom outside its molecule, a general
 * angle with C2 <= 0, a batch of 2^31 atoms or VKMD_UFF_BATCH_MAX_ITEMS
 * items or more: split it), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_batch_build(const vkmd_uff_terms *const *molecules, int32_t molecule_count,
                                 const int32_t *replica_molecule, int32_t replica_count,
                                 vkmd_uff_batch *out);

/* Frees the tables and zeroes `b`. Safe on a zeroed struct. */
void vkmd_uff_batch_free(vkmd_uff_batch *b);

/* Atom count of replica r. */
static inline int32_t vkmd_uff_batch_replica_atoms(const vkmd_uff_batch *b, int32_t r)
{
    return b->molecule_atom_count[b->replica_molecule[r]];
}

/* Total terms (all kinds) of replica r's molecule: the size of its debug
 * table. */
int32_t vkmd_uff_batch_replica_terms(const vkmd_uff_batch *b, int32_t r);

/* Name of a term kind ("bond", "angle", "torsion", "inversion", "pair");
 * "?" out of range. */
const char *vkmd_uff_kind_name(uint32_t kind);

#endif
