/* GLFW window, input, HUD, frame submission and screenshots; see viewer.h. */
#define GLFW_INCLUDE_VULKAN
#include "viewer.h"

#include "camera.h"
#include "font.h"
#include "image_png.h"
#include "swapchain.h"
#include "vk/barrier.h"
#include "vk/buffer.h"
#include "vk/check.h"

#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vkmd_viewer {
    vkmd_viewer_desc desc;
    GLFWwindow *window;
    VkSurfaceKHR surface;
    VkInstance instance; /* the context's, for the surface's destruction */
    vkmd_swapchain sc;
    vkmd_render render;
    VkCommandPool pool;
    VkCommandBuffer cb;
    VkSemaphore acquired, compute_done;
    VkFence in_flight;
    int in_flight_pending;
    vkmd_vk_buffer shot; /* screenshot pixels */
    vkmd_camera cam;
    const vkmd_system *sys;
    /* state changed by input */
    int paused, single_step, show_box, show_help, want_shot, resized;
    uint32_t color_mode, rep, water;
    int32_t steps_per_frame;
    double mouse_x, mouse_y;
    int dragging; /* 0 none, 1 orbit, 2 pan */
    int64_t frames;
    int shot_counter;
    int resize_at, resize_w, resize_h;
    /* Test hook VKMD_VIEWER_KEYS: characters typed at given frames. */
    struct {
        int64_t frame;
        char keys[16];
        int done;
    } typed[16];
    int typed_count;
    vkmd_gpu_uvec4 text[VKMD_RENDER_TEXT_MAX]; /* this frame's HUD characters */
    int glfw_on;
    int has_water;
    int has_vsites, hide_vsites; /* virtual sites in the system; hidden (key v) */
};

static const char *color_names[VKMD_VIEW_COLOR_COUNT] = {"ELEMENT", "VELOCITY (LOCAL T)", "FORCE",
                                                         "REPLICA"};
static const char *water_names[3] = {"SHOWN", "LINES", "HIDDEN"};

int vkmd_viewer_color_mode(const char *name)
{
    static const char *names[VKMD_VIEW_COLOR_COUNT] = {"element", "velocity", "force", "replica"};
    for (int i = 0; i < VKMD_VIEW_COLOR_COUNT; ++i)
        if (name && !strcmp(name, names[i]))
            return i;
    return -1;
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    vkmd_viewer *v = glfwGetWindowUserPointer(w);
    if (action != GLFW_PRESS && action != GLFW_REPEAT)
        return;
    if (key == GLFW_KEY_ESCAPE)
        glfwSetWindowShouldClose(w, GLFW_TRUE);
    else if (key == GLFW_KEY_KP_ADD)
        v->steps_per_frame = v->steps_per_frame < (1 << 20) ? v->steps_per_frame * 2 : 1 << 20;
    else if (key == GLFW_KEY_KP_SUBTRACT)
        v->steps_per_frame = v->steps_per_frame > 1 ? v->steps_per_frame / 2 : 1;
}

/* Printable keys by character, so they work on any keyboard layout. */
static void on_char(GLFWwindow *w, unsigned int c)
{
    vkmd_viewer *v = glfwGetWindowUserPointer(w);
    switch (c) {
    case ' ':
        v->paused = !v->paused;
        break;
    case '.':
        v->single_step = 1;
        v->paused = 1;
        break;
    case '+':
    case '=':
        v->steps_per_frame = v->steps_per_frame < (1 << 20) ? v->steps_per_frame * 2 : 1 << 20;
        break;
    case '-':
        v->steps_per_frame = v->steps_per_frame > 1 ? v->steps_per_frame / 2 : 1;
        break;
    case 'c':
        v->color_mode = (v->color_mode + 1) % VKMD_VIEW_COLOR_COUNT;
        break;
    case 'w':
        v->water = (v->water + 1) % 3;
        break;
    case 'v':
        v->hide_vsites = !v->hide_vsites;
        break;
    case 'b':
        v->show_box = !v->show_box;
        break;
    case 'r':
        v->rep = v->rep == VKMD_VIEW_REP_VDW ? VKMD_VIEW_REP_BALL_STICK : VKMD_VIEW_REP_VDW;
        break;
    case 'f':
        vkmd_camera_reset(&v->cam);
        break;
    case 'p':
        v->want_shot = 1;
        break;
    case '?':
    case 'h':
        v->show_help = !v->show_help;
        break;
    default:
        break;
    }
}

