/* Substrates, surface pair parameters, image lists and the interpolating
 * B-spline potential grid (see uff_surface.h). */
#include "system/uff_surface.h"
#include "system/element.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NACL_LATTICE_A  5.64 /* A, rock-salt cubic cell */
#define GRAPHENE_CC_A   1.42 /* A */
#define DEFAULT_CUTOFF  12.0 /* A */
#define DEFAULT_SPACING 0.1  /* A */
#define DEFAULT_Z_MIN   1.0  /* A above the top atom */

vkmd_result vkmd_uff_substrate_alloc(int32_t n, const char *name, vkmd_uff_substrate *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->atom_count = n;
    out->z = calloc((size_t)n, sizeof *out->z);
    out->pos = calloc(3 * (size_t)n, sizeof *out->pos);
    out->label = calloc((size_t)n, sizeof *out->label);
    if (!out->z || !out->pos || !out->label) {
        vkmd_uff_substrate_free(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "substrate of %d atoms", n);
    }
    return VKMD_OK;
}

void vkmd_uff_substrate_set(vkmd_uff_substrate *s, int32_t i, int32_t z, const char *label,
                            double x, double y, double zz)
{
    s->z[i] = z;
    snprintf(s->label[i], VKMD_UFF_LABEL_MAX, "%s", label);
    s->pos[3 * i + 0] = x;
    s->pos[3 * i + 1] = y;
    s->pos[3 * i + 2] = zz;
}

vkmd_result vkmd_uff_substrate_nacl(int32_t layers, vkmd_uff_substrate *out)
{
    if (layers == 0)
        layers = 2;
    if (layers < 1 || layers > 20)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "NaCl slab: %d layers is not 1 .. 20",
                         layers);
    vkmd_result res = vkmd_uff_substrate_alloc(4 * layers, "nacl", out);
    if (res != VKMD_OK)
        return res;
    const double a = NACL_LATTICE_A, h = 0.5 * NACL_LATTICE_A;
    out->a[0] = a;
    out->b[1] = a;
    /* Layer l at z = -l a/2; Na at (0,0) and (a/2,a/2) in even layers, Cl
     * there in odd ones (rock salt). */
    for (int32_t l = 0; l < layers; ++l) {
        const double z = -l * h;
        const int even = l % 2 == 0;
        const int32_t i = 4 * l;
        vkmd_uff_substrate_set(out, i + 0, even ? 11 : 17, even ? "Na" : "Cl", 0, 0, z);
        vkmd_uff_substrate_set(out, i + 1, even ? 11 : 17, even ? "Na" : "Cl", h, h, z);
        vkmd_uff_substrate_set(out, i + 2, even ? 17 : 11, even ? "Cl" : "Na", h, 0, z);
        vkmd_uff_substrate_set(out, i + 3, even ? 17 : 11, even ? "Cl" : "Na", 0, h, z);
    }
    return VKMD_OK;
}

vkmd_result vkmd_uff_substrate_graphene(vkmd_uff_substrate *out)
{
    vkmd_result res = vkmd_uff_substrate_alloc(4, "graphene", out);
    if (res != VKMD_OK)
        return res;
    const double d = GRAPHENE_CC_A, ax = sqrt(3.0) * d;
    out->a[0] = ax;
    out->b[1] = 3 * d;
    /* zigzag rows along x; every C has three neighbours at d */
    vkmd_uff_substrate_set(out, 0, 6, "C_R", 0, 0, 0);
    vkmd_uff_substrate_set(out, 1, 6, "C_R", 0, d, 0);
    vkmd_uff_substrate_set(out, 2, 6, "C_R", 0.5 * ax, 1.5 * d, 0);
    vkmd_uff_substrate_set(out, 3, 6, "C_R", 0.5 * ax, 2.5 * d, 0);
    return VKMD_OK;
}

void vkmd_uff_substrate_free(vkmd_uff_substrate *s)
{
    free(s->z);
    free(s->pos);
    free(s->label);
    memset(s, 0, sizeof *s);
}

/* ---- Surface -------------------------------------------------------------- */

