/* Reference virtual sites (ref_vsite.h).
 *
 * OUT_OF_PLANE: x = x0 + a r1 + b r2 + c (r1 x r2), r_k = x_k - x0. A change
 * dr1 changes r1 x r2 by dr1 x r2 = -(r2 x dr1), so the force F on the site
 * pulls parent 1 by a F + c (r2 x F) and parent 2 by b F - c (r1 x F)
 * (transposes of the cross-product matrices); parent 0 takes the rest,
 * F - f1 - f2, so the total force is kept. */
#include "ref/ref_vsite.h"

#include "ref/ref.h"
#include "system/vsite.h"

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* r1 = x1 - x0, r2 = x2 - x0 (minimum image). */
static void frame(const vkmd_system *sys, const vkmd_vsite *s, const double *x, double r1[3],
                  double r2[3])
{
    const double *x0 = x + 3 * s->parents[0];
    ref_delta(&sys->box, x0, x + 3 * s->parents[1], r1);
    ref_delta(&sys->box, x0, x + 3 * s->parents[2], r2);
}

void ref_vsite_build(const vkmd_system *sys, double *positions)
{
    for (int32_t v = 0; v < sys->vsite_count; ++v) {
        const vkmd_vsite *s = &sys->vsites[v];
        double r1[3], r2[3], c[3] = {0, 0, 0};
        frame(sys, s, positions, r1, r2);
        if (s->kind == VKMD_VSITE_OUT_OF_PLANE)
            cross(r1, r2, c);
        const double *x0 = positions + 3 * s->parents[0];
        double *xs = positions + 3 * s->site;
        for (int d = 0; d < 3; ++d) {
            if (s->kind == VKMD_VSITE_OUT_OF_PLANE)
                xs[d] = x0[d] + s->w[0] * r1[d] + s->w[1] * r2[d] + s->w[2] * c[d];
            else
                xs[d] = x0[d] + s->w[1] * r1[d] + s->w[2] * r2[d];
        }
    }
}

void ref_vsite_spread(const vkmd_system *sys, const double *positions, double *f)
{
    for (int32_t v = 0; v < sys->vsite_count; ++v) {
        const vkmd_vsite *s = &sys->vsites[v];
        double *fs = f + 3 * s->site;
        const double F[3] = {fs[0], fs[1], fs[2]};
        double f1[3], f2[3];
        if (s->kind == VKMD_VSITE_OUT_OF_PLANE) {
            double r1[3], r2[3], t1[3], t2[3];
            frame(sys, s, positions, r1, r2);
            cross(r2, F, t1);
            cross(r1, F, t2);
            for (int d = 0; d < 3; ++d) {
                f1[d] = s->w[0] * F[d] + s->w[2] * t1[d];
                f2[d] = s->w[1] * F[d] - s->w[2] * t2[d];
            }
        } else {
            for (int d = 0; d < 3; ++d) {
                f1[d] = s->w[1] * F[d];
                f2[d] = s->w[2] * F[d];
            }
        }
        double *p0 = f + 3 * s->parents[0], *p1 = f + 3 * s->parents[1],
               *p2 = f + 3 * s->parents[2];
        for (int d = 0; d < 3; ++d) {
            p0[d] += F[d] - f1[d] - f2[d];
            p1[d] += f1[d];
            p2[d] += f2[d];
            fs[d] = 0;
        }
    }
}
