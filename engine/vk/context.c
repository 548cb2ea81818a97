/* Vulkan instance, device choice, optional features, compute queue and the
 * validation messenger (see context.h).
 *
 * Surprises handled here:
 * - Vulkan11/12 property and feature structs may only be chained for devices
 *   that report API >= 1.2 (older drivers reject unknown sTypes).
 * - Only the features vkmd uses are enabled, not everything supported:
 *   robustBufferAccess and friends cost speed on real GPUs.
 * - VK_KHR_portability_enumeration is enabled when present so that
 *   MoltenVK-style drivers are listed at all. */
#include "vk/context.h"
#include "core/log.h"
#include "vk/check.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"
#define MAX_EXTENSIONS   8

static const char *vendor_name(uint32_t id)
{
    switch (id) {
    case 0x10DE:
        return "NVIDIA";
    case 0x1002:
        return "AMD";
    case 0x1022:
        return "AMD";
    case 0x8086:
        return "Intel";
    case 0x13B5:
        return "ARM";
    case 0x5143:
        return "Qualcomm";
    case 0x106B:
        return "Apple";
    case 0x1010:
        return "Imagination";
    case 0x14E4:
        return "Broadcom";
    case 0x1AE0:
        return "Google";
    case 0x10005:
        return "Mesa";
    default:
        return "unknown";
    }
}

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "cpu";
    default:
        return "other";
    }
}

/* Higher is preferred by the default choice. */
static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 1;
    default:
        return 0;
    }
}

static void decode_driver_version(uint32_t vendor, uint32_t v, char *buf, size_t n)
{
    if (vendor == 0x10DE)
        snprintf(buf, n, "%u.%u.%u.%u", (v >> 22) & 0x3ff, (v >> 14) & 0xff, (v >> 6) & 0xff,
                 v & 0x3f);
#ifdef _WIN32
    else if (vendor == 0x8086)
        snprintf(buf, n, "%u.%u", v >> 14, v & 0x3fff);
#endif
    else
        snprintf(buf, n, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                 VK_API_VERSION_PATCH(v));
}

static int instance_layer_present(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkLayerProperties *props = calloc(n, sizeof *props);
    int found = 0;
    if (props && vkEnumerateInstanceLayerProperties(&n, props) >= 0)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(props[i].layerName, name) == 0;
    free(props);
    return found;
}

/* 1 if `ext` is offered by the implementation (layer == NULL) or by `layer`. */
static int instance_extension_present(const char *layer, const char *ext)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkExtensionProperties *props = calloc(n, sizeof *props);
    int found = 0;
    if (props && vkEnumerateInstanceExtensionProperties(layer, &n, props) >= 0)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(props[i].extensionName, ext) == 0;
    free(props);
    return found;
}

static int device_extension_present(VkPhysicalDevice pd, const char *ext)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkExtensionProperties *props = calloc(n, sizeof *props);
    int found = 0;
    if (props && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) >= 0)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(props[i].extensionName, ext) == 0;
    free(props);
    return found;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    vkmd_vk_context *ctx = user;
    const char *msg = data && data->pMessage ? data->pMessage : "(no message)";
    const VkDebugUtilsMessageTypeFlagsEXT counted = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    if (!(types & counted)) {
        vkmd_log_debug("vulkan: %s", msg);
        return VK_FALSE;
    }
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        if (atomic_fetch_add(&ctx->validation_errors, 1) == 0)
            snprintf(ctx->first_validation_error, sizeof ctx->first_validation_error, "%s", msg);
        vkmd_log_error("vulkan validation: %s", msg);
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        atomic_fetch_add(&ctx->validation_warnings, 1);
        vkmd_log_warn("vulkan validation: %s", msg);
    } else {
        vkmd_log_debug("vulkan: %s", msg);
    }
    return VK_FALSE; /* never abort the call */
}

static VkDebugUtilsMessengerCreateInfoEXT messenger_info(vkmd_vk_context *ctx)
{
    VkDebugUtilsMessengerCreateInfoEXT mi = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_debug_message,
        .pUserData = ctx,
    };
    return mi;
}

