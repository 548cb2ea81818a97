/* FIRE's parameters in the form both FIRE shaders read them
 * (common/layout_fire.h, common/fire.glsl): the device half of the one FIRE
 * that sim/minimize.c (AMBER force field) and sim/uff_fire.c (UFF replicas)
 * share. No Vulkan calls. */
#ifndef VKMD_SIM_FIRE_PUSH_H
#define VKMD_SIM_FIRE_PUSH_H

#include "common/vkmd_layout.h"
#include "system/fire_settings.h"

/* The push-constant member `fire` for a resolved `p` (each field rounded to
 * float; times stay in the minimiser's unit). */
vkmd_fire_push vkmd_sim_fire_push(const vkmd_fire_params *p);

#endif
