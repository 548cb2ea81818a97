/* Buffers, memory-type choice, staging (see buffer.h).
 *
 * Coherence: the direct path uses only HOST_COHERENT types, so no flush or
 * invalidate is needed; host writes before vkQueueSubmit are visible to the
 * device by the submit's implicit host-write dependency, and device writes are
 * made visible to the host by a DEVICE->HOST barrier before the fence wait. */
#include "vk/buffer.h"
#include "vk/barrier.h"
#include "vk/check.h"
#include "vk/command.h"
#include "vk/fault.h"

#include <stdio.h>
#include <string.h>

static int find_memory_type(const vkmd_vk_context *ctx, uint32_t type_bits,
                            VkMemoryPropertyFlags want, uint32_t *out_index)
{
    for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) && (ctx->memory.memoryTypes[i].propertyFlags & want) == want) {
            *out_index = i;
            return 1;
        }
    return 0;
}

/* Creates buffer + memory. host = 1: mapped host-visible coherent memory
 * (device-local too when unified); host = 0: device-local only. */
static vkmd_result create_raw(vkmd_vk_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                              int host, const char *name, vkmd_vk_buffer *out)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_buffer b = {.size = size};
    /* A viewer on another queue family reads the simulation's buffers:
     * concurrent sharing spares ownership transfers (vk/context.h). */
    const uint32_t families[2] = {ctx->queue_family, ctx->graphics_family};
    const int shared =
        ctx->graphics_family != UINT32_MAX && ctx->graphics_family != ctx->queue_family;
    const VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = shared ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = shared ? 2 : 0,
        .pQueueFamilyIndices = shared ? families : NULL,
    };
    VKMD_VK_CHECK(vkCreateBuffer(ctx->device, &bi, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx->device, b.buffer, &req);

    const VkMemoryPropertyFlags hv =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    int found;
    if (host) {
        found = (ctx->info.unified_memory &&
                 find_memory_type(ctx, req.memoryTypeBits, hv | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                  &type)) ||
                find_memory_type(ctx, req.memoryTypeBits, hv | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                                 &type) ||
                find_memory_type(ctx, req.memoryTypeBits, hv, &type);
    } else {
        found =
            find_memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &type) ||
            find_memory_type(ctx, req.memoryTypeBits, 0, &type);
    }
    if (!found) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s: no suitable memory type (%s)", name,
                        host ? "host-visible coherent" : "device-local");
        goto cleanup;
    }
    const VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    const VkResult injected = vkmd_vk_fault(VKMD_VK_FAULT_ALLOC);
    if (injected != VK_SUCCESS) {
        res = vkmd_vk_fail(injected, __FILE__, __LINE__, "vkAllocateMemory [VKMD_FAULT]");
        goto cleanup;
    }
    VKMD_VK_CHECK(vkAllocateMemory(ctx->device, &ai, NULL, &b.memory));
    vkmd_vk_memory_note((int64_t)size);
    VKMD_VK_CHECK(vkBindBufferMemory(ctx->device, b.buffer, b.memory, 0));
    if (host)
        VKMD_VK_CHECK(vkMapMemory(ctx->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));

    *out = b;
    return VKMD_OK;
cleanup:
    if (res == VKMD_ERROR_DEVICE_MEMORY || res == VKMD_ERROR_OUT_OF_MEMORY) {
        char prefix[160];
        snprintf(prefix, sizeof prefix, "%s (%llu bytes)", name, (unsigned long long)size);
        res = vkmd_vk_fail_prefix(res, prefix);
    }
    vkmd_vk_buffer_destroy(ctx, &b);
    return res;
}

vkmd_result vkmd_vk_buffer_create(vkmd_vk_context *ctx, const vkmd_vk_buffer_desc *desc,
                                  vkmd_vk_buffer *out_buf)
{
    *out_buf = (vkmd_vk_buffer){0};
    const char *name = desc->name ? desc->name : "buffer";
    if (desc->size == 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: size 0", name);
    /* Every buffer may also be a texel binding (vk/pipeline.h). */
    VkBufferUsageFlags usage = desc->usage | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                               VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    int direct = ctx->info.unified_memory && !desc->force_staging;
    return create_raw(ctx, desc->size, usage, direct, name, out_buf);
}

void vkmd_vk_buffer_destroy(vkmd_vk_context *ctx, vkmd_vk_buffer *buf)
{
    if (!buf)
        return;
    if (buf->mapped)
        vkUnmapMemory(ctx->device, buf->memory);
    if (buf->buffer)
        vkDestroyBuffer(ctx->device, buf->buffer, NULL);
    if (buf->memory) {
        vkFreeMemory(ctx->device, buf->memory, NULL);
        vkmd_vk_memory_note(-(int64_t)buf->size);
    }
    *buf = (vkmd_vk_buffer){0};
}

static vkmd_result check_range(const vkmd_vk_buffer *buf, VkDeviceSize offset, VkDeviceSize size,
                               const char *what)
{
    if (!buf->buffer || size == 0 || offset > buf->size || size > buf->size - offset)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s of %llu bytes at %llu outside a buffer of %llu bytes", what,
                         (unsigned long long)size, (unsigned long long)offset,
                         (unsigned long long)buf->size);
    return VKMD_OK;
}

vkmd_result vkmd_vk_buffer_upload(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, VkDeviceSize offset,
                                  const void *data, VkDeviceSize size)
{
    vkmd_result res = check_range(buf, offset, size, "upload");
    if (res != VKMD_OK)
        return res;
    if (buf->mapped) {
        memcpy((char *)buf->mapped + offset, data, size);
        return VKMD_OK;
    }
    vkmd_vk_buffer staging = {0};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(
        create_raw(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, "upload staging", &staging));
    memcpy(staging.mapped, data, size);
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    const VkBufferCopy region = {.srcOffset = 0, .dstOffset = offset, .size = size};
    vkCmdCopyBuffer(cb, staging.buffer, buf->buffer, 1, &region);
    /* Make the copy visible to whatever is submitted later on this queue. */
    vkmd_vk_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                    VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
    res = vkmd_vk_oneshot_submit(ctx, cb);
cleanup:
    vkmd_vk_buffer_destroy(ctx, &staging);
    return res;
}

vkmd_result vkmd_vk_buffer_readback(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                    VkDeviceSize offset, void *out_data, VkDeviceSize size)
{
    vkmd_result res = check_range(buf, offset, size, "readback");
    if (res != VKMD_OK)
        return res;
    vkmd_vk_buffer staging = {0};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (!buf->mapped)
        VKMD_TRY(create_raw(ctx, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, "readback staging",
                            &staging));
    /* Even on the direct path a submission is needed: the barrier makes
     * earlier device writes visible to the host (the fence alone does not). */
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    if (!buf->mapped) {
        vkmd_vk_barrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        const VkBufferCopy region = {.srcOffset = offset, .dstOffset = 0, .size = size};
        vkCmdCopyBuffer(cb, buf->buffer, staging.buffer, 1, &region);
    }
    vkmd_vk_barrier_device_to_host(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    memcpy(out_data, buf->mapped ? (const char *)buf->mapped + offset : staging.mapped, size);
cleanup:
    vkmd_vk_buffer_destroy(ctx, &staging);
    return res;
}

void vkmd_vk_buffer_record_fill(VkCommandBuffer cb, const vkmd_vk_buffer *buf, uint32_t value)
{
    vkCmdFillBuffer(cb, buf->buffer, 0, buf->size & ~(VkDeviceSize)3, value);
}
