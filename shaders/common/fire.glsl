// FIRE (Bitzek, Koskinen, Gaehler, Moseler, Gumbsch, PRL 97, 170201, 2006),
// the one device implementation of its update, shared by minimize_fire.comp
// (AMBER force field: one system, masses, constraints) and uff_fire.comp
// (UFF: many replicas, unit masses, each with its own state). The callers
// keep their own data layout, reductions and position arithmetic; they
// call, per step:
//   fire_update        once, with P = f.v, |f| and |v| summed over the
//                      system (or replica): the P test, the mixing
//                      coefficients, dt and alpha;
//   fire_velocity      per atom: v <- keep v + mix f + dt a;
//   fire_displacement  per atom: dx = dt v, capped at max_step A (v keeps
//                      its value).
// The algorithm and its units are in engine/sim/minimize.h and
// engine/sim/uff_fire.h; engine/ref/ref_fire.c is the same in double.
// Parameters come as a vkmd_fire_push (common/layout_fire.h).
#ifndef VKMD_FIRE_GLSL
#define VKMD_FIRE_GLSL

// One FIRE decision before move number `moves` (0 for the first), from the
// power P = f.v and the norms |f| and |v| at the current positions:
//   moves == 0: keep 1, mix 0 (the first move has no velocity to judge);
//   P > 0:  keep = 1 - alpha, mix = alpha |v| / |f| (0 when |f| = 0), and
//           after more than n_min such moves in a row dt <- min(f_inc dt,
//           dt_max), alpha <- f_alpha alpha; n_pos counts them;
//   P <= 0: keep = 0 (v <- 0), mix 0, dt <- f_dec dt, alpha <- alpha_start,
//           n_pos <- 0.
// The paper mixes before its P test and zeroes v after it when P <= 0: the
// same velocities.
void fire_update(vkmd_fire_push p, float power, float fnorm, float vnorm, uint moves,
                 inout float dt, inout float alpha, inout uint n_pos, out float keep,
                 out float mix)
{
    keep = 1.0;
    mix = 0.0;
    if (moves == 0u)
        return;
    if (power > 0.0) {
        keep = 1.0 - alpha;
        mix = fnorm > 0.0 ? alpha * vnorm / fnorm : 0.0;
        if (n_pos > p.n_min) {
            dt = min(dt * p.f_inc, p.dt_max);
            alpha *= p.f_alpha;
        }
        n_pos += 1u;
    } else {
        keep = 0.0;
        dt *= p.f_dec;
        alpha = p.alpha_start;
        n_pos = 0u;
    }
}

// FIRE's velocity after the mixing and the semi-implicit Euler kick: v is
// the atom's velocity, f its force (the mixing direction) and a its
// acceleration (f itself with unit masses).
vec3 fire_velocity(vec3 v, vec3 f, vec3 a, float dt, float keep, float mix)
{
    return keep * v + mix * f + dt * a;
}

// The atom's move dt v, its length capped at p.max_step.
vec3 fire_displacement(vkmd_fire_push p, vec3 v, float dt)
{
    vec3 dx = dt * v;
    const float d2 = dot(dx, dx);
    if (d2 > p.max_step * p.max_step)
        dx *= p.max_step / sqrt(d2);
    return dx;
}

#endif
