/* Copies of one molecule set up for Langevin dynamics (see
 * uff_md_replicas.h). */
#include "sim/uff_md_replicas.h"
#include "core/stop.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_md_create_replicas(vkmd_vk_context *ctx, const vkmd_uff_molecule *m,
                                        const vkmd_uff_terms *terms, int32_t replicas,
                                        const vkmd_uff_md_params *params, vkmd_uff_md **out_md)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch batch = {0};
    vkmd_uff_md *md = NULL;
    const size_t na = (size_t)m->atom_count;
    double *mass = malloc(sizeof *mass * na * (size_t)replicas);
    double *xyz = malloc(3 * sizeof *xyz * na * (size_t)replicas);
    *out_md = NULL;
    if (!mass || !xyz)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d replicas", replicas));
    VKMD_TRY(vkmd_uff_masses(m, mass));
    for (int32_t r = 0; r < replicas; ++r) {
        memcpy(mass + (size_t)r * na, mass, sizeof *mass * na);
        memcpy(xyz + 3 * (size_t)r * na, m->positions, 3 * sizeof *xyz * na);
    }
    const vkmd_uff_terms *mols[1] = {terms};
    VKMD_TRY(vkmd_uff_batch_build(mols, 1, NULL, replicas, &batch));
    VKMD_TRY(vkmd_uff_md_create(ctx, &batch, mass, params, &md));
    VKMD_TRY(vkmd_uff_md_set_state(ctx, md, xyz, NULL));
    *out_md = md;
    md = NULL;
cleanup:
    vkmd_uff_md_destroy(ctx, md);
    vkmd_uff_batch_free(&batch);
    free(mass);
    free(xyz);
    return res;
}

vkmd_result vkmd_uff_md_run_chunks(vkmd_vk_context *ctx, vkmd_uff_md *md, int32_t replicas,
                                   int32_t steps, vkmd_uff_md_chunk_fn next, void *user,
                                   double *out_mean_temperature, int32_t *out_done)
{
    *out_done = 0;
    if (!next) {
        const int64_t before = vkmd_uff_md_steps(md);
        VKMD_TRY_RETURN(vkmd_uff_md_run(ctx, md, steps, out_mean_temperature));
        *out_done = (int32_t)(vkmd_uff_md_steps(md) - before); /* fewer after a stop request */
        return VKMD_OK;
    }
    vkmd_result res = VKMD_OK;
    double *tchunk = calloc((size_t)replicas, sizeof *tchunk), t_last = -1;
    int32_t done = 0;
    if (!tchunk)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d replicas", replicas);
    for (int32_t r = 0; r < replicas; ++r)
        out_mean_temperature[r] = 0;
    while (done < steps) {
        int32_t chunk = 0;
        int stop = 0;
        VKMD_TRY(next(user, done, t_last, &chunk, &stop));
        if (stop || vkmd_stop_requested())
            break;
        chunk = chunk < steps - done ? chunk : steps - done;
        if (chunk <= 0)
            continue;
        VKMD_TRY(vkmd_uff_md_run(ctx, md, chunk, tchunk));
        t_last = 0;
        for (int32_t r = 0; r < replicas; ++r) {
            out_mean_temperature[r] += tchunk[r] * chunk;
            t_last += tchunk[r] / replicas;
        }
        done += chunk;
    }
    for (int32_t r = 0; r < replicas; ++r)
        out_mean_temperature[r] = done > 0 ? out_mean_temperature[r] / done : 0;
    *out_done = done;
cleanup:
    free(tchunk);
    return res;
}
