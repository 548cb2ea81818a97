/* Vulkan runtime (engine/vk): context creation, device choice errors, buffer
 * round trips on both the mapped and the staging path, a specialised compute
 * dispatch (shaders/vk_selftest.comp), a reusable command buffer replayed,
 * a texel binding read back bit for bit (shaders/vk_texel_selftest.comp),
 * timestamps, the VKMD_VK_CHECK error path, that the validation messenger
 * really counts errors, and clean teardown (run under ASan for leaks). */
#include "testlib.h"
#include "vk/barrier.h"
#include "vk/buffer.h"
#include "vk/check.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"
#include "vk/timer.h"
#include "common/vkmd_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 1000 /* not a multiple of the workgroup size: exercises the bounds check */

static VkResult fake_device_lost(void)
{
    return VK_ERROR_DEVICE_LOST;
}

static vkmd_result checked_call(int *out_line)
{
    vkmd_result res = VKMD_OK;
    *out_line = __LINE__ + 1;
    VKMD_VK_CHECK(fake_device_lost());
cleanup:
    return res;
}

/* Upload, scale by `scale` with the self-test shader (submitted `replays`
 * times from one recording), read back, compare. */
static void round_trip(vkmd_vk_context *ctx, int force_staging, float scale, int replays)
{
    printf("buffer round trip (%s path, scale %g, %d replays)\n",
           force_staging || !ctx->info.unified_memory ? "staging" : "mapped", scale, replays);
    float host[N], back[N];
    for (int i = 0; i < N; ++i)
        host[i] = 0.5f * (float)(i - N / 2);
    vkmd_vk_buffer buf = {0};
    vkmd_vk_pipeline pipe = {0};
    vkmd_vk_descset set = {0};
    vkmd_vk_cmd cmd = {0};
    vkmd_vk_timer timer = {0};
    const vkmd_vk_buffer_desc bd = {
        .size = sizeof host, .force_staging = force_staging, .name = "selftest"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &bd, &buf));
    CHECK(force_staging ? buf.mapped == NULL : (buf.mapped != NULL) == ctx->info.unified_memory);
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &buf, 0, host, sizeof host));
    memset(back, 0, sizeof back);
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &buf, 0, back, sizeof back));
    CHECK_MSG(memcmp(host, back, sizeof host) == 0, "upload/readback differ");

    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, VKMD_SELFTEST_WORKGROUP_SIZE},
                                  {VKMD_SPEC_SELFTEST_SCALE, vkmd_vk_spec_float(scale)}};
    const vkmd_vk_pipeline_desc pd = {.shader = "vk_selftest.comp",
                                      .buffer_count = 1,
                                      .push_size = sizeof(vkmd_selftest_push),
                                      .specs = specs,
                                      .spec_count = 2};
    CHECK_OK(vkmd_vk_pipeline_create(ctx, &pd, &pipe));
    const vkmd_vk_buffer *bufs[] = {&buf};
    CHECK_OK(vkmd_vk_descset_create(ctx, &pipe, bufs, &set));
    vkmd_result tr = vkmd_vk_timer_create(ctx, 2, &timer);
    CHECK(tr == VKMD_OK || tr == VKMD_ERROR_UNSUPPORTED);

    const vkmd_selftest_push push = {.count = N};
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    if (timer.pool) {
        vkmd_vk_timer_record_reset(cmd.cb, &timer);
        vkmd_vk_timer_record_mark(cmd.cb, &timer, 0);
    }
    /* Each replay scales once; order replays against each other. */
    vkmd_vk_barrier_compute(cmd.cb);
    vkmd_vk_dispatch(cmd.cb, &pipe, &set, &push, vkmd_vk_div_up(N, VKMD_SELFTEST_WORKGROUP_SIZE), 1,
                     1);
    vkmd_vk_barrier_compute(cmd.cb);
    if (timer.pool)
        vkmd_vk_timer_record_mark(cmd.cb, &timer, 1);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    for (int r = 0; r < replays; ++r)
        CHECK_OK(vkmd_vk_cmd_submit(ctx, &cmd)); /* waits for the previous one itself */
    CHECK_OK(vkmd_vk_cmd_wait(ctx, &cmd));

    if (timer.pool) {
        double ns = -1;
        CHECK_OK(vkmd_vk_timer_elapsed_ns(ctx, &timer, 0, 1, &ns));
        printf("  timestamps: dispatch of %d floats took %.0f ns\n", N, ns);
        CHECK(ns >= 0 && ns < 60e9);
    } else {
        printf("  timestamps: n/a (%s)\n", vkmd_last_error());
    }

    CHECK_OK(vkmd_vk_buffer_readback(ctx, &buf, 0, back, sizeof back));
    int bad = 0;
    for (int i = 0; i < N; ++i) {
        float want = host[i];
        for (int r = 0; r < replays; ++r)
            want *= scale;
        bad += back[i] != want;
    }
    printf("  %d of %d values differ from host * %g^%d\n", bad, N, scale, replays);
    CHECK(bad == 0);

    /* Range errors are reported, not written. */
    CHECK(vkmd_vk_buffer_upload(ctx, &buf, 8, host, sizeof host) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  out-of-range upload: %s\n", vkmd_last_error());

    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_timer_destroy(ctx, &timer);
    vkmd_vk_descset_destroy(ctx, &set);
    vkmd_vk_pipeline_destroy(ctx, &pipe);
    vkmd_vk_buffer_destroy(ctx, &buf);
}

