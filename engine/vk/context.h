/* Vulkan context: instance (with the validation layer and a debug messenger
 * when asked), device enumeration, device choice, optional features, one
 * compute queue and a command pool. Every other vk/ module takes a context.
 *
 * Notes:
 * - vkmd needs Vulkan 1.2 (instance and device); devices reporting an older
 *   API are listed but never chosen.
 * - Optional features are detected through VkPhysicalDeviceFeatures2 ->
 *   Vulkan11Features -> Vulkan12Features (-> ShaderAtomicFloatFeaturesEXT)
 *   and every supported one is enabled. lavapipe runs shaders that use a
 *   feature nobody enabled; only the validation layer notices, so tests run
 *   with it on (VKMD_VALIDATION=1).
 * - Validation messages of type VALIDATION or PERFORMANCE with severity ERROR
 *   are counted (a test fails on a non-zero count); WARNINGs are logged. GENERAL
 *   messages are ignored: the loader emits one when VK_INSTANCE_LAYERS is set.
 *   If validation is requested but the layer is not installed, a warning is
 *   logged and the context runs without it (validation_enabled = 0).
 * - A context is not thread-safe: one thread records and submits. */
#ifndef VKMD_VK_CONTEXT_H
#define VKMD_VK_CONTEXT_H

#include "core/result.h"

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/* Optional device capabilities vkmd can use (1 = supported; when the context
 * is created every supported one is also enabled). For tests,
 * VKMD_FORCE_NO_INT64_ATOMICS=1 reports buffer_int64_atomics as 0 and
 * VKMD_FORCE_NO_INT64=1 also shader_int64 (and neither is enabled). */
typedef struct vkmd_vk_features {
    int shader_float16;            /* Vulkan12 shaderFloat16 */
    int storage_buffer_16bit;      /* Vulkan11 storageBuffer16BitAccess */
    int shader_int64;              /* core shaderInt64 */
    int buffer_int64_atomics;      /* Vulkan12 shaderBufferInt64Atomics */
    int buffer_float32_atomic_add; /* VK_EXT_shader_atomic_float shaderBufferFloat32AtomicAdd */
    uint32_t subgroup_size;        /* Vulkan11 subgroupSize (0 if unknown) */
    int subgroup_shuffle;          /* compute shaders have subgroup shuffles, in subgroups of a
                                      multiple of 8 lanes (the tile kernels' groups); 0 under
                                      VKMD_FORCE_TILE_SHARED=1 (tests of the fallback) */
    int timestamps;                /* compute-queue timestamps (valid bits > 0) */
    int conditional_rendering;     /* VK_EXT_conditional_rendering (dispatches skipped by a
                                      device value: MD batches that stop themselves, sim/md.h);
                                      0 under VKMD_NO_CONDITIONAL_RENDERING=1 (tests) */
} vkmd_vk_features;

/* Everything vkmd reports about one physical device. */
typedef struct vkmd_vk_device_info {
    uint32_t index; /* position in vkEnumeratePhysicalDevices */
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    uint32_t vendor_id;      /* PCI vendor id (or Khronos id, e.g. 0x10005 Mesa) */
    const char *vendor_name; /* "NVIDIA", "AMD", "Intel", "Mesa", ... or "unknown"; static */
    uint32_t device_id;
    VkPhysicalDeviceType type;
    const char *type_name;       /* "discrete", "integrated", "virtual", "cpu", "other"; static */
    uint32_t api_version;        /* VK_MAKE_API_VERSION */
    uint32_t driver_version;     /* raw, vendor-specific encoding */
    char driver_version_str[32]; /* decoded with the vendor's convention, e.g. "535.104.5.0" */
    char driver_name[VK_MAX_DRIVER_NAME_SIZE]; /* "llvmpipe", "NVIDIA", ...; "" before 1.2 */
    char driver_info[VK_MAX_DRIVER_INFO_SIZE]; /* "Mesa 22.3.6 (LLVM 15.0.6)" */
    uint64_t device_local_bytes;               /* sum of DEVICE_LOCAL heaps */
    uint64_t host_bytes;        /* sum of the other heaps (system memory the GPU can reach) */
    int unified_memory;         /* 1: a DEVICE_LOCAL memory type is also HOST_VISIBLE|COHERENT
                                   and the device is integrated or a CPU (no staging needed) */
    double timestamp_period_ns; /* ns per timestamp tick */
    uint32_t max_workgroup_invocations;
    uint32_t max_workgroup_count_x;
    uint32_t max_shared_memory_bytes;
    uint32_t max_push_constant_bytes;
    uint32_t queue_family; /* the compute queue family vkmd would use, UINT32_MAX if none */
    int usable;            /* 1 if it has a compute queue and Vulkan >= 1.2 */
    vkmd_vk_features features;
} vkmd_vk_device_info;

