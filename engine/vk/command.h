/* Command buffers: one-shot record -> submit -> wait helpers for setup work
 * (uploads, readbacks, tests) and reusable command buffers that are recorded
 * once and replayed (an MD step), each with its own fence.
 *
 * All command buffers come from the context's pool, so recording is
 * single-threaded. Waits use the context's fence timeout; a timeout or
 * VK_ERROR_DEVICE_LOST is returned as an error (VKMD_ERROR_VULKAN /
 * VKMD_ERROR_DEVICE_LOST), never retried. */
#ifndef VKMD_VK_COMMAND_H
#define VKMD_VK_COMMAND_H

#include "vk/context.h"

/* Allocates a primary command buffer and begins it (ONE_TIME_SUBMIT). On
 * success the caller must finish it with vkmd_vk_oneshot_submit (which also
 * frees it). */
vkmd_result vkmd_vk_oneshot_begin(vkmd_vk_context *ctx, VkCommandBuffer *out_cb);

/* Ends `cb`, submits it, waits for completion and frees it (also on error). */
vkmd_result vkmd_vk_oneshot_submit(vkmd_vk_context *ctx, VkCommandBuffer cb);

/* A reusable command buffer and the fence of its last submission. */
typedef struct vkmd_vk_cmd {
    VkCommandBuffer cb;
    VkFence fence; /* signalled when the last submission finished */
    int pending;   /* 1 between submit and wait */
} vkmd_vk_cmd;

/* Allocates the command buffer and its (signalled) fence. */
vkmd_result vkmd_vk_cmd_create(vkmd_vk_context *ctx, vkmd_vk_cmd *out_cmd);

/* Waits for a pending submission, then frees both. Zeroed struct: no-op. */
void vkmd_vk_cmd_destroy(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd);

/* Resets and begins recording (replayable: no ONE_TIME_SUBMIT flag). Fails
 * with VKMD_ERROR_INVALID_ARGUMENT while a submission is pending. */
vkmd_result vkmd_vk_cmd_begin(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd);

/* Ends recording. */
vkmd_result vkmd_vk_cmd_end(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd);

/* Submits the recorded commands (again); does not wait. Waits first if the
 * previous submission is still pending. */
vkmd_result vkmd_vk_cmd_submit(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd);

/* Waits for the last submission (no-op if none is pending). */
vkmd_result vkmd_vk_cmd_wait(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd);

/* Submit then wait. */
vkmd_result vkmd_vk_cmd_submit_wait(vkmd_vk_context *ctx, vkmd_vk_cmd *cmd);

#endif
