/* GPU timestamps: a query pool of `capacity` slots; record marks between
 * commands, read them back as nanoseconds after the command buffer finished.
 * Ticks are converted with the device's timestampPeriod and masked to the
 * queue's valid bits. Devices whose compute queue has no timestamps get
 * VKMD_ERROR_UNSUPPORTED from create; callers report "n/a" and carry on. */
#ifndef VKMD_VK_TIMER_H
#define VKMD_VK_TIMER_H

#include "vk/context.h"

typedef struct vkmd_vk_timer {
    VkQueryPool pool;
    uint32_t capacity;
    double period_ns;
    uint64_t mask; /* valid timestamp bits */
} vkmd_vk_timer;

/* Errors: VKMD_ERROR_UNSUPPORTED (no timestamps on this device/queue),
 * VKMD_ERROR_INVALID_ARGUMENT (capacity 0), Vulkan errors. */
vkmd_result vkmd_vk_timer_create(vkmd_vk_context *ctx, uint32_t capacity, vkmd_vk_timer *out_timer);

/* Zeroed struct: no-op. */
void vkmd_vk_timer_destroy(vkmd_vk_context *ctx, vkmd_vk_timer *timer);

/* Records the reset of every slot; required before the first mark in each
 * command buffer (outside any render pass). */
void vkmd_vk_timer_record_reset(VkCommandBuffer cb, const vkmd_vk_timer *timer);

/* Records a timestamp into `slot` once all earlier commands completed. */
void vkmd_vk_timer_record_mark(VkCommandBuffer cb, const vkmd_vk_timer *timer, uint32_t slot);

/* Elapsed ns between marks `from` and `to` (waits for both to be available).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (slot range), Vulkan errors. */
vkmd_result vkmd_vk_timer_elapsed_ns(vkmd_vk_context *ctx, const vkmd_vk_timer *timer,
                                     uint32_t from, uint32_t to, double *out_ns);

#endif
