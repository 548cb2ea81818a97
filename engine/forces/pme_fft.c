/* VkFFT plans for the PME grid (see pme_fft.h). The only translation unit
 * that includes vkFFT.h: the build uses a copy of the Debian header with two
 * fixes (cmake/vkfft.cmake says which and why).
 *
 * Surprises:
 * - VkFFT keeps pointers to the handles in its configuration (device, queue,
 *   pool, fence, buffer, buffer size), not the handles, so they live in this
 *   struct for as long as the plan.
 * - Its size convention is the reverse of ours: size[0] is the fastest axis
 *   (ref_pme's z, the halved R2C axis).
 * - The grid buffer is given at record time, not at plan creation. VkFFT
 *   1.2.26 writes each kernel's descriptor set when the plan is made if it has
 *   a buffer then, but makes its Bluestein buffers (grid sizes with a prime
 *   factor above 13, e.g. 17) only afterwards: those sets would name
 *   VK_NULL_HANDLE (a validation error, and kernels reading nothing). Without
 *   a buffer at creation it writes no set; the first VkFFTAppend sees a new
 *   buffer and writes every set, Bluestein buffers included. That first append
 *   is create's trial recording, so no set is rewritten while a command
 *   buffer that uses it may be pending. */
#include "forces/pme_fft.h"
#include "core/disk_cache.h"
#include "core/log.h"
#include "vk/stats.h"
#include "vk/check.h"
#include "vk/command.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <vkFFT.h>

struct vkmd_pme_fft {
    VkFFTApplication app;
    int app_made;          /* initializeVkFFT was called: deleteVkFFT owes a cleanup */
    VkFFTApplication conv; /* forward, convolution, inverse in one append */
    int conv_made;
    VkBuffer kernel;
    uint64_t kernel_size;
    /* Handles VkFFT points to. */
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkFence fence; /* unsignalled; VkFFT waits on it for its uploads */
    VkBuffer buffer;
    uint64_t buffer_size;
};

/* 1 when n has no prime factor above 13: VkFFT's radix kernels, not
 * Bluestein's algorithm (whose fused convolution ignores the kernel in
 * VkFFT 1.2.26: measured on a 17^3 grid). */
static int radix_size(int n)
{
    for (int p = 2; p <= 13; ++p)
        while (n % p == 0)
            n /= p;
    return n == 1;
}

static vkmd_result vkfft_fail(VkFFTResult r, const char *what, const int grid[3])
{
    return vkmd_fail(VKMD_ERROR_VULKAN, "VkFFT %s for the %dx%dx%d PME grid failed: VkFFT error %d",
                     what, grid[0], grid[1], grid[2], (int)r);
}

/* What VkFFT's binaries for a plan depend on: the program (vkmd and VkFFT
 * versions, vkmd's commit), the device and driver, the grid and the
 * configuration (zeroed first: the padding is part of the key). */
typedef struct plan_key {
    char what[16]; /* "plan", "convolution" */
    char program[64];
    int32_t vkfft_version;
    uint32_t vendor_id, device_id, driver_version;
    uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
    uint64_t size[3];
    uint64_t r2c, normalize, lut, convolution, coordinate_features;
} plan_key;

static void make_key(const vkmd_pme_fft *fft, const VkFFTConfiguration *c, const char *what,
                     plan_key *k)
{
    memset(k, 0, sizeof *k);
    snprintf(k->what, sizeof k->what, "%s", what);
    snprintf(k->program, sizeof k->program, "vkmd %s %s", VKMD_VERSION, VKMD_GIT_COMMIT);
    k->vkfft_version = VkFFTGetVersion();
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(fft->physical, &props);
    k->vendor_id = props.vendorID;
    k->device_id = props.deviceID;
    k->driver_version = props.driverVersion;
    memcpy(k->pipeline_cache_uuid, props.pipelineCacheUUID, VK_UUID_SIZE);
    for (int d = 0; d < 3; ++d)
        k->size[d] = c->size[d];
    k->r2c = c->performR2C;
    k->normalize = c->normalize;
    k->lut = c->useLUT;
    k->convolution = c->performConvolution;
    k->coordinate_features = c->coordinateFeatures;
}

