/* Device buffers with upload and readback.
 *
 * Every buffer is a storage buffer that can also be a transfer source and
 * destination. Memory placement:
 * - unified-memory devices (integrated GPUs, CPUs such as lavapipe, where a
 *   memory type is DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT): the buffer
 *   lives in that type and stays mapped; upload/readback are a memcpy.
 * - discrete GPUs: DEVICE_LOCAL only memory; upload/readback go through a
 *   temporary host-visible staging buffer and a copy command. (A discrete
 *   GPU's small host-visible BAR heap is deliberately not used: it is scarce
 *   and uncached for host reads.)
 * desc.force_staging selects the second path on any device, so tests cover it
 * on lavapipe.
 *
 * upload/readback are synchronous setup helpers: they submit and wait, and the
 * device must not be using the buffer meanwhile. In a step, record copies
 * with vkCmdCopyBuffer/vkmd_vk_buffer_record_fill instead. */
#ifndef VKMD_VK_BUFFER_H
#define VKMD_VK_BUFFER_H

#include "vk/context.h"

typedef struct vkmd_vk_buffer_desc {
    VkDeviceSize size;        /* bytes; required (> 0) */
    VkBufferUsageFlags usage; /* 0; added to STORAGE | TRANSFER_SRC | TRANSFER_DST */
    int force_staging;        /* 0: map directly on unified memory; 1: always stage */
    const char *name;         /* "buffer"; used in error messages */
} vkmd_vk_buffer_desc;

typedef struct vkmd_vk_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size; /* bytes requested */
    void *mapped;      /* host pointer for the direct path, NULL when staged */
} vkmd_vk_buffer;

/* Creates an uninitialised buffer. Errors: VKMD_ERROR_INVALID_ARGUMENT (size
 * 0), VKMD_ERROR_DEVICE_MEMORY, VKMD_ERROR_VULKAN. On failure *out_buf is
 * zeroed (destroying it is a no-op). */
vkmd_result vkmd_vk_buffer_create(vkmd_vk_context *ctx, const vkmd_vk_buffer_desc *desc,
                                  vkmd_vk_buffer *out_buf);

/* Frees the buffer and its memory; zeroes *buf. Zeroed struct: no-op. */
void vkmd_vk_buffer_destroy(vkmd_vk_context *ctx, vkmd_vk_buffer *buf);

/* Copies `size` bytes from host `data` to the buffer at `offset` and waits.
 * The upload is visible to every later command on the queue. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (range), Vulkan errors. */
vkmd_result vkmd_vk_buffer_upload(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, VkDeviceSize offset,
                                  const void *data, VkDeviceSize size);

/* Waits for earlier queue work and copies `size` bytes at `offset` to host
 * `out_data`. Errors as upload. */
vkmd_result vkmd_vk_buffer_readback(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                    VkDeviceSize offset, void *out_data, VkDeviceSize size);

/* Records vkCmdFillBuffer of the whole buffer with the 32-bit `value` (size
 * rounded down to 4 bytes). Follow with a transfer_to_compute barrier. */
void vkmd_vk_buffer_record_fill(VkCommandBuffer cb, const vkmd_vk_buffer *buf, uint32_t value);

#endif
