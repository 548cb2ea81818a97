/* `vkmd energy --device N`: every term on a Vulkan device through the
 * engine's force field (engine/forces/forcefield.h); the Ewald self energy,
 * the dispersion correction and the net-charge correction are constants of
 * the charges and the box, added in double on the host. */
#include "energy_report.h"
#include "forces/forcefield.h"
#include "vk/context.h"

#include <stdio.h>
#include <string.h>

vkmd_result energy_gpu(energy_request *req, const vkmd_system *sys, vkmd_energy *e, double *forces)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_context *ctx = NULL;
    vkmd_forcefield *ff = NULL;

    /* "gpu": the context's own choice (VKMD_DEVICE, else the best device) */
    const vkmd_vk_context_desc cdesc = {.device = strcmp(req->device, "gpu") ? req->device : NULL};
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    snprintf(req->device_label, sizeof req->device_label, "%s (Vulkan device %u)", ctx->info.name,
             ctx->info.index);
    req->device_name = req->device_label;
    VKMD_TRY(precision_options_resolve(&req->precision, ctx, sys, &req->ff, &req->choice));
    const vkmd_forcefield_desc fdesc = {.settings = &req->ff};
    VKMD_TRY(vkmd_forcefield_create(ctx, sys, &fdesc, &ff));
    VKMD_TRY(vkmd_forcefield_evaluate(ctx, ff, NULL, e, forces));
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
cleanup:
    if (ctx) {
        vkmd_forcefield_destroy(ctx, ff);
        vkmd_vk_context_destroy(ctx);
    }
    return res;
}
