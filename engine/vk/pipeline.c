/* Compute pipelines, descriptor sets and dispatch (see pipeline.h). */
#include "vk/pipeline.h"
#include "core/clock.h"
#include "core/log.h"
#include "vk/stats.h"
#include "vk/check.h"
#include "vk/fault.h"
#include "vk/spirv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t vkmd_vk_spec_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

_Static_assert(sizeof(((vkmd_vk_pipeline_entry *)0)->spec_ids) ==
                   VKMD_VK_MAX_SPECS * sizeof(uint32_t),
               "a kept pipeline holds every specialization constant for its compile");

/* Compiles the shader with its specialization constants for `layout`. */
static vkmd_result compile(vkmd_vk_context *ctx, const vkmd_spirv *spv, VkPipelineLayout layout,
                           uint32_t spec_count, const uint32_t *ids, const uint32_t *values,
                           VkPipeline *out)
{
    vkmd_result res = VKMD_OK;
    VkShaderModule module = VK_NULL_HANDLE;
    const VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = spv->size,
        .pCode = spv->code,
    };
    VKMD_VK_CHECK(vkCreateShaderModule(ctx->device, &mi, NULL, &module));
    VkSpecializationMapEntry entries[VKMD_VK_MAX_SPECS];
    for (uint32_t i = 0; i < spec_count; ++i)
        entries[i] = (VkSpecializationMapEntry){
            .constantID = ids[i],
            .offset = i * (uint32_t)sizeof(uint32_t),
            .size = sizeof(uint32_t),
        };
    const VkSpecializationInfo si = {
        .mapEntryCount = spec_count,
        .pMapEntries = entries,
        .dataSize = spec_count * sizeof(uint32_t),
        .pData = values,
    };
    const VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage =
            {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
                .pSpecializationInfo = spec_count ? &si : NULL,
            },
        .layout = layout,
    };
    const VkResult injected = vkmd_vk_fault(VKMD_VK_FAULT_COMPILE);
    if (injected != VK_SUCCESS) {
        res = vkmd_vk_fail(injected, __FILE__, __LINE__, "vkCreateComputePipelines [VKMD_FAULT]");
        goto cleanup;
    }
    const double t0 = vkmd_clock_now_s();
    VKMD_VK_CHECK(vkCreateComputePipelines(ctx->device, VK_NULL_HANDLE, 1, &ci, NULL, out));
    const double dt = vkmd_clock_now_s() - t0;
    ctx->pipeline_compile_s += dt;
    ctx->pipeline_compiles += 1;
    vkmd_log_debug("vk: %s compiled in %.1f ms (%zu bytes of SPIR-V, %u spec constants)", spv->name,
                   1e3 * dt, spv->size, spec_count);
cleanup:
    if (module)
        vkDestroyShaderModule(ctx->device, module, NULL);
    return res;
}

