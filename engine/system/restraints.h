/* Harmonic positional restraints, AMBER's convention (ntr = 1 with
 * restraint_wt): for every restrained atom i
 *     E = k |d|^2                        (no 1/2; k in kcal/mol/A^2)
 *     E = k (|d| - r_fb)^2 if |d| > r_fb, else 0   (flat bottom, r_fb > 0)
 * with d = r_i - r0_i, the minimum-image displacement in the current box
 * (plain difference in vacuum). One k and one flat-bottom radius for the
 * whole set (the equilibration tapers k between batches).
 *
 * The set owns its arrays; vkmd_restraints_destroy frees them. Built from a
 * selection (system/amber_mask.h, io/atom_list.h) and reference coordinates;
 * nothing here knows Vulkan. Device term: forces/pass_bonded (restraint
 * kind of shaders/common/bonded_terms.glsl); oracle: ref_restraints
 * (engine/ref/ref.h). */
#ifndef VKMD_SYSTEM_RESTRAINTS_H
#define VKMD_SYSTEM_RESTRAINTS_H

#include "core/result.h"
#include "system/system.h"

#include <stdint.h>

#define VKMD_RESTRAINT_K_DEFAULT 10.0 /* kcal/mol/A^2, AMBER restraint_wt of the protocol */

typedef struct vkmd_restraints {
    int32_t count;        /* restrained atoms */
    int32_t *atoms;       /* [count] 0-based atom indices, increasing */
    double *ref;          /* [3 * count] reference positions, A */
    double k;             /* kcal/mol/A^2 (>= 0; 0: the term adds nothing) */
    double flat_bottom_a; /* r_fb, A (>= 0; 0: plain harmonic) */
} vkmd_restraints;

/* Builds the set of the atoms with selected[a] != 0 (selected [atom_count]),
 * reference positions taken from ref_positions [3 * atom_count] A. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (k or r_fb negative or not finite, a
 * non-finite reference), VKMD_ERROR_OUT_OF_MEMORY. An empty selection gives
 * an empty set (count 0), not an error. */
vkmd_result vkmd_restraints_build(const uint8_t *selected, int32_t atom_count,
                                  const double *ref_positions, double k, double flat_bottom_a,
                                  vkmd_restraints *out);

/* vkmd_restraints_build from an AMBER mask evaluated on `sys`
 * (vkmd_amber_mask_select, whose parse errors it returns). */
vkmd_result vkmd_restraints_from_mask(const vkmd_system *sys, const char *mask,
                                      const double *ref_positions, double k, double flat_bottom_a,
                                      vkmd_restraints *out);

/* Changes k (kcal/mol/A^2, >= 0 and finite, else VKMD_ERROR_INVALID_ARGUMENT). */
vkmd_result vkmd_restraints_set_k(vkmd_restraints *r, double k);

/* A 64-bit FNV-1a digest of the atoms and the reference positions' bits
 * (not k or r_fb), for the run settings record: a restart against other
 * restraint references is refused. 0 for NULL or an empty set. */
uint64_t vkmd_restraints_digest(const vkmd_restraints *r);

/* Frees the arrays and zeroes the set. Safe on a zeroed struct. */
void vkmd_restraints_destroy(vkmd_restraints *r);

#endif
