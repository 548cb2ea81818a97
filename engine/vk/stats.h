/* Counters of recorded work, for `vkmd bench` and for tests that check how
 * many dispatches, barriers and submissions a step costs. Counted where the
 * engine records them (vkmd_vk_dispatch, vkmd_vk_barrier, the neighbour
 * list's direct dispatches, VkFFT's kernels from its plan, queue submits);
 * per thread, monotonic: read before and after what you measure. */
#ifndef VKMD_VK_STATS_H
#define VKMD_VK_STATS_H

#include <stdint.h>

typedef struct vkmd_vk_stats {
    uint64_t dispatches; /* vkCmdDispatch / vkCmdDispatchIndirect recorded */
    uint64_t barriers;   /* vkCmdPipelineBarrier recorded */
    uint64_t submits;    /* vkQueueSubmit calls */
} vkmd_vk_stats;

/* The counters so far (this thread). */
vkmd_vk_stats vkmd_vk_stats_get(void);

/* For code that records Vulkan commands itself. */
void vkmd_vk_stats_add_dispatches(uint64_t n);
void vkmd_vk_stats_add_barriers(uint64_t n);
void vkmd_vk_stats_add_submits(uint64_t n);

#endif
