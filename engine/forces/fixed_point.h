/* How a device adds the 64-bit fixed-point sums every force pass makes
 * (forces, energies, the PME charge grid; VKMD_FIXED_SCALE etc. in
 * shaders/common/vkmd_layout.h), and which SPIR-V module of a pass's shader
 * does it that way. The GLSL side is shaders/common/fixed_point.glsl.
 *
 * Two modes, one result: with shaderInt64 and shaderBufferInt64Atomics a
 * value is an int64 added with one 64-bit atomic; without either, the
 * "+words" build of the same shader adds the same two's-complement int64 as
 * two 32-bit words (an exact carry add, proved in fixed_point.glsl) and never
 * names a 64-bit type. Buffers have the same layout and the sums the same
 * bits in both modes, so nothing outside the shaders changes. The choice
 * is a second SPIR-V build rather than a specialization constant because
 * capabilities (Int64, Int64Atomics) are declared per module and checked at
 * module creation, before specialization (shaders/variants.cmake).
 *
 * VKMD_FORCE_NO_INT64_ATOMICS=1 (read by vk/context.c) hides the atomics of
 * a device that has them, so the tests run the words mode on any device. */
#ifndef VKMD_FORCES_FIXED_POINT_H
#define VKMD_FORCES_FIXED_POINT_H

#include "vk/context.h"

typedef enum vkmd_fixed_mode {
    VKMD_FIXED_MODE_INT64 = 0, /* int64 values, 64-bit atomics */
    VKMD_FIXED_MODE_WORDS = 1  /* 32-bit words only: the "+words" shader builds */
} vkmd_fixed_mode;

/* The mode of ctx's device: INT64 iff its enabled features include both
 * shaderInt64 and shaderBufferInt64Atomics. */
vkmd_fixed_mode vkmd_fixed_mode_of(const vkmd_vk_context *ctx);

/* "int64 atomics" or "32-bit words"; static. */
const char *vkmd_fixed_mode_name(vkmd_fixed_mode mode);

/* The embedded module name of `shader` (e.g. "bonded.comp") for ctx's mode:
 * `shader` itself in INT64 mode, else "<shader>+words" (the table's own
 * static string). Errors: VKMD_ERROR_UNSUPPORTED when the words build of
 * `shader` is not embedded (a shader missing from shaders/variants.cmake).
 * `pass` names the caller in the message. */
vkmd_result vkmd_fixed_shader(const vkmd_vk_context *ctx, const char *pass, const char *shader,
                              const char **out_name);

#endif
