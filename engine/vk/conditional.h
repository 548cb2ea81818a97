/* Conditional dispatch (VK_EXT_conditional_rendering): commands between
 * begin and end are skipped when a 32-bit word in a buffer says so, read by
 * the device when they run, with no host round trip. sim/md_batch.c gates
 * each step of an MD batch with it, so that a batch stops itself where the
 * neighbour list asks for a rebuild.
 *
 * Surprises: the word must not change while a conditional block that reads
 * it is active (implementations may latch it at begin or read it per
 * command), so a block's word is written only by commands outside it; a
 * write of the word reaches the block through a barrier with
 * VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT and
 * VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT; transfers and barriers
 * inside a block are not skipped, dispatches are. */
#ifndef VKMD_VK_CONDITIONAL_H
#define VKMD_VK_CONDITIONAL_H

#include "vk/context.h"

/* Begins a block whose dispatches run only while the word at `offset` of
 * `buffer` (created with VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT) is
 * 0. The context must have features.conditional_rendering. */
void vkmd_vk_conditional_begin(const vkmd_vk_context *ctx, VkCommandBuffer cb, VkBuffer buffer,
                               VkDeviceSize offset);
void vkmd_vk_conditional_end(const vkmd_vk_context *ctx, VkCommandBuffer cb);

#endif
