/* Batched UFF evaluation of many replicas on a device (see uff_replicas.h). */
#include "sim/uff_replicas.h"
#include "core/stop.h"
#include "forces/pass_uff.h"
#include "system/uff_batch.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_replicas_evaluate(vkmd_vk_context *ctx, const vkmd_uff_terms *const *mols,
                                       int32_t mol_count, const vkmd_uff_replica *reps,
                                       int32_t count, const vkmd_uff_replicas_desc *desc,
                                       vkmd_uff_energy *out_energy, double *const *out_forces,
                                       vkmd_uff_debug_record **out_debug, int32_t *out_debug_count,
                                       int32_t *out_batches)
{
    const vkmd_uff_replicas_desc d = desc ? *desc : (vkmd_uff_replicas_desc){0};
    const int32_t debug_replica = d.debug ? d.debug_replica : -1;
    if (out_debug) {
        *out_debug = NULL;
        *out_debug_count = 0;
    }
    vkmd_result res = VKMD_OK;
    const int32_t per =
        d.replicas_per_batch > 0 && d.replicas_per_batch < count ? d.replicas_per_batch : count;
    int32_t *which = calloc((size_t)per, sizeof *which);
    int32_t *prev = calloc((size_t)per, sizeof *prev);
    vkmd_uff_energy *energy = calloc((size_t)per, sizeof *energy);
    double *xyz = NULL, *forces = NULL;
    vkmd_uff_batch batch;
    memset(&batch, 0, sizeof batch);
    vkmd_pass_uff *pass = NULL;
    int32_t prev_n = 0, prev_debug = 0;
    if (!which || !prev || !energy) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "batches of %d replicas", per);
        goto cleanup;
    }
    for (int32_t start = 0; start < count; start += per) {
        const int32_t n = count - start < per ? count - start : per;
        if (start > 0 && vkmd_stop_requested()) {
            res = vkmd_fail(VKMD_ERROR_STOPPED, "UFF replicas: stopped by %s after %d of %d",
                            vkmd_stop_name(vkmd_stop_requested()), start, count);
            goto cleanup;
        }
        for (int32_t i = 0; i < n; ++i)
            which[i] = reps[start + i].molecule;
        const int debug_here = debug_replica >= start && debug_replica < start + n;
        /* Full batches of a scan have the same layout: keep the pass (its
         * pipeline and tables) and upload only the coordinates. */
        if (!pass || debug_here || prev_debug || n != prev_n ||
            memcmp(which, prev, (size_t)n * sizeof *which) != 0) {
            vkmd_pass_uff_destroy(ctx, pass);
            pass = NULL;
            vkmd_uff_batch_free(&batch);
            free(xyz);
            free(forces);
            xyz = forces = NULL;
            VKMD_TRY(vkmd_uff_batch_build(mols, mol_count, which, n, &batch));
            const vkmd_pass_uff_desc pd = {.debug = debug_here,
                                           .debug_replica = debug_replica - start};
            VKMD_TRY(vkmd_pass_uff_create(ctx, &batch, &pd, &pass));
            xyz = malloc(3 * (size_t)batch.atom_count * sizeof *xyz);
            forces = malloc(3 * (size_t)batch.atom_count * sizeof *forces);
            if (!xyz || !forces) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "batch of %d atoms", batch.atom_count);
                goto cleanup;
            }
            memcpy(prev, which, (size_t)n * sizeof *which);
            prev_n = n;
            prev_debug = debug_here;
        }
        for (int32_t i = 0; i < n; ++i)
            memcpy(xyz + 3 * (size_t)batch.replica_atom_offset[i], reps[start + i].positions,
                   3 * (size_t)vkmd_uff_batch_replica_atoms(&batch, i) * sizeof *xyz);
        VKMD_TRY(vkmd_pass_uff_evaluate(ctx, pass, xyz, out_forces ? forces : NULL, energy));
        if (out_batches)
            ++*out_batches;
        for (int32_t i = 0; i < n; ++i) {
            out_energy[start + i] = energy[i];
            if (out_forces && out_forces[start + i])
                memcpy(out_forces[start + i], forces + 3 * (size_t)batch.replica_atom_offset[i],
                       3 * (size_t)vkmd_uff_batch_replica_atoms(&batch, i) * sizeof *forces);
        }
        if (debug_here && out_debug && vkmd_pass_uff_debug_count(pass) > 0) {
            int32_t nd = vkmd_pass_uff_debug_count(pass);
            *out_debug = calloc((size_t)nd, sizeof **out_debug);
            if (!*out_debug) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d debug records", nd);
                goto cleanup;
            }
            *out_debug_count = nd;
            VKMD_TRY(vkmd_pass_uff_readback_debug(ctx, pass, *out_debug));
        }
    }
cleanup:
    vkmd_pass_uff_destroy(ctx, pass);
    vkmd_uff_batch_free(&batch);
    free(xyz);
    free(forces);
    free(which);
    free(prev);
    free(energy);
    if (res != VKMD_OK && out_debug) {
        free(*out_debug);
        *out_debug = NULL;
        *out_debug_count = 0;
    }
    return res;
}
