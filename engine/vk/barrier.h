/* Pipeline barriers between the stages vkmd uses. All are global memory
 * barriers (VkMemoryBarrier): every pass touches whole buffers, and a global
 * barrier is what drivers implement anyway for buffer barriers on one queue. */
#ifndef VKMD_VK_BARRIER_H
#define VKMD_VK_BARRIER_H

#include <vulkan/vulkan.h>

/* Compute shader writes -> later compute shader reads and writes. */
void vkmd_vk_barrier_compute(VkCommandBuffer cb);

/* Transfer writes (copy, fill, update) -> compute shader reads and writes. */
void vkmd_vk_barrier_transfer_to_compute(VkCommandBuffer cb);

/* Compute shader writes -> transfer reads and writes (copy out, refill). */
void vkmd_vk_barrier_compute_to_transfer(VkCommandBuffer cb);

/* Any device write -> host reads of mapped memory after the fence wait. */
void vkmd_vk_barrier_device_to_host(VkCommandBuffer cb);

/* The general form the helpers above use. */
void vkmd_vk_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                     VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

#endif
