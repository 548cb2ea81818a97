/* Multi-replica UFF GPU pass (see pass_uff.h and shaders/uff.comp). */
#include "forces/pass_uff.h"
#include "core/log.h"
#include "forces/fixed_point.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <stdlib.h>
#include <string.h>

struct vkmd_pass_uff {
    vkmd_vk_pipeline pipeline;
    vkmd_vk_descset set;
    vkmd_vk_buffer own_positions; /* used when the caller gives none */
    vkmd_vk_buffer *positions;
    vkmd_vk_buffer forces, energies, terms, ranges, slots, debug;
    vkmd_uff_push push;
    int32_t atom_count, replica_count;
    int32_t debug_count; /* records; 0 without debug */
    uint32_t groups;
};

static vkmd_result make_buffer(vkmd_vk_context *ctx, VkDeviceSize size, int force_staging,
                               const char *name, vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc d = {
        .size = size > 0 ? size : 16, .force_staging = force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, out);
}

int vkmd_pass_uff_per_replica(const vkmd_vk_context *ctx)
{
    const char *e = getenv("VKMD_UFF_PER_REPLICA");
    if (e && *e)
        return strcmp(e, "0") != 0;
    return ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

vkmd_result vkmd_pass_uff_create(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                 const vkmd_pass_uff_desc *desc, vkmd_pass_uff **out_pass)
{
    vkmd_result res = VKMD_OK;
    *out_pass = NULL;
    const vkmd_pass_uff_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    const char *shader = NULL;
    res = vkmd_fixed_shader(ctx, "UFF pass", "uff.comp", &shader);
    if (res != VKMD_OK)
        return res;
    if (!batch || batch->replica_count < 1 || batch->atom_count < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF pass: empty batch");
    const VkDeviceSize pos_size = 16 * (VkDeviceSize)batch->atom_count;
    if (desc->positions && desc->positions->size < pos_size)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF pass: positions buffer of %llu bytes, the batch's %d atoms need %llu",
                         (unsigned long long)desc->positions->size, batch->atom_count,
                         (unsigned long long)pos_size);
    uint32_t wg = desc->workgroup_size ? desc->workgroup_size : VKMD_UFF_WORKGROUP_SIZE;
    if ((wg & (wg - 1)) != 0 || wg > ctx->info.max_workgroup_invocations)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF pass: workgroup size %u is not a power of two <= %u", wg,
                         ctx->info.max_workgroup_invocations);
    if (desc->debug && (desc->debug_replica < 0 || desc->debug_replica >= batch->replica_count))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF pass: debug replica %d is not one of the batch's 0..%d",
                         desc->debug_replica, batch->replica_count - 1);

    vkmd_pass_uff *p = calloc(1, sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF pass");
    p->atom_count = batch->atom_count;
    p->replica_count = batch->replica_count;
    p->push = (vkmd_uff_push){.item_count = batch->item_count,
                              .range_count = batch->range_count,
                              .atom_count = (uint32_t)batch->atom_count,
                              .replica_count = (uint32_t)batch->replica_count};
    if (desc->debug)
        p->debug_count = vkmd_uff_batch_replica_terms(batch, desc->debug_replica);

    const int per_replica = vkmd_pass_uff_per_replica(ctx);
    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                  {VKMD_SPEC_UFF_DEBUG_REPLICA, desc->debug
                                                                    ? (uint32_t)desc->debug_replica
                                                                    : VKMD_UFF_DEBUG_NONE},
                                  {VKMD_SPEC_UFF_PER_REPLICA, (uint32_t)per_replica}};
    const vkmd_vk_pipeline_desc pd = {
        .shader = shader,
        .buffer_count = VKMD_UFF_BINDING_COUNT,
        .push_size = sizeof(vkmd_uff_push),
        .specs = specs,
        .spec_count = 3,
    };
    VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pipeline));

    const int st = desc->force_staging;
    if (desc->positions) {
        p->positions = desc->positions;
    } else {
        VKMD_TRY(make_buffer(ctx, pos_size, st, "UFF positions", &p->own_positions));
        p->positions = &p->own_positions;
    }
    VKMD_TRY(make_buffer(ctx, 3 * (VkDeviceSize)batch->atom_count * sizeof(int64_t), st,
                         "UFF forces", &p->forces));
    VKMD_TRY(make_buffer(
        ctx, (VkDeviceSize)batch->replica_count * VKMD_UFF_ENERGY_STRIDE * sizeof(int64_t), st,
        "UFF energies", &p->energies));
    const VkDeviceSize terms_size = (VkDeviceSize)batch->term_count * sizeof(vkmd_uff_term);
    const VkDeviceSize ranges_size =
        ((VkDeviceSize)batch->range_count + batch->molecule_count) * sizeof(vkmd_uff_range);
    const VkDeviceSize slots_size = (VkDeviceSize)batch->replica_count * sizeof(vkmd_gpu_uvec4);
    VKMD_TRY(make_buffer(ctx, terms_size, st, "UFF terms", &p->terms));
    VKMD_TRY(make_buffer(ctx, ranges_size, st, "UFF ranges", &p->ranges));
    VKMD_TRY(make_buffer(ctx, slots_size, st, "UFF slots", &p->slots));
    VKMD_TRY(make_buffer(ctx,
                         (VkDeviceSize)(p->debug_count > 0 ? p->debug_count : 1) *
                             sizeof(vkmd_uff_debug_record),
                         st, "UFF debug records", &p->debug));
    if (terms_size > 0)
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->terms, 0, batch->terms, terms_size));
    if (ranges_size > 0)
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->ranges, 0, batch->ranges, ranges_size));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->slots, 0, batch->slots, slots_size));

    const vkmd_vk_buffer *bufs[VKMD_UFF_BINDING_COUNT];
    bufs[VKMD_UFF_BINDING_POSITIONS] = p->positions;
    bufs[VKMD_UFF_BINDING_FORCES] = &p->forces;
    bufs[VKMD_UFF_BINDING_ENERGIES] = &p->energies;
    bufs[VKMD_UFF_BINDING_TERMS] = &p->terms;
    bufs[VKMD_UFF_BINDING_RANGES] = &p->ranges;
    bufs[VKMD_UFF_BINDING_SLOTS] = &p->slots;
    bufs[VKMD_UFF_BINDING_DEBUG] = &p->debug;
    VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pipeline, bufs, &p->set));

    /* Enough groups to give every item a thread, capped by the device limit;
     * the shader's grid-stride loop covers the rest. */
    uint32_t groups =
        vkmd_vk_div_up(per_replica ? (uint32_t)batch->replica_count : batch->item_count, wg);
    uint32_t max_groups = ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    if (desc->max_groups > 0 && desc->max_groups < max_groups)
        max_groups = desc->max_groups;
    p->groups = batch->range_count == 0 ? 0 : (groups < max_groups ? groups : max_groups);
    vkmd_log_debug("UFF pass: %d replicas of %d molecules, %u items in %u ranges, %u groups of %u "
                   "(%s)",
                   batch->replica_count, batch->molecule_count, batch->item_count,
                   batch->range_count, p->groups, wg, per_replica ? "per replica" : "per item");
    *out_pass = p;
    return VKMD_OK;
