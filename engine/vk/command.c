/* One-shot and reusable command buffers (see command.h). One-shot submits use
 * a temporary fence rather than vkQueueWaitIdle so that they do not wait for
 * unrelated work in flight on the same queue. */
#include "vk/command.h"
#include "vk/stats.h"
#include "vk/check.h"
#include "vk/fault.h"

static vkmd_result allocate(vkmd_vk_context *ctx, VkCommandBuffer *out_cb)
{
    vkmd_result res = VKMD_OK;
    const VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VKMD_VK_CHECK(vkAllocateCommandBuffers(ctx->device, &ai, out_cb));
cleanup:
    return res;
}

static vkmd_result submit(vkmd_vk_context *ctx, VkCommandBuffer cb, VkFence fence)
{
    vkmd_result res = VKMD_OK;
    const VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cb,
    };
    const VkResult injected = vkmd_vk_fault(VKMD_VK_FAULT_SUBMIT);
    if (injected != VK_SUCCESS) {
        res = vkmd_vk_fail(injected, __FILE__, __LINE__, "vkQueueSubmit [VKMD_FAULT]");
        goto cleanup;
    }
    VKMD_VK_CHECK(vkQueueSubmit(ctx->queue, 1, &si, fence));
    vkmd_vk_stats_add_submits(1);
cleanup:
    return res;
}

static vkmd_result wait_fence(vkmd_vk_context *ctx, VkFence fence)
{
    vkmd_result res = VKMD_OK;
    VKMD_VK_CHECK(vkWaitForFences(ctx->device, 1, &fence, VK_TRUE, ctx->fence_timeout_ns));
cleanup:
    return res;
}

vkmd_result vkmd_vk_oneshot_begin(vkmd_vk_context *ctx, VkCommandBuffer *out_cb)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(allocate(ctx, &cb));
    const VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VKMD_VK_CHECK(vkBeginCommandBuffer(cb, &bi));
    *out_cb = cb;
    cb = VK_NULL_HANDLE;
cleanup:
    if (cb)
        vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cb);
    return res;
}

vkmd_result vkmd_vk_oneshot_submit(vkmd_vk_context *ctx, VkCommandBuffer cb)
{
    vkmd_result res = VKMD_OK;
    VkFence fence = VK_NULL_HANDLE;
    VKMD_VK_CHECK(vkEndCommandBuffer(cb));
    VKMD_TRY(vkmd_vk_deferred_failure(ctx)); /* a dispatch whose pipeline did not compile */
    const VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKMD_VK_CHECK(vkCreateFence(ctx->device, &fi, NULL, &fence));
    VKMD_TRY(submit(ctx, cb, fence));
    VKMD_TRY(wait_fence(ctx, fence));
cleanup:
    /* After a failed wait the buffer may still be in use: only a lost device
     * (where everything is dead anyway) or a timeout gets here, so idle first. */
    if (res != VKMD_OK && fence)
        vkDeviceWaitIdle(ctx->device);
    if (fence)
        vkDestroyFence(ctx->device, fence, NULL);
    vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cb);
    return res;
}

vkmd_result vkmd_vk_cmd_create(vkmd_vk_context *ctx, vkmd_vk_cmd *out_cmd)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_cmd cmd = {0};
    VKMD_TRY(allocate(ctx, &cmd.cb));
    const VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                  .flags = VK_FENCE_CREATE_SIGNALED_BIT};
    VKMD_VK_CHECK(vkCreateFence(ctx->device, &fi, NULL, &cmd.fence));
    *out_cmd = cmd;
    return VKMD_OK;
cleanup:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    return res;
}

void vkmd_vk_cmd_destroy(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd)
{
    if (!cmd)
        return;
    if (cmd->pending && vkmd_vk_cmd_wait(ctx, cmd) != VKMD_OK)
        vkDeviceWaitIdle(ctx->device);
    if (cmd->fence)
        vkDestroyFence(ctx->device, cmd->fence, NULL);
    if (cmd->cb)
        vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cmd->cb);
    *cmd = (vkmd_vk_cmd){0};
}

vkmd_result vkmd_vk_cmd_begin(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd)
{
    vkmd_result res = VKMD_OK;
    if (cmd->pending)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "command buffer re-recorded while its submission is pending");
    const VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VKMD_VK_CHECK(vkResetCommandBuffer(cmd->cb, 0));
    VKMD_VK_CHECK(vkBeginCommandBuffer(cmd->cb, &bi));
cleanup:
    return res;
}

vkmd_result vkmd_vk_cmd_end(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd)
{
    vkmd_result res = VKMD_OK;
    VKMD_VK_CHECK(vkEndCommandBuffer(cmd->cb));
    VKMD_TRY(vkmd_vk_deferred_failure(ctx)); /* a dispatch whose pipeline did not compile */
cleanup:
    return res;
}

vkmd_result vkmd_vk_cmd_submit(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd)
{
    vkmd_result res = VKMD_OK;
    VKMD_TRY(vkmd_vk_cmd_wait(ctx, cmd));
    VKMD_VK_CHECK(vkResetFences(ctx->device, 1, &cmd->fence));
    VKMD_TRY(submit(ctx, cmd->cb, cmd->fence));
    cmd->pending = 1;
cleanup:
    return res;
}

vkmd_result vkmd_vk_cmd_wait(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd)
{
    if (!cmd->pending)
        return VKMD_OK;
    vkmd_result res = wait_fence(ctx, cmd->fence);
    if (res == VKMD_OK)
        cmd->pending = 0;
    return res;
}

vkmd_result vkmd_vk_cmd_submit_wait(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd)
{
    vkmd_result res = vkmd_vk_cmd_submit(ctx, cmd);
    return res == VKMD_OK ? vkmd_vk_cmd_wait(ctx, cmd) : res;
}
