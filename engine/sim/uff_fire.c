/* FIRE over many UFF replicas on a Vulkan device (see uff_fire.h): the
 * force pass (forces/pass_uff.h) and shaders/uff_fire.comp recorded
 * check_interval times into one replayable command buffer; the host reads
 * the small per-replica state after each replay and stops when every
 * replica has converged or run out of steps. */
#include "sim/uff_fire.h"
#include "core/log.h"
#include "core/stop.h"
#include "forces/fixed_point.h"
#include "forces/pass_uff.h"
#include "sim/fire_push.h"
#include "system/uff_lbfgs_settings.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct vkmd_uff_fire {
    vkmd_uff_fire_params params;
    vkmd_pass_uff *pass;
    vkmd_vk_pipeline pipeline;
    vkmd_vk_descset set;
    vkmd_vk_buffer velocities, pos_lo, replicas, state;
    vkmd_vk_cmd cmd;
    vkmd_uff_fire_push push;
    int32_t atom_count, replica_count;
    uint32_t groups;
    int32_t submissions;
    uint32_t *table; /* [4 * replica_count]: the replicas buffer's contents */
};

static vkmd_result make_buffer(vkmd_vk_context *ctx, VkDeviceSize size, const char *name,
                               vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc d = {.size = size > 0 ? size : 16, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, out);
}