static void on_mouse_button(GLFWwindow *w, int button, int action, int mods)
{
    vkmd_viewer *v = glfwGetWindowUserPointer(w);
    if (action == GLFW_RELEASE) {
        v->dragging = 0;
        return;
    }
    glfwGetCursorPos(w, &v->mouse_x, &v->mouse_y);
    v->dragging = (button == GLFW_MOUSE_BUTTON_LEFT && !(mods & GLFW_MOD_SHIFT)) ? 1 : 2;
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    vkmd_viewer *v = glfwGetWindowUserPointer(w);
    int ww = 0, wh = 0;
    glfwGetWindowSize(w, &ww, &wh);
    const float dx = (float)(x - v->mouse_x), dy = (float)(y - v->mouse_y);
    if (v->dragging == 1)
        vkmd_camera_orbit(&v->cam, dx, dy, (float)wh);
    else if (v->dragging == 2)
        vkmd_camera_pan(&v->cam, dx, dy, (float)wh);
    v->mouse_x = x;
    v->mouse_y = y;
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    vkmd_viewer *v = glfwGetWindowUserPointer(w);
    vkmd_camera_zoom(&v->cam, (float)dy);
}

static void on_resize(GLFWwindow *w, int width, int height)
{
    (void)width;
    (void)height;
    vkmd_viewer *v = glfwGetWindowUserPointer(w);
    v->resized = 1;
}

vkmd_result vkmd_viewer_open(const vkmd_viewer_desc *desc, vkmd_viewer **out)
{
    *out = NULL;
    vkmd_viewer *v = calloc(1, sizeof *v);
    if (!v)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "viewer: out of memory");
    v->desc = *desc;
    v->steps_per_frame = desc->steps_per_frame > 0 ? desc->steps_per_frame : 10;
    v->show_box = 1;
    v->color_mode = desc->color_mode < VKMD_VIEW_COLOR_COUNT ? desc->color_mode : 0;
    const char *rs = getenv("VKMD_VIEWER_RESIZE");
    if (rs && sscanf(rs, "%d:%dx%d", &v->resize_at, &v->resize_w, &v->resize_h) != 3)
        v->resize_at = 0;
    /* "N:keys[,N:keys...]": type `keys` at frame N (tests of the key handling). */
    for (const char *k = getenv("VKMD_VIEWER_KEYS"); k && *k && v->typed_count < 16;) {
        long frame = 0;
        int used = 0;
        if (sscanf(k, "%ld:%n", &frame, &used) != 1 || used == 0)
            break;
        k += used;
        size_t len = strcspn(k, ",");
        if (len >= sizeof v->typed[0].keys)
            len = sizeof v->typed[0].keys - 1;
        v->typed[v->typed_count].frame = frame;
        memcpy(v->typed[v->typed_count].keys, k, len);
        v->typed[v->typed_count].keys[len] = 0;
        ++v->typed_count;
        k += strcspn(k, ",");
        if (*k == ',')
            ++k;
    }
    if (!glfwInit()) {
        free(v);
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "no display (DISPLAY and WAYLAND_DISPLAY are unset or unreachable)");
    }
    v->glfw_on = 1;
    if (!glfwVulkanSupported()) {
        vkmd_viewer_close(v, NULL);
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "the window system has no Vulkan support");
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    v->window = glfwCreateWindow(desc->width > 0 ? desc->width : 1280,
                                 desc->height > 0 ? desc->height : 800,
                                 desc->title ? desc->title : "vkmd", NULL, NULL);
    if (!v->window) {
        vkmd_viewer_close(v, NULL);
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "the window could not be created");
    }
    glfwSetWindowUserPointer(v->window, v);
    glfwSetKeyCallback(v->window, on_key);
    glfwSetCharCallback(v->window, on_char);
    glfwSetMouseButtonCallback(v->window, on_mouse_button);
    glfwSetCursorPosCallback(v->window, on_cursor);
    glfwSetScrollCallback(v->window, on_scroll);
    glfwSetFramebufferSizeCallback(v->window, on_resize);
    *out = v;
    return VKMD_OK;
}

static int present_support(void *user, VkInstance instance, VkPhysicalDevice physical,
                           uint32_t family)
{
    (void)user;
    return glfwGetPhysicalDevicePresentationSupport(instance, physical, family) == GLFW_TRUE;
}

