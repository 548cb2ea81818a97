/* Shared test harness (see testlib.h). */
#include "testlib.h"
#include "forces/fixed_point.h"
#include "vk/context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int test_failures = 0;

int check_close(const char *what, double a, double b, double rel, double abs_tol)
{
    double diff = fabs(a - b);
    double lim = fmax(rel * fabs(b), abs_tol);
    int ok = diff <= lim && isfinite(a) && isfinite(b);
    printf("  %-34s got %.10g  want %.10g  |diff| %.3g  rel %.3g  (limit %.3g) %s\n", what, a, b,
           diff, b != 0 ? diff / fabs(b) : diff, lim, ok ? "ok" : "FAIL");
    if (!ok)
        ++test_failures;
    return ok;
}

double rms(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += a[i] * a[i];
    return n > 0 ? sqrt(s / n) : 0;
}

double rms_rel_error(const double *a, const double *b, int n)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i) {
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += b[i] * b[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

double max_abs_error(const double *a, const double *b, int n)
{
    double m = 0;
    for (int i = 0; i < n; ++i)
        m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

int test_finish(const char *name)
{
    if (test_failures) {
        printf("FAIL %s (%d failures)\n", name, test_failures);
        return 1;
    }
    printf("PASS %s\n", name);
    return 0;
}

int test_device_required(void)
{
    const char *s = getenv("VKMD_REQUIRE_DEVICE");
    return s && strcmp(s, "0") != 0 && *s;
}

int test_no_device(const char *name)
{
    if (test_device_required()) {
        printf("FAIL %s: no Vulkan device and VKMD_REQUIRE_DEVICE=1: %s\n", name,
               vkmd_last_error());
        return 1;
    }
    printf("SKIP %s: no Vulkan device (%s)\n", name, vkmd_last_error());
    return 77;
}

char *test_read_file(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (out_len)
            *out_len = (size_t)n;
    }
    return buf;
}

int test_vk_open(const char *name, vkmd_vk_context **out_ctx)
{
    *out_ctx = NULL;
    vkmd_result res = vkmd_vk_context_create(NULL, out_ctx);
    if (res == VKMD_ERROR_NO_DEVICE)
        return test_no_device(name);
    CHECK_OK(res);
    if (!*out_ctx)
        return test_finish(name);
    char line[512];
    vkmd_vk_device_describe(&(*out_ctx)->info, line, sizeof line);
    printf("device: %s; validation %s; fixed-point sums: %s\n", line,
           (*out_ctx)->validation_enabled ? "on" : "off",
           vkmd_fixed_mode_name(vkmd_fixed_mode_of(*out_ctx)));
    return -1;
}

int test_same_bits_device(const vkmd_vk_context *ctx)
{
    return ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

double test_uniform(uint64_t *state)
{
    uint64_t s = *state;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    *state = s;
    return (double)((s * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}
