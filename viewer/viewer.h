/* The live viewer: a GLFW window drawing a system straight from the
 * simulation's device buffers (vkmd run) or from a structure/trajectory
 * buffer (vkmd view), with a camera, keys, a HUD and PNG screenshots.
 *
 * Use: vkmd_viewer_open (window system; fails cleanly without a display),
 * vkmd_viewer_context_desc (so the Vulkan context can present), create the
 * context, vkmd_viewer_attach (swapchain, pipelines), then per frame
 * vkmd_viewer_frame between pieces of compute work, which tells the caller
 * how many steps to run next (0 while paused) and when to stop.
 *
 * Synchronisation: on one queue, the frame's command buffer orders itself
 * after earlier compute work with a pipeline barrier (compute writes ->
 * vertex/fragment reads) and later compute work after its reads (an
 * execution barrier at its end). On separate queues (another family, or
 * VKMD_SEPARATE_GRAPHICS_QUEUE=1) an empty compute-queue submission signals
 * a semaphore the graphics submission waits on. In both cases the frame's
 * fence is waited before vkmd_viewer_frame returns, so neither later
 * compute work nor host uploads (which are plain copies on unified memory)
 * overwrite what is being drawn. Presentation is MAILBOX when offered (the
 * simulation is not held to the display rate), else FIFO.
 *
 * Test hooks: VKMD_VIEWER_RESIZE=N:WxH resizes the window at frame N;
 * VKMD_VIEWER_KEYS="N:keys[,N:keys...]" types the characters `keys` (the
 * printable key bindings: c, w, b, r, p, space, ., +, -, ?) at frame N. */
#ifndef VKMD_VIEWER_VIEWER_H
#define VKMD_VIEWER_VIEWER_H

#include "render.h"
#include "system/system.h"
#include "vk/context.h"

typedef struct vkmd_viewer vkmd_viewer;

typedef struct vkmd_viewer_desc {
    const char *title;           /* "vkmd" */
    int32_t width, height;       /* 0: 1280 x 800 window (screen coordinates) */
    int32_t steps_per_frame;     /* 0: 10 (changed with + and -) */
    const char *screenshot_path; /* NULL; with frames: write this PNG after `frames` frames */
    int32_t frames;              /* 0: until closed; N: stop after N frames */
    const char *screenshot_dir;  /* NULL: "."; where the p key writes PNGs */
    const char *unit_label;      /* NULL: "STEP"; the HUD's counter name ("FRAME" for view) */
    uint32_t color_mode;         /* VKMD_VIEW_COLOR_ELEMENT; the c key cycles */
} vkmd_viewer_desc;

/* VKMD_VIEW_COLOR_* for "element", "velocity", "force" or "replica"; -1 otherwise. */
int vkmd_viewer_color_mode(const char *name);

/* Numbers the HUD shows (the caller's latest report). */
typedef struct vkmd_viewer_hud {
    int64_t step;
    double time_ps;
    double ns_per_day;    /* 0: not shown */
    double temperature_k; /* < 0: not shown; shown alone when energies is 0 */
    double potential_kcal_mol, total_kcal_mol;
    int energies;     /* 1: show the energies */
    double bath_k;    /* velocity colours: local temperature against this (0: 300) */
    const char *note; /* NULL; an extra HUD line */
    double box[3];    /* A: the box drawn (it changes under a barostat); 0: the system's */
} vkmd_viewer_hud;

/* What the user asked for during the frame. */
typedef struct vkmd_viewer_input {
    int32_t steps; /* steps (or frames) to run before the next frame; 0 while paused */
    int quit;      /* Esc, the window closed, or the frames of desc.frames drawn */
    int paused;
} vkmd_viewer_input;

/* Initialises GLFW and creates the window (not yet drawn). Errors:
 * VKMD_ERROR_UNSUPPORTED when there is no display or GLFW has no Vulkan. */
vkmd_result vkmd_viewer_open(const vkmd_viewer_desc *desc, vkmd_viewer **out);

/* Adds what the window system needs to a context description. */
void vkmd_viewer_context_desc(vkmd_viewer *v, vkmd_vk_context_desc *cd);

/* Creates the surface, swapchain and pipelines on `ctx` (made with the
 * description above) for `sys`, drawing from `src`'s buffers (borrowed). */
vkmd_result vkmd_viewer_attach(vkmd_viewer *v, vkmd_vk_context *ctx, const vkmd_system *sys,
                               const vkmd_render_sources *src);

/* Handles input and draws one frame (after the compute work submitted so
 * far). A screenshot due this frame is written before it returns. */
vkmd_result vkmd_viewer_frame(vkmd_viewer *v, vkmd_vk_context *ctx, const vkmd_viewer_hud *hud,
                              vkmd_viewer_input *out);

/* Frames drawn so far. */
int64_t vkmd_viewer_frames(const vkmd_viewer *v);

/* Destroys the Vulkan objects (before the context) and the window. NULL: no-op. */
void vkmd_viewer_close(vkmd_viewer *v, vkmd_vk_context *ctx);

#endif
