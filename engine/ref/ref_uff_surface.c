/* Double reference for the UFF surface interaction (see ref_uff_surface.h). */
#include "ref/ref_uff_surface.h"

static double point_energy(const vkmd_uff_surface *s, int32_t c, const double p[3], double g[3])
{
    double u[2], w[2];
    vkmd_uff_surface_wrap(s, p, u, w);
    const double rc2 = s->cutoff_a * s->cutoff_a;
    double e = 0;
    g[0] = g[1] = g[2] = 0;
    for (int32_t i = 0; i < s->image_count; ++i) {
        const double *img = s->image[i];
        const double d[3] = {w[0] - img[0], w[1] - img[1], p[2] - img[2]};
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (r2 >= rc2)
            continue;
        double fr;
        e += vkmd_uff_surface_pair(s->form, s->pair[c * s->kind_count + (int32_t)img[3]], r2, rc2,
                                   &fr);
        for (int k = 0; k < 3; ++k)
            g[k] -= fr * d[k];
    }
    return e;
}

double ref_uff_surface_point(const vkmd_uff_surface *s, int32_t c, const double p[3])
{
    double g[3];
    return point_energy(s, c, p, g);
}

double ref_uff_surface_direct(const vkmd_uff_surface *s, const int32_t *channel, int32_t atom_count,
                              const double *pos, double *f)
{
    double e = 0;
    for (int32_t a = 0; a < atom_count; ++a) {
        double g[3];
        e += point_energy(s, channel[a], &pos[3 * a], g);
        if (f)
            for (int k = 0; k < 3; ++k)
                f[3 * a + k] -= g[k];
    }
    return e;
}

void ref_uff_surface_grid_values(const vkmd_uff_surface *s, vkmd_uff_surface_grid *g)
{
    const int64_t points = vkmd_uff_surface_grid_points(g);
    for (int32_t c = 0; c < g->channel_count; ++c)
        for (int32_t k = 0; k < g->nz; ++k)
            for (int32_t j = 0; j < g->ny; ++j)
                for (int32_t i = 0; i < g->nx; ++i) {
                    const double u = (double)i / g->nx, v = (double)j / g->ny;
                    const double p[3] = {u * g->a[0] + v * g->b[0], u * g->a[1] + v * g->b[1],
                                         g->z0 + k * g->dz};
                    g->values[points * c + ((int64_t)k * g->ny + j) * g->nx + i] =
                        (float)ref_uff_surface_point(s, c, p);
                }
}

double ref_uff_surface_grid(const vkmd_uff_surface_grid *g, const int32_t *channel,
                            int32_t atom_count, const double *pos, double *f, int32_t *out_below)
{
    double e = 0;
    int32_t below_count = 0;
    for (int32_t a = 0; a < atom_count; ++a) {
        double grad[3];
        int below;
        e += vkmd_uff_surface_grid_eval(g, channel[a], &pos[3 * a], grad, &below);
        below_count += below;
        if (f)
            for (int k = 0; k < 3; ++k)
                f[3 * a + k] -= grad[k];
    }
    if (out_below)
        *out_below = below_count;
    return e;
}