void vkmd_viewer_context_desc(vkmd_viewer *v, vkmd_vk_context_desc *cd)
{
    (void)v;
    uint32_t n = 0;
    const char **exts = glfwGetRequiredInstanceExtensions(&n);
    cd->instance_extensions = exts;
    cd->instance_extension_count = exts ? n : 0;
    cd->present_support = present_support;
    cd->present_user = v;
}

static void fit_camera(vkmd_viewer *v)
{
    const vkmd_system *s = v->sys;
    float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    if (s->box.periodic && s->box.triclinic) { /* the corners of the parallelepiped */
        for (int k = 0; k < 3; ++k)
            hi[k] = 0;
        for (int corner = 0; corner < 8; ++corner)
            for (int k = 0; k < 3; ++k) {
                float x = 0;
                for (int r = 0; r < 3; ++r)
                    x += (float)(((corner >> r) & 1) * s->box.vec[r][k]);
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
    } else if (s->box.periodic) {
        for (int k = 0; k < 3; ++k)
            hi[k] = (float)s->box.len[k];
    } else if (s->positions && s->atom_count > 0) {
        for (int k = 0; k < 3; ++k)
            lo[k] = hi[k] = (float)s->positions[k];
        for (int32_t i = 0; i < s->atom_count; ++i)
            for (int k = 0; k < 3; ++k) {
                const float x = (float)s->positions[3 * i + k];
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
    }
    if (v->render.spacing > 0) {
        /* Replicas side by side: the grid's extent beyond the first replica. */
        const uint32_t c = v->render.grid_columns,
                       layers = (v->render.replicas + c * c - 1) / (c * c);
        const uint32_t n[3] = {c, v->render.replicas > c ? c : v->render.replicas, layers};
        for (int k = 0; k < 3; ++k)
            hi[k] += v->render.spacing * (float)(n[k] - 1);
    }
    vkmd_camera_fit(&v->cam, lo, hi);
}

static vkmd_result build_swapchain(vkmd_viewer *v, vkmd_vk_context *ctx)
{
    vkmd_result res = VKMD_OK;
    int w = 0, h = 0;
    glfwGetFramebufferSize(v->window, &w, &h);
    if (w <= 0 || h <= 0)
        return VKMD_OK; /* minimised: keep the old one until there is area again */
    VKMD_VK_CHECK(vkDeviceWaitIdle(ctx->device));
    v->in_flight_pending = 0;
    VKMD_TRY(vkmd_swapchain_build(ctx, v->surface, (uint32_t)w, (uint32_t)h, &v->sc));
    vkmd_vk_buffer_destroy(ctx, &v->shot);
    if (v->sc.can_copy) {
        const vkmd_vk_buffer_desc bd = {.size = (VkDeviceSize)v->sc.extent.width *
                                                v->sc.extent.height * 4,
                                        .name = "screenshot"};
        VKMD_TRY(vkmd_vk_buffer_create(ctx, &bd, &v->shot));
    }
    v->resized = 0;
cleanup:
    return res;
}

vkmd_result vkmd_viewer_attach(vkmd_viewer *v, vkmd_vk_context *ctx, const vkmd_system *sys,
                               const vkmd_render_sources *src)
{
    vkmd_result res = VKMD_OK;
    if (ctx->graphics_family == UINT32_MAX)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "viewer: the Vulkan context was made without presentation");
    v->sys = sys;
    v->instance = ctx->instance;
    VKMD_VK_CHECK(glfwCreateWindowSurface(ctx->instance, v->window, NULL, &v->surface));
    VkBool32 ok = VK_FALSE;
    VKMD_VK_CHECK(
        vkGetPhysicalDeviceSurfaceSupportKHR(ctx->physical, ctx->graphics_family, v->surface, &ok));
    if (!ok)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "viewer: the device cannot present to the window");
    VKMD_TRY(build_swapchain(v, ctx));
    if (!v->sc.swapchain)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "viewer: the window has no area");
    VKMD_TRY(vkmd_render_create(ctx, v->sc.render_pass, sys, src, &v->render));
    const VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                        .queueFamilyIndex = ctx->graphics_family};
    VKMD_VK_CHECK(vkCreateCommandPool(ctx->device, &pi, NULL, &v->pool));
    const VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                            .commandPool = v->pool,
                                            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                            .commandBufferCount = 1};
    VKMD_VK_CHECK(vkAllocateCommandBuffers(ctx->device, &ai, &v->cb));
    const VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VKMD_VK_CHECK(vkCreateSemaphore(ctx->device, &si, NULL, &v->acquired));
    VKMD_VK_CHECK(vkCreateSemaphore(ctx->device, &si, NULL, &v->compute_done));
    const VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKMD_VK_CHECK(vkCreateFence(ctx->device, &fi, NULL, &v->in_flight));
    fit_camera(v);
    /* Solvated solutes: water as lines so the solute shows; pure water
     * (extra points counted with their waters): spheres. */
    v->water = sys->water_count > 0 && 3 * sys->water_count < sys->atom_count - sys->vsite_count
                   ? VKMD_VIEW_WATER_THIN
                   : VKMD_VIEW_WATER_SHOWN;
    v->has_water = sys->water_count > 0;
    v->has_vsites = sys->vsite_count > 0;
