/* Reading and writing the host side of molecules on surfaces
 * (system/uff_surface.h): substrates from extended XYZ files or by name,
 * and the potential grid as XSF. */
#include "io/uff_surface_io.h"

#include "io/text.h"
#include "io/xsf.h"
#include "system/element.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int32_t element_from_symbol(const char *sym)
{
    for (int32_t z = 1; z < 119; ++z) {
        const char *s = vkmd_element_symbol(z);
        if (s[0] && strcasecmp(s, sym) == 0)
            return z;
    }
    return 0;
}

/* UFF label for a substrate element (see the header). */
static int substrate_label(const vkmd_uff_param_table *params, int32_t z, char *out)
{
    const char *sym = vkmd_element_symbol(z);
    if (z == 6) {
        snprintf(out, VKMD_UFF_LABEL_MAX, "C_R");
        return vkmd_uff_params_find(params, out) >= 0;
    }
    const size_t n = strlen(sym);
    for (int32_t i = 0; i < params->count; ++i) {
        const char *l = params->types[i].label;
        if (strncmp(l, sym, n) == 0 && (l[n] == '\0' || l[n] == '_')) {
            snprintf(out, VKMD_UFF_LABEL_MAX, "%s", l);
            return 1;
        }
    }
    return 0;
}

static void shift_top_to_zero(vkmd_uff_substrate *s)
{
    double top = -INFINITY;
    for (int32_t i = 0; i < s->atom_count; ++i)
        top = fmax(top, s->pos[3 * i + 2]);
    for (int32_t i = 0; i < s->atom_count; ++i)
        s->pos[3 * i + 2] -= top;
}

vkmd_result vkmd_uff_substrate_read_xyz(const char *path, const vkmd_uff_param_table *params,
                                        vkmd_uff_substrate *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    vkmd_text t = {0};
    VKMD_TRY(vkmd_text_read(path, &t));
    int64_t n = 0;
    if (t.line_count < 2 || !vkmd_text_parse_int(t.lines[0], t.lens[0], &n) || n < 1 ||
        n > 10000000)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s:1: expected an atom count", path));
    const char *lat = strstr(t.lines[1], "Lattice=\"");
    if (!lat)
        lat = strstr(t.lines[1], "lattice=\"");
    if (!lat)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE,
                           "%s:2: expected Lattice=\"ax ay az bx by bz cx cy cz\" (extended XYZ; a "
                           "substrate needs its periodic cell)",
                           path));
    double L[9];
    const char *p = lat + 9;
    for (int i = 0; i < 9; ++i) {
        char *end = NULL;
        L[i] = strtod(p, &end);
        if (end == p)
            VKMD_TRY(
                vkmd_fail(VKMD_ERROR_PARSE, "%s:2: expected 9 numbers in Lattice=\"...\"", path));
        p = end;
    }
    if (fabs(L[2]) > 1e-6 || fabs(L[5]) > 1e-6)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                           "%s:2: lattice vectors a and b must lie in the x-y plane (az = %g, bz = "
                           "%g): the substrate is periodic in x and y only",
                           path, L[2], L[5]));
    if (fabs(L[0] * L[4] - L[1] * L[3]) < 1e-6)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                           "%s:2: lattice vectors a and b are parallel", path));
    if (t.line_count < 2 + n)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s: %lld atoms announced, %d lines follow", path,
                           (long long)n, t.line_count - 2));
    char name[sizeof out->name];
    snprintf(name, sizeof name, "%s", path);
    VKMD_TRY(vkmd_uff_substrate_alloc((int32_t)n, name, out));
    out->a[0] = L[0];
    out->a[1] = L[1];
    out->b[0] = L[3];
    out->b[1] = L[4];
    for (int32_t i = 0; i < (int32_t)n; ++i) {
        const int32_t ln = 2 + i;
        char sym[16];
        double xyz[3];
        if (sscanf(t.lines[ln], "%15s %lf %lf %lf", sym, &xyz[0], &xyz[1], &xyz[2]) != 4)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected \"Symbol x y z\"", path, ln + 1));
        int32_t z = element_from_symbol(sym);
        if (z == 0 && isdigit((unsigned char)sym[0]))
            z = atoi(sym);
        if (z <= 0)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: unknown element '%s'", path, ln + 1, sym));
        char label[VKMD_UFF_LABEL_MAX];
        if (!substrate_label(params, z, label))
            VKMD_TRY(vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s:%d: no UFF type for element %s", path,
                               ln + 1, sym));
        vkmd_uff_substrate_set(out, i, z, label, xyz[0], xyz[1], xyz[2]);
    }
    shift_top_to_zero(out);
    vkmd_text_free(&t);
    return VKMD_OK;
