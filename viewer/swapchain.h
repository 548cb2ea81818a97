/* The window's swapchain: images, views, a depth buffer, the render pass
 * (colour cleared and kept for presentation and screenshots, depth cleared)
 * and a framebuffer per image. Recreated on resize; the render pass lives
 * as long as the swapchain object (the surface format does not change). */
#ifndef VKMD_VIEWER_SWAPCHAIN_H
#define VKMD_VIEWER_SWAPCHAIN_H

#include "vk/context.h"

#define VKMD_SWAPCHAIN_MAX_IMAGES 8

typedef struct vkmd_swapchain {
    VkSurfaceKHR surface; /* borrowed */
    VkSwapchainKHR swapchain;
    VkFormat format; /* B8G8R8A8_UNORM or R8G8B8A8_UNORM when offered */
    VkExtent2D extent;
    int can_copy; /* images can be a transfer source (screenshots) */
    uint32_t image_count;
    VkImage images[VKMD_SWAPCHAIN_MAX_IMAGES];
    VkImageView views[VKMD_SWAPCHAIN_MAX_IMAGES];
    VkFramebuffer framebuffers[VKMD_SWAPCHAIN_MAX_IMAGES];
    VkSemaphore render_done[VKMD_SWAPCHAIN_MAX_IMAGES]; /* one per image */
    VkImage depth;
    VkDeviceMemory depth_memory;
    VkImageView depth_view;
    VkRenderPass render_pass;
} vkmd_swapchain;

/* Creates (or, when sc->swapchain is set, recreates after a resize) for a
 * framebuffer of width x height pixels; the surface's current extent wins
 * when it has one. Width or height 0 (minimised) is an error the caller
 * avoids. Errors: VKMD_ERROR_UNSUPPORTED (no usable format), Vulkan. */
vkmd_result vkmd_swapchain_build(vkmd_vk_context *ctx, VkSurfaceKHR surface, uint32_t width,
                                 uint32_t height, vkmd_swapchain *sc);

/* Destroys everything but the surface. Zeroed struct: no-op. */
void vkmd_swapchain_destroy(vkmd_vk_context *ctx, vkmd_swapchain *sc);

#endif
