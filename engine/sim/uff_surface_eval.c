/* The surface interaction of many replicas on a device (see
 * uff_surface_eval.h). */
#include "sim/uff_surface_eval.h"
#include "forces/pass_uff.h"
#include "forces/pass_uff_surface.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <stdlib.h>

vkmd_result vkmd_uff_surface_evaluate(vkmd_vk_context *ctx, const vkmd_uff_surface *surf,
                                      const vkmd_uff_surface_grid *grid,
                                      const vkmd_uff_terms *const *mols, int32_t mol_count,
                                      const vkmd_uff_replica *reps,
                                      const vkmd_uff_surface_replicas *placed, double *out_forces,
                                      double *out_energy, int32_t *out_below)
{
    const int32_t count = placed->count;
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch batch = {0};
    vkmd_pass_uff *uff = NULL;
    vkmd_pass_uff_surface *sp = NULL;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    int32_t *rep_mol = malloc((size_t)count * sizeof *rep_mol);
    if (!rep_mol)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface replicas");
    for (int32_t r = 0; r < count; ++r)
        rep_mol[r] = reps[r].molecule;
    VKMD_TRY(vkmd_uff_batch_build(mols, mol_count, rep_mol, count, &batch));
    VKMD_TRY(vkmd_pass_uff_create(ctx, &batch, NULL, &uff));
    const vkmd_pass_uff_surface_desc d = {
        .mode = grid ? VKMD_UFF_SURFACE_MODE_GRID : VKMD_UFF_SURFACE_MODE_DIRECT, .grid = grid};
    VKMD_TRY(vkmd_pass_uff_surface_create(ctx, surf, &batch, placed->channel,
                                          vkmd_pass_uff_positions(uff), vkmd_pass_uff_forces(uff),
                                          vkmd_pass_uff_energies(uff), &d, &sp));
    VKMD_TRY(vkmd_pass_uff_upload_positions(ctx, uff, placed->xyz));
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_uff_record_clear(uff, cb); /* the UFF terms themselves are not recorded here */
    vkmd_pass_uff_surface_record(sp, cb);
    vkmd_vk_barrier_compute_to_transfer(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(vkmd_pass_uff_readback(ctx, uff, out_forces, NULL));
    VKMD_TRY(vkmd_pass_uff_surface_readback(ctx, sp, out_energy, out_below));
cleanup:
    vkmd_pass_uff_surface_destroy(ctx, sp);
    vkmd_pass_uff_destroy(ctx, uff);
    vkmd_uff_batch_free(&batch);
    free(rep_mol);
    return res;
}