cleanup:
    vkmd_text_free(&t);
    vkmd_uff_substrate_free(out);
    return res;
}

vkmd_result vkmd_uff_substrate_load(const char *spec, const vkmd_uff_param_table *params,
                                    vkmd_uff_substrate *out)
{
    if (strcmp(spec, "nacl") == 0)
        return vkmd_uff_substrate_nacl(0, out);
    if (strcmp(spec, "graphene") == 0)
        return vkmd_uff_substrate_graphene(out);
    return vkmd_uff_substrate_read_xyz(spec, params, out);
}

vkmd_result vkmd_uff_surface_grid_save(const char *path, const vkmd_uff_surface_grid *g)
{
    vkmd_result res = VKMD_OK;
    vkmd_xsf x = {0};
    snprintf(x.comment, sizeof x.comment,
             "vkmd UFF surface potential grid form=%s cutoff=%.17g; kcal/mol, one grid per "
             "molecule atom type, z from the substrate's top atom",
             g->form == VKMD_UFF_SURFACE_FORM_MORSE ? "morse" : "lj", g->cutoff_a);
    const double lz = (g->nz - 1) * g->dz;
    const double pv[3][3] = {{g->a[0], g->a[1], 0}, {g->b[0], g->b[1], 0}, {0, 0, lz}};
    memcpy(x.primvec, pv, sizeof pv);
    x.grid_count = g->channel_count;
    x.grids = calloc((size_t)g->channel_count, sizeof *x.grids);
    if (!x.grids)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "XSF grids"));
    const int32_t mx = g->nx + 1, my = g->ny + 1;
    for (int32_t ch = 0; ch < g->channel_count; ++ch) {
        vkmd_xsf_grid *xg = &x.grids[ch];
        snprintf(xg->name, sizeof xg->name, "%s", g->channel_label[ch]);
        xg->n[0] = mx;
        xg->n[1] = my;
        xg->n[2] = g->nz;
        xg->origin[2] = g->z0;
        memcpy(xg->span, pv, sizeof pv);
        xg->values = malloc((size_t)mx * my * g->nz * sizeof *xg->values);
        if (!xg->values)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "XSF grid"));
        const float *v = g->values + (size_t)vkmd_uff_surface_grid_points(g) * ch;
        for (int32_t k = 0; k < g->nz; ++k)
            for (int32_t j = 0; j < my; ++j)
                for (int32_t i = 0; i < mx; ++i)
                    xg->values[((size_t)k * my + j) * mx + i] =
                        v[((size_t)k * g->ny + j % g->ny) * g->nx + i % g->nx];
    }
    VKMD_TRY(vkmd_xsf_write(path, &x));
cleanup:
    vkmd_xsf_free(&x);
    return res;
}

