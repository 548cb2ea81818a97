/* The Vulkan interop of the public API (include/vkmd_vulkan.h): the engine
 * context's Vulkan objects, the MD's buffers, and a presentable context. */
#include "vkmd_vulkan.h"
#include "api/api_context.h"
#include "api/api_dynamics.h"
#include "vk/buffer.h"

vkmd_result vkmd_context_create_presentable(const vkmd_context_desc *desc,
                                            const vkmd_context_present_desc *present,
                                            vkmd_context **out_ctx)
{
    vkmd_vk_context_desc extra = {0};
    if (present) {
        extra.instance_extensions = present->instance_extensions;
        extra.instance_extension_count = present->instance_extension_count;
        extra.present_support = present->present_support;
        extra.present_user = present->present_user;
    }
    return vkmd_api_context_create(desc, &extra, out_ctx);
}

VkInstance vkmd_context_vk_instance(const vkmd_context *ctx)
{
    return ctx ? ctx->vk->instance : VK_NULL_HANDLE;
}

VkPhysicalDevice vkmd_context_vk_physical_device(const vkmd_context *ctx)
{
    return ctx ? ctx->vk->physical : VK_NULL_HANDLE;
}

VkDevice vkmd_context_vk_device(const vkmd_context *ctx)
{
    return ctx ? ctx->vk->device : VK_NULL_HANDLE;
}

VkQueue vkmd_context_vk_queue(const vkmd_context *ctx, uint32_t *out_family)
{
    if (out_family)
        *out_family = ctx ? ctx->vk->queue_family : UINT32_MAX;
    return ctx ? ctx->vk->queue : VK_NULL_HANDLE;
}

VkQueue vkmd_context_vk_graphics_queue(const vkmd_context *ctx, uint32_t *out_family)
{
    if (out_family)
        *out_family = ctx ? ctx->vk->graphics_family : UINT32_MAX;
    return ctx ? ctx->vk->graphics_queue : VK_NULL_HANDLE;
}

static VkBuffer buffer_of(const vkmd_vk_buffer *b, VkDeviceSize *out_bytes)
{
    if (out_bytes)
        *out_bytes = b ? b->size : 0;
    return b ? b->buffer : VK_NULL_HANDLE;
}

VkBuffer vkmd_dynamics_vk_positions(const vkmd_dynamics *dyn, VkDeviceSize *out_bytes)
{
    return buffer_of(dyn ? vkmd_forcefield_positions(vkmd_md_forcefield(dyn->md)) : NULL,
                     out_bytes);
}

VkBuffer vkmd_dynamics_vk_velocities(const vkmd_dynamics *dyn, VkDeviceSize *out_bytes)
{
    return buffer_of(dyn ? vkmd_md_velocities_buffer(dyn->md) : NULL, out_bytes);
}
