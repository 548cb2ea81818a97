/* Playing a frame source in the viewer (see viewer_play.h). */
#include "viewer_play.h"
#include "vk/check.h"

#include <stdio.h>
#include <stdlib.h>

vkmd_result vkmd_viewer_play(vkmd_viewer *view, vkmd_vk_context *ctx, vkmd_frame_source *fs,
                             vkmd_viewer_player *p)
{
    const vkmd_vk_buffer_desc bd = {.size = sizeof(float) * 4 * (size_t)fs->sys.atom_count,
                                    .name = "view positions"};
    VKMD_TRY_RETURN(vkmd_vk_buffer_create(ctx, &bd, &p->positions));
    p->x4 = calloc(4 * (size_t)fs->sys.atom_count, sizeof *p->x4);
    if (!p->x4)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "view: out of memory");
    const vkmd_render_sources src = {.positions = &p->positions};
    VKMD_TRY_RETURN(vkmd_viewer_attach(view, ctx, &fs->sys, &src));
    const int32_t frame_count = fs->frame_count;
    char note[96];
    snprintf(note, sizeof note, "%d FRAMES%s", frame_count,
             fs->dcd  ? " (DCD)"
             : fs->nc ? " (NETCDF)"
                      : "");
    int32_t shown = -1, current = 0;
    for (;;) {
        if (current != shown) {
            VKMD_TRY_RETURN(vkmd_frame_source_read(fs, current, p->x4));
            VKMD_TRY_RETURN(vkmd_vk_buffer_upload(ctx, &p->positions, 0, p->x4, bd.size));
            shown = current;
        }
        const vkmd_viewer_hud hud = {.step = current + (frame_count > 1 ? 1 : 0),
                                     .time_ps = vkmd_frame_source_time_ps(fs, current),
                                     .temperature_k = -1,
                                     .note = note};
        vkmd_viewer_input in;
        VKMD_TRY_RETURN(vkmd_viewer_frame(view, ctx, &hud, &in));
        if (in.quit)
            return VKMD_OK;
        if (frame_count > 1 && in.steps > 0)
            current = (int32_t)((current + in.steps) % frame_count);
    }
}

void vkmd_viewer_player_free(vkmd_vk_context *ctx, vkmd_viewer_player *p)
{
    if (ctx)
        vkmd_vk_buffer_destroy(ctx, &p->positions);
    free(p->x4);
    p->x4 = NULL;
}