static double pair_raw(int form, const double p[4], double r2, double *out_f_over_r)
{
    const double d = p[0], x = p[1], alpha = p[2];
    if (form == VKMD_UFF_SURFACE_FORM_MORSE) {
        const double r = sqrt(r2);
        const double e = exp(-alpha * (r - x));
        *out_f_over_r = 2 * alpha * d * e * (e - 1) / r;
        return d * (e * e - 2 * e);
    }
    const double s = x * x / r2, s3 = s * s * s, s6 = s3 * s3;
    *out_f_over_r = 12 * d * (s6 - s3) / r2;
    return d * (s6 - 2 * s3);
}

double vkmd_uff_surface_pair(int form, const double p[4], double r2, double cutoff2,
                             double *out_f_over_r)
{
    if (r2 >= cutoff2) {
        *out_f_over_r = 0;
        return 0;
    }
    return pair_raw(form, p, r2, out_f_over_r) - p[3];
}

static void cell_inverse(const double a[2], const double b[2], double inv[2][2])
{
    const double det = a[0] * b[1] - a[1] * b[0];
    inv[0][0] = b[1] / det;
    inv[0][1] = -b[0] / det;
    inv[1][0] = -a[1] / det;
    inv[1][1] = a[0] / det;
}

void vkmd_uff_surface_wrap(const vkmd_uff_surface *s, const double *xy, double out_u[2],
                           double out_xy[2])
{
    for (int k = 0; k < 2; ++k) {
        double u = s->inv[k][0] * xy[0] + s->inv[k][1] * xy[1];
        u -= floor(u);
        if (u >= 1.0)
            u = 0.0;
        out_u[k] = u;
    }
    out_xy[0] = out_u[0] * s->a[0] + out_u[1] * s->b[0];
    out_xy[1] = out_u[0] * s->a[1] + out_u[1] * s->b[1];
}

