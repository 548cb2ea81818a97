/* Timestamp queries (see timer.h). */
#include "vk/timer.h"
#include "vk/check.h"

vkmd_result vkmd_vk_timer_create(vkmd_vk_context *ctx, uint32_t capacity, vkmd_vk_timer *out_timer)
{
    vkmd_result res = VKMD_OK;
    *out_timer = (vkmd_vk_timer){0};
    if (!ctx->info.features.timestamps)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s has no timestamps on its compute queue",
                         ctx->info.name);
    if (capacity == 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "timer with 0 slots");
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, NULL);
    VkQueueFamilyProperties q[32];
    if (n > 32)
        n = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, q);
    uint32_t bits = ctx->queue_family < n ? q[ctx->queue_family].timestampValidBits : 0;
    if (bits == 0)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s has no timestamps on its compute queue",
                         ctx->info.name);
    const VkQueryPoolCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = capacity,
    };
    VkQueryPool pool = VK_NULL_HANDLE;
    VKMD_VK_CHECK(vkCreateQueryPool(ctx->device, &ci, NULL, &pool));
    out_timer->pool = pool;
    out_timer->capacity = capacity;
    out_timer->period_ns = ctx->info.timestamp_period_ns;
    out_timer->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
cleanup:
    return res;
}

void vkmd_vk_timer_destroy(vkmd_vk_context *ctx, vkmd_vk_timer *timer)
{
    if (!timer)
        return;
    if (timer->pool)
        vkDestroyQueryPool(ctx->device, timer->pool, NULL);
    *timer = (vkmd_vk_timer){0};
}

void vkmd_vk_timer_record_reset(VkCommandBuffer cb, const vkmd_vk_timer *timer)
{
    vkCmdResetQueryPool(cb, timer->pool, 0, timer->capacity);
}

void vkmd_vk_timer_record_mark(VkCommandBuffer cb, const vkmd_vk_timer *timer, uint32_t slot)
{
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timer->pool, slot);
}

vkmd_result vkmd_vk_timer_elapsed_ns(vkmd_vk_context *ctx, const vkmd_vk_timer *timer,
                                     uint32_t from, uint32_t to, double *out_ns)
{
    vkmd_result res = VKMD_OK;
    if (from >= timer->capacity || to >= timer->capacity)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "timer slots %u, %u of %u", from, to,
                         timer->capacity);
    uint64_t t[2];
    VKMD_VK_CHECK(vkGetQueryPoolResults(ctx->device, timer->pool, from, 1, sizeof t[0], &t[0],
                                        sizeof t[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    VKMD_VK_CHECK(vkGetQueryPoolResults(ctx->device, timer->pool, to, 1, sizeof t[1], &t[1],
                                        sizeof t[1],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    *out_ns = (double)((t[1] - t[0]) & timer->mask) * timer->period_ns;
cleanup:
    return res;
}
