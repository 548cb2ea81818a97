/* Swapchain, depth buffer, render pass and framebuffers. MAILBOX
 * presentation when offered, else FIFO (both without tearing). */
#include "swapchain.h"

#include "vk/check.h"

#include <stdlib.h>
#include <string.h>

#define DEPTH_FORMAT VK_FORMAT_D32_SFLOAT

static int memory_type(const vkmd_vk_context *ctx, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (ctx->memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

static vkmd_result choose_format(vkmd_vk_context *ctx, VkSurfaceKHR surface, VkFormat *out_format,
                                 VkColorSpaceKHR *out_space)
{
    vkmd_result res = VKMD_OK;
    uint32_t n = 0;
    VkSurfaceFormatKHR *f = NULL;
    VKMD_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical, surface, &n, NULL));
    f = calloc(n ? n : 1, sizeof *f);
    if (!f)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "swapchain: out of memory");
    VKMD_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical, surface, &n, f));
    /* UNORM so that screenshots hold the shader's colours unchanged. */
    res = vkmd_fail(VKMD_ERROR_UNSUPPORTED, "the window offers no 8-bit BGRA/RGBA format");
    for (uint32_t i = 0; i < n; ++i)
        if (f[i].format == VK_FORMAT_B8G8R8A8_UNORM || f[i].format == VK_FORMAT_R8G8B8A8_UNORM) {
            *out_format = f[i].format;
            *out_space = f[i].colorSpace;
            res = VKMD_OK;
            break;
        }
cleanup:
    free(f);
    return res;
}

/* MAILBOX when offered: frames never wait for the display, so the steps
 * between them are not held to its rate; else FIFO (always available). */
static VkPresentModeKHR present_mode(const vkmd_vk_context *ctx, VkSurfaceKHR surface)
{
    VkPresentModeKHR modes[16];
    uint32_t n = 16;
    VkResult r = vkGetPhysicalDeviceSurfacePresentModesKHR(ctx->physical, surface, &n, modes);
    if (r == VK_SUCCESS || r == VK_INCOMPLETE)
        for (uint32_t i = 0; i < n; ++i)
            if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR)
                return VK_PRESENT_MODE_MAILBOX_KHR;
    return VK_PRESENT_MODE_FIFO_KHR;
}

static vkmd_result create_render_pass(vkmd_vk_context *ctx, vkmd_swapchain *sc)
{
    vkmd_result res = VKMD_OK;
    const VkAttachmentDescription att[2] = {
        {.format = sc->format,
         .samples = VK_SAMPLE_COUNT_1_BIT,
         .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
         .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
         .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
         .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
         .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
         .finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
        {.format = DEPTH_FORMAT,
         .samples = VK_SAMPLE_COUNT_1_BIT,
         .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
         .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
         .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
         .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
         .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
         .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
    };
    const VkAttachmentReference colour = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    const VkAttachmentReference depth = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    const VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                      .colorAttachmentCount = 1,
                                      .pColorAttachments = &colour,
                                      .pDepthStencilAttachment = &depth};
    /* The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT: the first
     * colour write must follow it; the depth buffer is reused every frame. */
    const VkSubpassDependency dep = {
        .srcSubpass = VK_SUBPASS_EXTERNAL,
        .dstSubpass = 0,
        .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                        VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                        VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
        .srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
    };
    const VkRenderPassCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                       .attachmentCount = 2,
                                       .pAttachments = att,
                                       .subpassCount = 1,
                                       .pSubpasses = &sub,
                                       .dependencyCount = 1,
                                       .pDependencies = &dep};
    VKMD_VK_CHECK(vkCreateRenderPass(ctx->device, &ci, NULL, &sc->render_pass));
cleanup:
    return res;
}

/* Everything that depends on the extent. */
static void destroy_sized(vkmd_vk_context *ctx, vkmd_swapchain *sc)
{
    for (uint32_t i = 0; i < sc->image_count; ++i) {
        if (sc->framebuffers[i])
            vkDestroyFramebuffer(ctx->device, sc->framebuffers[i], NULL);
        if (sc->views[i])
            vkDestroyImageView(ctx->device, sc->views[i], NULL);
        if (sc->render_done[i])
            vkDestroySemaphore(ctx->device, sc->render_done[i], NULL);
        sc->framebuffers[i] = VK_NULL_HANDLE;
        sc->views[i] = VK_NULL_HANDLE;
        sc->render_done[i] = VK_NULL_HANDLE;
    }
    if (sc->depth_view)
        vkDestroyImageView(ctx->device, sc->depth_view, NULL);
    if (sc->depth)
        vkDestroyImage(ctx->device, sc->depth, NULL);
    if (sc->depth_memory)
        vkFreeMemory(ctx->device, sc->depth_memory, NULL);
    sc->depth_view = VK_NULL_HANDLE;
    sc->depth = VK_NULL_HANDLE;
    sc->depth_memory = VK_NULL_HANDLE;
}