vkmd_result vkmd_uff_surface_build(const vkmd_uff_substrate *sub,
                                   const vkmd_uff_param_table *params,
                                   const char (*labels)[VKMD_UFF_LABEL_MAX], int32_t label_count,
                                   const vkmd_uff_surface_desc *desc, vkmd_uff_surface *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    const vkmd_uff_surface_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    if (desc->form != VKMD_UFF_SURFACE_FORM_LJ && desc->form != VKMD_UFF_SURFACE_FORM_MORSE)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "surface: unknown pair form %d", desc->form);
    if (desc->cutoff_a < 0 || !isfinite(desc->cutoff_a))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "surface: cutoff %g A", desc->cutoff_a);
    if (label_count < 1 || sub->atom_count < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "surface: no channels or no substrate atoms");
    out->form = desc->form;
    out->cutoff_a = desc->cutoff_a > 0 ? desc->cutoff_a : DEFAULT_CUTOFF;
    memcpy(out->a, sub->a, sizeof out->a);
    memcpy(out->b, sub->b, sizeof out->b);
    cell_inverse(out->a, out->b, out->inv);

    int32_t *kind_type = NULL, *atom_kind = NULL;
    out->channel_count = label_count;
    out->channel_label = calloc((size_t)label_count, sizeof *out->channel_label);
    kind_type = calloc((size_t)sub->atom_count, sizeof *kind_type);
    atom_kind = calloc((size_t)sub->atom_count, sizeof *atom_kind);
    if (!out->channel_label || !kind_type || !atom_kind)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface"));
    for (int32_t c = 0; c < label_count; ++c) {
        if (vkmd_uff_params_find(params, labels[c]) < 0)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                               "surface: channel type '%s' is not in the UFF table", labels[c]));
        for (int32_t d = 0; d < c; ++d)
            if (strcmp(labels[c], labels[d]) == 0)
                VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                   "surface: channel type '%s' given twice", labels[c]));
        snprintf(out->channel_label[c], VKMD_UFF_LABEL_MAX, "%s", labels[c]);
    }
    /* substrate kinds: distinct UFF types */
    for (int32_t i = 0; i < sub->atom_count; ++i) {
        const int32_t type = vkmd_uff_params_find(params, sub->label[i]);
        if (type < 0)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                               "surface: substrate atom %d type '%s' is not in the UFF table",
                               i + 1, sub->label[i]));
        int32_t k = 0;
        while (k < out->kind_count && kind_type[k] != type)
            ++k;
        if (k == out->kind_count)
            kind_type[out->kind_count++] = type;
        atom_kind[i] = k;
    }
    out->pair = calloc((size_t)label_count * out->kind_count, sizeof *out->pair);
    if (!out->pair)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface pairs"));
    const double rc2 = out->cutoff_a * out->cutoff_a;
    for (int32_t c = 0; c < label_count; ++c) {
        const vkmd_uff_atom_params *pc = &params->types[vkmd_uff_params_find(params, labels[c])];
        for (int32_t k = 0; k < out->kind_count; ++k) {
            const vkmd_uff_atom_params *pk = &params->types[kind_type[k]];
            double *p = out->pair[c * out->kind_count + k];
            p[0] = sqrt(pc->d1 * pk->d1);
            p[1] = sqrt(pc->x1 * pk->x1);
            p[2] = 6.0 / p[1];
            p[3] = 0;
            double f;
            p[3] = pair_raw(out->form, p, rc2, &f);
        }
    }
    /* images of every substrate atom that can be within the cutoff of a point
     * of the cell: within the cutoff of the cell's bounding box in x-y */
    const double area = fabs(out->a[0] * out->b[1] - out->a[1] * out->b[0]);
    const double la = hypot(out->a[0], out->a[1]), lb = hypot(out->b[0], out->b[1]);
    const int32_t na = (int32_t)ceil(out->cutoff_a / (area / lb)) + 2;
    const int32_t nb = (int32_t)ceil(out->cutoff_a / (area / la)) + 2;
    double lo[2], hi[2];
    for (int k = 0; k < 2; ++k) {
        const double corners[4] = {0, out->a[k], out->b[k], out->a[k] + out->b[k]};
        lo[k] = hi[k] = 0;
        for (int q = 0; q < 4; ++q) {
            lo[k] = fmin(lo[k], corners[q]);
            hi[k] = fmax(hi[k], corners[q]);
        }
    }
    const int64_t max_images = (int64_t)sub->atom_count * (2 * na + 1) * (2 * nb + 1);
    out->image = malloc((size_t)max_images * sizeof *out->image);
    if (!out->image)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface images"));
    for (int32_t i = 0; i < sub->atom_count; ++i) {
        double u[2], w[2];
        vkmd_uff_surface_wrap(out, &sub->pos[3 * i], u, w);
        for (int32_t m = -nb; m <= nb; ++m)
            for (int32_t n = -na; n <= na; ++n) {
                const double x = w[0] + n * out->a[0] + m * out->b[0];
                const double y = w[1] + n * out->a[1] + m * out->b[1];
                const double dx = x < lo[0] ? lo[0] - x : (x > hi[0] ? x - hi[0] : 0);
                const double dy = y < lo[1] ? lo[1] - y : (y > hi[1] ? y - hi[1] : 0);
                if (dx * dx + dy * dy > rc2)
                    continue;
                double *img = out->image[out->image_count++];
                img[0] = x;
                img[1] = y;
                img[2] = sub->pos[3 * i + 2];
                img[3] = atom_kind[i];
            }
    }
cleanup:
    free(kind_type);
    free(atom_kind);
    if (res != VKMD_OK)
        vkmd_uff_surface_free(out);
    return res;
}

int32_t vkmd_uff_surface_labels(const vkmd_uff_typing *types,
                                char (*out_labels)[VKMD_UFF_LABEL_MAX])
{
    int32_t n = 0;
    for (int32_t a = 0; a < types->atom_count; ++a) {
        int32_t k = 0;
        while (k < n && strcmp(out_labels[k], types->label[a]) != 0)
            ++k;
        if (k == n)
            snprintf(out_labels[n++], VKMD_UFF_LABEL_MAX, "%s", types->label[a]);
    }
    return n;
}

vkmd_result vkmd_uff_surface_atom_channels(const vkmd_uff_surface *s, const vkmd_uff_typing *types,
                                           int32_t *out_channel)
{
    for (int32_t a = 0; a < types->atom_count; ++a) {
        int32_t c = 0;
        while (c < s->channel_count && strcmp(s->channel_label[c], types->label[a]) != 0)
            ++c;
        if (c == s->channel_count)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "surface: atom %d (UFF type %s) has no channel in the surface/grid",
                             a + 1, types->label[a]);
        out_channel[a] = c;
    }
    return VKMD_OK;
}

void vkmd_uff_surface_free(vkmd_uff_surface *s)
{
    free(s->channel_label);
    free(s->pair);
    free(s->image);
    memset(s, 0, sizeof *s);
}