cleanup:
    return res;
}

int64_t vkmd_viewer_frames(const vkmd_viewer *v)
{
    return v->frames;
}

/* Appends a line of HUD text at pixel row y; returns the next row. */
static int hud_line(vkmd_gpu_uvec4 *text, uint32_t *count, int x, int y, int scale, uint32_t rgba,
                    const char *s)
{
    for (int i = 0; s[i] && *count < VKMD_RENDER_TEXT_MAX; ++i) {
        text[*count] = (vkmd_gpu_uvec4){(uint32_t)(x + i * 6 * scale), (uint32_t)y,
                                        vkmd_font_code(s[i]), rgba};
        ++*count;
    }
    return y + 10 * scale;
}

static uint32_t build_hud(const vkmd_viewer *v, vkmd_vk_context *ctx, const vkmd_viewer_hud *h,
                          int scale, vkmd_gpu_uvec4 *text)
{
    uint32_t n = 0;
    char line[320];
    const uint32_t white = 0xffffffffu, grey = 0xffc0c0c0u, yellow = 0xff30e0ffu;
    int y = 4 * scale;
    const int x = 4 * scale;
    snprintf(line, sizeof line, "VKMD  %s", ctx->info.name);
    y = hud_line(text, &n, x, y, scale, grey, line);
    snprintf(line, sizeof line, "%s %lld  %.3f PS%s",
             v->desc.unit_label ? v->desc.unit_label : "STEP", (long long)h->step, h->time_ps, "");
    if (h->ns_per_day > 0) {
        const size_t len = strlen(line);
        snprintf(line + len, sizeof line - len, "  %.3g NS/DAY", h->ns_per_day);
    }
    y = hud_line(text, &n, x, y, scale, white, line);
    if (h->temperature_k >= 0 && h->energies) {
        snprintf(line, sizeof line, "T %.1f K  EPOT %.1f  ETOT %.1f KCAL/MOL", h->temperature_k,
                 h->potential_kcal_mol, h->total_kcal_mol);
        y = hud_line(text, &n, x, y, scale, white, line);
    } else if (h->temperature_k >= 0) {
        snprintf(line, sizeof line, "T %.1f K", h->temperature_k);
        y = hud_line(text, &n, x, y, scale, white, line);
    }
    snprintf(line, sizeof line, "COLOUR %s%s%s%s  %d/FRAME%s", color_names[v->color_mode],
             v->has_water ? "  WATER " : "", v->has_water ? water_names[v->water] : "",
             !v->has_vsites   ? ""
             : v->hide_vsites ? "  EP HIDDEN"
                              : "  EP SHOWN",
             v->steps_per_frame, v->paused ? "  PAUSED" : "");
    y = hud_line(text, &n, x, y, scale, v->paused ? yellow : grey, line);
    if (h->note)
        y = hud_line(text, &n, x, y, scale, grey, h->note);
    if (!v->show_help) {
        hud_line(text, &n, x, y, scale, grey, "? KEYS");
        return n;
    }
    static const char *help[] = {
        "SPACE PAUSE/RESUME   . ONE STEP   + - STEPS PER FRAME",
        "C COLOUR MODE   W WATER SHOWN/LINES/HIDDEN   B BOX   R VDW/BALLS",
        "V EXTRA POINTS (VIRTUAL SITES) SHOWN/HIDDEN",
        "P SCREENSHOT   F RESET VIEW   ? HELP   ESC QUIT",
        "MOUSE: LEFT ORBIT, RIGHT OR SHIFT-LEFT PAN, WHEEL ZOOM",
    };
    for (size_t i = 0; i < sizeof help / sizeof *help; ++i)
        y = hud_line(text, &n, x, y, scale, yellow, help[i]);
    return n;
}

