/* Conditional dispatch (see conditional.h). */
#include "vk/conditional.h"

void vkmd_vk_conditional_begin(const vkmd_vk_context *ctx, VkCommandBuffer cb, VkBuffer buffer,
                               VkDeviceSize offset)
{
    const VkConditionalRenderingBeginInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT,
        .buffer = buffer,
        .offset = offset,
        .flags = VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT,
    };
    ctx->cmd_begin_conditional(cb, &info);
}

void vkmd_vk_conditional_end(const vkmd_vk_context *ctx, VkCommandBuffer cb)
{
    ctx->cmd_end_conditional(cb);
}
