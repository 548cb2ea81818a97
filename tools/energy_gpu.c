/* `vkmd energy --device N`: what runs on a Vulkan device in this version.
 * Today that is the bonded pass (bonds, angles, proper and improper
 * dihedrals); the report marks every other term as not computed rather than
 * silently mixing in CPU numbers. */
#include "energy_report.h"
#include "forces/pass_bonded.h"
#include "vk/barrier.h"
#include "vk/buffer.h"
#include "vk/command.h"
#include "vk/context.h"

#include <stdlib.h>
#include <string.h>

vkmd_result energy_gpu(energy_request *req, const vkmd_system *sys, vkmd_energy *e, double *forces)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_context *ctx = NULL;
    vkmd_vk_buffer pos = {0};
    vkmd_accum acc = {0};
    vkmd_pass_bonded *pass = NULL;
    vkmd_vk_cmd cmd = {0};
    const int32_t n = sys->atom_count;
    float *pos4 = calloc(4 * (size_t)n, sizeof *pos4);
    if (!pos4)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for %d positions", n);
    for (int32_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            pos4[4 * i + c] = (float)sys->positions[3 * i + c];

    const vkmd_vk_context_desc cdesc = {.device = req->device};
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    snprintf(req->device_label, sizeof req->device_label, "%s (Vulkan device %u)", ctx->info.name,
             ctx->info.index);
    req->device_name = req->device_label;
    const vkmd_vk_buffer_desc pdesc = {.size = 16 * (VkDeviceSize)n, .name = "positions"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &pdesc, &pos));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &pos, 0, pos4, pdesc.size));
    VKMD_TRY(vkmd_accum_create(ctx, n, 0, &acc));
    const vkmd_pass_bonded_desc bdesc = {.positions = &pos, .accum = &acc};
    VKMD_TRY(vkmd_pass_bonded_create(ctx, sys, &bdesc, &pass));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_accum_record_clear(cmd.cb, &acc);
    vkmd_pass_bonded_record(pass, cmd.cb);
    vkmd_vk_barrier_compute_to_transfer(cmd.cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &cmd));
    memset(e, 0, sizeof *e);
    VKMD_TRY(vkmd_pass_bonded_readback(ctx, pass, forces, e));
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
    req->gpu_terms_only = 1;
    req->terms_note = "only the bonded terms (bond, angle, dihedral) run on a Vulkan device in "
                      "this version; forces are bonded forces only; use --device cpu for every "
                      "term and the total";
cleanup:
    if (ctx) {
        vkmd_vk_cmd_destroy(ctx, &cmd);
        vkmd_pass_bonded_destroy(ctx, pass);
        vkmd_accum_destroy(ctx, &acc);
        vkmd_vk_buffer_destroy(ctx, &pos);
        vkmd_vk_context_destroy(ctx);
    }
    free(pos4);
    return res;
}