cleanup:
    vkmd_pass_uff_destroy(ctx, p);
    return res;
}

vkmd_result vkmd_pass_uff_upload_positions(vkmd_vk_context *ctx, vkmd_pass_uff *pass,
                                           const double *xyz)
{
    const int32_t n = pass->atom_count;
    float *pos4 = malloc(4 * (size_t)n * sizeof *pos4);
    if (!pos4)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF pass: positions of %d atoms", n);
    for (int32_t i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c)
            pos4[4 * i + c] = (float)xyz[3 * i + c];
        pos4[4 * i + 3] = 0.0f;
    }
    vkmd_result res = vkmd_vk_buffer_upload(ctx, pass->positions, 0, pos4, 16 * (VkDeviceSize)n);
    free(pos4);
    return res;
}

void vkmd_pass_uff_record_clear(const vkmd_pass_uff *pass, VkCommandBuffer cb)
{
    /* after any earlier dispatch that wrote them, e.g. the previous replay of
     * the same command buffer */
    vkmd_vk_barrier_compute_to_transfer(cb);
    vkmd_vk_buffer_record_fill(cb, &pass->forces, 0);
    vkmd_vk_buffer_record_fill(cb, &pass->energies, 0);
    if (pass->debug_count > 0)
        vkmd_vk_buffer_record_fill(cb, &pass->debug, 0);
    vkmd_vk_barrier_transfer_to_compute(cb);
}

void vkmd_pass_uff_record(const vkmd_pass_uff *pass, VkCommandBuffer cb)
{
    if (pass->groups == 0)
        return;
    vkmd_vk_dispatch(cb, &pass->pipeline, &pass->set, &pass->push, pass->groups, 1, 1);
}