vkmd_result vkmd_vk_pipeline_create(vkmd_vk_context *ctx, const vkmd_vk_pipeline_desc *desc,
                                    vkmd_vk_pipeline *out_pipeline)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_pipeline p = {0};
    *out_pipeline = p;

    const vkmd_spirv *spv = desc->shader ? vkmd_spirv_find(desc->shader) : NULL;
    if (!spv)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no embedded shader named '%s'",
                         desc->shader ? desc->shader : "(null)");
    if (desc->buffer_count > VKMD_VK_MAX_BUFFERS || desc->texel_count > VKMD_VK_MAX_TEXELS ||
        desc->spec_count > VKMD_VK_MAX_SPECS || desc->push_size % 4 != 0 || desc->push_size > 128)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: %u buffers (max %d), %u texel buffers (max %d), %u spec constants "
                         "(max %d), push %u bytes (multiple of 4, max 128)",
                         desc->shader, desc->buffer_count, VKMD_VK_MAX_BUFFERS, desc->texel_count,
                         VKMD_VK_MAX_TEXELS, desc->spec_count, VKMD_VK_MAX_SPECS, desc->push_size);
    if (desc->buffer_count > ctx->limits.maxPerStageDescriptorStorageBuffers)
        return vkmd_fail(
            VKMD_ERROR_UNSUPPORTED, "%s: %u storage buffers, the device allows %u per shader stage",
            desc->shader, desc->buffer_count, ctx->limits.maxPerStageDescriptorStorageBuffers);
    if (desc->texel_count > ctx->limits.maxPerStageDescriptorStorageImages)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: %u storage texel buffers, the device allows %u per shader stage",
                         desc->shader, desc->texel_count,
                         ctx->limits.maxPerStageDescriptorStorageImages);
    snprintf(p.name, sizeof p.name, "%s", desc->shader);
    p.buffer_count = desc->buffer_count;
    p.texel_count = desc->texel_count;
    p.texel_scalar_mask = desc->texel_scalar_mask;
    p.push_size = desc->push_size;

    /* The key: name, NUL, buffer count, texel count and kinds, push size,
     * (id, value) per spec. */
    unsigned char key[64 + 4 * (4 + 2 * VKMD_VK_MAX_SPECS)];
    size_t key_size = strlen(p.name) + 1;
    memcpy(key, p.name, key_size);
    const uint32_t head[4] = {desc->buffer_count, desc->texel_count, desc->texel_scalar_mask,
                              desc->push_size};
    memcpy(key + key_size, head, sizeof head);
    key_size += sizeof head;
    for (uint32_t i = 0; i < desc->spec_count; ++i) {
        const uint32_t kv[2] = {desc->specs[i].id, desc->specs[i].value};
        memcpy(key + key_size, kv, sizeof kv);
        key_size += sizeof kv;
    }
    for (uint32_t i = 0; i < ctx->pipeline_count; ++i) {
        const vkmd_vk_pipeline_entry *e = &ctx->pipelines[i];
        if (e->key_size == key_size && !memcmp(e->key, key, key_size)) {
            p.set_layout = e->set_layout;
            p.layout = e->layout;
            p.pipeline = e->pipeline;
            p.ctx = ctx;
            p.entry = i + 1;
            ctx->pipeline_reuses += 1;
            *out_pipeline = p;
            return VKMD_OK;
        }
    }
    const int keep = ctx->pipeline_count < VKMD_VK_PIPELINES_KEPT;
    if (keep && ctx->pipeline_count == ctx->pipeline_capacity) {
        const uint32_t cap = ctx->pipeline_capacity ? 2 * ctx->pipeline_capacity : 64;
        vkmd_vk_pipeline_entry *grown = realloc(ctx->pipelines, cap * sizeof *grown);
        if (!grown)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", desc->shader);
        ctx->pipelines = grown;
        ctx->pipeline_capacity = cap;
    }
    unsigned char *kept_key = keep ? malloc(key_size) : NULL;
    if (keep && !kept_key)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", desc->shader);
    if (keep)
        memcpy(kept_key, key, key_size);

    VkDescriptorSetLayoutBinding bindings[VKMD_VK_MAX_BUFFERS + VKMD_VK_MAX_TEXELS];
    const uint32_t binding_count = desc->buffer_count + desc->texel_count;
    for (uint32_t i = 0; i < binding_count; ++i)
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = i < desc->buffer_count ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                     : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    const VkDescriptorSetLayoutCreateInfo sli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = binding_count,
        .pBindings = bindings,
    };
    VKMD_VK_CHECK(vkCreateDescriptorSetLayout(ctx->device, &sli, NULL, &p.set_layout));

    const VkPushConstantRange range = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = desc->push_size};
    const VkPipelineLayoutCreateInfo pli = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &p.set_layout,
        .pushConstantRangeCount = desc->push_size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    VKMD_VK_CHECK(vkCreatePipelineLayout(ctx->device, &pli, NULL, &p.layout));

    uint32_t ids[VKMD_VK_MAX_SPECS] = {0}, values[VKMD_VK_MAX_SPECS] = {0};
    for (uint32_t i = 0; i < desc->spec_count; ++i) {
        ids[i] = desc->specs[i].id;
        values[i] = desc->specs[i].value;
    }
    if (keep) { /* compiled at its first dispatch (vkmd_vk_pipeline_handle) */
        vkmd_vk_pipeline_entry *e = &ctx->pipelines[ctx->pipeline_count];
        *e = (vkmd_vk_pipeline_entry){.key = kept_key,
                                      .key_size = key_size,
                                      .set_layout = p.set_layout,
                                      .layout = p.layout,
                                      .spv = spv,
                                      .spec_count = desc->spec_count};
        memcpy(e->spec_ids, ids, sizeof ids);
        memcpy(e->spec_values, values, sizeof values);
        p.ctx = ctx;
        p.entry = ++ctx->pipeline_count;
        ctx->pipeline_deferred += 1;
        kept_key = NULL;
    } else {
        VKMD_TRY(compile(ctx, spv, p.layout, desc->spec_count, ids, values, &p.pipeline));
        p.owned = 1;
    }
    *out_pipeline = p;
    p = (vkmd_vk_pipeline){0};
