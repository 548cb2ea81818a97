/* The positions buffers every force pass reads: vec4 fp32 [atom_count], xyz
 * in A, w unused (std430 pads vec3 arrays to 16 bytes anyway), and for the
 * split modes an "extra" uvec4 [2 * atom_count] buffer with the fine or
 * integer parts (VKMD_POSITIONS_* in shaders/common/vkmd_layout.h; the
 * arithmetic in shaders/common/positions.glsl). One place that creates them
 * and converts host double coordinates into them and back, for the force
 * field, the MD state and the tests. */
#ifndef VKMD_FORCES_POSITIONS_H
#define VKMD_FORCES_POSITIONS_H

#include "common/vkmd_layout.h"
#include "vk/buffer.h"

/* Creates an uninitialised buffer for `atom_count` positions (force_staging
 * as in vkmd_vk_buffer_desc). Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (atom_count <= 0), buffer errors. */
vkmd_result vkmd_positions_create(vkmd_vk_context *ctx, int32_t atom_count, int force_staging,
                                  vkmd_vk_buffer *out_buf);

/* Creates the extra buffer of a split mode (uvec4 [2 * atom_count]); for
 * VKMD_POSITIONS_FP32 it creates nothing (out_buf stays zeroed). */
vkmd_result vkmd_positions_create_extra(vkmd_vk_context *ctx, int32_t atom_count, int mode,
                                        int force_staging, vkmd_vk_buffer *out_buf);

/* The buffer a pass binds for the split parts: `extra` for a split mode
 * (checked to hold 2 * atom_count uvec4), `positions` itself as a
 * placeholder for FP32 (the shader never reads it then). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT naming `who` (unknown mode, missing or small
 * buffer). */
vkmd_result vkmd_positions_extra_binding(const vkmd_vk_buffer *positions,
                                         const vkmd_vk_buffer *extra, int mode, int32_t atom_count,
                                         const char *who, const vkmd_vk_buffer **out_binding);

/* Short name of a positions mode ("fp32", "split-float", "split-int"); "?"
 * for others. */
const char *vkmd_positions_mode_name(int mode);

/* Parses a mode name as above. Errors: VKMD_ERROR_INVALID_ARGUMENT. */
vkmd_result vkmd_positions_mode_parse(const char *name, int *out_mode);

/* Rounds xyz [3 * atom_count] A to float and uploads it (synchronous).
 * Errors: VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_INVALID_ARGUMENT (buffer too
 * small), Vulkan errors. */
vkmd_result vkmd_positions_upload(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, const double *xyz,
                                  int32_t atom_count);

/* Uploads xyz in `mode`: FP32 as vkmd_positions_upload; SPLIT_FLOAT as the
 * coarse c = x rounded to the 1/8 A grid and f = (float)(x - c); SPLIT_INT
 * as hi = floor(x), lo = (x - hi) 2^32 rounded to nearest; the float buffer
 * gets x rounded to float. Uploading what a readback gave restores the
 * same bits (in SPLIT_INT while |x| < 2^21 A, where hi + lo 2^-32 is exact
 * in double). extra may be NULL for FP32. Errors: as
 * vkmd_positions_upload; a coordinate beyond the mode's range (2^21 A
 * SPLIT_FLOAT, 2^31 A SPLIT_INT; VKMD_ERROR_INVALID_ARGUMENT, naming the
 * atom). */
vkmd_result vkmd_positions_upload_mode(vkmd_vk_context *ctx, vkmd_vk_buffer *buf,
                                       vkmd_vk_buffer *extra, int mode, const double *xyz,
                                       int32_t atom_count);

/* Reads xyz of a vec4 buffer (positions, or any vec4 [atom_count] buffer
 * such as the MD velocities) into out_xyz [3 * atom_count] as double; waits
 * for earlier queue work. Errors as vkmd_positions_upload. */
vkmd_result vkmd_positions_readback(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                    double *out_xyz, int32_t atom_count);

/* Reads positions stored in `mode` as double: c + f (exact), or
 * hi + lo 2^-32 (exact while |x| < 2^21 A). */
vkmd_result vkmd_positions_readback_mode(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                         const vkmd_vk_buffer *extra, int mode, double *out_xyz,
                                         int32_t atom_count);

#endif
