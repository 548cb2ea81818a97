/* Virtual sites on the device (shaders/vsite.comp, layout
 * shaders/common/layout_vsite.h): before the force passes, each site's
 * position is built from its parents; after them, each site's force goes to
 * its parents and the site's row is zeroed. vkmd_forcefield_record records
 * both around its passes, so every user of a force evaluation (the MD step,
 * FIRE, vkmd energy) gets them. The CPU oracle is engine/ref/ref_vsite.c. */
#ifndef VKMD_FORCES_PASS_VSITE_H
#define VKMD_FORCES_PASS_VSITE_H

#include "forces/accum.h"
#include "system/system.h"
#include "vk/context.h"

typedef struct vkmd_pass_vsite_desc {
    const vkmd_vk_buffer *positions;   /* required: vec4 [atom_count] */
    const vkmd_vk_buffer *positions_x; /* split parts; NULL in fp32 mode */
    int positions_mode;                /* VKMD_POSITIONS_* */
    const vkmd_accum *accum;           /* required: the force accumulators */
    int force_staging;                 /* 0; 1: stage the records buffer */
} vkmd_pass_vsite_desc;

typedef struct vkmd_pass_vsite vkmd_pass_vsite;

/* Uploads sys->vsites (sys->vsite_count > 0; check with vkmd_vsite_check
 * first) and makes both pipelines. Errors: VKMD_ERROR_INVALID_ARGUMENT (no
 * sites, buffers of another size), device errors. */
vkmd_result vkmd_pass_vsite_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                   const vkmd_pass_vsite_desc *desc, vkmd_pass_vsite **out_pass);

/* NULL: no-op. */
void vkmd_pass_vsite_destroy(vkmd_vk_context *ctx, vkmd_pass_vsite *pass);

/* Records: compute barrier, the build dispatch, compute barrier. */
void vkmd_pass_vsite_record_build(const vkmd_pass_vsite *pass, VkCommandBuffer cb);

/* Records the spread dispatch and a compute barrier (after the force passes'
 * own last barrier). */
void vkmd_pass_vsite_record_spread(const vkmd_pass_vsite *pass, VkCommandBuffer cb);

#endif