/* initializeVkFFT with the plan's binaries from the disk cache
 * (core/disk_cache.h) when it holds them, else generating and compiling them
 * (glslang) and storing them there. A cached entry VkFFT refuses is
 * compiled afresh. */
static VkFFTResult make_plan(vkmd_pme_fft *fft, VkFFTApplication *app, VkFFTConfiguration c,
                             const char *what)
{
    plan_key key;
    make_key(fft, &c, what, &key);
    void *bin = NULL;
    size_t size = 0;
    if (vkmd_disk_cache_load("vkfft", &key, sizeof key, &bin, &size) && size % 4 == 0) {
        VkFFTConfiguration lc = c;
        lc.loadApplicationFromString = 1;
        lc.loadApplicationString = bin;
        const VkFFTResult r = initializeVkFFT(app, lc);
        free(bin);
        if (r == VKFFT_SUCCESS) {
            vkmd_log_debug("PME FFT: the %s's binaries from the cache (%zu bytes)", what, size);
            return r;
        }
        vkmd_log_debug("PME FFT: VkFFT refused the cached %s (error %d); compiling it", what,
                       (int)r);
        deleteVkFFT(app);
        memset(app, 0, sizeof *app);
    } else {
        free(bin);
    }
    c.saveApplicationToString = 1;
    const VkFFTResult r = initializeVkFFT(app, c);
    if (r == VKFFT_SUCCESS && app->saveApplicationString && app->applicationStringSize)
        vkmd_disk_cache_store("vkfft", &key, sizeof key, app->saveApplicationString,
                              (size_t)app->applicationStringSize);
    return r;
}

/* Records both directions into a command buffer that is then freed unsubmitted:
 * any recording error shows up at setup, not in a step. */
static vkmd_result trial_record(vkmd_vk_context *ctx, vkmd_pme_fft *fft, const int grid[3])
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    const VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VKMD_VK_CHECK(vkAllocateCommandBuffers(ctx->device, &ai, &cb));
    const VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VKMD_VK_CHECK(vkBeginCommandBuffer(cb, &bi));
    for (int inverse = 0; inverse <= 1; ++inverse) {
        VkFFTLaunchParams launch = {.commandBuffer = &cb, .buffer = &fft->buffer};
        VkFFTResult r = VkFFTAppend(&fft->app, inverse ? 1 : -1, &launch);
        if (r != VKFFT_SUCCESS) {
            res = vkfft_fail(r, inverse ? "inverse recording" : "forward recording", grid);
            goto cleanup;
        }
    }
    if (fft->conv_made) {
        VkFFTLaunchParams launch = {
            .commandBuffer = &cb, .buffer = &fft->buffer, .kernel = &fft->kernel};
        VkFFTResult r = VkFFTAppend(&fft->conv, -1, &launch);
        if (r != VKFFT_SUCCESS) {
            res = vkfft_fail(r, "convolution recording", grid);
            goto cleanup;
        }
    }
    VKMD_VK_CHECK(vkEndCommandBuffer(cb));
cleanup:
    if (cb)
        vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cb);
    return res;
}

