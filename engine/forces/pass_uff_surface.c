/* UFF surface GPU passes (see pass_uff_surface.h and the three
 * shaders/uff_surface_*.comp, which share one binding layout). */
#include "forces/pass_uff_surface.h"
#include "forces/fixed_point.h"
#include "core/log.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <stdlib.h>
#include <string.h>

struct vkmd_pass_uff_surface {
    vkmd_vk_pipeline pipeline;
    vkmd_vk_descset set;
    vkmd_vk_buffer atoms, images, pairs, grid;
    const vkmd_vk_buffer *energies;
    vkmd_uff_surface_push push;
    int32_t replica_count;
    int mode;
    uint32_t groups;
};

/* The device tables of a surface: images, pairs (float vec4). */
static vkmd_result upload_tables(vkmd_vk_context *ctx, const vkmd_uff_surface *s, int staging,
                                 vkmd_vk_buffer *images, vkmd_vk_buffer *pairs)
{
    vkmd_result res = VKMD_OK;
    const size_t ni = (size_t)(s->image_count > 0 ? s->image_count : 1);
    const size_t np = (size_t)s->channel_count * s->kind_count;
    vkmd_gpu_vec4 *img = calloc(ni, sizeof *img);
    vkmd_gpu_vec4 *pr = calloc(np, sizeof *pr);
    if (!img || !pr)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface tables"));
    for (int32_t i = 0; i < s->image_count; ++i)
        img[i] = (vkmd_gpu_vec4){(float)s->image[i][0], (float)s->image[i][1],
                                 (float)s->image[i][2], (float)s->image[i][3]};
    for (size_t i = 0; i < np; ++i)
        pr[i] = (vkmd_gpu_vec4){(float)s->pair[i][0], (float)s->pair[i][1], (float)s->pair[i][2],
                                (float)s->pair[i][3]};
    const vkmd_vk_buffer_desc di = {
        .size = ni * sizeof *img, .force_staging = staging, .name = "surface images"};
    const vkmd_vk_buffer_desc dp = {
        .size = np * sizeof *pr, .force_staging = staging, .name = "surface pairs"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &di, images));
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &dp, pairs));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, images, 0, img, di.size));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, pairs, 0, pr, dp.size));
cleanup:
    free(img);
    free(pr);
    return res;
}

static vkmd_uff_surface_push make_push(const vkmd_uff_surface *s, const double a[2],
                                       const double b[2])
{
    vkmd_uff_surface_push p = {0};
    p.counts = (vkmd_gpu_uvec4){0, (uint32_t)s->image_count, (uint32_t)s->kind_count,
                                (uint32_t)s->channel_count};
    p.cell = (vkmd_gpu_vec4){(float)a[0], (float)a[1], (float)b[0], (float)b[1]};
    p.inv_cell = (vkmd_gpu_vec4){(float)s->inv[0][0], (float)s->inv[0][1], (float)s->inv[1][0],
                                 (float)s->inv[1][1]};
    p.zgrid.z = (float)(s->cutoff_a * s->cutoff_a);
    return p;
}

static uint32_t group_count(const vkmd_vk_context *ctx, uint32_t items, uint32_t wg)
{
    uint32_t groups = vkmd_vk_div_up(items, wg);
    const uint32_t max = ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    return groups < max ? groups : max;
}

