/* The public dynamics handle (include/vkmd.h vkmd_dynamics) over the
 * engine's MD (sim/md.h), for the other api/ files. */
#ifndef VKMD_API_API_DYNAMICS_H
#define VKMD_API_API_DYNAMICS_H

#include "vkmd.h"
#include "api/api_context.h"
#include "api/api_system.h"
#include "forces/precision.h"
#include "sim/md.h"

struct vkmd_dynamics {
    vkmd_context *ctx;            /* borrowed */
    const vkmd_sys *sys;          /* borrowed */
    vkmd_ff_settings ff;          /* resolved; the MD points at it */
    vkmd_md_desc md_desc;         /* as given to vkmd_md_create */
    vkmd_precision_choice choice; /* what the precision mode resolved to */
    vkmd_md *md;                  /* owned */
};

/* VKMD_ERROR_INVALID_ARGUMENT naming the first field of a public dynamics
 * desc out of range. */
vkmd_result vkmd_api_dynamics_desc_check(const vkmd_dynamics_desc *d);

/* The engine's precision mode of a public one. */
vkmd_precision vkmd_api_precision(vkmd_precision_mode m);

/* The engine's MD desc (settings left NULL) of a public dynamics desc: its
 * zero fields stay zero for sim/md.h's defaults, but for the seed (0: 1, as
 * vkmd run). */
void vkmd_api_md_desc(const vkmd_dynamics_desc *d, vkmd_md_desc *out);

#endif