/* A texel binding (a second view of a buffer, uvec4 texels) returns every
 * word as stored, float patterns that arithmetic would change (denormals,
 * NaN payloads, -0) included, and each lane its own texel. */
static void texel_view(vkmd_vk_context *ctx)
{
    enum { T = 333 };
    uint32_t src[4 * T], back[4 * T];
    for (uint32_t i = 0; i < 4 * T; ++i)
        src[i] = i * 2654435761u;
    src[0] = 1;           /* a denormal float */
    src[1] = 0x7fc12345u; /* a NaN with a payload */
    src[2] = 0x80000000u; /* -0 */
    vkmd_vk_buffer in = {0}, out = {0};
    vkmd_vk_pipeline pipe = {0};
    vkmd_vk_descset set = {0};
    vkmd_vk_cmd cmd = {0};
    const vkmd_vk_buffer_desc bi = {.size = sizeof src, .name = "texels"};
    const vkmd_vk_buffer_desc bo = {.size = sizeof back, .name = "words"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &bi, &in));
    CHECK_OK(vkmd_vk_buffer_create(ctx, &bo, &out));
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &in, 0, src, sizeof src));
    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, VKMD_SELFTEST_WORKGROUP_SIZE}};
    const vkmd_vk_pipeline_desc pd = {.shader = "vk_texel_selftest.comp",
                                      .buffer_count = 1,
                                      .texel_count = 1,
                                      .push_size = sizeof(vkmd_selftest_push),
                                      .specs = specs,
                                      .spec_count = 1};
    CHECK_OK(vkmd_vk_pipeline_create(ctx, &pd, &pipe));
    const vkmd_vk_buffer *bufs[] = {&out, &in};
    CHECK_OK(vkmd_vk_descset_create(ctx, &pipe, bufs, &set));
    CHECK(set.views[0] != VK_NULL_HANDLE);
    const vkmd_selftest_push push = {.count = T};
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_vk_dispatch(cmd.cb, &pipe, &set, &push, vkmd_vk_div_up(T, VKMD_SELFTEST_WORKGROUP_SIZE), 1,
                     1);
    vkmd_vk_barrier_compute_to_transfer(cmd.cb);
    vkmd_vk_barrier_device_to_host(cmd.cb);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_submit(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_wait(ctx, &cmd));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &out, 0, back, sizeof back));
    int bad = 0;
    for (uint32_t t = 0; t < T; ++t)
        bad += memcmp(&back[4 * t], &src[4 * (T - 1 - t)], 16) != 0;
    printf("texel view: %d of %d texels differ from the buffer's words\n", bad, T);
    CHECK(bad == 0);
    /* A view larger than the device allows is refused up front. */
    const uint32_t most = ctx->limits.maxTexelBufferElements;
    CHECK(vkmd_vk_texels_fit(ctx, most));
    CHECK(!vkmd_vk_texels_fit(ctx, (VkDeviceSize)most + 1));
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_descset_destroy(ctx, &set);
    vkmd_vk_pipeline_destroy(ctx, &pipe);
    vkmd_vk_buffer_destroy(ctx, &out);
    vkmd_vk_buffer_destroy(ctx, &in);
}

