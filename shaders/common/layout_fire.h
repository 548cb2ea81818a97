/* FIRE's parameters as both FIRE shaders read them (common/fire.glsl;
 * minimize_fire.comp and uff_fire.comp hold one as push-constant member
 * `fire`), shared by C and GLSL: included by common/vkmd_layout.h; same rules
 * as there. Filled from a vkmd_fire_params (system/fire_settings.h) by
 * vkmd_sim_fire_push (sim/fire_push.h). Times in the minimiser's unit,
 * max_step in A.
 *
 * Surprise: a struct member of a push-constant block takes std430's rules:
 * aligned to its largest member (4 bytes here), no padding to 16 as std140
 * would add, so the C struct of seven 4-byte fields matches. */
#ifndef VKMD_LAYOUT_FIRE_H
#define VKMD_LAYOUT_FIRE_H

#define VKMD_FIRE_PUSH_FIELDS                                                                      \
    VKMD_UINT n_min;                                                                               \
    VKMD_FLOAT dt_max;                                                                             \
    VKMD_FLOAT max_step;                                                                           \
    VKMD_FLOAT f_inc;                                                                              \
    VKMD_FLOAT f_dec;                                                                              \
    VKMD_FLOAT alpha_start;                                                                        \
    VKMD_FLOAT f_alpha;

struct vkmd_fire_push {
    VKMD_FIRE_PUSH_FIELDS
};

#ifdef __STDC__
typedef struct vkmd_fire_push vkmd_fire_push;
_Static_assert(sizeof(vkmd_fire_push) == 28, "vkmd_fire_push is 28 bytes");
_Static_assert(_Alignof(vkmd_fire_push) == 4, "vkmd_fire_push aligned as std430's");
#endif

#endif