typedef struct vkmd_vk_context_desc {
    const char *device;        /* NULL: $VKMD_DEVICE if set, else the best type (discrete >
                                  integrated > virtual > cpu, then lowest index); "N": index N;
                                  otherwise a case-insensitive substring of the device name */
    int validation;            /* 0: on iff $VKMD_VALIDATION is set and not "0"; 1: on; -1: off */
    uint64_t fence_timeout_ns; /* 0: 600 s; a wait longer than this fails (VK_TIMEOUT) */
    /* Presentation, for a viewer (the engine never includes a window
     * system): extra instance extensions the window system needs (e.g.
     * glfwGetRequiredInstanceExtensions), and a callback saying whether a
     * queue family of a device can present to it. With present_support set
     * the device also gets VK_KHR_swapchain and a graphics queue that can
     * present (graphics_queue below); a chosen device that cannot present
     * is an error (VKMD_ERROR_UNSUPPORTED). */
    const char *const *instance_extensions; /* NULL */
    uint32_t instance_extension_count;      /* 0 */
    int (*present_support)(void *user, VkInstance instance, VkPhysicalDevice physical,
                           uint32_t family); /* NULL: no presentation */
    void *present_user;                      /* passed to present_support */
    int separate_graphics_queue; /* 0; 1 (or $VKMD_SEPARATE_GRAPHICS_QUEUE=1): treat graphics
                                    as another queue (a second queue of the family if it has
                                    one) so the cross-queue path runs on any device (tests) */
} vkmd_vk_context_desc;

/* Read-only for users after creation; owned by the context. */
typedef struct vkmd_vk_context {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger; /* VK_NULL_HANDLE without validation */
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkCommandPool pool; /* RESET_COMMAND_BUFFER; for vk/command.h */
    /* Presentation (only with desc.present_support): the graphics queue and
     * its family. graphics_separate = 1 when graphics work must synchronise
     * with the compute queue through semaphores (another queue or family, or
     * desc.separate_graphics_queue). When the families differ every buffer is
     * created with VK_SHARING_MODE_CONCURRENT over both, so the viewer reads
     * the simulation's buffers without ownership transfers. */
    VkQueue graphics_queue;   /* VK_NULL_HANDLE without presentation */
    uint32_t graphics_family; /* UINT32_MAX without presentation */
    int graphics_separate;
    uint32_t graphics_queue_index; /* 0, or 1 for a second queue of the compute family */
    vkmd_vk_device_info info;      /* the chosen device; features = those enabled */
    /* VK_EXT_conditional_rendering's commands (NULL without the feature);
     * vk/conditional.h wraps them. */
    PFN_vkCmdBeginConditionalRenderingEXT cmd_begin_conditional;
    PFN_vkCmdEndConditionalRenderingEXT cmd_end_conditional;
    VkPhysicalDeviceMemoryProperties memory;
    VkPhysicalDeviceLimits limits;
    int validation_enabled; /* 1 if the layer and messenger are active */
    uint64_t fence_timeout_ns;
    /* Counted by the messenger (possibly from driver threads; atomics). */
    _Atomic uint32_t validation_errors;
    _Atomic uint32_t validation_warnings;
    char first_validation_error[512]; /* first counted message, "" if none */
    /* Every pipeline vk/pipeline.h made on this device, kept for the
     * context's life: asking again for the same shader, buffer count, push
     * size and specialization constants returns the first one's objects
     * (a CPU device compiles a pipeline in tens to hundreds of ms, and the
     * precision calibration, minimiser, MD step and tests ask for the same
     * ones). Destroyed with the context; one thread at a time, as the pool. */
    struct vkmd_vk_pipeline_entry *pipelines;
    uint32_t pipeline_count, pipeline_capacity;
    uint64_t pipeline_compiles, pipeline_reuses; /* counters for tests and logs */
    uint64_t pipeline_deferred; /* made, not yet compiled (no dispatch recorded yet) */
    double pipeline_compile_s;  /* wall seconds spent compiling, all pipelines together */
    /* The first failure of a compilation at a dispatch (vkmd_vk_dispatch
     * cannot return one): vkmd_vk_cmd_end and vkmd_vk_oneshot_submit return
     * it, and it stays until the context goes. */
    vkmd_result deferred_failure;
    char deferred_message[256];
} vkmd_vk_context;

