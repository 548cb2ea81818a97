/* The periodic box: construction, reduction, minimum image (system/box.h). */
#include "system/box.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

static int is_right(double deg)
{
    return fabs(deg - 90.0) <= VKMD_BOX_RIGHT_ANGLE_TOL_DEG;
}

void vkmd_box_set_rect(vkmd_box *box, const double len[3])
{
    memset(box, 0, sizeof *box);
    box->periodic = 1;
    for (int d = 0; d < 3; ++d) {
        box->len[d] = len[d];
        box->angle_deg[d] = 90.0;
        box->vec[d][d] = len[d];
    }
}

/* b -= a * round(b.x / a.x) etc.: the reduction OpenMM applies to its
 * periodic box vectors, valid for lower-triangular input. Halves round to
 * even (nearbyint), as Python's round() in OpenMM's
 * computePeriodicBoxVectors: a rhombic dodecahedron (c.y / b.y = 0.5
 * exactly) then gets OpenMM's basis, and with it OpenMM's PME mesh. */
static void reduce(double v[3][3])
{
    double k = nearbyint(v[2][1] / v[1][1]);
    for (int d = 0; d < 3; ++d)
        v[2][d] -= k * v[1][d];
    k = nearbyint(v[2][0] / v[0][0]);
    for (int d = 0; d < 3; ++d)
        v[2][d] -= k * v[0][d];
    k = nearbyint(v[1][0] / v[0][0]);
    for (int d = 0; d < 3; ++d)
        v[1][d] -= k * v[0][d];
}

static vkmd_result finish(vkmd_box *box, double v[3][3], const char *source)
{
    if (!(v[0][0] > 0) || !(v[1][1] > 0) || !(v[2][2] > 0) || v[0][1] != 0 || v[0][2] != 0 ||
        v[1][2] != 0)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: box vectors a = (%g %g %g), b = (%g %g %g), c = (%g %g %g) A are "
                         "not a right-handed cell with a along x and b in the xy plane",
                         source, v[0][0], v[0][1], v[0][2], v[1][0], v[1][1], v[1][2], v[2][0],
                         v[2][1], v[2][2]);
    reduce(v);
    memcpy(box->vec, v, sizeof box->vec);
    box->periodic = 1;
    box->triclinic = !(is_right(box->angle_deg[0]) && is_right(box->angle_deg[1]) &&
                       is_right(box->angle_deg[2]));
    if (!box->triclinic) {
        memset(box->vec, 0, sizeof box->vec);
        for (int d = 0; d < 3; ++d) {
            box->vec[d][d] = box->len[d];
            box->angle_deg[d] = 90.0;
        }
    }
    return VKMD_OK;
}

vkmd_result vkmd_box_set(vkmd_box *box, const double len_in[3], const double angle_in[3],
                         const char *source)
{
    /* Copies first: callers may pass box->len and box->angle_deg themselves. */
    const double len[3] = {len_in[0], len_in[1], len_in[2]};
    const double angle_deg[3] = {angle_in[0], angle_in[1], angle_in[2]};
    for (int d = 0; d < 3; ++d) {
        if (!(len[d] > 0) || !isfinite(len[d]))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: box edge %c is %g A, must be > 0", source,
                             "abc"[d], len[d]);
        if (!(angle_deg[d] > 0 && angle_deg[d] < 180))
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s: box angle %s is %g degrees, must be between 0 and 180", source,
                             (const char *[]){"alpha", "beta", "gamma"}[d], angle_deg[d]);
    }
    memset(box, 0, sizeof *box);
    memcpy(box->len, len, sizeof box->len);
    memcpy(box->angle_deg, angle_deg, sizeof box->angle_deg);
    const double ca = is_right(angle_deg[0]) ? 0.0 : cos(angle_deg[0] * PI / 180.0);
    const double cb = is_right(angle_deg[1]) ? 0.0 : cos(angle_deg[1] * PI / 180.0);
    const double cg = is_right(angle_deg[2]) ? 0.0 : cos(angle_deg[2] * PI / 180.0);
    const double sg = is_right(angle_deg[2]) ? 1.0 : sin(angle_deg[2] * PI / 180.0);
    double v[3][3] = {{0}};
    v[0][0] = len[0];
    v[1][0] = len[1] * cg;
    v[1][1] = len[1] * sg;
    v[2][0] = len[2] * cb;
    v[2][1] = len[2] * (ca - cb * cg) / sg;
    const double zz = len[2] * len[2] - v[2][0] * v[2][0] - v[2][1] * v[2][1];
    if (!(zz > 1e-12 * len[2] * len[2]))
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: box angles %g %g %g degrees describe no cell (flat or impossible)",
                         source, angle_deg[0], angle_deg[1], angle_deg[2]);
    v[2][2] = sqrt(zz);
    return finish(box, v, source);
}

