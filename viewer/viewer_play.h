/* Playing a structure or a trajectory in the viewer (vkmd view): the frames
 * of a frame source (io/frame_source.h: a structure, DCD or AMBER NetCDF)
 * uploaded into a positions buffer the viewer draws from, one frame per
 * window frame, +/- stepping through them, until the window closes or the
 * viewer's --frames are drawn. The player owns the positions buffer, which
 * must outlive the viewer's use of it: free the player after
 * vkmd_viewer_close. */
#ifndef VKMD_VIEWER_VIEWER_PLAY_H
#define VKMD_VIEWER_VIEWER_PLAY_H

#include "io/frame_source.h"
#include "viewer.h"
#include "vk/buffer.h"

typedef struct vkmd_viewer_player {
    vkmd_vk_buffer positions; /* vec4 [atoms] */
    float *x4;                /* host staging of one frame */
} vkmd_viewer_player;

/* Attaches `view` to the player's positions for fs's system and plays its
 * frames. Errors: the frame source's, the viewer's, Vulkan's,
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_viewer_play(vkmd_viewer *view, vkmd_vk_context *ctx, vkmd_frame_source *fs,
                             vkmd_viewer_player *p);

/* Frees the player (after vkmd_viewer_close). NULL ctx or a zeroed player
 * is fine. */
void vkmd_viewer_player_free(vkmd_vk_context *ctx, vkmd_viewer_player *p);

#endif
