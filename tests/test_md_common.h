/* Shared by the MD tests (test_md_langevin.c, test_md_nve.c,
 * test_md_divergence.c, test_md_trajectory.c): sampled runs, the
 * least-squares drift, the relaxed start state of the built-in water box,
 * and the RMSD between two sets of positions. */
#ifndef VKMD_TEST_MD_COMMON_H
#define VKMD_TEST_MD_COMMON_H

#include "testlib.h"
#include "ref/ref.h"
#include "sim/md.h"
#include "system/water_box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE_EVERY 20

typedef struct series {
    double *t_ps, *total, *temp;
    int n, cap;
} series;

static inline void series_add(series *s, double t, double e, double temp)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->t_ps = realloc(s->t_ps, sizeof *s->t_ps * (size_t)s->cap);
        s->total = realloc(s->total, sizeof *s->total * (size_t)s->cap);
        s->temp = realloc(s->temp, sizeof *s->temp * (size_t)s->cap);
    }
    s->t_ps[s->n] = t;
    s->total[s->n] = e;
    s->temp[s->n] = temp;
    ++s->n;
}

static inline void series_free(series *s)
{
    free(s->t_ps);
    free(s->total);
    free(s->temp);
    memset(s, 0, sizeof *s);
}

/* Runs `steps`, sampling every SAMPLE_EVERY; returns the max water violation. */
static inline double run(vkmd_vk_context *ctx, vkmd_md *md, int64_t steps, series *s)
{
    double worst = 0;
    for (int64_t k = 0; k < steps; k += SAMPLE_EVERY) {
        if (vkmd_md_step(ctx, md, SAMPLE_EVERY) != VKMD_OK) {
            CHECK_OK(VKMD_ERROR_VULKAN);
            break;
        }
        vkmd_md_report r;
        CHECK_OK(vkmd_md_read(ctx, md, &r, NULL, NULL));
        if (s)
            series_add(s, r.time_ps, r.total, r.temperature_k);
        double w = 0, h = 0;
        CHECK_OK(vkmd_md_constraint_violation(ctx, md, &w, &h));
        if (w > worst)
            worst = w;
    }
    return worst;
}

/* Least-squares slope of y(t), kcal/mol per ps. */
static inline double slope(const series *s)
{
    double mt = 0, my = 0;
    for (int i = 0; i < s->n; ++i) {
        mt += s->t_ps[i];
        my += s->total[i];
    }
    mt /= s->n;
    my /= s->n;
    double sxy = 0, sxx = 0;
    for (int i = 0; i < s->n; ++i) {
        sxy += (s->t_ps[i] - mt) * (s->total[i] - my);
        sxx += (s->t_ps[i] - mt) * (s->t_ps[i] - mt);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

/* The built-in box is a lattice of randomly turned waters, far from
 * equilibrium (+1,500 kcal/mol): `relax_steps` Langevin steps at 50/ps from
 * Maxwell-Boltzmann velocities at T (seed 99) relax it; x0, v0 receive the
 * state. */
static inline void relax_start(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_md_desc *d,
                               int64_t relax_steps, double *x0, double *v0)
{
    vkmd_md_desc hot = *d;
    hot.integrator = VKMD_INTEGRATOR_LANGEVIN;
    hot.friction_per_ps = 50;
    vkmd_md *pre = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &hot, &pre));
    if (!pre)
        return;
    CHECK_OK(vkmd_md_init_velocities(ctx, pre, d->temperature_k, 99));
    run(ctx, pre, relax_steps, NULL);
    CHECK_OK(vkmd_md_read(ctx, pre, NULL, x0, v0));
    vkmd_md_destroy(ctx, pre);
}

/* The MD ensemble tests' system: water:216 with resolved default settings. */
static inline void water216_setup(vkmd_system *sys, vkmd_ff_settings *s)
{
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, sys));
    CHECK_OK(vkmd_ff_settings_resolve(s, sys));
}

/* RMSD (A) between positions a and b with the minimum image per atom (the
 * GPU wraps molecules into the box at batch ends, the reference does not);
 * out_max, if not NULL, receives the largest single-atom displacement. */
static inline double md_rmsd(const vkmd_system *sys, const double *a, const double *b,
                             double *out_max)
{
    double s = 0, worst = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        double d[3];
        ref_delta(&sys->box, &a[3 * i], &b[3 * i], d);
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        s += r2;
        if (r2 > worst)
            worst = r2;
    }
    if (out_max)
        *out_max = sqrt(worst);
    return sqrt(s / sys->atom_count);
}

static inline int test_quick(void)
{
    const char *q = getenv("VKMD_TEST_QUICK");
    return q && q[0] == '1';
}

#endif