vkmd_result vkmd_uff_surface_grid_load(const char *path, vkmd_uff_surface_grid *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    vkmd_xsf x = {0};
    VKMD_TRY(vkmd_xsf_read(path, &x));
    const vkmd_xsf_grid *g0 = &x.grids[0];
    if (g0->n[0] < 5 || g0->n[1] < 5 || g0->n[2] < 6)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s: grid %s of %d x %d x %d points is too small",
                           path, g0->name, g0->n[0], g0->n[1], g0->n[2]));
    if (g0->span[0][2] != 0 || g0->span[1][2] != 0 || g0->span[2][0] != 0 || g0->span[2][1] != 0 ||
        !(g0->span[2][2] > 0) || g0->origin[0] != 0 || g0->origin[1] != 0)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE,
                           "%s: grid %s is not a surface grid (x-y spans in the plane, z span "
                           "along z, origin on the z axis)",
                           path, g0->name));
    for (int32_t c = 1; c < x.grid_count; ++c)
        if (memcmp(x.grids[c].n, g0->n, sizeof g0->n) != 0 ||
            memcmp(x.grids[c].span, g0->span, sizeof g0->span) != 0 ||
            memcmp(x.grids[c].origin, g0->origin, sizeof g0->origin) != 0)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s: grids %s and %s have different shapes", path,
                               g0->name, x.grids[c].name));
    out->nx = g0->n[0] - 1;
    out->ny = g0->n[1] - 1;
    out->nz = g0->n[2];
    out->channel_count = x.grid_count;
    out->a[0] = g0->span[0][0];
    out->a[1] = g0->span[0][1];
    out->b[0] = g0->span[1][0];
    out->b[1] = g0->span[1][1];
    out->z0 = g0->origin[2];
    out->dz = g0->span[2][2] / (out->nz - 1);
    out->form = -1;
    out->cutoff_a = 0;
    const char *fs = strstr(x.comment, "form="), *cs = strstr(x.comment, "cutoff=");
    if (fs)
        out->form = strncmp(fs + 5, "morse", 5) == 0 ? VKMD_UFF_SURFACE_FORM_MORSE
                    : strncmp(fs + 5, "lj", 2) == 0  ? VKMD_UFF_SURFACE_FORM_LJ
                                                     : -1;
    if (cs)
        out->cutoff_a = strtod(cs + 7, NULL);
    const size_t points = (size_t)vkmd_uff_surface_grid_points(out);
    out->values = malloc(points * (size_t)x.grid_count * sizeof *out->values);
    out->channel_label = calloc((size_t)x.grid_count, sizeof *out->channel_label);
    if (!out->values || !out->channel_label)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface grid"));
    const int32_t mx = g0->n[0], my = g0->n[1];
    for (int32_t c = 0; c < x.grid_count; ++c) {
        const vkmd_xsf_grid *xg = &x.grids[c];
        if (strlen(xg->name) >= VKMD_UFF_LABEL_MAX)
            VKMD_TRY(
                vkmd_fail(VKMD_ERROR_PARSE, "%s: grid name %s is not a UFF type", path, xg->name));
        snprintf(out->channel_label[c], VKMD_UFF_LABEL_MAX, "%s", xg->name);
        float *v = out->values + points * c;
        for (int32_t k = 0; k < out->nz; ++k)
            for (int32_t j = 0; j < my; ++j)
                for (int32_t i = 0; i < mx; ++i) {
                    const float f = xg->values[((size_t)k * my + j) * mx + i];
                    float *dst = &v[((size_t)k * out->ny + j % out->ny) * out->nx + i % out->nx];
                    if (i < out->nx && j < out->ny)
                        *dst = f;
                    else if (memcmp(dst, &f, sizeof f) != 0)
                        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE,
                                           "%s: grid %s: periodic end point (%d, %d, %d) differs "
                                           "from the first",
                                           path, xg->name, i, j, k));
                }
    }
    VKMD_TRY(vkmd_uff_surface_grid_prefilter(out));
    vkmd_xsf_free(&x);
    return VKMD_OK;
cleanup:
    vkmd_xsf_free(&x);
    vkmd_uff_surface_grid_free(out);
    return res;
}