vkmd_result vkmd_pme_fft_create(vkmd_vk_context *ctx, const int grid[3],
                                const vkmd_vk_buffer *grid_buffer,
                                const vkmd_vk_buffer *kernel_buffer, vkmd_pme_fft **out_fft)
{
    vkmd_result res = VKMD_OK;
    *out_fft = NULL;
    if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "PME FFT of a %dx%dx%d grid", grid[0],
                         grid[1], grid[2]);
    const uint64_t need =
        (uint64_t)grid[0] * (uint64_t)grid[1] * 2 * (uint64_t)(grid[2] / 2 + 1) * sizeof(float);
    if (!grid_buffer || !grid_buffer->buffer || grid_buffer->size < need)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME FFT of a %dx%dx%d grid needs a buffer of %llu bytes (got %llu)",
                         grid[0], grid[1], grid[2], (unsigned long long)need,
                         grid_buffer ? (unsigned long long)grid_buffer->size : 0ull);

    vkmd_pme_fft *fft = calloc(1, sizeof *fft);
    if (!fft)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "PME FFT plan");
    fft->physical = ctx->physical;
    fft->device = ctx->device;
    fft->queue = ctx->queue;
    fft->pool = ctx->pool;
    fft->buffer = grid_buffer->buffer;
    fft->buffer_size = need;
    const VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKMD_VK_CHECK(vkCreateFence(ctx->device, &fi, NULL, &fft->fence));

    VkFFTConfiguration c = {0};
    c.FFTdim = 3;
    c.size[0] = (uint64_t)grid[2]; /* fastest: z, halved by R2C */
    c.size[1] = (uint64_t)grid[1];
    c.size[2] = (uint64_t)grid[0];
    c.performR2C = 1; /* in place: rows padded to 2 (K2/2 + 1) floats (the default strides) */
    c.normalize = 0;  /* unnormalised inverse, as FFTW's c2r in ref_pme.c */
    c.useLUT = 1;     /* host-computed twiddles, see pme_fft.h */
    c.physicalDevice = &fft->physical;
    c.device = &fft->device;
    c.queue = &fft->queue;
    c.commandPool = &fft->pool;
    c.fence = &fft->fence;
    /* No buffer at plan creation: see the file comment. */
    c.bufferSize = &fft->buffer_size;
    fft->app_made = 1;
    /* VkFFT's shader generator saves setlocale(LC_ALL, NULL), switches to
     * "C" and restores the saved name, which that switch has freed when the
     * locale is composite (as after a window system set LC_CTYPE alone): a
     * use-after-free. Plans are made with the whole locale already "C" (the
     * saved name is then a static string); the caller's locale is restored
     * from a copy. */
    const char *locale = setlocale(LC_ALL, NULL);
    char *saved_locale = locale ? strdup(locale) : NULL;
    setlocale(LC_ALL, "C");
    VkFFTResult r = make_plan(fft, &fft->app, c, "plan");
    VkFFTResult rc = VKFFT_SUCCESS;
    if (r == VKFFT_SUCCESS && kernel_buffer && radix_size(grid[0]) && radix_size(grid[1]) &&
        radix_size(grid[2])) {
        /* The same transforms with the kernel product between them, which
         * VkFFT fuses into the last forward and the first inverse axis. */
        fft->kernel = kernel_buffer->buffer;
        fft->kernel_size =
            (uint64_t)grid[0] * (uint64_t)grid[1] * (uint64_t)(grid[2] / 2 + 1) * 2 * sizeof(float);
        VkFFTConfiguration cc = c;
        cc.performConvolution = 1;
        cc.coordinateFeatures = 1;
        cc.kernelSize = &fft->kernel_size;
        fft->conv_made = 1;
        rc = make_plan(fft, &fft->conv, cc, "convolution");
    }
    if (saved_locale) {
        setlocale(LC_ALL, saved_locale);
        free(saved_locale);
    }
    if (r != VKFFT_SUCCESS) {
        res = vkfft_fail(r, "plan creation", grid);
        goto cleanup;
    }
    if (rc != VKFFT_SUCCESS) {
        res = vkfft_fail(rc, "convolution plan creation", grid);
        goto cleanup;
    }
    VKMD_TRY(trial_record(ctx, fft, grid));
    vkmd_log_debug("PME FFT %dx%dx%d: VkFFT plans made, %zu bytes of VkFFT buffers", grid[0],
                   grid[1], grid[2], vkmd_pme_fft_memory_bytes(fft));
    *out_fft = fft;
    return VKMD_OK;
cleanup:
    vkmd_pme_fft_destroy(ctx, fft);
    return res;
}

vkmd_result vkmd_pme_fft_record(vkmd_pme_fft *fft, VkCommandBuffer cb, int inverse)
{
    VkFFTLaunchParams launch = {.commandBuffer = &cb, .buffer = &fft->buffer};
    VkFFTResult r = VkFFTAppend(&fft->app, inverse ? 1 : -1, &launch);
    if (r != VKFFT_SUCCESS)
        return vkmd_fail(VKMD_ERROR_VULKAN, "VkFFT %s recording failed: VkFFT error %d",
                         inverse ? "inverse" : "forward", (int)r);
    /* VkFFT records one dispatch per axis upload of the plan (and its own
     * barriers between them, one fewer). */
    const VkFFTPlan *plan = inverse && fft->app.localFFTPlan_inverse ? fft->app.localFFTPlan_inverse
                                                                     : fft->app.localFFTPlan;
    uint64_t uploads = 0;
    for (int i = 0; plan && i < 3; ++i)
        uploads += plan->numAxisUploads[i];
    vkmd_vk_stats_add_dispatches(uploads);
    vkmd_vk_stats_add_barriers(uploads > 0 ? uploads - 1 : 0);
    return VKMD_OK;
}

