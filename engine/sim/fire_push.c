/* FIRE's push-constant parameters (see fire_push.h). */
#include "sim/fire_push.h"

vkmd_fire_push vkmd_sim_fire_push(const vkmd_fire_params *p)
{
    return (vkmd_fire_push){.n_min = (uint32_t)p->n_min,
                            .dt_max = (float)p->dt_max,
                            .max_step = (float)p->max_step_a,
                            .f_inc = (float)p->f_inc,
                            .f_dec = (float)p->f_dec,
                            .alpha_start = (float)p->alpha_start,
                            .f_alpha = (float)p->f_alpha};
}