vkmd_result vkmd_uff_fire_create(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                 const vkmd_uff_fire_params *params, vkmd_uff_fire **out_fire)
{
    vkmd_result res = VKMD_OK;
    *out_fire = NULL;
    const vkmd_uff_fire_params p = vkmd_uff_fire_params_resolve(params);
    if ((res = vkmd_uff_fire_params_check(&p)) != VKMD_OK)
        return res;
    vkmd_uff_fire *fire = calloc(1, sizeof *fire);
    if (!fire)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "FIRE");
    fire->params = p;
    fire->atom_count = batch->atom_count;
    fire->replica_count = batch->replica_count;
    VKMD_TRY(vkmd_pass_uff_create(ctx, batch, NULL, &fire->pass));
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "UFF FIRE", "uff_fire.comp", &shader));

    /* Threads per replica: a power of two covering the largest replica, 16
     * to 64 (most molecules screened are small, and every level of the
     * shared-memory reduction is a barrier). */
    int32_t most = 1;
    for (int32_t m = 0; m < batch->molecule_count; ++m)
        most = batch->molecule_atom_count[m] > most ? batch->molecule_atom_count[m] : most;
    uint32_t wg = 16;
    while (wg < VKMD_UFF_FIRE_WORKGROUP_SIZE && wg < (uint32_t)most)
        wg *= 2;
    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg}};
    const vkmd_vk_pipeline_desc pd = {.shader = shader,
                                      .buffer_count = VKMD_UFF_FIRE_BINDING_COUNT,
                                      .push_size = sizeof(vkmd_uff_fire_push),
                                      .specs = specs,
                                      .spec_count = 1};
    VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &fire->pipeline));
    const VkDeviceSize vec_size = 16 * (VkDeviceSize)batch->atom_count;
    VKMD_TRY(make_buffer(ctx, vec_size, "FIRE velocities", &fire->velocities));
    VKMD_TRY(make_buffer(ctx, vec_size, "FIRE position corrections", &fire->pos_lo));
    VKMD_TRY(make_buffer(ctx, 16 * (VkDeviceSize)batch->replica_count, "FIRE replicas",
                         &fire->replicas));
    VKMD_TRY(make_buffer(ctx, sizeof(vkmd_uff_fire_state) * (VkDeviceSize)batch->replica_count,
                         "FIRE state", &fire->state));
    uint32_t *table = fire->table = calloc(4 * (size_t)batch->replica_count, sizeof *table);
    if (!table) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "FIRE replica table");
        goto cleanup;
    }
    for (int32_t r = 0; r < batch->replica_count; ++r) {
        table[4 * r] = (uint32_t)batch->replica_atom_offset[r];
        table[4 * r + 1] = (uint32_t)vkmd_uff_batch_replica_atoms(batch, r);
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &fire->replicas, 0, table,
                                   16 * (VkDeviceSize)batch->replica_count));

    const vkmd_vk_buffer *bufs[VKMD_UFF_FIRE_BINDING_COUNT];
    bufs[VKMD_UFF_FIRE_BINDING_POSITIONS] = vkmd_pass_uff_positions(fire->pass);
    bufs[VKMD_UFF_FIRE_BINDING_FORCES] = vkmd_pass_uff_forces(fire->pass);
    bufs[VKMD_UFF_FIRE_BINDING_VELOCITIES] = &fire->velocities;
    bufs[VKMD_UFF_FIRE_BINDING_POS_LO] = &fire->pos_lo;
    bufs[VKMD_UFF_FIRE_BINDING_REPLICAS] = &fire->replicas;
    bufs[VKMD_UFF_FIRE_BINDING_STATE] = &fire->state;
    bufs[VKMD_UFF_FIRE_BINDING_ENERGIES] = vkmd_pass_uff_energies(fire->pass);
    VKMD_TRY(vkmd_vk_descset_create(ctx, &fire->pipeline, bufs, &fire->set));

    fire->push = (vkmd_uff_fire_push){.replica_count = (uint32_t)batch->replica_count,
                                      .atom_count = (uint32_t)batch->atom_count,
                                      .max_steps = (uint32_t)p.max_steps,
                                      .criterion = (uint32_t)p.criterion,
                                      .ftol = (float)p.ftol,
                                      .fire = vkmd_sim_fire_push(&p.fire)};
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    fire->groups =
        (uint32_t)batch->replica_count < max_groups ? (uint32_t)batch->replica_count : max_groups;

    /* check_interval steps of forces then FIRE; positions written by one
     * step are read by the next step's force pass, and the FIRE kernel
     * leaves the forces and energies zeroed for it (one clear up front). */
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &fire->cmd));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &fire->cmd));
    vkmd_pass_uff_record_clear(fire->pass, fire->cmd.cb);
    for (int32_t k = 0; k < p.check_interval; ++k) {
        vkmd_pass_uff_record(fire->pass, fire->cmd.cb);
        vkmd_vk_barrier_compute(fire->cmd.cb);
        vkmd_vk_dispatch(fire->cmd.cb, &fire->pipeline, &fire->set, &fire->push, fire->groups, 1,
                         1);
        vkmd_vk_barrier_compute(fire->cmd.cb);
    }
    vkmd_vk_barrier_compute_to_transfer(fire->cmd.cb);
    vkmd_vk_barrier_device_to_host(fire->cmd.cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &fire->cmd));
    *out_fire = fire;
    return VKMD_OK;
cleanup:
    vkmd_uff_fire_destroy(ctx, fire);
    return res;
}