/* Creates an instance; with ctx != NULL and `validation`, also the layer and
 * the messenger (ctx->validation_enabled says whether that worked). */
#ifdef VKMD_SANITIZE
#include <dlfcn.h>
/* Sanitizer builds only: lavapipe and the validation layer keep allocations
 * in static state that they never free. The loader dlcloses them at
 * vkDestroyInstance, after which LeakSanitizer cannot name their frames and
 * tests/lsan.supp (which suppresses those two libraries, never vkmd code)
 * cannot match. Holding one extra reference keeps them mapped. */
static void keep_driver_libraries_loaded(void)
{
    static const char *libs[] = {"libvulkan_lvp.so", "libVkLayer_khronos_validation.so"};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; ++i)
        (void)dlopen(libs[i], RTLD_NOW | RTLD_NODELETE);
}
#else
static void keep_driver_libraries_loaded(void) {}
#endif

static vkmd_result create_instance(vkmd_vk_context *ctx, int validation,
                                   const vkmd_vk_context_desc *desc, VkInstance *out)
{
    vkmd_result res = VKMD_OK;
    uint32_t api = VK_API_VERSION_1_0;
    keep_driver_libraries_loaded();
    if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_2)
        return vkmd_fail(VKMD_ERROR_NO_DEVICE,
                         "the Vulkan loader supports only %u.%u; vkmd needs Vulkan 1.2",
                         VK_API_VERSION_MAJOR(api), VK_API_VERSION_MINOR(api));

    const char *exts[MAX_EXTENSIONS];
    uint32_t ext_count = 0;
    const char *layers[1];
    uint32_t layer_count = 0;
    VkInstanceCreateFlags flags = 0;
    if (instance_extension_present(NULL, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        exts[ext_count++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    for (uint32_t i = 0; desc && i < desc->instance_extension_count; ++i) {
        if (ext_count + 3 >= MAX_EXTENSIONS)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "too many instance extensions (%u)",
                             desc->instance_extension_count);
        if (!instance_extension_present(NULL, desc->instance_extensions[i]))
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "the Vulkan instance lacks %s (needed to draw in a window)",
                             desc->instance_extensions[i]);
        exts[ext_count++] = desc->instance_extensions[i];
    }

    VkDebugUtilsMessengerCreateInfoEXT mi = {0};
    VkValidationFeaturesEXT vf = {0};
    const VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    const void *next = NULL;
    int want = ctx && validation;
    /* Validation that was asked for and cannot run is an error, not a
     * warning: a test that counts zero validation errors must have had the
     * layer on to prove anything. */
    if (want && !instance_layer_present(VALIDATION_LAYER))
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "validation requested (VKMD_VALIDATION) but %s is not installed "
                         "(Debian: vulkan-validationlayers)",
                         VALIDATION_LAYER);
    if (want && !instance_extension_present(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !instance_extension_present(VALIDATION_LAYER, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "validation requested (VKMD_VALIDATION) but %s is missing",
                         VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

    if (want) {
        layers[layer_count++] = VALIDATION_LAYER;
        exts[ext_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        mi = messenger_info(ctx);
        next = &mi; /* also catches messages from vkCreateInstance itself */
        /* Synchronization validation catches missing barriers (hazards). */
        if (instance_extension_present(VALIDATION_LAYER,
                                       VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
            exts[ext_count++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
            vf = (VkValidationFeaturesEXT){
                .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                .pNext = &mi,
                .enabledValidationFeatureCount = sizeof enables / sizeof *enables,
                .pEnabledValidationFeatures = enables,
            };
            next = &vf;
        }
    }

    const VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkmd",
        .applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0),
        .pEngineName = "vkmd",
        .engineVersion = VK_MAKE_API_VERSION(0, 0, 1, 0),
        .apiVersion = VK_API_VERSION_1_2,
    };
    const VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = next,
        .flags = flags,
        .pApplicationInfo = &app,
        .enabledLayerCount = layer_count,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    VKMD_VK_CHECK(vkCreateInstance(&ci, NULL, out));
    if (want) {
        PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                *out, "vkCreateDebugUtilsMessengerEXT");
        if (create_messenger && create_messenger(*out, &mi, NULL, &ctx->messenger) == VK_SUCCESS) {
            ctx->validation_enabled = 1;
        } else {
            vkDestroyInstance(*out, NULL);
            *out = VK_NULL_HANDLE;
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "validation requested but the debug messenger could not be created");
        }
    }
cleanup:
    if (res == VKMD_ERROR_VULKAN || res == VKMD_ERROR_NO_DEVICE)
        res = vkmd_vk_fail_prefix(VKMD_ERROR_NO_DEVICE,
                                  "no Vulkan driver could be loaded (is one installed? without a "
                                  "GPU: Mesa's lavapipe, mesa-vulkan-drivers)");
    return res;
}

/* Picks the compute queue family: prefer one with timestamps, then a
 * universal (graphics + compute) one, then the lowest index. */
static uint32_t pick_queue_family(VkPhysicalDevice pd, uint32_t *out_timestamp_bits)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
    uint32_t best = UINT32_MAX;
    int best_score = -1;
    *out_timestamp_bits = 0;
    if (!q)
        return best;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    for (uint32_t i = 0; i < n; ++i) {
        if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || q[i].queueCount == 0)
            continue;
        int score = (q[i].timestampValidBits > 0) * 2 + !!(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
        if (score > best_score) {
            best_score = score;
            best = i;
            *out_timestamp_bits = q[i].timestampValidBits;
        }
    }
    free(q);
    return best;
}