vkmd_result vkmd_pass_uff_surface_create(vkmd_vk_context *ctx, const vkmd_uff_surface *s,
                                         const vkmd_uff_batch *batch, const int32_t *atom_channel,
                                         const vkmd_vk_buffer *positions,
                                         const vkmd_vk_buffer *forces,
                                         const vkmd_vk_buffer *energies,
                                         const vkmd_pass_uff_surface_desc *desc,
                                         vkmd_pass_uff_surface **out_pass)
{
    vkmd_result res = VKMD_OK;
    *out_pass = NULL;
    const vkmd_pass_uff_surface_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    const int32_t n = batch->atom_count;
    if (n < 1 || !positions || !forces || !energies || positions->size < 16 * (VkDeviceSize)n ||
        forces->size < 3 * (VkDeviceSize)n * sizeof(int64_t) ||
        energies->size <
            (VkDeviceSize)batch->replica_count * VKMD_UFF_ENERGY_STRIDE * sizeof(int64_t))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF surface pass: empty batch or buffers too small for it");
    if (desc->mode == VKMD_UFF_SURFACE_MODE_GRID) {
        if (!desc->grid || !desc->grid->coef)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "UFF surface pass: grid mode needs a prefiltered grid");
        if ((res = vkmd_uff_surface_grid_check(s, desc->grid)) != VKMD_OK)
            return res;
    } else if (desc->mode != VKMD_UFF_SURFACE_MODE_DIRECT) {
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF surface pass: unknown mode %d",
                         desc->mode);
    }
    const uint32_t wg =
        desc->workgroup_size ? desc->workgroup_size : VKMD_UFF_SURFACE_WORKGROUP_SIZE;
    if ((wg & (wg - 1)) != 0 || wg > ctx->info.max_workgroup_invocations)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF surface pass: workgroup size %u is not a power of two <= %u", wg,
                         ctx->info.max_workgroup_invocations);

    vkmd_gpu_uvec4 *info = NULL;
    float *coef = NULL;
    vkmd_pass_uff_surface *p = calloc(1, sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF surface pass");
    p->mode = desc->mode;
    p->replica_count = batch->replica_count;
    p->energies = energies;
    const int st = desc->force_staging;

    info = calloc((size_t)n, sizeof *info);
    if (!info)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF surface atoms"));
    for (int32_t r = 0; r < batch->replica_count; ++r) {
        const int32_t off = batch->replica_atom_offset[r];
        for (int32_t a = 0; a < vkmd_uff_batch_replica_atoms(batch, r); ++a) {
            const int32_t c = atom_channel[off + a];
            if (c < 0 || c >= s->channel_count)
                VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                   "UFF surface pass: atom %d of replica %d has channel %d, the "
                                   "surface has %d",
                                   a + 1, r, c, s->channel_count));
            info[off + a] = (vkmd_gpu_uvec4){(uint32_t)c, (uint32_t)r, 0, 0};
        }
    }
    const vkmd_vk_buffer_desc da = {
        .size = (VkDeviceSize)n * sizeof *info, .force_staging = st, .name = "surface atoms"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &da, &p->atoms));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->atoms, 0, info, da.size));
    VKMD_TRY(upload_tables(ctx, s, st, &p->images, &p->pairs));

    p->push = make_push(s, s->a, s->b);
    p->push.counts.x = (uint32_t)n;
    size_t coef_count = 1;
    if (p->mode == VKMD_UFF_SURFACE_MODE_GRID) {
        const vkmd_uff_surface_grid *g = desc->grid;
        coef_count = (size_t)g->nx * g->ny * (size_t)(g->nz + 2) * (size_t)s->channel_count;
        coef = malloc(coef_count * sizeof *coef);
        if (!coef)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface grid coefficients"));
        for (size_t i = 0; i < coef_count; ++i)
            coef[i] = (float)g->coef[i];
        p->push.grid_n = (vkmd_gpu_uvec4){(uint32_t)g->nx, (uint32_t)g->ny, (uint32_t)g->nz,
                                          (uint32_t)vkmd_uff_surface_grid_points(g)};
        p->push.zgrid.x = (float)g->z0;
        p->push.zgrid.y = (float)g->dz;
    }
    const vkmd_vk_buffer_desc dg = {
        .size = coef_count * sizeof(float), .force_staging = st, .name = "surface grid"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &dg, &p->grid));
    if (coef)
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->grid, 0, coef, dg.size));

    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                  {VKMD_SPEC_UFF_SURFACE_FORM, (uint32_t)s->form}};
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "UFF surface pass",
                               p->mode == VKMD_UFF_SURFACE_MODE_GRID ? "uff_surface_grid_eval.comp"
                                                                     : "uff_surface_direct.comp",
                               &shader));
    const vkmd_vk_pipeline_desc pd = {
        .shader = shader,
        .buffer_count = VKMD_UFF_SURFACE_BINDING_COUNT,
        .push_size = sizeof(vkmd_uff_surface_push),
        .specs = specs,
        .spec_count = 2,
    };
    VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pipeline));
    const vkmd_vk_buffer *bufs[VKMD_UFF_SURFACE_BINDING_COUNT];
    bufs[VKMD_UFF_SURFACE_BINDING_POSITIONS] = positions;
    bufs[VKMD_UFF_SURFACE_BINDING_FORCES] = forces;
    bufs[VKMD_UFF_SURFACE_BINDING_ENERGIES] = energies;
    bufs[VKMD_UFF_SURFACE_BINDING_ATOMS] = &p->atoms;
    bufs[VKMD_UFF_SURFACE_BINDING_IMAGES] = &p->images;
    bufs[VKMD_UFF_SURFACE_BINDING_PAIRS] = &p->pairs;
    bufs[VKMD_UFF_SURFACE_BINDING_GRID] = &p->grid;
    VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pipeline, bufs, &p->set));
    p->groups = group_count(ctx, (uint32_t)n, wg);
    vkmd_log_debug("UFF surface pass (%s): %d atoms, %d images, %u groups of %u",
                   p->mode == VKMD_UFF_SURFACE_MODE_GRID ? "grid" : "direct", n, s->image_count,
                   p->groups, wg);
    free(info);
    free(coef);
    *out_pass = p;
    return VKMD_OK;
cleanup:
    free(info);
    free(coef);
    vkmd_pass_uff_surface_destroy(ctx, p);
    return res;
}

void vkmd_pass_uff_surface_record(const vkmd_pass_uff_surface *pass, VkCommandBuffer cb)
{
    vkmd_vk_dispatch(cb, &pass->pipeline, &pass->set, &pass->push, pass->groups, 1, 1);
}

