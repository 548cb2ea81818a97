/* The positions buffer every force pass reads: vec4 fp32 [atom_count], xyz
 * in A, w unused (std430 pads vec3 arrays to 16 bytes anyway). One place
 * that creates it and converts host double coordinates into it, for the
 * force field, the MD state and the tests. */
#ifndef VKMD_FORCES_POSITIONS_H
#define VKMD_FORCES_POSITIONS_H

#include "vk/buffer.h"

/* Creates an uninitialised buffer for `atom_count` positions (force_staging
 * as in vkmd_vk_buffer_desc). Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (atom_count <= 0), buffer errors. */
vkmd_result vkmd_positions_create(vkmd_vk_context *ctx, int32_t atom_count, int force_staging,
                                  vkmd_vk_buffer *out_buf);

/* Rounds xyz [3 * atom_count] A to float and uploads it (synchronous).
 * Errors: VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_INVALID_ARGUMENT (buffer too
 * small), Vulkan errors. */
vkmd_result vkmd_positions_upload(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, const double *xyz,
                                  int32_t atom_count);

/* Reads xyz of a vec4 buffer (positions, or any vec4 [atom_count] buffer
 * such as the MD velocities) into out_xyz [3 * atom_count] as double; waits
 * for earlier queue work. Errors as vkmd_positions_upload. */
vkmd_result vkmd_positions_readback(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                    double *out_xyz, int32_t atom_count);

#endif