static int env_on(const char *name);

/* Test overrides: VKMD_FORCE_NO_INT64_ATOMICS=1 clears shaderBufferInt64Atomics
 * and VKMD_FORCE_NO_INT64=1 also shaderInt64, as if the device lacked them
 * (the feature is then not enabled either), so that the 32-bit fixed-point
 * fallback of the force passes runs, under validation, on devices that have
 * both (see engine/forces/fixed_point.h). */
static void apply_feature_overrides(vkmd_vk_features *f)
{
    if (env_on("VKMD_FORCE_NO_INT64")) {
        f->shader_int64 = 0;
        f->buffer_int64_atomics = 0;
    }
    if (env_on("VKMD_FORCE_NO_INT64_ATOMICS"))
        f->buffer_int64_atomics = 0;
    if (env_on("VKMD_FORCE_TILE_SHARED"))
        f->subgroup_shuffle = 0;
    if (env_on("VKMD_NO_CONDITIONAL_RENDERING"))
        f->conditional_rendering = 0;
}

static void query_device(VkPhysicalDevice pd, uint32_t index, vkmd_vk_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->index = index;
    VkPhysicalDeviceProperties base;
    vkGetPhysicalDeviceProperties(pd, &base);
    int v12 = base.apiVersion >= VK_API_VERSION_1_2;

    VkPhysicalDeviceVulkan12Properties p12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceVulkan11Properties p11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, .pNext = &p12};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                         .pNext = v12 ? &p11 : NULL};
    vkGetPhysicalDeviceProperties2(pd, &props);
    const VkPhysicalDeviceProperties *p = &props.properties;

    snprintf(info->name, sizeof info->name, "%s", p->deviceName);
    info->vendor_id = p->vendorID;
    info->vendor_name = vendor_name(p->vendorID);
    info->device_id = p->deviceID;
    info->type = p->deviceType;
    info->type_name = type_name(p->deviceType);
    info->api_version = p->apiVersion;
    info->driver_version = p->driverVersion;
    decode_driver_version(p->vendorID, p->driverVersion, info->driver_version_str,
                          sizeof info->driver_version_str);
    if (v12) {
        snprintf(info->driver_name, sizeof info->driver_name, "%s", p12.driverName);
        snprintf(info->driver_info, sizeof info->driver_info, "%s", p12.driverInfo);
        info->features.subgroup_size = p11.subgroupSize;
        info->features.subgroup_shuffle =
            (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
            (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) &&
            (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) &&
            p11.subgroupSize >= 8 && p11.subgroupSize % 8 == 0;
    }
    info->timestamp_period_ns = p->limits.timestampPeriod;
    info->max_workgroup_invocations = p->limits.maxComputeWorkGroupInvocations;
    info->max_workgroup_count_x = p->limits.maxComputeWorkGroupCount[0];
    info->max_shared_memory_bytes = p->limits.maxComputeSharedMemorySize;
    info->max_push_constant_bytes = p->limits.maxPushConstantsSize;

    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(pd, &mem);
    for (uint32_t h = 0; h < mem.memoryHeapCount; ++h) {
        if (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            info->device_local_bytes += mem.memoryHeaps[h].size;
        else
            info->host_bytes += mem.memoryHeaps[h].size;
    }
    const VkMemoryPropertyFlags uma = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int uma_type = 0;
    for (uint32_t t = 0; t < mem.memoryTypeCount; ++t)
        uma_type |= (mem.memoryTypes[t].propertyFlags & uma) == uma;
    info->unified_memory = uma_type && (p->deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
                                        p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);

    uint32_t ts_bits = 0;
    info->queue_family = pick_queue_family(pd, &ts_bits);
    info->features.timestamps = ts_bits > 0 && p->limits.timestampPeriod > 0;
    info->usable = v12 && info->queue_family != UINT32_MAX;

    if (v12) {
        int has_af = device_extension_present(pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
        int has_cr = device_extension_present(pd, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);
        VkPhysicalDeviceConditionalRenderingFeaturesEXT cr = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
        VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
            .pNext = has_cr ? &cr : NULL};
        VkPhysicalDeviceVulkan12Features f12 = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
            .pNext = has_af   ? (void *)&af
                     : has_cr ? (void *)&cr
                              : NULL};
        VkPhysicalDeviceVulkan11Features f11 = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
        VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                       .pNext = &f11};
        vkGetPhysicalDeviceFeatures2(pd, &f);
        info->features.shader_float16 = !!f12.shaderFloat16;
        info->features.storage_buffer_16bit = !!f11.storageBuffer16BitAccess;
        info->features.shader_int64 = !!f.features.shaderInt64;
        info->features.buffer_int64_atomics = !!f12.shaderBufferInt64Atomics;
        info->features.buffer_float32_atomic_add = has_af && af.shaderBufferFloat32AtomicAdd;
        info->features.conditional_rendering = has_cr && cr.conditionalRendering;
    } else {
        VkPhysicalDeviceFeatures f;
        vkGetPhysicalDeviceFeatures(pd, &f);
        info->features.shader_int64 = !!f.shaderInt64;
    }
    apply_feature_overrides(&info->features);
}