void vkmd_pass_uff_energy_from_fixed(const int64_t *row, vkmd_uff_energy *out_energy)
{
    int64_t total = 0;
    double e[VKMD_UFF_ENERGY_COUNT];
    for (int s = 0; s < VKMD_UFF_ENERGY_COUNT; ++s) {
        e[s] = (double)row[s] * VKMD_FIXED_INV_SCALE;
        total += row[s];
    }
    *out_energy = (vkmd_uff_energy){.bond = e[VKMD_UFF_ENERGY_BOND],
                                    .angle = e[VKMD_UFF_ENERGY_ANGLE],
                                    .torsion = e[VKMD_UFF_ENERGY_TORSION],
                                    .inversion = e[VKMD_UFF_ENERGY_INVERSION],
                                    .vdw = e[VKMD_UFF_ENERGY_VDW],
                                    .coulomb = e[VKMD_UFF_ENERGY_COULOMB],
                                    .total = (double)total * VKMD_FIXED_INV_SCALE};
}

vkmd_result vkmd_pass_uff_readback(vkmd_vk_context *ctx, const vkmd_pass_uff *pass,
                                   double *out_forces, vkmd_uff_energy *out_energies)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = pass->atom_count;
    int64_t *fixed = NULL;
    if (out_forces) {
        fixed = malloc(3 * (size_t)n * sizeof *fixed);
        if (!fixed)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF force readback of %d atoms", n);
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &pass->forces, 0, fixed,
                                         3 * (VkDeviceSize)n * sizeof *fixed));
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                out_forces[3 * i + c] =
                    (double)fixed[VKMD_FORCE_INDEX(c, i, n)] * VKMD_FIXED_INV_SCALE;
        free(fixed);
        fixed = NULL;
    }
    if (out_energies) {
        const size_t count = (size_t)pass->replica_count * VKMD_UFF_ENERGY_STRIDE;
        fixed = malloc(count * sizeof *fixed);
        if (!fixed)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF energy readback");
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &pass->energies, 0, fixed, count * sizeof *fixed));
        for (int32_t r = 0; r < pass->replica_count; ++r)
            vkmd_pass_uff_energy_from_fixed(fixed + (size_t)r * VKMD_UFF_ENERGY_STRIDE,
                                            &out_energies[r]);
    }
cleanup:
    free(fixed);
    return res;
}

vkmd_result vkmd_pass_uff_evaluate(vkmd_vk_context *ctx, vkmd_pass_uff *pass, const double *xyz,
                                   double *out_forces, vkmd_uff_energy *out_energies)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_pass_uff_upload_positions(ctx, pass, xyz));
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_uff_record_clear(pass, cb);
    vkmd_pass_uff_record(pass, cb);
    vkmd_vk_barrier_compute_to_transfer(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(vkmd_pass_uff_readback(ctx, pass, out_forces, out_energies));
cleanup:
    return res;
}

int32_t vkmd_pass_uff_debug_count(const vkmd_pass_uff *pass)
{
    return pass->debug_count;
}

vkmd_result vkmd_pass_uff_readback_debug(vkmd_vk_context *ctx, const vkmd_pass_uff *pass,
                                         vkmd_uff_debug_record *out_records)
{
    if (pass->debug_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF pass: created without a debug replica (or its molecule has no "
                         "terms)");
    return vkmd_vk_buffer_readback(ctx, &pass->debug, 0, out_records,
                                   (VkDeviceSize)pass->debug_count * sizeof *out_records);
}

const vkmd_vk_buffer *vkmd_pass_uff_positions(const vkmd_pass_uff *pass)
{
    return pass->positions;
}

const vkmd_vk_buffer *vkmd_pass_uff_forces(const vkmd_pass_uff *pass)
{
    return &pass->forces;
}

const vkmd_vk_buffer *vkmd_pass_uff_energies(const vkmd_pass_uff *pass)
{
    return &pass->energies;
}

const vkmd_vk_buffer *vkmd_pass_uff_terms(const vkmd_pass_uff *pass)
{
    return &pass->terms;
}

const vkmd_vk_buffer *vkmd_pass_uff_ranges(const vkmd_pass_uff *pass)
{
    return &pass->ranges;
}

const vkmd_vk_buffer *vkmd_pass_uff_slots(const vkmd_pass_uff *pass)
{
    return &pass->slots;
}

void vkmd_pass_uff_destroy(vkmd_vk_context *ctx, vkmd_pass_uff *pass)
{
    if (!pass)
        return;
    vkmd_vk_descset_destroy(ctx, &pass->set);
    vkmd_vk_buffer_destroy(ctx, &pass->debug);
    vkmd_vk_buffer_destroy(ctx, &pass->slots);
    vkmd_vk_buffer_destroy(ctx, &pass->ranges);
    vkmd_vk_buffer_destroy(ctx, &pass->terms);
    vkmd_vk_buffer_destroy(ctx, &pass->energies);
    vkmd_vk_buffer_destroy(ctx, &pass->forces);
    vkmd_vk_buffer_destroy(ctx, &pass->own_positions);
    vkmd_vk_pipeline_destroy(ctx, &pass->pipeline);
    free(pass);
}