vkmd_result vkmd_pass_uff_surface_readback(vkmd_vk_context *ctx, const vkmd_pass_uff_surface *pass,
                                           double *out_energy, int32_t *out_below)
{
    const size_t count = (size_t)pass->replica_count * VKMD_UFF_ENERGY_STRIDE;
    int64_t *rows = malloc(count * sizeof *rows);
    if (!rows)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface energy readback");
    vkmd_result res = vkmd_vk_buffer_readback(ctx, pass->energies, 0, rows, count * sizeof *rows);
    if (res == VKMD_OK)
        for (int32_t r = 0; r < pass->replica_count; ++r) {
            const int64_t *row = rows + (size_t)r * VKMD_UFF_ENERGY_STRIDE;
            if (out_energy)
                out_energy[r] = (double)row[VKMD_UFF_ENERGY_SURFACE] * VKMD_FIXED_INV_SCALE;
            if (out_below)
                out_below[r] = (int32_t)row[VKMD_UFF_ENERGY_SURFACE_BELOW];
        }
    free(rows);
    return res;
}

vkmd_result vkmd_pass_uff_surface_grid_compute(vkmd_vk_context *ctx, const vkmd_uff_surface *s,
                                               vkmd_uff_surface_grid *g)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_pipeline pipeline = {0};
    vkmd_vk_descset set = {0};
    vkmd_vk_buffer dummy = {0}, images = {0}, pairs = {0}, grid = {0};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    const int64_t points = vkmd_uff_surface_grid_points(g);
    const int64_t total = points * g->channel_count;
    if (total >= ((int64_t)1 << 31))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface grid: %lld values, more than 2^31: use a coarser spacing",
                         (long long)total);
    VKMD_TRY(upload_tables(ctx, s, 0, &images, &pairs));
    const vkmd_vk_buffer_desc dd = {.size = 64, .name = "surface unused"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &dd, &dummy));
    const vkmd_vk_buffer_desc dg = {.size = (VkDeviceSize)total * sizeof(float),
                                    .name = "surface grid values"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &dg, &grid));
    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, VKMD_UFF_SURFACE_WORKGROUP_SIZE},
                                  {VKMD_SPEC_UFF_SURFACE_FORM, (uint32_t)s->form}};
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "UFF surface grid", "uff_surface_grid_build.comp", &shader));
    const vkmd_vk_pipeline_desc pd = {
        .shader = shader,
        .buffer_count = VKMD_UFF_SURFACE_BINDING_COUNT,
        .push_size = sizeof(vkmd_uff_surface_push),
        .specs = specs,
        .spec_count = 2,
    };
    VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &pipeline));
    const vkmd_vk_buffer *bufs[VKMD_UFF_SURFACE_BINDING_COUNT] = {&dummy,  &dummy, &dummy, &dummy,
                                                                  &images, &pairs, &grid};
    VKMD_TRY(vkmd_vk_descset_create(ctx, &pipeline, bufs, &set));
    /* the grid's own cell (equal to the surface's) places its points */
    vkmd_uff_surface_push push = make_push(s, g->a, g->b);
    push.grid_n =
        (vkmd_gpu_uvec4){(uint32_t)g->nx, (uint32_t)g->ny, (uint32_t)g->nz, (uint32_t)points};
    push.zgrid.x = (float)g->z0;
    push.zgrid.y = (float)g->dz;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_vk_dispatch(cb, &pipeline, &set, &push,
                     group_count(ctx, (uint32_t)total, VKMD_UFF_SURFACE_WORKGROUP_SIZE), 1, 1);
    vkmd_vk_barrier_compute_to_transfer(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &grid, 0, g->values, dg.size));
    VKMD_TRY(vkmd_uff_surface_grid_prefilter(g));
cleanup:
    vkmd_vk_descset_destroy(ctx, &set);
    vkmd_vk_pipeline_destroy(ctx, &pipeline);
    vkmd_vk_buffer_destroy(ctx, &grid);
    vkmd_vk_buffer_destroy(ctx, &dummy);
    vkmd_vk_buffer_destroy(ctx, &pairs);
    vkmd_vk_buffer_destroy(ctx, &images);
    return res;
}

void vkmd_pass_uff_surface_destroy(vkmd_vk_context *ctx, vkmd_pass_uff_surface *pass)
{
    if (!pass)
        return;
    vkmd_vk_descset_destroy(ctx, &pass->set);
    vkmd_vk_pipeline_destroy(ctx, &pass->pipeline);
    vkmd_vk_buffer_destroy(ctx, &pass->grid);
    vkmd_vk_buffer_destroy(ctx, &pass->pairs);
    vkmd_vk_buffer_destroy(ctx, &pass->images);
    vkmd_vk_buffer_destroy(ctx, &pass->atoms);
    free(pass);
}