/* ---- Grid ------------------------------------------------------------------ */

vkmd_result vkmd_uff_surface_grid_alloc(const vkmd_uff_surface *s,
                                        const vkmd_uff_surface_grid_desc *desc,
                                        vkmd_uff_surface_grid *out)
{
    memset(out, 0, sizeof *out);
    const vkmd_uff_surface_grid_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    const double h = desc->spacing_a != 0 ? desc->spacing_a : DEFAULT_SPACING;
    const double z0 = desc->z_min != 0 ? desc->z_min : DEFAULT_Z_MIN;
    const double z1 = desc->z_max != 0 ? desc->z_max : s->cutoff_a;
    if (!(h > 0) || !(z1 > z0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface grid: spacing %g A, z range %g .. %g A", h, z0, z1);
    out->nx = (int32_t)ceil(hypot(s->a[0], s->a[1]) / h - 1e-9);
    out->ny = (int32_t)ceil(hypot(s->b[0], s->b[1]) / h - 1e-9);
    out->nz = (int32_t)ceil((z1 - z0) / h - 1e-9) + 1;
    if (out->nx < 4 || out->ny < 4 || out->nz < 6)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface grid: %d x %d x %d points, at least 4 x 4 x 6 needed", out->nx,
                         out->ny, out->nz);
    out->channel_count = s->channel_count;
    memcpy(out->a, s->a, sizeof out->a);
    memcpy(out->b, s->b, sizeof out->b);
    out->z0 = z0;
    out->dz = h;
    out->form = s->form;
    out->cutoff_a = s->cutoff_a;
    const size_t count = (size_t)vkmd_uff_surface_grid_points(out) * (size_t)s->channel_count;
    out->values = calloc(count, sizeof *out->values);
    out->channel_label = calloc((size_t)s->channel_count, sizeof *out->channel_label);
    if (!out->values || !out->channel_label) {
        vkmd_uff_surface_grid_free(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface grid of %zu values", count);
    }
    memcpy(out->channel_label, s->channel_label,
           (size_t)s->channel_count * sizeof *out->channel_label);
    return VKMD_OK;
}

/* In-place periodic cubic B-spline prefilter of n samples spaced `stride`
 * (see the header); tmp holds n doubles. */
static void prefilter_periodic(double *c, int32_t n, ptrdiff_t stride, double *tmp)
{
    const double z = sqrt(3.0) - 2.0, zn = pow(z, n);
    double sum = 0, zk = 1;
    for (int32_t k = 0; k < n; ++k) {
        sum += zk * 6.0 * c[((n - k) % n) * stride];
        zk *= z;
    }
    tmp[0] = sum / (1 - zn);
    for (int32_t k = 1; k < n; ++k)
        tmp[k] = 6.0 * c[k * stride] + z * tmp[k - 1];
    sum = 0;
    zk = 1;
    for (int32_t j = 0; j < n; ++j) {
        sum += zk * tmp[(n - 1 + j) % n];
        zk *= z;
    }
    double prev = -z * sum / (1 - zn);
    c[(n - 1) * stride] = prev;
    for (int32_t k = n - 2; k >= 0; --k) {
        prev = z * (prev - tmp[k]);
        c[k * stride] = prev;
    }
}

/* Not-a-knot interpolating spline along z for the n >= 5 planes at
 * c[stride .. n stride] (c[0] and c[(n + 1) stride] are the extra planes
 * k = -1 and k = n, written). tmp holds 3 n doubles.
 *
 * Interpolation: c[k-1] + 4 c[k] + c[k+1] = 6 v[k] for k = 0 .. n-1; the two
 * missing conditions make the third derivative continuous at planes 1 and
 * n-2 (c[-1] - 4 c[0] + 6 c[1] - 4 c[2] + c[3] = 0 and its mirror). Combined
 * with the rows of planes 0, 1 and 2 this gives c[1] = (8 v[1] - v[0] -
 * v[2]) / 6 directly (and c[n-2] likewise), which leaves a tridiagonal
 * system for c[2 .. n-3]; c[0], c[-1], c[n-1] and c[n] follow from the rows
 * of planes 1, 0, n-2 and n-1. Unlike natural ends (zero second derivative)
 * this keeps the O(h^4) accuracy up to the end planes, which matters at the
 * floor of the grid, where the repulsive wall is steep. */
static void prefilter_not_a_knot(double *c, int32_t n, ptrdiff_t stride, double *tmp)
{
#define P(k) c[((k) + 1) * stride]
    double *v = tmp, *cp = tmp + n, *d = tmp + 2 * n;
    for (int32_t k = 0; k < n; ++k)
        v[k] = P(k);
    const double c1 = (8 * v[1] - v[0] - v[2]) / 6;
    const double cm = (8 * v[n - 2] - v[n - 1] - v[n - 3]) / 6;
    const int32_t m = n - 4; /* unknowns c[2] .. c[n-3] */
    for (int32_t i = 0; i < m; ++i) {
        const int32_t k = i + 2;
        double r = 6 * v[k];
        if (k == 2)
            r -= c1;
        if (k == n - 3)
            r -= cm;
        const double denom = 4.0 - (i > 0 ? cp[i - 1] : 0.0);
        cp[i] = 1.0 / denom;
        d[i] = (r - (i > 0 ? d[i - 1] : 0.0)) / denom;
    }
    for (int32_t i = m - 1; i >= 0; --i)
        P(i + 2) = d[i] - (i + 1 < m ? cp[i] * P(i + 3) : 0.0);
    P(1) = c1;
    P(n - 2) = cm;
    P(0) = 6 * v[1] - 4 * c1 - P(2);
    P(n - 1) = 6 * v[n - 2] - 4 * cm - P(n - 3);
    P(-1) = 6 * v[0] - 4 * P(0) - c1;
    P(n) = 6 * v[n - 1] - 4 * P(n - 1) - cm;
#undef P
}

vkmd_result vkmd_uff_surface_grid_prefilter(vkmd_uff_surface_grid *g)
{
    const int32_t nx = g->nx, ny = g->ny, nz = g->nz;
    const size_t plane = (size_t)nx * ny, per_channel = plane * (size_t)(nz + 2);
    free(g->coef);
    g->coef = malloc(per_channel * (size_t)g->channel_count * sizeof *g->coef);
    const int32_t longest = nx > ny ? (nx > nz ? nx : nz) : (ny > nz ? ny : nz);
    double *tmp = malloc(3 * (size_t)longest * sizeof *tmp);
    if (!g->coef || !tmp) {
        free(tmp);
        free(g->coef);
        g->coef = NULL;
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface grid coefficients");
    }
    for (int32_t ch = 0; ch < g->channel_count; ++ch) {
        double *c = g->coef + per_channel * ch;
        const float *v = g->values + plane * (size_t)nz * ch;
        for (size_t i = 0; i < plane * (size_t)nz; ++i)
            c[plane + i] = v[i];
        for (int32_t k = 0; k < nz; ++k) {
            double *pl = c + plane * (size_t)(k + 1);
            for (int32_t j = 0; j < ny; ++j)
                prefilter_periodic(pl + (size_t)j * nx, nx, 1, tmp);
            for (int32_t i = 0; i < nx; ++i)
                prefilter_periodic(pl + i, ny, nx, tmp);
        }
        for (size_t i = 0; i < plane; ++i)
            prefilter_not_a_knot(c + i, nz, (ptrdiff_t)plane, tmp);
    }
    free(tmp);
    return VKMD_OK;
}

vkmd_result vkmd_uff_surface_grid_check(const vkmd_uff_surface *s, const vkmd_uff_surface_grid *g)
{
    for (int k = 0; k < 2; ++k)
        if (fabs(s->a[k] - g->a[k]) > 1e-6 || fabs(s->b[k] - g->b[k]) > 1e-6)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "surface grid: cell (%g %g, %g %g) is not the substrate's (%g %g, %g "
                             "%g)",
                             g->a[0], g->a[1], g->b[0], g->b[1], s->a[0], s->a[1], s->b[0],
                             s->b[1]);
    if (g->form >= 0 && g->form != s->form)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface grid: built with the %s form, the surface uses %s",
                         g->form == VKMD_UFF_SURFACE_FORM_MORSE ? "Morse" : "LJ",
                         s->form == VKMD_UFF_SURFACE_FORM_MORSE ? "Morse" : "LJ");
    if (g->cutoff_a > 0 && fabs(g->cutoff_a - s->cutoff_a) > 1e-9)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface grid: built with a %g A cutoff, the surface uses %g A",
                         g->cutoff_a, s->cutoff_a);
    if (g->channel_count < s->channel_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface grid: %d channels, the molecule needs %d", g->channel_count,
                         s->channel_count);
    for (int32_t c = 0; c < s->channel_count; ++c)
        if (strcmp(s->channel_label[c], g->channel_label[c]) != 0)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "surface grid: channel %d is type %s, the molecule needs %s there",
                             c + 1, g->channel_label[c], s->channel_label[c]);
    return VKMD_OK;
}