static vkmd_result write_screenshot(vkmd_viewer *v, vkmd_vk_context *ctx, const char *path)
{
    vkmd_result res = VKMD_OK;
    const uint32_t w = v->sc.extent.width, h = v->sc.extent.height;
    uint8_t *bgra = malloc((size_t)w * h * 4), *rgb = malloc((size_t)w * h * 3);
    if (!bgra || !rgb) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "screenshot: out of memory");
        goto cleanup;
    }
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &v->shot, 0, bgra, (VkDeviceSize)w * h * 4));
    const int swap = v->sc.format == VK_FORMAT_B8G8R8A8_UNORM;
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        rgb[3 * i] = bgra[4 * i + (swap ? 2 : 0)];
        rgb[3 * i + 1] = bgra[4 * i + 1];
        rgb[3 * i + 2] = bgra[4 * i + (swap ? 0 : 2)];
    }
    VKMD_TRY(vkmd_png_write_rgb(path, rgb, w, h));
    fprintf(stderr, "vkmd: screenshot %s (%ux%u)\n", path, w, h);
cleanup:
    free(bgra);
    free(rgb);
    return res;
}

static void record_copy(vkmd_viewer *v, VkCommandBuffer cb, VkImage image)
{
    VkImageMemoryBarrier ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                               .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
    const VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                      .imageExtent = {v->sc.extent.width, v->sc.extent.height, 1}};
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, v->shot.buffer, 1,
                           &region);
    ib.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    ib.dstAccessMask = 0;
    ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    ib.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                         0, 0, NULL, 0, NULL, 1, &ib);
    const VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                      .dstAccessMask =
                                          VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT,
                                      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                      .buffer = v->shot.buffer,
                                      .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 1,
                         &bb, 0, NULL);
}

static vkmd_result wait_frame(vkmd_viewer *v, vkmd_vk_context *ctx)
{
    vkmd_result res = VKMD_OK;
    if (v->in_flight_pending) {
        VKMD_VK_CHECK(
            vkWaitForFences(ctx->device, 1, &v->in_flight, VK_TRUE, ctx->fence_timeout_ns));
        VKMD_VK_CHECK(vkResetFences(ctx->device, 1, &v->in_flight));
        v->in_flight_pending = 0;
    }
cleanup:
    return res;
}

/* Draws one frame; *out_drawn = 0 when the window had no area or the
 * swapchain had to be rebuilt first. */