cleanup:
    if (res != VKMD_OK)
        res = vkmd_vk_fail_prefix(res, desc->shader);
    free(kept_key);
    p.owned = 1;
    vkmd_vk_pipeline_destroy(ctx, &p);
    return res;
}

void vkmd_vk_pipeline_destroy(vkmd_vk_context *ctx, vkmd_vk_pipeline *pipeline)
{
    if (!pipeline)
        return;
    if (pipeline->owned) { /* else the objects are the context's (vkmd_vk_context.pipelines) */
        if (pipeline->pipeline)
            vkDestroyPipeline(ctx->device, pipeline->pipeline, NULL);
        if (pipeline->layout)
            vkDestroyPipelineLayout(ctx->device, pipeline->layout, NULL);
        if (pipeline->set_layout)
            vkDestroyDescriptorSetLayout(ctx->device, pipeline->set_layout, NULL);
    }
    *pipeline = (vkmd_vk_pipeline){0};
}

int vkmd_vk_texels_fit(const vkmd_vk_context *ctx, VkDeviceSize texels)
{
    return texels <= ctx->limits.maxTexelBufferElements;
}

int vkmd_vk_texel_reads(const vkmd_vk_context *ctx)
{
    const char *e = getenv("VKMD_TEXEL_READS");
    if (e && *e)
        return strcmp(e, "0") != 0;
    return ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

vkmd_result vkmd_vk_descset_create(vkmd_vk_context *ctx, const vkmd_vk_pipeline *pipeline,
                                   const vkmd_vk_buffer *const *buffers, vkmd_vk_descset *out_set)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_descset s = {0};
    *out_set = s;
    const uint32_t n = pipeline->buffer_count, t = pipeline->texel_count;
    for (uint32_t i = 0; i < n + t; ++i)
        if (!buffers[i] || !buffers[i]->buffer)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: binding %u has no buffer",
                             pipeline->name, i);
    for (uint32_t i = n; i < n + t; ++i) {
        const VkDeviceSize texel = (pipeline->texel_scalar_mask >> (i - n)) & 1u ? 4 : 16;
        if (!vkmd_vk_texels_fit(ctx, buffers[i]->size / texel) || buffers[i]->size < texel)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "%s: binding %u: a texel view of %llu bytes (the device allows "
                             "%u texels of %u bytes)",
                             pipeline->name, i, (unsigned long long)buffers[i]->size,
                             ctx->limits.maxTexelBufferElements, (unsigned)texel);
    }
    /* A pool may not be created with zero pool sizes' descriptors. */
    const VkDescriptorPoolSize sizes[2] = {
        {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = n ? n : 1},
        {.type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, .descriptorCount = t}};
    const VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = t ? 2 : 1,
        .pPoolSizes = sizes,
    };
    VKMD_VK_CHECK(vkCreateDescriptorPool(ctx->device, &pi, NULL, &s.pool));
    const VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = s.pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &pipeline->set_layout,
    };
    VKMD_VK_CHECK(vkAllocateDescriptorSets(ctx->device, &ai, &s.set));
    VkDescriptorBufferInfo infos[VKMD_VK_MAX_BUFFERS];
    VkWriteDescriptorSet writes[VKMD_VK_MAX_BUFFERS + VKMD_VK_MAX_TEXELS];
    for (uint32_t i = 0; i < n; ++i) {
        infos[i] = (VkDescriptorBufferInfo){
            .buffer = buffers[i]->buffer, .offset = 0, .range = VK_WHOLE_SIZE};
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = s.set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &infos[i],
        };
    }
    for (uint32_t k = 0; k < t; ++k) {
        const int scalar = (pipeline->texel_scalar_mask >> k) & 1u;
        const VkDeviceSize texel = scalar ? 4 : 16;
        const VkBufferViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
            .buffer = buffers[n + k]->buffer,
            .format = scalar ? VK_FORMAT_R32_UINT : VK_FORMAT_R32G32B32A32_UINT,
            .offset = 0,
            .range = buffers[n + k]->size / texel * texel,
        };
        VKMD_VK_CHECK(vkCreateBufferView(ctx->device, &vi, NULL, &s.views[k]));
        writes[n + k] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = s.set,
            .dstBinding = n + k,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
            .pTexelBufferView = &s.views[k],
        };
    }
    if (n + t)
        vkUpdateDescriptorSets(ctx->device, n + t, writes, 0, NULL);
    *out_set = s;
    s = (vkmd_vk_descset){0};