/* Enumerates physical devices into a malloc'd array (caller frees). */
static vkmd_result enumerate(VkInstance instance, VkPhysicalDevice **out_pds,
                             vkmd_vk_device_info **out_infos, uint32_t *out_count)
{
    vkmd_result res = VKMD_OK;
    uint32_t n = 0;
    VkPhysicalDevice *pds = NULL;
    vkmd_vk_device_info *infos = NULL;
    VKMD_VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, NULL));
    if (n > 0) {
        pds = calloc(n, sizeof *pds);
        infos = calloc(n, sizeof *infos);
        if (!pds || !infos) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "device list: out of memory");
            goto cleanup;
        }
        VkResult r = vkEnumeratePhysicalDevices(instance, &n, pds);
        if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
            res = vkmd_vk_fail(r, __FILE__, __LINE__, "vkEnumeratePhysicalDevices");
            goto cleanup;
        }
        for (uint32_t i = 0; i < n; ++i)
            query_device(pds[i], i, &infos[i]);
    }
    *out_count = n;
    if (out_pds) {
        *out_pds = pds;
        pds = NULL;
    }
    *out_infos = infos;
    infos = NULL;
cleanup:
    free(pds);
    free(infos);
    return res;
}

vkmd_result vkmd_vk_devices_list(vkmd_vk_device_info **out_devices, uint32_t *out_count)
{
    *out_devices = NULL;
    *out_count = 0;
    VkInstance instance = VK_NULL_HANDLE;
    vkmd_result res = create_instance(NULL, 0, NULL, &instance);
    if (res != VKMD_OK)
        return res;
    res = enumerate(instance, NULL, out_devices, out_count);
    vkDestroyInstance(instance, NULL);
    return res;
}