static vkmd_result draw(vkmd_viewer *v, vkmd_vk_context *ctx, const vkmd_viewer_hud *hud,
                        const char *shot_path, int *out_drawn)
{
    vkmd_result res = VKMD_OK;
    *out_drawn = 0;
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(v->window, &fw, &fh);
    if (fw <= 0 || fh <= 0)
        return VKMD_OK;
    if (v->resized || (uint32_t)fw != v->sc.extent.width || (uint32_t)fh != v->sc.extent.height)
        VKMD_TRY(build_swapchain(v, ctx));
    VKMD_TRY(wait_frame(v, ctx));
    uint32_t image = 0;
    VkResult ar = vkAcquireNextImageKHR(ctx->device, v->sc.swapchain, ctx->fence_timeout_ns,
                                        v->acquired, VK_NULL_HANDLE, &image);
    if (ar == VK_ERROR_OUT_OF_DATE_KHR) {
        v->resized = 1;
        return VKMD_OK;
    }
    if (ar != VK_SUBOPTIMAL_KHR)
        VKMD_VK_CHECK(ar);

    float xs = 1, ys = 1;
    glfwGetWindowContentScale(v->window, &xs, &ys);
    const int scale = (int)(2.0f * (xs > ys ? xs : ys) + 0.5f);
    vkmd_view_frame frame;
    memset(&frame, 0, sizeof frame);
    float view[16], proj[16];
    vkmd_camera_matrices(&v->cam, (float)v->sc.extent.width / (float)v->sc.extent.height, view,
                         proj);
    memcpy(frame.view, view, sizeof view);
    memcpy(frame.proj, proj, sizeof proj);
    const double *box = hud && hud->box[0] > 0 ? hud->box : v->sys->box.len;
    frame.box = (vkmd_gpu_vec4){(float)box[0], (float)box[1], (float)box[2],
                                v->sys->box.periodic && v->show_box ? 1.0f : 0.0f};
    if (v->render.outline_edges) { /* triclinic: the system's cell scaled to the current box */
        const double s = box[0] / v->sys->box.len[0];
        frame.box.x = (float)s;
        for (int r = 0; r < 3; ++r)
            frame.cell[r] = (vkmd_gpu_vec4){(float)(s * v->sys->box.vec[r][0]),
                                            (float)(s * v->sys->box.vec[r][1]),
                                            (float)(s * v->sys->box.vec[r][2]), 0.0f};
        frame.cell[0].w = (float)v->render.box_kind;
    }
    frame.viewport =
        (vkmd_gpu_vec4){(float)v->sc.extent.width, (float)v->sc.extent.height,
                        1.0f / (float)v->sc.extent.width, 1.0f / (float)v->sc.extent.height};
    frame.scale = (vkmd_gpu_vec4){(float)(hud->bath_k > 0 ? hud->bath_k : 300.0), (float)scale,
                                  v->render.spacing, v->render.w_is_mass};
    frame.mode = (vkmd_gpu_uvec4){v->color_mode, v->rep,
                                  v->water | (v->hide_vsites ? VKMD_VIEW_VSITES_HIDDEN : 0u),
                                  (uint32_t)v->sys->atom_count};
    frame.counts = (vkmd_gpu_uvec4){v->render.bond_pairs, v->render.water_pairs,
                                    v->render.grid_columns, v->render.grid_rows};
    vkmd_gpu_uvec4 *text = v->text;
    const uint32_t text_count = build_hud(v, ctx, hud, scale, text);

    VkCommandBuffer cb = v->cb;
    VKMD_VK_CHECK(vkResetCommandBuffer(cb, 0));
    const VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                         .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VKMD_VK_CHECK(vkBeginCommandBuffer(cb, &bi));
    /* Earlier compute (and upload) writes to the borrowed buffers -> reads here. */
    const VkPipelineStageFlags draw_stages =
        VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    const VkPipelineStageFlags compute_stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkmd_vk_barrier(cb, compute_stages, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                    draw_stages, VK_ACCESS_SHADER_READ_BIT);
    vkmd_render_record_updates(&v->render, cb, &frame, text, text_count);
    const VkClearValue clear[2] = {{.color = {{0.07f, 0.08f, 0.11f, 1.0f}}},
                                   {.depthStencil = {1.0f, 0}}};
    const VkRenderPassBeginInfo rb = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                      .renderPass = v->sc.render_pass,
                                      .framebuffer = v->sc.framebuffers[image],
                                      .renderArea = {{0, 0}, v->sc.extent},
                                      .clearValueCount = 2,
                                      .pClearValues = clear};
    vkCmdBeginRenderPass(cb, &rb, VK_SUBPASS_CONTENTS_INLINE);
    vkmd_render_record_draws(&v->render, cb, v->sc.extent, &frame, text_count);
    vkCmdEndRenderPass(cb);
    const int copy = shot_path && v->sc.can_copy;
    if (copy)
        record_copy(v, cb, v->sc.images[image]);
    /* Later compute work (next steps, uploads) writes what was read here. */
    vkmd_vk_barrier(cb, draw_stages, 0, compute_stages, 0);
    VKMD_VK_CHECK(vkEndCommandBuffer(cb));

    VkSemaphore waits[2] = {v->acquired, v->compute_done};
    const VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                            VK_PIPELINE_STAGE_VERTEX_SHADER_BIT};
    uint32_t wait_count = 1;
    if (ctx->graphics_separate) {
        /* Everything submitted to the compute queue so far -> this frame. */
        const VkSubmitInfo cs = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                 .signalSemaphoreCount = 1,
                                 .pSignalSemaphores = &v->compute_done};
        VKMD_VK_CHECK(vkQueueSubmit(ctx->queue, 1, &cs, VK_NULL_HANDLE));
        wait_count = 2;
    }
    const VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                             .waitSemaphoreCount = wait_count,
                             .pWaitSemaphores = waits,
                             .pWaitDstStageMask = stages,
                             .commandBufferCount = 1,
                             .pCommandBuffers = &cb,
                             .signalSemaphoreCount = 1,
                             .pSignalSemaphores = &v->sc.render_done[image]};
    VKMD_VK_CHECK(vkQueueSubmit(ctx->graphics_queue, 1, &si, v->in_flight));
    v->in_flight_pending = 1;
    const VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                                 .waitSemaphoreCount = 1,
                                 .pWaitSemaphores = &v->sc.render_done[image],
                                 .swapchainCount = 1,
                                 .pSwapchains = &v->sc.swapchain,
                                 .pImageIndices = &image};
    const VkResult pr = vkQueuePresentKHR(ctx->graphics_queue, &pi);
    if (pr == VK_ERROR_OUT_OF_DATE_KHR || pr == VK_SUBOPTIMAL_KHR)
        v->resized = 1;
    else
        VKMD_VK_CHECK(pr);
    /* The frame must be done before control returns: the caller's next
     * host writes (uploads of positions: vkmd_md_set_state, vkmd view's
     * frames, which are plain copies on unified memory) and, across queues,
     * its next compute work would otherwise race the draw's reads. */
    VKMD_TRY(wait_frame(v, ctx));
    if (copy)
        VKMD_TRY(write_screenshot(v, ctx, shot_path));
    else if (shot_path)
        fprintf(stderr, "vkmd: this window's images cannot be copied; no screenshot\n");
    *out_drawn = 1;