cleanup:
    vkmd_vk_descset_destroy(ctx, &s);
    return res;
}

void vkmd_vk_descset_destroy(vkmd_vk_context *ctx, vkmd_vk_descset *set)
{
    if (!set)
        return;
    if (set->pool) /* frees the set with it */
        vkDestroyDescriptorPool(ctx->device, set->pool, NULL);
    for (int k = 0; k < VKMD_VK_MAX_TEXELS; ++k)
        if (set->views[k])
            vkDestroyBufferView(ctx->device, set->views[k], NULL);
    *set = (vkmd_vk_descset){0};
}

vkmd_result vkmd_vk_pipeline_compile(const vkmd_vk_pipeline *pipeline)
{
    if (pipeline->pipeline || !pipeline->entry)
        return VKMD_OK;
    vkmd_vk_context *ctx = pipeline->ctx;
    vkmd_vk_pipeline_entry *e = &ctx->pipelines[pipeline->entry - 1];
    if (e->pipeline)
        return VKMD_OK;
    const vkmd_result res =
        compile(ctx, e->spv, e->layout, e->spec_count, e->spec_ids, e->spec_values, &e->pipeline);
    if (res != VKMD_OK)
        return vkmd_vk_fail_prefix(res, pipeline->name);
    ctx->pipeline_deferred -= 1;
    return VKMD_OK;
}

VkPipeline vkmd_vk_pipeline_handle(const vkmd_vk_pipeline *pipeline)
{
    if (pipeline->pipeline || !pipeline->entry)
        return pipeline->pipeline;
    vkmd_vk_context *ctx = pipeline->ctx;
    const vkmd_result res = vkmd_vk_pipeline_compile(pipeline);
    if (res != VKMD_OK) {
        if (ctx->deferred_failure == VKMD_OK) {
            ctx->deferred_failure = res;
            snprintf(ctx->deferred_message, sizeof ctx->deferred_message, "%s", vkmd_last_error());
        }
        return VK_NULL_HANDLE;
    }
    return ctx->pipelines[pipeline->entry - 1].pipeline;
}

void vkmd_vk_dispatch(VkCommandBuffer cb, const vkmd_vk_pipeline *pipeline,
                      const vkmd_vk_descset *set, const void *push, uint32_t groups_x,
                      uint32_t groups_y, uint32_t groups_z)
{
    const VkPipeline handle = vkmd_vk_pipeline_handle(pipeline);
    if (!handle) /* the context keeps the failure for vkmd_vk_cmd_end */
        return;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, handle);

    if (set && set->set)
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1,
                                &set->set, 0, NULL);
    if (pipeline->push_size && push)
        vkCmdPushConstants(cb, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           pipeline->push_size, push);
    if (groups_x && groups_y && groups_z) {
        vkCmdDispatch(cb, groups_x, groups_y, groups_z);
        vkmd_vk_stats_add_dispatches(1);
    }
}