void vkmd_vk_device_describe(const vkmd_vk_device_info *info, char *buf, size_t buf_size)
{
    snprintf(buf, buf_size, "%s (%s, %s, Vulkan %u.%u.%u)", info->name, info->type_name,
             info->driver_info[0] ? info->driver_info : info->driver_version_str,
             VK_API_VERSION_MAJOR(info->api_version), VK_API_VERSION_MINOR(info->api_version),
             VK_API_VERSION_PATCH(info->api_version));
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

vkmd_result vkmd_vk_devices_choose(const vkmd_vk_device_info *infos, uint32_t n, const char *want,
                                   uint32_t *out_index)
{
    char list[1024] = "";
    for (uint32_t i = 0; i < n; ++i) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%u: %s%s", i ? "; " : "", i, infos[i].name,
                 infos[i].usable ? "" : " (unusable)");
    }
    if (n == 0)
        return vkmd_fail(VKMD_ERROR_NO_DEVICE, "no Vulkan device found (is a Vulkan driver, e.g. "
                                               "mesa-vulkan-drivers, installed?)");
    if (want && *want) {
        for (uint32_t i = 0; i < n; ++i) {
            int match = all_digits(want) ? strtoul(want, NULL, 10) == i
                                         : strcasestr(infos[i].name, want) != NULL;
            if (!match)
                continue;
            if (!infos[i].usable)
                return vkmd_fail(VKMD_ERROR_NO_DEVICE,
                                 "device %u (%s) needs Vulkan 1.2 and a compute queue", i,
                                 infos[i].name);
            *out_index = i;
            return VKMD_OK;
        }
        return vkmd_fail(VKMD_ERROR_NO_DEVICE, "no Vulkan device matches '%s' (devices: %s)", want,
                         list);
    }
    int best_rank = 0;
    for (uint32_t i = 0; i < n; ++i) {
        int rank = infos[i].usable ? type_rank(infos[i].type) + 1 : 0;
        if (rank > best_rank) {
            best_rank = rank;
            *out_index = i;
        }
    }
    if (best_rank == 0)
        return vkmd_fail(VKMD_ERROR_NO_DEVICE,
                         "no Vulkan device has Vulkan 1.2 and a compute queue (devices: %s)", list);
    return VKMD_OK;
}

