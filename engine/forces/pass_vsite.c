/* The virtual-site pass (pass_vsite.h): one records buffer, two pipelines
 * (build, spread) of shaders/vsite.comp over the same bindings. */
#include "forces/pass_vsite.h"

#include "common/layout_vsite.h"
#include "core/log.h"
#include "forces/fixed_point.h"
#include "forces/positions.h"
#include "system/vsite.h"
#include "vk/barrier.h"
#include "vk/pipeline.h"

#include <stdlib.h>

_Static_assert(VKMD_VSITE_KIND_AVERAGE3 == VKMD_VSITE_AVERAGE3, "vsite kinds agree");
_Static_assert(VKMD_VSITE_KIND_OUT_OF_PLANE == VKMD_VSITE_OUT_OF_PLANE, "vsite kinds agree");

struct vkmd_pass_vsite {
    vkmd_vk_pipeline pipeline[2]; /* build, spread */
    vkmd_vk_descset set;
    vkmd_vk_buffer records;
    vkmd_vsite_push push;
    uint32_t groups;
};

vkmd_result vkmd_pass_vsite_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                   const vkmd_pass_vsite_desc *desc, vkmd_pass_vsite **out_pass)
{
    vkmd_result res = VKMD_OK;
    *out_pass = NULL;
    if (sys->vsite_count <= 0 || !desc || !desc->positions || !desc->accum)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "virtual-site pass: needs sites (%d), positions and accumulators",
                         sys->vsite_count);
    if (desc->accum->atom_count != sys->atom_count ||
        desc->positions->size < (VkDeviceSize)sys->atom_count * 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "virtual-site pass: buffers sized for %d atoms, system has %d",
                         desc->accum->atom_count, sys->atom_count);
    const char *shader = NULL;
    VKMD_TRY_RETURN(vkmd_fixed_shader(ctx, "virtual-site pass", "vsite.comp", &shader));
    vkmd_vsite_record *recs = calloc((size_t)sys->vsite_count, sizeof *recs);
    vkmd_pass_vsite *p = calloc(1, sizeof *p);
    if (!recs || !p) {
        free(recs);
        free(p);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "virtual-site pass");
    }
    for (int32_t v = 0; v < sys->vsite_count; ++v) {
        const vkmd_vsite *s = &sys->vsites[v];
        recs[v].atoms = (vkmd_gpu_uvec4){(uint32_t)s->site, (uint32_t)s->parents[0],
                                         (uint32_t)s->parents[1], (uint32_t)s->parents[2]};
        recs[v].info = (vkmd_gpu_uvec4){(uint32_t)s->kind, 0, 0, 0};
        recs[v].w = (vkmd_gpu_vec4){(float)s->w[0], (float)s->w[1], (float)s->w[2], 0.0f};
    }
    p->push.vsite_count = (uint32_t)sys->vsite_count;
    p->push.atom_count = (uint32_t)sys->atom_count;
    const uint32_t wg = VKMD_VSITE_WORKGROUP_SIZE;
    for (uint32_t k = 0; k < 2; ++k) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode},
                                      {VKMD_SPEC_VSITE_MODE, k}};
        const vkmd_vk_pipeline_desc pd = {.shader = shader,
                                          .buffer_count = VKMD_VSITE_BINDING_COUNT,
                                          .push_size = sizeof(vkmd_vsite_push),
                                          .specs = specs,
                                          .spec_count = 3};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pipeline[k]));
    }
    const vkmd_vk_buffer_desc bd = {.size = (VkDeviceSize)sys->vsite_count * sizeof *recs,
                                    .force_staging = desc->force_staging,
                                    .name = "virtual sites"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &bd, &p->records));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->records, 0, recs, bd.size));
    const vkmd_vk_buffer *pos_x = NULL;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          sys->atom_count, "virtual-site pass", &pos_x));
    const vkmd_vk_buffer *bufs[VKMD_VSITE_BINDING_COUNT];
    bufs[VKMD_VSITE_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_VSITE_BINDING_POSITIONS_X] = pos_x;
    bufs[VKMD_VSITE_BINDING_FORCES] = &desc->accum->forces;
    bufs[VKMD_VSITE_BINDING_RECORDS] = &p->records;
    VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pipeline[0], bufs, &p->set));
    const uint32_t groups = vkmd_vk_div_up(p->push.vsite_count, wg);
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    p->groups = groups < max_groups ? groups : max_groups;
    vkmd_log_debug("virtual-site pass: %d sites, %u groups of %u", sys->vsite_count, p->groups, wg);
    free(recs);
    *out_pass = p;
    return VKMD_OK;
cleanup:
    free(recs);
    vkmd_pass_vsite_destroy(ctx, p);
    return res;
}

void vkmd_pass_vsite_destroy(vkmd_vk_context *ctx, vkmd_pass_vsite *pass)
{
    if (!pass)
        return;
    vkmd_vk_descset_destroy(ctx, &pass->set);
    vkmd_vk_buffer_destroy(ctx, &pass->records);
    vkmd_vk_pipeline_destroy(ctx, &pass->pipeline[0]);
    vkmd_vk_pipeline_destroy(ctx, &pass->pipeline[1]);
    free(pass);
}

void vkmd_pass_vsite_record_build(const vkmd_pass_vsite *pass, VkCommandBuffer cb)
{
    vkmd_vk_barrier_compute(cb);
    vkmd_vk_dispatch(cb, &pass->pipeline[0], &pass->set, &pass->push, pass->groups, 1, 1);
    vkmd_vk_barrier_compute(cb);
}

void vkmd_pass_vsite_record_spread(const vkmd_pass_vsite *pass, VkCommandBuffer cb)
{
    vkmd_vk_dispatch(cb, &pass->pipeline[1], &pass->set, &pass->push, pass->groups, 1, 1);
    vkmd_vk_barrier_compute(cb);
}
