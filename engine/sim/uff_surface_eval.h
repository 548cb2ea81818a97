/* The surface interaction of many UFF replicas on a Vulkan device: direct
 * pair sums or the potential grid (forces/pass_uff_surface.h) over the
 * replicas placed above the surface (system/uff_surface_replicas.h), in one
 * submission. What `vkmd uff energy --surface` evaluates on a device; the
 * CPU oracle is ref/ref_uff_surface.h. */
#ifndef VKMD_SIM_UFF_SURFACE_EVAL_H
#define VKMD_SIM_UFF_SURFACE_EVAL_H

#include "system/uff_surface_replicas.h"
#include "vk/context.h"

/* Surface energies out_energy[count] (kcal/mol) and forces out_forces
 * [3 * placed->atom_count] (kcal/mol/A, in placed order; the UFF terms
 * themselves are not evaluated) of the replicas `reps` of molecules `mols`
 * placed as `placed`, directly (grid NULL) or through `grid`;
 * out_below[count]: atoms below the grid (evaluated at its lowest plane).
 * Everything borrowed. Errors: pass, Vulkan and memory
 * errors. */
vkmd_result vkmd_uff_surface_evaluate(vkmd_vk_context *ctx, const vkmd_uff_surface *surf,
                                      const vkmd_uff_surface_grid *grid,
                                      const vkmd_uff_terms *const *mols, int32_t mol_count,
                                      const vkmd_uff_replica *reps,
                                      const vkmd_uff_surface_replicas *placed, double *out_forces,
                                      double *out_energy, int32_t *out_below);

#endif