static double norm3(const double *x)
{
    return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

static double angle_of(const double *x, const double *y)
{
    const double c = (x[0] * y[0] + x[1] * y[1] + x[2] * y[2]) / (norm3(x) * norm3(y));
    return acos(fmax(-1.0, fmin(1.0, c))) * 180.0 / PI;
}

vkmd_result vkmd_box_set_vectors(vkmd_box *box, const double vec[3][3], const char *source)
{
    double v[3][3];
    memcpy(v, vec, sizeof v);
    memset(box, 0, sizeof *box);
    for (int d = 0; d < 3; ++d)
        box->len[d] = norm3(v[d]);
    box->angle_deg[0] = angle_of(v[1], v[2]);
    box->angle_deg[1] = angle_of(v[0], v[2]);
    box->angle_deg[2] = angle_of(v[0], v[1]);
    return finish(box, v, source);
}

void vkmd_box_scale(vkmd_box *box, double s)
{
    for (int d = 0; d < 3; ++d) {
        box->len[d] *= s;
        for (int e = 0; e < 3; ++e)
            box->vec[d][e] *= s;
    }
}

double vkmd_box_volume_a3(const vkmd_box *box)
{
    if (!box->periodic)
        return 0.0;
    if (!box->triclinic)
        return box->len[0] * box->len[1] * box->len[2];
    return box->vec[0][0] * box->vec[1][1] * box->vec[2][2];
}

void vkmd_box_reciprocal(const vkmd_box *box, double out_recip[3][3])
{
    memset(out_recip, 0, 9 * sizeof(double));
    if (!box->periodic)
        return;
    if (!box->triclinic) {
        for (int d = 0; d < 3; ++d)
            out_recip[d][d] = 1.0 / box->len[d];
        return;
    }
    const double(*v)[3] = box->vec;
    /* Inverse of the lower-triangular matrix whose rows are a, b, c,
     * transposed: r_j is column j of the inverse. */
    out_recip[0][0] = 1.0 / v[0][0];
    out_recip[1][1] = 1.0 / v[1][1];
    out_recip[2][2] = 1.0 / v[2][2];
    out_recip[0][1] = -v[1][0] / (v[0][0] * v[1][1]);
    out_recip[1][2] = -v[2][1] / (v[1][1] * v[2][2]);
    out_recip[0][2] = (v[1][0] * v[2][1] - v[1][1] * v[2][0]) / (v[0][0] * v[1][1] * v[2][2]);
}

double vkmd_box_min_width(const vkmd_box *box)
{
    if (!box->periodic)
        return INFINITY;
    /* width_i = V / |a_j x a_k| = 1 / |r_i|. */
    double r[3][3];
    vkmd_box_reciprocal(box, r);
    double w = INFINITY;
    for (int i = 0; i < 3; ++i)
        w = fmin(w, 1.0 / norm3(r[i]));
    return w;
}

void vkmd_box_min_image(const vkmd_box *box, double d[3])
{
    if (!box->periodic)
        return;
    if (!box->triclinic) {
        for (int k = 0; k < 3; ++k)
            d[k] -= box->len[k] * floor(d[k] / box->len[k] + 0.5);
        return;
    }
    const double(*v)[3] = box->vec;
    for (int k = 2; k >= 0; --k) {
        const double s = floor(d[k] / v[k][k] + 0.5);
        for (int e = 0; e < 3; ++e)
            d[e] -= s * v[k][e];
    }
    const double half = 0.5 * vkmd_box_min_width(box);
    double best = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (best <= half * half)
        return;
    double out[3] = {d[0], d[1], d[2]};
    for (int i = -1; i <= 1; ++i)
        for (int j = -1; j <= 1; ++j)
            for (int k = -1; k <= 1; ++k) {
                double t[3];
                for (int e = 0; e < 3; ++e)
                    t[e] = d[e] + i * v[0][e] + j * v[1][e] + k * v[2][e];
                const double r2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
                if (r2 < best) {
                    best = r2;
                    memcpy(out, t, sizeof out);
                }
            }
    memcpy(d, out, sizeof out);
}

void vkmd_box_wrap_shift(const vkmd_box *box, const double x[3], double out_shift[3])
{
    out_shift[0] = out_shift[1] = out_shift[2] = 0.0;
    if (!box->periodic)
        return;
    if (!box->triclinic) {
        for (int d = 0; d < 3; ++d)
            out_shift[d] = -box->len[d] * floor(x[d] / box->len[d]);
        return;
    }
    const double(*v)[3] = box->vec;
    double y[3] = {x[0], x[1], x[2]};
    for (int k = 2; k >= 0; --k) {
        const double s = floor(y[k] / v[k][k]);
        for (int e = 0; e < 3; ++e) {
            y[e] -= s * v[k][e];
            out_shift[e] -= s * v[k][e];
        }
    }
}
