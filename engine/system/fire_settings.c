/* FIRE settings: defaults, range checks, the UFF start perturbation (see
 * fire_settings.h). */
#include "system/fire_settings.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Each descriptor's named FIRE fields are the fields of its `fire`. */
#define SAME_FIELD(type, name, field)                                                              \
    _Static_assert(offsetof(type, name) == offsetof(type, fire.field) &&                           \
                       sizeof(((type *)0)->name) == sizeof(((type *)0)->fire.field),               \
                   #type "." #name " is fire." #field)
#define SAME_FIRE_FIELDS(type, dt_start_name, dt_max_name)                                         \
    SAME_FIELD(type, dt_start_name, dt_start);                                                     \
    SAME_FIELD(type, dt_max_name, dt_max);                                                         \
    SAME_FIELD(type, max_step_a, max_step_a);                                                      \
    SAME_FIELD(type, n_min, n_min);                                                                \
    SAME_FIELD(type, f_inc, f_inc);                                                                \
    SAME_FIELD(type, f_dec, f_dec);                                                                \
    SAME_FIELD(type, alpha_start, alpha_start);                                                    \
    SAME_FIELD(type, f_alpha, f_alpha)
SAME_FIRE_FIELDS(vkmd_minimize_desc, dt_start_fs, dt_max_fs);
SAME_FIRE_FIELDS(vkmd_uff_fire_params, dt_start, dt_max);

vkmd_fire_params vkmd_fire_params_resolve(const vkmd_fire_params *p, double dt_start, double dt_max,
                                          double max_step_a)
{
    vkmd_fire_params r = *p;
    if (r.dt_start == 0)
        r.dt_start = dt_start;
    if (r.dt_max == 0)
        r.dt_max = dt_max;
    if (r.max_step_a == 0)
        r.max_step_a = max_step_a;
    if (r.n_min == 0)
        r.n_min = VKMD_FIRE_N_MIN;
    if (r.f_inc == 0)
        r.f_inc = VKMD_FIRE_F_INC;
    if (r.f_dec == 0)
        r.f_dec = VKMD_FIRE_F_DEC;
    if (r.alpha_start == 0)
        r.alpha_start = VKMD_FIRE_ALPHA_START;
    if (r.f_alpha == 0)
        r.f_alpha = VKMD_FIRE_F_ALPHA;
    return r;
}

int vkmd_fire_params_valid(const vkmd_fire_params *p)
{
    return p->dt_start > 0 && p->dt_max >= p->dt_start && p->max_step_a > 0 && p->n_min >= 0 &&
           p->f_inc >= 1 && p->f_dec > 0 && p->f_dec < 1 && p->alpha_start > 0 &&
           p->alpha_start < 1 && p->f_alpha > 0 && p->f_alpha <= 1;
}

vkmd_minimize_desc vkmd_minimize_desc_resolve(const vkmd_minimize_desc *d)
{
    vkmd_minimize_desc r = d ? *d : (vkmd_minimize_desc){0};
    if (r.force_tol == 0)
        r.force_tol = VKMD_MINIMIZE_FORCE_TOL;
    if (r.max_iterations == 0)
        r.max_iterations = VKMD_MINIMIZE_MAX_ITERATIONS;
    if (r.check_interval == 0)
        r.check_interval = VKMD_MINIMIZE_CHECK_INTERVAL;
    const double dt_start = r.dt_start_fs != 0 ? r.dt_start_fs : VKMD_MINIMIZE_DT_START_FS;
    r.fire = vkmd_fire_params_resolve(&r.fire, dt_start, 10 * dt_start, VKMD_MINIMIZE_MAX_STEP_A);
    if (r.constraint_tol == 0)
        r.constraint_tol = 1e-5;
    return r;
}

vkmd_result vkmd_minimize_desc_check(const vkmd_minimize_desc *p)
{
    if (!(p->force_tol > 0) || p->max_iterations < 0 || p->check_interval < 1 ||
        !vkmd_fire_params_valid(&p->fire) || !(p->constraint_tol > 0 && p->constraint_tol < 0.1))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "minimisation: parameters out of range (force tol %g kcal/mol/A, max "
                         "iterations %d, check interval %d, dt %g..%g fs, max step %g A, N_min "
                         "%d, f_inc %g, f_dec %g, alpha %g, f_alpha %g, constraint tol %g)",
                         p->force_tol, p->max_iterations, p->check_interval, p->dt_start_fs,
                         p->dt_max_fs, p->max_step_a, p->n_min, p->f_inc, p->f_dec, p->alpha_start,
                         p->f_alpha, p->constraint_tol);
    return VKMD_OK;
}

vkmd_uff_fire_params vkmd_uff_fire_params_resolve(const vkmd_uff_fire_params *p)
{
    vkmd_uff_fire_params r = p ? *p : (vkmd_uff_fire_params){0};
    if (r.ftol == 0)
        r.ftol = 1e-3;
    if (r.max_steps == 0)
        r.max_steps = 20000;
    r.fire = vkmd_fire_params_resolve(&r.fire, 0.01, 0.05, 0.1);
    if (r.check_interval == 0)
        r.check_interval = 100;
    return r;
}

vkmd_result vkmd_uff_fire_params_check(const vkmd_uff_fire_params *p)
{
    if (!(p->ftol > 0) || p->max_steps < 0 || !vkmd_fire_params_valid(&p->fire) ||
        p->check_interval < 1 ||
        (p->criterion != VKMD_UFF_FIRE_MAX_FORCE && p->criterion != VKMD_UFF_FIRE_RMS_FORCE))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "FIRE: parameters out of range (ftol %g, dt %g..%g, max step %g A, "
                         "max steps %d, N_min %d, f_inc %g, f_dec %g, alpha %g, f_alpha %g, "
                         "check interval %d, criterion %d)",
                         p->ftol, p->dt_start, p->dt_max, p->max_step_a, p->max_steps, p->n_min,
                         p->f_inc, p->f_dec, p->alpha_start, p->f_alpha, p->check_interval,
                         p->criterion);
    return VKMD_OK;
}

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void vkmd_uff_perturb(const double *xyz, int32_t atom_count, double amplitude_a, uint64_t seed,
                      uint32_t replica, double *out_xyz)
{
    uint64_t s = seed + 0x9E3779B97F4A7C15ull * ((uint64_t)replica + 1);
    for (int32_t i = 0; i < 3 * atom_count; ++i) {
        const double u = (double)(splitmix64(&s) >> 11) * 0x1.0p-53; /* [0, 1) */
        out_xyz[i] = xyz[i] + amplitude_a * (2 * u - 1);
    }
}
