/* Fault injection for tests: makes a chosen Vulkan call fail as a sick device
 * would, so the run's handling of a lost device or exhausted device memory
 * can be tested on any device (tests/test_fault_device.sh).
 *
 * Read once from the environment variable VKMD_FAULT:
 *   submit:N:device_lost   the N-th queue submit (1-based, counted over the
 *                          process) returns VK_ERROR_DEVICE_LOST, and so does
 *                          every submit after it (a lost device stays lost);
 *   alloc:N:oom            the N-th device memory allocation returns
 *                          VK_ERROR_OUT_OF_DEVICE_MEMORY (later ones succeed);
 *   compile:N:oom          the N-th pipeline compilation returns
 *                          VK_ERROR_OUT_OF_HOST_MEMORY (most are compiled at
 *                          their first dispatch, vk/pipeline.h).
 * Unset (the normal case) costs one branch a call. A malformed value makes
 * every checked call fail with VK_ERROR_INITIALIZATION_FAILED after logging
 * what was expected, so a typo cannot pass for a passing test. */
#ifndef VKMD_VK_FAULT_H
#define VKMD_VK_FAULT_H

#include "core/result.h"
#include "vk/context.h"

#include <stdint.h>
#include <vulkan/vulkan.h>

typedef enum vkmd_vk_fault_site {
    VKMD_VK_FAULT_SUBMIT = 0, /* vkQueueSubmit (vk/command.c) */
    VKMD_VK_FAULT_ALLOC = 1,  /* vkAllocateMemory (vk/buffer.c) */
    VKMD_VK_FAULT_COMPILE = 2 /* vkCreateComputePipelines (vk/pipeline.c) */
} vkmd_vk_fault_site;

/* VK_SUCCESS, or the injected error for this call at `site`. Call just
 * before the real call, under VKMD_VK_CHECK. Not thread-safe (the engine
 * submits and allocates from one thread). */
VkResult vkmd_vk_fault(vkmd_vk_fault_site site);

/* The device-memory check before a run: vk/buffer.c notes every buffer's
 * bytes as it allocates and frees them;
 * vkmd_vk_memory_check compares the bytes in use with the device's memory
 * (its DEVICE_LOCAL heaps, or all heaps on a device without one) and refuses
 * when they do not fit. Some drivers over-commit device memory silently
 * (spilling to system memory, much slower) instead of failing an allocation;
 * this refuses plainly instead. VKMD_DEVICE_HEAP_MB=N pretends the device
 * has N MiB, so the refusal can be tested on any device. */
void vkmd_vk_memory_note(int64_t bytes);
/* VKMD_OK, or VKMD_ERROR_DEVICE_MEMORY: "<what> needs X MiB of device memory;
 * the device has Y MiB" (with the pretended size named when set). */
vkmd_result vkmd_vk_memory_check(const vkmd_vk_context *ctx, const char *what);

#endif
