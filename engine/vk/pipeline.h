/* Compute pipelines from the embedded SPIR-V (vk/spirv.h), their descriptor
 * sets, and the one generic dispatch helper.
 *
 * Every vkmd compute shader has the same interface shape: set 0 holds
 * `buffer_count` storage buffers at bindings 0..buffer_count-1, then
 * `texel_count` storage texel buffers (format R32G32B32A32_UINT: a uvec4
 * per texel, read with imageLoad from a `uimageBuffer`; R32_UINT, a uint,
 * for those in texel_scalar_mask), plus optional push
 * constants (at most 128 bytes, the guaranteed minimum). A texel binding is
 * a second view of a buffer for its hot reads: on a CPU device (lavapipe)
 * a storage-buffer load that differs by lane is a loop over the lanes with a
 * bounds test per component, an imageLoad a straight gather, about 6x
 * fewer cycles a vec4 (docs/ARCHITECTURE.md). Variants are
 * made with specialization constants (ids in shaders/common/vkmd_layout.h),
 * never by copying shaders. Pipelines are made once at setup, and a kept
 * one (below) is compiled at its first recorded dispatch: a CPU device
 * compiles in tens to hundreds of ms a pipeline (2.2 s for the 35 of a
 * water:216 run on lavapipe), and a run uses only some of those its passes
 * make (the fused step leaves the pass-by-pass ones idle). */
#ifndef VKMD_VK_PIPELINE_H
#define VKMD_VK_PIPELINE_H

#include "vk/buffer.h"
#include "vk/context.h"

#define VKMD_VK_MAX_BUFFERS 24 /* storage buffers per pipeline (and the device's limit) */
#define VKMD_VK_MAX_SPECS   16 /* specialization constants per pipeline */
#define VKMD_VK_MAX_TEXELS  4  /* storage texel buffers per pipeline */

/* One 32-bit specialization constant (uint, int, bool or float bits). */
typedef struct vkmd_vk_spec {
    uint32_t id;    /* constant_id in the shader */
    uint32_t value; /* raw bits; see vkmd_vk_spec_float */
} vkmd_vk_spec;

/* A float specialization constant value as raw bits. */
uint32_t vkmd_vk_spec_float(float f);

typedef struct vkmd_vk_pipeline_desc {
    const char *shader;    /* embedded file name, e.g. "bonded.comp"; required */
    uint32_t buffer_count; /* storage buffers at bindings 0..n-1 of set 0; 0 */
    uint32_t texel_count;  /* texel buffers at bindings n..n+t-1; 0, at most VKMD_VK_MAX_TEXELS */
    uint32_t texel_scalar_mask; /* bit k: texel binding n + k has uint texels (else uvec4) */
    uint32_t push_size;         /* push-constant bytes, multiple of 4, <= 128; 0: none */
    const vkmd_vk_spec *specs;  /* NULL */
    uint32_t spec_count;        /* 0; at most VKMD_VK_MAX_SPECS */
} vkmd_vk_pipeline_desc;

typedef struct vkmd_vk_pipeline {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    uint32_t buffer_count;
    uint32_t texel_count;
    uint32_t texel_scalar_mask;
    uint32_t push_size;
    int owned; /* 1: not kept by the context (it holds VKMD_VK_PIPELINES_KEPT) */
    char name[64];
    vkmd_vk_context *ctx; /* a kept one: its context, and entry - 1 in its table */
    uint32_t entry;       /* (pipeline is then VK_NULL_HANDLE until compiled) */
} vkmd_vk_pipeline;

/* Pipelines a context keeps at most (distinct shaders and variants); beyond,
 * new ones are the caller's and go with vkmd_vk_pipeline_destroy. */
#define VKMD_VK_PIPELINES_KEPT 512

/* The context keeps every pipeline it made (vkmd_vk_context.pipelines):
 * the same shader, buffer count, push size and specialization constants
 * again return the same objects without compiling. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (unknown shader, bad counts or sizes), Vulkan
 * errors. On failure *out_pipeline is zeroed. */
vkmd_result vkmd_vk_pipeline_create(vkmd_vk_context *ctx, const vkmd_vk_pipeline_desc *desc,
                                    vkmd_vk_pipeline *out_pipeline);

/* Compiles a kept pipeline not compiled yet (no-op otherwise): for callers
 * that bind it themselves (indirect dispatch) or want the compile's time at
 * setup. Errors: Vulkan errors. */
vkmd_result vkmd_vk_pipeline_compile(const vkmd_vk_pipeline *pipeline);

/* The pipeline's VkPipeline, compiled now if it was not; VK_NULL_HANDLE if
 * that failed (the context keeps the first failure: vkmd_vk_cmd_end and
 * vkmd_vk_oneshot_submit return it). */
VkPipeline vkmd_vk_pipeline_handle(const vkmd_vk_pipeline *pipeline);

/* Lets the pipeline go (a kept one's objects stay the context's until it is
 * destroyed); a zeroed struct: no-op. */
void vkmd_vk_pipeline_destroy(vkmd_vk_context *ctx, vkmd_vk_pipeline *pipeline);

/* A descriptor set (and its own small pool) binding buffers to a pipeline's
 * layout. The buffers are borrowed: they must outlive the set. */
typedef struct vkmd_vk_descset {
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkBufferView views[VKMD_VK_MAX_TEXELS]; /* the texel bindings' views */
} vkmd_vk_descset;

/* buffers[i] goes to binding i, whole buffer; exactly pipeline->buffer_count
 * + pipeline->texel_count entries (a texel binding views the whole buffer
 * rounded down to its texel size). Errors: VKMD_ERROR_INVALID_ARGUMENT (NULL
 * buffer), VKMD_ERROR_UNSUPPORTED (a texel buffer over the device's
 * maxTexelBufferElements: vkmd_vk_texels_fit says beforehand), Vulkan errors. */
vkmd_result vkmd_vk_descset_create(vkmd_vk_context *ctx, const vkmd_vk_pipeline *pipeline,
                                   const vkmd_vk_buffer *const *buffers, vkmd_vk_descset *out_set);

/* Whether `texels` texels fit one texel binding on this device. */
int vkmd_vk_texels_fit(const vkmd_vk_context *ctx, VkDeviceSize texels);

/* Whether shaders take their CPU-device read paths: texel views
 * (VKMD_SPEC_TEXEL_READS) and gb.comp's subgroup tiles, on CPU devices,
 * where a storage-buffer or shared-memory read that differs by lane is a
 * loop over the lanes; VKMD_TEXEL_READS=0 or 1 in the environment overrides
 * (tests run both paths on lavapipe). GPUs are not measured yet. */
int vkmd_vk_texel_reads(const vkmd_vk_context *ctx);

/* Zeroed struct: no-op. */
void vkmd_vk_descset_destroy(vkmd_vk_context *ctx, vkmd_vk_descset *set);

/* Binds the pipeline and set, pushes `push` (pipeline->push_size bytes; may
 * be NULL when push_size is 0) and dispatches groups_x * groups_y * groups_z
 * workgroups. Records only (compiling the pipeline first if it is not yet;
 * on failure nothing is recorded and the command buffer's end reports it);
 * synchronisation is the caller's (vk/barrier.h). */
void vkmd_vk_dispatch(VkCommandBuffer cb, const vkmd_vk_pipeline *pipeline,
                      const vkmd_vk_descset *set, const void *push, uint32_t groups_x,
                      uint32_t groups_y, uint32_t groups_z);

/* ceil(n / d), for workgroup counts. */
static inline uint32_t vkmd_vk_div_up(uint32_t n, uint32_t d)
{
    return (n + d - 1) / d;
}

#endif