vkmd_result vkmd_uff_fire_run(vkmd_vk_context *ctx, vkmd_uff_fire *fire, const double *xyz,
                              double *out_xyz, vkmd_uff_fire_result *out_results)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    const int32_t n = fire->atom_count, nr = fire->replica_count;
    float *lo = calloc(4 * (size_t)n, sizeof *lo);
    float *hi = calloc(4 * (size_t)n, sizeof *hi);
    vkmd_uff_fire_state *st = calloc((size_t)nr, sizeof *st);
    vkmd_uff_energy *e0 = calloc((size_t)nr, sizeof *e0);
    vkmd_uff_energy *e1 = calloc((size_t)nr, sizeof *e1);
    double *f = calloc(3 * (size_t)n, sizeof *f);
    if (!lo || !hi || !st || !e0 || !e1 || !f) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "FIRE run of %d atoms", n);
        goto cleanup;
    }
    fire->submissions = 0;
    /* Start: energies at the given coordinates (rounded to float), then the
     * float residue of each coordinate as its correction. */
    VKMD_TRY(vkmd_pass_uff_evaluate(ctx, fire->pass, xyz, NULL, e0));
    for (int32_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            lo[4 * i + c] = (float)(xyz[3 * i + c] - (double)(float)xyz[3 * i + c]);
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &fire->pos_lo, 0, lo, 16 * (VkDeviceSize)n));
    memset(hi, 0, 16 * (size_t)n);
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &fire->velocities, 0, hi, 16 * (VkDeviceSize)n));
    for (int32_t r = 0; r < nr; ++r)
        st[r] = (vkmd_uff_fire_state){
            .f = {(float)fire->params.dt_start, (float)fire->params.alpha_start, 0, 0}};
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &fire->state, 0, st, sizeof *st * (VkDeviceSize)nr));

    const int32_t max_submissions = fire->params.max_steps / fire->params.check_interval + 2;
    for (;;) {
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &fire->cmd));
        ++fire->submissions;
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &fire->state, 0, st, sizeof *st * (VkDeviceSize)nr));
        int32_t running = 0;
        for (int32_t r = 0; r < nr; ++r)
            running += st[r].u.z == 0;
        /* A stop request (core/stop.h): the running replicas as they are. */
        if (running == 0 || fire->submissions >= max_submissions || vkmd_stop_requested())
            break;
    }

    /* Final energies and forces at the final float positions. */
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_uff_record_clear(fire->pass, cb);
    vkmd_pass_uff_record(fire->pass, cb);
    vkmd_vk_barrier_compute_to_transfer(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(vkmd_pass_uff_readback(ctx, fire->pass, f, e1));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, vkmd_pass_uff_positions(fire->pass), 0, hi,
                                     16 * (VkDeviceSize)n));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &fire->pos_lo, 0, lo, 16 * (VkDeviceSize)n));
    for (int32_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            if (!isfinite(hi[4 * i + c])) {
                res = vkmd_fail(VKMD_ERROR_NUMERIC,
                                "FIRE: atom %d of the batch moved to a "
                                "non-finite position",
                                i);
                goto cleanup;
            }
    if (out_xyz)
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                out_xyz[3 * i + c] = (double)hi[4 * i + c] + (double)lo[4 * i + c];
    if (out_results) {
        for (int32_t r = 0; r < nr; ++r) {
            vkmd_uff_fire_result *o = &out_results[r];
            *o = (vkmd_uff_fire_result){.energy_initial = e0[r].total,
                                        .energy_final = e1[r].total,
                                        .steps = (int32_t)st[r].u.y,
                                        .converged = st[r].u.z == VKMD_UFF_FIRE_CONVERGED};
        }
    }
    /* Per-replica force norms of the final forces. */
    if (out_results) {
        const uint32_t *table = fire->table;
        for (int32_t r = 0; r < nr; ++r)
            vkmd_uff_force_norms(f + 3 * (size_t)table[4 * r], (int32_t)table[4 * r + 1],
                                 &out_results[r].fmax, &out_results[r].frms);
    }
cleanup:
    free(lo);
    free(hi);
    free(st);
    free(e0);
    free(e1);
    free(f);
    return res;
}

int32_t vkmd_uff_fire_submissions(const vkmd_uff_fire *fire)
{
    return fire->submissions;
}

void vkmd_uff_fire_destroy(vkmd_vk_context *ctx, vkmd_uff_fire *fire)
{
    if (!fire)
        return;
    vkmd_vk_cmd_destroy(ctx, &fire->cmd);
    vkmd_vk_descset_destroy(ctx, &fire->set);
    vkmd_vk_buffer_destroy(ctx, &fire->state);
    vkmd_vk_buffer_destroy(ctx, &fire->replicas);
    vkmd_vk_buffer_destroy(ctx, &fire->pos_lo);
    vkmd_vk_buffer_destroy(ctx, &fire->velocities);
    vkmd_vk_pipeline_destroy(ctx, &fire->pipeline);
    vkmd_pass_uff_destroy(ctx, fire->pass);
    free(fire->table);
    free(fire);
}