/* One kept pipeline (vk/pipeline.c): its key, its objects, and what its
 * compilation needs (VK_NULL_HANDLE pipeline until its first dispatch). */
typedef struct vkmd_vk_pipeline_entry {
    unsigned char *key; /* shader name, NUL, buffer count, push size, specs */
    size_t key_size;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    const struct vkmd_spirv *spv;
    uint32_t spec_count;
    uint32_t spec_ids[16], spec_values[16]; /* VKMD_VK_MAX_SPECS */
} vkmd_vk_pipeline_entry;

/* Lists every physical device (usable or not) with a temporary instance.
 * On success *out_devices is a malloc'd array the caller free()s (NULL when
 * *out_count is 0). Errors: VKMD_ERROR_NO_DEVICE when there is no Vulkan
 * loader/driver, VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_VULKAN. */
vkmd_result vkmd_vk_devices_list(vkmd_vk_device_info **out_devices, uint32_t *out_count);

/* The device vkmd_vk_context_create would pick among `devices` for `want`
 * (same meaning as vkmd_vk_context_desc.device; NULL/"" = best type). Errors:
 * VKMD_ERROR_NO_DEVICE with a message listing the devices. */
vkmd_result vkmd_vk_devices_choose(const vkmd_vk_device_info *devices, uint32_t count,
                                   const char *want, uint32_t *out_index);

/* Creates the instance, picks a device (see desc->device), enables its
 * optional features and gets a compute queue. `desc` may be NULL (all
 * defaults). *out_ctx is heap-allocated; free with vkmd_vk_context_destroy.
 * Errors: VKMD_ERROR_NO_DEVICE (no usable device, or none matches
 * desc->device: the message lists what exists), VKMD_ERROR_VULKAN,
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_vk_context_create(const vkmd_vk_context_desc *desc, vkmd_vk_context **out_ctx);

/* Waits for the device to go idle and destroys everything. NULL is a no-op.
 * Every object created from the context must be destroyed before. */
void vkmd_vk_context_destroy(vkmd_vk_context *ctx);

/* Validation errors counted so far (0 without validation). */
uint32_t vkmd_vk_context_validation_errors(const vkmd_vk_context *ctx);

/* Validation warnings counted so far (logged, not failures). */
uint32_t vkmd_vk_context_validation_warnings(const vkmd_vk_context *ctx);

/* VKMD_OK when no validation error was counted, else VKMD_ERROR_VALIDATION
 * with the count and the first message. */
vkmd_result vkmd_vk_context_check_validation(const vkmd_vk_context *ctx);

/* The first failure of a pipeline compiled at its first dispatch on this
 * context (vk/pipeline.h), as a fresh vkmd_fail; VKMD_OK if none. */
vkmd_result vkmd_vk_deferred_failure(const vkmd_vk_context *ctx);

/* One line "name (type, driver info, Vulkan x.y.z)" into buf. */
void vkmd_vk_device_describe(const vkmd_vk_device_info *info, char *buf, size_t buf_size);

#endif