static vkmd_result create_device(vkmd_vk_context *ctx)
{
    vkmd_result res = VKMD_OK;
    VkPhysicalDevice pd = ctx->physical;
    vkmd_vk_features *have = &ctx->info.features;

    const char *exts[MAX_EXTENSIONS];
    uint32_t ext_count = 0;
    if (have->buffer_float32_atomic_add)
        exts[ext_count++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
    if (have->conditional_rendering)
        exts[ext_count++] = VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME;
    /* Required by the spec whenever a portability-subset driver offers it. */
    if (device_extension_present(pd, "VK_KHR_portability_subset"))
        exts[ext_count++] = "VK_KHR_portability_subset";
    if (ctx->graphics_family != UINT32_MAX)
        exts[ext_count++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;

    VkPhysicalDeviceConditionalRenderingFeaturesEXT cr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT,
        .conditionalRendering = VK_TRUE,
    };
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        .pNext = have->conditional_rendering ? &cr : NULL,
        .shaderBufferFloat32AtomicAdd = (VkBool32)have->buffer_float32_atomic_add,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = have->buffer_float32_atomic_add ? (void *)&af
                 : have->conditional_rendering   ? (void *)&cr
                                                 : NULL,
        .shaderFloat16 = (VkBool32)have->shader_float16,
        .shaderBufferInt64Atomics = (VkBool32)have->buffer_int64_atomics,
    };
    VkPhysicalDeviceVulkan11Features f11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &f12,
        .storageBuffer16BitAccess = (VkBool32)have->storage_buffer_16bit,
    };
    VkPhysicalDeviceFeatures2 f = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &f11,
        .features = {.shaderInt64 = (VkBool32)have->shader_int64},
    };
    const float priority[2] = {1.0f, 1.0f};
    VkDeviceQueueCreateInfo qi[2] = {{
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = ctx->queue_family,
        .queueCount = 1 + (ctx->graphics_family == ctx->queue_family && ctx->graphics_queue_index),
        .pQueuePriorities = priority,
    }};
    uint32_t qcount = 1;
    if (ctx->graphics_family != UINT32_MAX && ctx->graphics_family != ctx->queue_family)
        qi[qcount++] = (VkDeviceQueueCreateInfo){
            .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            .queueFamilyIndex = ctx->graphics_family,
            .queueCount = 1,
            .pQueuePriorities = priority,
        };
    const VkDeviceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f,
        .queueCreateInfoCount = qcount,
        .pQueueCreateInfos = qi,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    VKMD_VK_CHECK(vkCreateDevice(pd, &ci, NULL, &ctx->device));
    if (have->conditional_rendering) {
        ctx->cmd_begin_conditional = (PFN_vkCmdBeginConditionalRenderingEXT)vkGetDeviceProcAddr(
            ctx->device, "vkCmdBeginConditionalRenderingEXT");
        ctx->cmd_end_conditional = (PFN_vkCmdEndConditionalRenderingEXT)vkGetDeviceProcAddr(
            ctx->device, "vkCmdEndConditionalRenderingEXT");
        if (!ctx->cmd_begin_conditional || !ctx->cmd_end_conditional)
            have->conditional_rendering = 0;
    }
    vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    if (ctx->graphics_family != UINT32_MAX)
        vkGetDeviceQueue(ctx->device, ctx->graphics_family, ctx->graphics_queue_index,
                         &ctx->graphics_queue);
    const VkCommandPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    VKMD_VK_CHECK(vkCreateCommandPool(ctx->device, &pi, NULL, &ctx->pool));
cleanup:
    return res;
}

static int env_on(const char *name)
{
    const char *s = getenv(name);
    return s && *s && strcmp(s, "0") != 0;
}

/* The queue the viewer draws and presents with: the compute family itself
 * when it has graphics and can present (the common case: one universal
 * family), else another family that can. */
static vkmd_result pick_graphics_queue(vkmd_vk_context *ctx, const vkmd_vk_context_desc *desc)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, NULL);
    VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
    if (!q)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vulkan context: out of memory");
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, q);
    const int separate = desc->separate_graphics_queue || env_on("VKMD_SEPARATE_GRAPHICS_QUEUE");
    uint32_t family = UINT32_MAX;
    const uint32_t cf = ctx->queue_family;
    if ((q[cf].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
        desc->present_support(desc->present_user, ctx->instance, ctx->physical, cf))
        family = cf;
    for (uint32_t i = 0; i < n && family == UINT32_MAX; ++i)
        if ((q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && q[i].queueCount > 0 &&
            desc->present_support(desc->present_user, ctx->instance, ctx->physical, i))
            family = i;
    vkmd_result res = VKMD_OK;
    if (family == UINT32_MAX) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "device %s has no queue that can draw to this window (run with "
                        "--no-window, or pick another device with --device)",
                        ctx->info.name);
    } else {
        ctx->graphics_family = family;
        ctx->graphics_queue_index = 0;
        ctx->graphics_separate = family != cf || separate;
        if (family == cf && separate && q[cf].queueCount >= 2)
            ctx->graphics_queue_index = 1;
    }
    free(q);
    return res;
}

