/* Small test harness shared by every tests/test_*.c: checks that count
 * failures, the central tolerance table, error figures, and the device policy
 * (VKMD_REQUIRE_DEVICE=1 turns "no Vulkan device" into a failure, never a
 * skip). Test bodies print the figures they check. */
#ifndef VKMD_TESTLIB_H
#define VKMD_TESTLIB_H

#include "core/result.h"

#include <stdint.h>
#include <stdio.h>

extern int test_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            ++test_failures;                                                                       \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            ++test_failures;                                                                       \
        }                                                                                          \
    } while (0)

/* Checks a vkmd call returned VKMD_OK; prints the error detail otherwise. */
#define CHECK_OK(call)                                                                             \
    do {                                                                                           \
        vkmd_result check_ok_res_ = (call);                                                        \
        if (check_ok_res_ != VKMD_OK) {                                                            \
            fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call,                    \
                    vkmd_result_str(check_ok_res_), vkmd_last_error());                            \
            ++test_failures;                                                                       \
        }                                                                                          \
    } while (0)

/* |a - b| <= max(rel * |b|, abs_tol); prints a figure line either way. */
int check_close(const char *what, double a, double b, double rel, double abs_tol);

/* RMS(a - b) / RMS(b) over n values. */
double rms_rel_error(const double *a, const double *b, int n);
/* max |a - b| over n values. */
double max_abs_error(const double *a, const double *b, int n);
/* RMS of n values. */
double rms(const double *a, int n);

/* Ends a test: prints "PASS name" or "FAIL name (k failures)" and returns the
 * process exit code. */
int test_finish(const char *name);

/* 1 if VKMD_REQUIRE_DEVICE=1 is set. A GPU test that finds no device returns
 * test_no_device(name): failure when required, skip (exit 77) otherwise. */
int test_device_required(void);
int test_no_device(const char *name);

/* Opens the default Vulkan context for a GPU test and prints the device line.
 * Returns -1 with *out_ctx set when the test should go on; otherwise the exit
 * code to return at once (no device: test_no_device; other failure: counted
 * and test_finish). */
struct vkmd_vk_context;
int test_vk_open(const char *name, struct vkmd_vk_context **out_ctx);

/* 1 when the device compiles the same GLSL the same way in every shader
 * module, so that two kernels sharing code (the fused step and the passes it
 * fuses) give the same bits: a CPU device (lavapipe). A GPU compiler may
 * contract a * b + c into an fma in one module and not in another (an
 * NVIDIA H200 did: fused and pass-by-pass trajectories parted by 1e-4 A
 * after 100 steps); there tests compare such pairs within a tolerance. */
int test_same_bits_device(const struct vkmd_vk_context *ctx);

/* Uniform deviate in [0, 1) from a xorshift64* generator whose state the
 * caller keeps (each test seeds its own, so sequences are reproducible). */
double test_uniform(uint64_t *state);

/* Reads a whole file into a NUL-terminated malloc'd buffer (NULL on error). */
char *test_read_file(const char *path, size_t *out_len);

#endif
