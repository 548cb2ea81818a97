/* What the viewer draws and how: the graphics pipelines (sphere and
 * cylinder impostors, lines, HUD text), their one descriptor set and the
 * viewer's own buffers (per-atom style, bond pairs, frame record, text,
 * font). Positions, velocities and forces are borrowed from the simulation
 * (vertex pulling: the vertex shaders index them by atom; no copy).
 *
 * Synchronisation is the caller's (viewer.c): a frame's draws read the
 * borrowed buffers after the compute work that wrote them. */
#ifndef VKMD_VIEWER_RENDER_H
#define VKMD_VIEWER_RENDER_H

#include "common/vkmd_layout.h"
#include "system/system.h"
#include "vk/buffer.h"

#define VKMD_RENDER_TEXT_MAX 1024 /* HUD characters per frame */

/* Buffers read by the shaders. velocities and forces may be NULL (a
 * structure or trajectory: those colour modes then show zero). */
typedef struct vkmd_render_sources {
    const vkmd_vk_buffer *positions;  /* vec4 [N], A */
    const vkmd_vk_buffer *velocities; /* vec4 [N] A/fs, w 1/m; NULL */
    const vkmd_vk_buffer *forces;     /* int64 fixed point [3N] planes; NULL */
    int32_t atoms_per_replica;        /* 0: one system (replica colour = 0) */
    int velocity_w_is_mass;           /* 0: velocities.w = 1/m (AMBER MD); 1: w = m (UFF MD) */
    double replica_spacing_a;         /* > 0: replicas drawn side by side on a grid this far
                                         apart; 0: where they are */
} vkmd_render_sources;

typedef struct vkmd_render {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline atoms, bonds, lines, text; /* lines draws water pairs and the box */
    vkmd_vk_buffer atom_buf, pair_buf, frame_buf, text_buf, font_buf, zero_buf, outline_buf;
    uint32_t atom_count, bond_pairs, water_pairs;
    uint32_t outline_edges; /* a triclinic cell's outline (cell_outline.h); 0 otherwise */
    uint32_t box_kind;      /* VKMD_VIEW_BOX_* of the system's box */
    uint32_t replicas, grid_columns, grid_rows; /* side-by-side layout (spacing > 0) */
    float spacing, w_is_mass;
} vkmd_render;

/* Builds the pipelines for `render_pass` and the viewer's buffers for
 * `sys` (elements, bonds, waters). Errors: Vulkan and memory errors. */
vkmd_result vkmd_render_create(vkmd_vk_context *ctx, VkRenderPass render_pass,
                               const vkmd_system *sys, const vkmd_render_sources *src,
                               vkmd_render *out);
void vkmd_render_destroy(vkmd_vk_context *ctx, vkmd_render *r);

/* Records, outside a render pass, the frame record and `text` (uvec4 per
 * character, at most VKMD_RENDER_TEXT_MAX) updates and the barrier that
 * makes them visible to the shaders. */
void vkmd_render_record_updates(const vkmd_render *r, VkCommandBuffer cb,
                                const vkmd_view_frame *frame, const vkmd_gpu_uvec4 *text,
                                uint32_t text_count);

/* Records the draws inside the render pass (viewport and scissor from
 * `extent`); mode fields as in frame (what was uploaded). */
void vkmd_render_record_draws(const vkmd_render *r, VkCommandBuffer cb, VkExtent2D extent,
                              const vkmd_view_frame *frame, uint32_t text_count);

#endif
