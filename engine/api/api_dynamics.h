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

#endif