/* Cubic B-spline weights and their derivatives at fraction f, for the
 * points i0 - 1 .. i0 + 2. */
static void bspline_weights(double f, double w[4], double dw[4])
{
    const double g = 1 - f;
    w[0] = g * g * g / 6;
    w[1] = (3 * f * f * f - 6 * f * f + 4) / 6;
    w[2] = (-3 * f * f * f + 3 * f * f + 3 * f + 1) / 6;
    w[3] = f * f * f / 6;
    dw[0] = -g * g / 2;
    dw[1] = (3 * f * f - 4 * f) / 2;
    dw[2] = (-3 * f * f + 2 * f + 1) / 2;
    dw[3] = f * f / 2;
}

double vkmd_uff_surface_grid_eval(const vkmd_uff_surface_grid *g, int32_t ch, const double p[3],
                                  double out_grad[3], int *out_below)
{
    double grad_dummy[3];
    int below_dummy;
    double *grad = out_grad ? out_grad : grad_dummy;
    int *below = out_below ? out_below : &below_dummy;
    grad[0] = grad[1] = grad[2] = 0;
    *below = 0;
    double tz = (p[2] - g->z0) / g->dz;
    if (tz >= g->nz - 1)
        return 0;
    if (tz < 0) {
        tz = 0;
        *below = 1;
    }
    double inv[2][2];
    cell_inverse(g->a, g->b, inv);
    double t[2];
    const int32_t n[2] = {g->nx, g->ny};
    int32_t i0[2];
    for (int k = 0; k < 2; ++k) {
        double u = inv[k][0] * p[0] + inv[k][1] * p[1];
        u -= floor(u);
        t[k] = u * n[k];
        i0[k] = (int32_t)floor(t[k]);
        t[k] -= i0[k];
        if (i0[k] >= n[k])
            i0[k] -= n[k];
    }
    int32_t iz = (int32_t)floor(tz);
    if (iz > g->nz - 2)
        iz = g->nz - 2;
    const double fz = tz - iz;
    double wx[4], dwx[4], wy[4], dwy[4], wz[4], dwz[4];
    bspline_weights(t[0], wx, dwx);
    bspline_weights(t[1], wy, dwy);
    bspline_weights(fz, wz, dwz);
    const size_t plane = (size_t)g->nx * g->ny;
    const double *c = g->coef + plane * (size_t)(g->nz + 2) * ch;
    double e = 0, gx = 0, gy = 0, gz = 0;
    for (int r = 0; r < 4; ++r) {
        const double *pl = c + plane * (size_t)(iz + r); /* plane iz - 1 + r, stored at +1 */
        for (int q = 0; q < 4; ++q) {
            const int32_t j = (i0[1] - 1 + q + g->ny) % g->ny;
            const double *row = pl + (size_t)j * g->nx;
            double sx = 0, sdx = 0;
            for (int o = 0; o < 4; ++o) {
                const double v = row[(i0[0] - 1 + o + g->nx) % g->nx];
                sx += wx[o] * v;
                sdx += dwx[o] * v;
            }
            e += wz[r] * wy[q] * sx;
            gx += wz[r] * wy[q] * sdx;
            gy += wz[r] * dwy[q] * sx;
            gz += dwz[r] * wy[q] * sx;
        }
    }
    const double du0 = gx * g->nx, du1 = gy * g->ny;
    grad[0] = du0 * inv[0][0] + du1 * inv[1][0];
    grad[1] = du0 * inv[0][1] + du1 * inv[1][1];
    grad[2] = gz / g->dz;
    return e;
}

void vkmd_uff_surface_grid_free(vkmd_uff_surface_grid *g)
{
    free(g->channel_label);
    free(g->values);
    free(g->coef);
    memset(g, 0, sizeof *g);
}