vkmd_result vkmd_vk_context_create(const vkmd_vk_context_desc *desc, vkmd_vk_context **out_ctx)
{
    const vkmd_vk_context_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    *out_ctx = NULL;
    vkmd_result res = VKMD_OK;
    VkPhysicalDevice *pds = NULL;
    vkmd_vk_device_info *infos = NULL;
    uint32_t n = 0, index = 0;

    vkmd_vk_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vulkan context: out of memory");
    ctx->fence_timeout_ns = desc->fence_timeout_ns ? desc->fence_timeout_ns : 600000000000ull;
    int validation = desc->validation > 0 || (desc->validation == 0 && env_on("VKMD_VALIDATION"));

    VKMD_TRY(create_instance(ctx, validation, desc, &ctx->instance));
    VKMD_TRY(enumerate(ctx->instance, &pds, &infos, &n));
    const char *want = desc->device ? desc->device : getenv("VKMD_DEVICE");
    VKMD_TRY(vkmd_vk_devices_choose(infos, n, want, &index));
    ctx->physical = pds[index];
    ctx->info = infos[index];
    ctx->queue_family = ctx->info.queue_family;
    vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(ctx->physical, &props);
    ctx->limits = props.limits;
    ctx->graphics_family = UINT32_MAX;
    if (desc->present_support)
        VKMD_TRY(pick_graphics_queue(ctx, desc));
    VKMD_TRY(create_device(ctx));

    char line[512];
    vkmd_vk_device_describe(&ctx->info, line, sizeof line);
    vkmd_log_info("vulkan device %u: %s%s", index, line,
                  ctx->validation_enabled ? " [validation on]" : "");
    *out_ctx = ctx;
    ctx = NULL;
cleanup:
    free(pds);
    free(infos);
    vkmd_vk_context_destroy(ctx);
    return res;
}

void vkmd_vk_context_destroy(vkmd_vk_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->pipeline_count)
        vkmd_log_debug("vk: %llu pipelines compiled, %llu asked for again and reused, %llu "
                       "made and never dispatched (so never compiled)",
                       (unsigned long long)ctx->pipeline_compiles,
                       (unsigned long long)ctx->pipeline_reuses,
                       (unsigned long long)ctx->pipeline_deferred);
    if (ctx->device) {
        vkDeviceWaitIdle(ctx->device); /* best effort: nothing useful to do on failure */
        for (uint32_t i = 0; i < ctx->pipeline_count; ++i) {
            vkmd_vk_pipeline_entry *e = &ctx->pipelines[i];
            vkDestroyPipeline(ctx->device, e->pipeline, NULL);
            vkDestroyPipelineLayout(ctx->device, e->layout, NULL);
            vkDestroyDescriptorSetLayout(ctx->device, e->set_layout, NULL);
        }
        if (ctx->pool)
            vkDestroyCommandPool(ctx->device, ctx->pool, NULL);
        vkDestroyDevice(ctx->device, NULL);
    }
    if (ctx->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                ctx->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy_messenger)
            destroy_messenger(ctx->instance, ctx->messenger, NULL);
    }
    if (ctx->instance)
        vkDestroyInstance(ctx->instance, NULL);
    for (uint32_t i = 0; i < ctx->pipeline_count; ++i)
        free(ctx->pipelines[i].key);
    free(ctx->pipelines);
    free(ctx);
}

uint32_t vkmd_vk_context_validation_errors(const vkmd_vk_context *ctx)
{
    return atomic_load(&ctx->validation_errors);
}

uint32_t vkmd_vk_context_validation_warnings(const vkmd_vk_context *ctx)
{
    return atomic_load(&ctx->validation_warnings);
}

vkmd_result vkmd_vk_context_check_validation(const vkmd_vk_context *ctx)
{
    uint32_t n = vkmd_vk_context_validation_errors(ctx);
    if (n == 0)
        return VKMD_OK;
    return vkmd_fail(VKMD_ERROR_VALIDATION, "%u validation error(s); first: %s", n,
                     ctx->first_validation_error);
}

vkmd_result vkmd_vk_deferred_failure(const vkmd_vk_context *ctx)
{
    if (ctx->deferred_failure == VKMD_OK)
        return VKMD_OK;
    return vkmd_fail(ctx->deferred_failure, "%s", ctx->deferred_message);
}
