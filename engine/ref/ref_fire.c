/* FIRE's update in double (see ref_fire.h). */
#include "ref/ref_fire.h"

#include <math.h>

ref_fire_state ref_fire_start(const vkmd_fire_params *p)
{
    return (ref_fire_state){.dt = p->dt_start, .alpha = p->alpha_start, .n_pos = 0};
}

ref_fire_step ref_fire_update(const vkmd_fire_params *p, double power, double fnorm, double vnorm,
                              int32_t moves, ref_fire_state *s)
{
    ref_fire_step step = {.keep = 1, .mix = 0};
    if (moves > 0) {
        if (power > 0) {
            step.keep = 1 - s->alpha;
            step.mix = fnorm > 0 ? s->alpha * vnorm / fnorm : 0;
            if (s->n_pos > p->n_min) {
                s->dt = fmin(s->dt * p->f_inc, p->dt_max);
                s->alpha *= p->f_alpha;
            }
            ++s->n_pos;
        } else {
            step.keep = 0;
            s->dt *= p->f_dec;
            s->alpha = p->alpha_start;
            s->n_pos = 0;
        }
    }
    step.dt = s->dt;
    return step;
}

void ref_fire_move_atom(const vkmd_fire_params *p, const ref_fire_step *step, const double f[3],
                        const double a[3], double v[3], double out_dx[3])
{
    double dx[3], d2 = 0;
    for (int c = 0; c < 3; ++c) {
        v[c] = step->keep * v[c] + step->mix * f[c] + step->dt * a[c];
        dx[c] = step->dt * v[c];
        d2 += dx[c] * dx[c];
    }
    const double scale = d2 > p->max_step_a * p->max_step_a ? p->max_step_a / sqrt(d2) : 1;
    for (int c = 0; c < 3; ++c)
        out_dx[c] = scale * dx[c];
}