cleanup:
    return res;
}

vkmd_result vkmd_viewer_frame(vkmd_viewer *v, vkmd_vk_context *ctx, const vkmd_viewer_hud *hud,
                              vkmd_viewer_input *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    if (v->paused && !v->single_step)
        glfwWaitEventsTimeout(0.05); /* idle while paused, still redraw for the camera */
    else
        glfwPollEvents();
    for (int t = 0; t < v->typed_count; ++t)
        if (!v->typed[t].done && v->typed[t].frame == v->frames) {
            v->typed[t].done = 1;
            for (const char *c = v->typed[t].keys; *c; ++c)
                on_char(v->window, (unsigned char)*c);
        }
    if (v->resize_at > 0 && v->frames == v->resize_at) {
        glfwSetWindowSize(v->window, v->resize_w, v->resize_h);
        glfwPollEvents();
        v->resized = 1;
    }
    const int last = v->desc.frames > 0 && v->frames + 1 >= v->desc.frames;
    char path[4096];
    const char *shot = NULL;
    if (last && v->desc.screenshot_path) {
        shot = v->desc.screenshot_path;
    } else if (v->want_shot) {
        snprintf(path, sizeof path, "%s/vkmd_screenshot_%03d.png",
                 v->desc.screenshot_dir ? v->desc.screenshot_dir : ".", v->shot_counter++);
        shot = path;
    }
    int drawn = 0;
    VKMD_TRY(draw(v, ctx, hud, shot, &drawn));
    if (drawn) {
        ++v->frames;
        if (shot == path)
            v->want_shot = 0;
    } else if (shot == v->desc.screenshot_path && shot) {
        /* Rebuilt or minimised: the last frame is drawn again next time. */
    }
    out->paused = v->paused;
    out->steps = v->paused ? (v->single_step ? 1 : 0) : v->steps_per_frame;
    v->single_step = 0;
    out->quit =
        glfwWindowShouldClose(v->window) || (v->desc.frames > 0 && v->frames >= v->desc.frames);
cleanup:
    return res;
}

void vkmd_viewer_close(vkmd_viewer *v, vkmd_vk_context *ctx)
{
    if (!v)
        return;
    if (ctx && ctx->device) {
        vkDeviceWaitIdle(ctx->device); /* best effort: closing anyway */
        vkmd_render_destroy(ctx, &v->render);
        vkmd_swapchain_destroy(ctx, &v->sc);
        vkmd_vk_buffer_destroy(ctx, &v->shot);
        if (v->pool)
            vkDestroyCommandPool(ctx->device, v->pool, NULL);
        if (v->acquired)
            vkDestroySemaphore(ctx->device, v->acquired, NULL);
        if (v->compute_done)
            vkDestroySemaphore(ctx->device, v->compute_done, NULL);
        if (v->in_flight)
            vkDestroyFence(ctx->device, v->in_flight, NULL);
    }
    if (v->surface && v->instance)
        vkDestroySurfaceKHR(v->instance, v->surface, NULL);
    if (v->window)
        glfwDestroyWindow(v->window);
    if (v->glfw_on)
        glfwTerminate();
    free(v);
}