vkmd_result vkmd_swapchain_build(vkmd_vk_context *ctx, VkSurfaceKHR surface, uint32_t width,
                                 uint32_t height, vkmd_swapchain *sc)
{
    vkmd_result res = VKMD_OK;
    VkColorSpaceKHR space = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    VkSwapchainKHR old = sc->swapchain;
    sc->surface = surface;
    if (!sc->render_pass) {
        VKMD_TRY(choose_format(ctx, surface, &sc->format, &space));
        VKMD_TRY(create_render_pass(ctx, sc));
    } else {
        VkFormat f;
        VKMD_TRY(choose_format(ctx, surface, &f, &space));
    }
    VkSurfaceCapabilitiesKHR caps;
    VKMD_VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx->physical, surface, &caps));
    VkExtent2D ext = caps.currentExtent;
    if (ext.width == UINT32_MAX) {
        ext.width = width < caps.minImageExtent.width   ? caps.minImageExtent.width
                    : width > caps.maxImageExtent.width ? caps.maxImageExtent.width
                                                        : width;
        ext.height = height < caps.minImageExtent.height   ? caps.minImageExtent.height
                     : height > caps.maxImageExtent.height ? caps.maxImageExtent.height
                                                           : height;
    }
    if (ext.width == 0 || ext.height == 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "swapchain: the window has no area");
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount && count > caps.maxImageCount)
        count = caps.maxImageCount;
    if (count > VKMD_SWAPCHAIN_MAX_IMAGES)
        count = VKMD_SWAPCHAIN_MAX_IMAGES;
    sc->can_copy = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    const uint32_t families[2] = {ctx->queue_family, ctx->graphics_family};
    const VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = surface,
        .minImageCount = count,
        .imageFormat = sc->format,
        .imageColorSpace = space,
        .imageExtent = ext,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                      (sc->can_copy ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0),
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = 0,
        .pQueueFamilyIndices = families,
        .preTransform = caps.currentTransform,
        .compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                              ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                              : (VkCompositeAlphaFlagBitsKHR)caps.supportedCompositeAlpha,
        .presentMode = present_mode(ctx, surface),
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    /* The caller waited for the device to go idle before a rebuild. */
    destroy_sized(ctx, sc);
    VKMD_VK_CHECK(vkCreateSwapchainKHR(ctx->device, &ci, NULL, &sc->swapchain));
    if (old)
        vkDestroySwapchainKHR(ctx->device, old, NULL);
    old = VK_NULL_HANDLE;
    sc->extent = ext;
    sc->image_count = 0;
    VKMD_VK_CHECK(vkGetSwapchainImagesKHR(ctx->device, sc->swapchain, &count, NULL));
    if (count > VKMD_SWAPCHAIN_MAX_IMAGES)
        count = VKMD_SWAPCHAIN_MAX_IMAGES;
    {
        VkResult vr = vkGetSwapchainImagesKHR(ctx->device, sc->swapchain, &count, sc->images);
        if (vr != VK_SUCCESS && vr != VK_INCOMPLETE)
            VKMD_VK_CHECK(vr);
    }

    /* Depth buffer. */
    const VkImageCreateInfo di = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                  .imageType = VK_IMAGE_TYPE_2D,
                                  .format = DEPTH_FORMAT,
                                  .extent = {ext.width, ext.height, 1},
                                  .mipLevels = 1,
                                  .arrayLayers = 1,
                                  .samples = VK_SAMPLE_COUNT_1_BIT,
                                  .tiling = VK_IMAGE_TILING_OPTIMAL,
                                  .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                  .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
                                  .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VKMD_VK_CHECK(vkCreateImage(ctx->device, &di, NULL, &sc->depth));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ctx->device, sc->depth, &req);
    int mt = memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (mt < 0)
        mt = memory_type(ctx, req.memoryTypeBits, 0);
    const VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                     .allocationSize = req.size,
                                     .memoryTypeIndex = (uint32_t)mt};
    VKMD_VK_CHECK(vkAllocateMemory(ctx->device, &ai, NULL, &sc->depth_memory));
    VKMD_VK_CHECK(vkBindImageMemory(ctx->device, sc->depth, sc->depth_memory, 0));
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = sc->depth,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = DEPTH_FORMAT,
                                .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
    VKMD_VK_CHECK(vkCreateImageView(ctx->device, &vi, NULL, &sc->depth_view));

    for (uint32_t i = 0; i < count; ++i) {
        sc->image_count = i + 1;
        vi.image = sc->images[i];
        vi.format = sc->format;
        vi.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        VKMD_VK_CHECK(vkCreateImageView(ctx->device, &vi, NULL, &sc->views[i]));
        const VkImageView att[2] = {sc->views[i], sc->depth_view};
        const VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                            .renderPass = sc->render_pass,
                                            .attachmentCount = 2,
                                            .pAttachments = att,
                                            .width = ext.width,
                                            .height = ext.height,
                                            .layers = 1};
        VKMD_VK_CHECK(vkCreateFramebuffer(ctx->device, &fi, NULL, &sc->framebuffers[i]));
        const VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VKMD_VK_CHECK(vkCreateSemaphore(ctx->device, &si, NULL, &sc->render_done[i]));
    }
cleanup:
    if (old)
        vkDestroySwapchainKHR(ctx->device, old, NULL);
    if (res != VKMD_OK && sc->swapchain == old)
        sc->swapchain = VK_NULL_HANDLE;
    return res;
}

void vkmd_swapchain_destroy(vkmd_vk_context *ctx, vkmd_swapchain *sc)
{
    if (!ctx || !ctx->device)
        return;
    destroy_sized(ctx, sc);
    if (sc->swapchain)
        vkDestroySwapchainKHR(ctx->device, sc->swapchain, NULL);
    if (sc->render_pass)
        vkDestroyRenderPass(ctx->device, sc->render_pass, NULL);
    memset(sc, 0, sizeof *sc);
}