int vkmd_pme_fft_has_convolution(const vkmd_pme_fft *fft)
{
    return fft->conv_made;
}

vkmd_result vkmd_pme_fft_record_convolution(vkmd_pme_fft *fft, VkCommandBuffer cb)
{
    VkFFTLaunchParams launch = {
        .commandBuffer = &cb, .buffer = &fft->buffer, .kernel = &fft->kernel};
    VkFFTResult r = VkFFTAppend(&fft->conv, -1, &launch);
    if (r != VKFFT_SUCCESS)
        return vkmd_fail(VKMD_ERROR_VULKAN, "VkFFT convolution recording failed: VkFFT error %d",
                         (int)r);
    /* The forward plan's uploads, then the inverse's but its first upload of
     * the last axis, which the forward's last kernel carries (VkFFTAppend). */
    const VkFFTPlan *fwd = fft->conv.localFFTPlan, *inv = fft->conv.localFFTPlan_inverse;
    uint64_t uploads = 0;
    for (int i = 0; i < 3; ++i)
        uploads += (fwd ? fwd->numAxisUploads[i] : 0) + (inv ? inv->numAxisUploads[i] : 0);
    if (fwd && inv && uploads > 0)
        uploads -= 1;
    vkmd_vk_stats_add_dispatches(uploads);
    vkmd_vk_stats_add_barriers(uploads > 0 ? uploads - 1 : 0);
    return VKMD_OK;
}

/* Lookup tables a plan owns (an axis may share another's: referenceLUT). */
static uint64_t plan_lut_bytes(const VkFFTApplication *app, const VkFFTPlan *plan)
{
    uint64_t sum = 0;
    if (!plan || !app->configuration.useLUT)
        return 0;
    for (uint64_t i = 0; i < app->configuration.FFTdim; ++i)
        for (uint64_t j = 0; j < plan->numAxisUploads[i]; ++j)
            if (!plan->axes[i][j].referenceLUT && plan->axes[i][j].bufferLUT)
                sum += plan->axes[i][j].bufferLUTSize;
    if (plan->multiUploadR2C && !plan->R2Cdecomposition.referenceLUT &&
        plan->R2Cdecomposition.bufferLUT)
        sum += plan->R2Cdecomposition.bufferLUTSize;
    return sum;
}

size_t vkmd_pme_fft_memory_bytes(const vkmd_pme_fft *fft)
{
    if (!fft)
        return 0;
    const VkFFTApplication *app = &fft->app;
    uint64_t sum =
        plan_lut_bytes(app, app->localFFTPlan) + plan_lut_bytes(app, app->localFFTPlan_inverse);
    for (int i = 0; i < 3; ++i)
        sum += app->bufferBluesteinSize[i] *
               (uint64_t)((app->bufferBluestein[i] != 0) + (app->bufferBluesteinFFT[i] != 0) +
                          (app->bufferBluesteinIFFT[i] != 0));
    if (app->configuration.allocateTempBuffer && app->configuration.tempBufferSize)
        sum += app->configuration.tempBufferSize[0];
    return (size_t)sum;
}

void vkmd_pme_fft_destroy(vkmd_vk_context *ctx, vkmd_pme_fft *fft)
{
    if (!fft)
        return;
    /* deleteVkFFT is safe after a failed initializeVkFFT (which may already
     * have called it): it zeroes what it frees. */
    if (fft->app_made)
        deleteVkFFT(&fft->app);
    if (fft->conv_made)
        deleteVkFFT(&fft->conv);
    if (fft->fence)
        vkDestroyFence(ctx->device, fft->fence, NULL);
    free(fft);
}
