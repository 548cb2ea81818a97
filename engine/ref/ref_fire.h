/* FIRE's update in double (Bitzek et al., PRL 97, 170201, 2006): the one
 * host implementation, used by both CPU references (ref_minimize_run for the
 * AMBER force field, vkmd_ref_uff_fire for UFF); shaders/common/fire.glsl is
 * the same in float for both device minimisers, with the same three steps
 * and names. Each caller keeps its own sums, convergence test and position
 * update; per move it calls ref_fire_update once, with P = f.v, |f| and |v|
 * over the system, then ref_fire_move_atom for every atom. The algorithm
 * and units are in sim/minimize.h and sim/uff_fire.h. No Vulkan. */
#ifndef VKMD_REF_REF_FIRE_H
#define VKMD_REF_REF_FIRE_H

#include "system/fire_settings.h"

#include <stdint.h>

/* FIRE's scalars between moves. */
typedef struct ref_fire_state {
    double dt;     /* time step, the minimiser's unit */
    double alpha;  /* mixing weight */
    int32_t n_pos; /* P > 0 moves in a row since the last reset */
} ref_fire_state;

/* The velocity factors of one move: v <- keep v + mix f + dt a. */
typedef struct ref_fire_step {
    double dt;
    double keep;
    double mix; /* per unit force: alpha |v| / |f| */
} ref_fire_step;

/* The state before the first move: dt_start, alpha_start, no count. `p`
 * must be resolved. */
ref_fire_state ref_fire_start(const vkmd_fire_params *p);

/* One FIRE decision before move number `moves` (0 for the first), from the
 * power P = f.v and the norms |f| and |v| at the current positions:
 *   moves == 0: keep 1, mix 0 (the first move has no velocity to judge);
 *   P > 0:  keep = 1 - alpha, mix = alpha |v| / |f| (0 when |f| = 0), and
 *           after more than n_min such moves in a row dt <- min(f_inc dt,
 *           dt_max), alpha <- f_alpha alpha;
 *   P <= 0: keep 0 (v <- 0), mix 0, dt <- f_dec dt, alpha <- alpha_start,
 *           count reset.
 * Updates `s`; returns the move's factors. */
ref_fire_step ref_fire_update(const vkmd_fire_params *p, double power, double fnorm, double vnorm,
                              int32_t moves, ref_fire_state *s);

/* One atom's move: v ([3], updated) <- keep v + mix f + dt a, and out_dx
 * ([3]) = dt v with its length capped at p->max_step_a (v keeps its
 * value). f is the force (the mixing direction), a the acceleration (f
 * itself with unit masses). */
void ref_fire_move_atom(const vkmd_fire_params *p, const ref_fire_step *step, const double f[3],
                        const double a[3], double v[3], double out_dx[3]);

#endif