/* A context with validation forced on must count a deliberate error. */
static void validation_counts_errors(void)
{
    vkmd_vk_context *ctx = NULL;
    const vkmd_vk_context_desc desc = {.validation = 1};
    CHECK_OK(vkmd_vk_context_create(&desc, &ctx));
    if (!ctx)
        return;
    if (!ctx->validation_enabled) {
        printf("validation layer not installed: deliberate-error check skipped\n");
        vkmd_vk_context_destroy(ctx);
        return;
    }
    /* VUID-VkBufferCreateInfo-size-00912: size must be greater than 0. */
    const VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   .size = 0,
                                   .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VkBuffer b = VK_NULL_HANDLE;
    VkResult r = vkCreateBuffer(ctx->device, &bi, NULL, &b);
    if (r == VK_SUCCESS && b)
        vkDestroyBuffer(ctx->device, b, NULL);
    uint32_t n = vkmd_vk_context_validation_errors(ctx);
    printf("deliberate invalid call: %u validation error(s) counted\n", n);
    CHECK(n >= 1);
    CHECK(vkmd_vk_context_check_validation(ctx) == VKMD_ERROR_VALIDATION);
    vkmd_vk_context_destroy(ctx);
}

int main(void)
{
    /* The check macro: one evaluation, mapped code, "file:line: call -> NAME". */
    int line = 0;
    CHECK(checked_call(&line) == VKMD_ERROR_DEVICE_LOST);
    char want[128];
    snprintf(want, sizeof want, "test_vk_runtime.c:%d: fake_device_lost -> VK_ERROR_DEVICE_LOST",
             line);
    CHECK_MSG(strstr(vkmd_last_error(), want) != NULL, "got '%s'", vkmd_last_error());
    CHECK(vkmd_vk_map_result(VK_ERROR_OUT_OF_DEVICE_MEMORY) == VKMD_ERROR_DEVICE_MEMORY);
    CHECK(vkmd_vk_map_result(VK_ERROR_FEATURE_NOT_PRESENT) == VKMD_ERROR_UNSUPPORTED);

    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_vk_runtime", &ctx);
    if (early >= 0)
        return early;
    printf("unified memory %s; subgroup %u\n", ctx->info.unified_memory ? "yes" : "no",
           ctx->info.features.subgroup_size);

    /* Device choice errors name what exists. */
    vkmd_vk_device_info *devs = NULL;
    uint32_t n = 0, idx = 0;
    CHECK_OK(vkmd_vk_devices_list(&devs, &n));
    CHECK(n >= 1);
    CHECK(vkmd_vk_devices_choose(devs, n, "no-such-gpu-xyz", &idx) == VKMD_ERROR_NO_DEVICE);
    printf("unknown device: %s\n", vkmd_last_error());
    CHECK(vkmd_vk_devices_choose(devs, n, "0", &idx) == VKMD_OK && idx == 0);
    free(devs);

    vkmd_vk_pipeline bad = {0};
    const vkmd_vk_pipeline_desc bad_desc = {.shader = "no_such.comp"};
    CHECK(vkmd_vk_pipeline_create(ctx, &bad_desc, &bad) == VKMD_ERROR_INVALID_ARGUMENT);

    round_trip(ctx, 0, 2.5f, 1);
    round_trip(ctx, 1, 2.5f, 1);
    round_trip(ctx, 0, -1.5f, 3);
    texel_view(ctx);

    uint32_t errors = vkmd_vk_context_validation_errors(ctx);
    printf("validation errors: %u, warnings: %u\n", errors,
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);

    validation_counts_errors();
    return test_finish("test_vk_runtime");
}
