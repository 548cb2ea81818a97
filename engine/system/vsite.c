/* Virtual-site frames from AMBER water residues and their checks (see
 * vsite.h).
 *
 * Frames follow OpenMM 7.7's AMBER reader (amber_file_parser.py): with d_oh,
 * d_hh and d_oe the O-H, H-H and O-EP bond lengths and
 * h = sqrt(d_oh^2 - (d_hh/2)^2) the height of the H-O-H triangle,
 *   one extra point (TIP4P-Ew, OPC): on the bisector at d_oe from O,
 *     AVERAGE3 (1 - d_oe/h, d_oe/(2h), d_oe/(2h));
 *   two (TIP5P): tetrahedral lone pairs at 54.735 degrees out of plane, on
 *     the side away from the hydrogens, OUT_OF_PLANE (a/2, a/2, -+c) with
 *     a = -cos(54.735) d_oe / h and c = sin(54.735) d_oe / (d_oh^2
 *     sin(theta_HOH)); the first EP of the residue takes -c. These are the
 *     weights of OpenMM's own tip5p.xml (-0.3449, -0.3449, -+6.444/nm).
 *     OpenMM 7.7's AMBER reader uses +a, which puts the lone pairs on the
 *     hydrogens' side: vkmd does not follow it there.
 * Without an H-H bond the H-H distance comes from the H-O-H angle (OpenMM
 * needs the bond; the geometry is the same). */
#include "system/vsite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_vsite_water_name(const char *r)
{
    static const char *const names[] = {"WAT", "HOH", "TP4", "TP5", "T4E", "OPC", "SOL", "TIP4"};
    for (size_t k = 0; k < sizeof names / sizeof *names; ++k)
        if (!strcmp(r, names[k]))
            return 1;
    return 0;
}

/* r0 of a bond a-b (either order) among the bonds touching a, or -1. */
static double bond_r0(const vkmd_system *sys, const int32_t *first, const int32_t *list, int32_t a,
                      int32_t b)
{
    for (int32_t k = first[a]; k < first[a + 1]; ++k) {
        const vkmd_bond *bd = &sys->bonds[list[k]];
        if ((bd->i == a && bd->j == b) || (bd->i == b && bd->j == a))
            return bd->r0;
    }
    return -1;
}

/* theta0 of the angle h1-o-h2 among the angles with apex o, or -1. */
static double angle_theta0(const vkmd_system *sys, const int32_t *first, const int32_t *list,
                           int32_t h1, int32_t o, int32_t h2)
{
    for (int32_t i = first[o]; i < first[o + 1]; ++i) {
        const vkmd_angle *an = &sys->angles[list[i]];
        if (an->j == o && ((an->i == h1 && an->k == h2) || (an->i == h2 && an->k == h1)))
            return an->theta0;
    }
    return -1;
}

static void describe(const vkmd_system *sys, int32_t a, char *buf, size_t size)
{
    const vkmd_atom *at = &sys->atoms[a];
    snprintf(buf, size, "atom %d (%s, residue %s %d)", a + 1, at->name, at->res_name,
             at->res_index + 1);
}

vkmd_result vkmd_vsite_from_amber_waters(vkmd_system *sys, const char *source)
{
    const int32_t n = sys->atom_count;
    int32_t nsite = 0;
    for (int32_t a = 0; a < n; ++a)
        nsite += sys->atoms[a].mass == 0;
    free(sys->vsites);
    sys->vsites = NULL;
    sys->vsite_count = 0;
    if (nsite == 0)
        return VKMD_OK;

    vkmd_result res = VKMD_OK;
    char who[128];
    int32_t *first = calloc((size_t)n + 1, sizeof *first);
    int32_t *list = malloc(((size_t)sys->bond_count * 2 + 1) * sizeof *list);
    int32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    int32_t *afirst = calloc((size_t)n + 1, sizeof *afirst);
    int32_t *alist = malloc(((size_t)sys->angle_count + 1) * sizeof *alist);
    sys->vsites = calloc((size_t)nsite, sizeof *sys->vsites);
    if (!first || !list || !fill || !afirst || !alist || !sys->vsites) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory for %d extra points", source,
                        nsite);
        goto cleanup;
    }
    for (int32_t b = 0; b < sys->bond_count; ++b) {
        ++first[sys->bonds[b].i + 1];
        ++first[sys->bonds[b].j + 1];
    }
    for (int32_t a = 0; a < n; ++a)
        first[a + 1] += first[a];
    for (int32_t b = 0; b < sys->bond_count; ++b) {
        const int32_t i = sys->bonds[b].i, j = sys->bonds[b].j;
        list[first[i] + fill[i]++] = b;
        list[first[j] + fill[j]++] = b;
    }
    /* angles by apex */
    for (int32_t k = 0; k < sys->angle_count; ++k)
        ++afirst[sys->angles[k].j + 1];
    for (int32_t a = 0; a < n; ++a)
        afirst[a + 1] += afirst[a];
    memset(fill, 0, sizeof *fill * ((size_t)n + 1));
    for (int32_t k = 0; k < sys->angle_count; ++k) {
        const int32_t j = sys->angles[k].j;
        alist[afirst[j] + fill[j]++] = k;
    }

    int32_t nv = 0;
    for (int32_t a = 0; a < n;) {
        /* one residue: atoms a .. e-1 */
        int32_t e = a;
        while (e < n && sys->atoms[e].res_index == sys->atoms[a].res_index)
            ++e;
        int32_t o = -1, h[2] = {-1, -1}, ep[2] = {-1, -1}, no = 0, nh = 0, nep = 0, other = -1;
        for (int32_t k = a; k < e; ++k) {
            const vkmd_atom *at = &sys->atoms[k];
            if (at->mass == 0) {
                if (nep < 2)
                    ep[nep] = k;
                ++nep;
            } else if (at->element == 8 || (at->element == 0 && at->name[0] == 'O')) {
                o = k, ++no;
            } else if (at->element == 1 || (at->element == 0 && at->name[0] == 'H')) {
                if (nh < 2)
                    h[nh] = k;
                ++nh;
            } else {
                other = k;
            }
        }
        const int32_t next = e;
        if (nep == 0) {
            a = next;
            continue;
        }
        describe(sys, ep[0], who, sizeof who);
        if (!is_vsite_water_name(sys->atoms[a].res_name) || no != 1 || nh != 2 || other >= 0) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s: %s is a massless extra point outside a water residue (one O, two "
                            "H, one or two extra points; residue names WAT, HOH, TP4, TP5, T4E, "
                            "OPC): a prmtop stores no frames for other extra points, and vkmd, "
                            "like OpenMM's AMBER reader, derives them only for water",
                            source, who);
            goto cleanup;
        }
        if (nep > 2) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s: %s: water residue with %d extra points (1: TIP4P-Ew/OPC, 2: "
                            "TIP5P are supported)",
                            source, who, nep);
            goto cleanup;
        }
        const double d_oh = bond_r0(sys, first, list, o, h[0]);
        const double d_oh2 = bond_r0(sys, first, list, o, h[1]);
        double d_hh = bond_r0(sys, first, list, h[0], h[1]);
        if (d_hh < 0 && d_oh > 0) {
            const double theta = angle_theta0(sys, afirst, alist, h[0], o, h[1]);
            if (theta > 0)
                d_hh = 2 * d_oh * sin(0.5 * theta);
        }
        double d_oe[2];
        for (int k = 0; k < nep; ++k)
            d_oe[k] = bond_r0(sys, first, list, o, ep[k]);
        if (!(d_oh > 0) || !(d_oh2 > 0) || fabs(d_oh - d_oh2) > 1e-9 || !(d_hh > 0) ||
            !(d_oe[0] > 0) || (nep == 2 && !(d_oe[1] > 0)) ||
            (nep == 2 && fabs(d_oe[0] - d_oe[1]) > 1e-9) || !(d_hh < 2 * d_oh)) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s: %s: its water needs two equal O-H bonds, an H-H bond (or H-O-H "
                            "angle) and an O-EP bond with r0 > 0 to place the extra point (found "
                            "O-H %g / %g, H-H %g, O-EP %g A; -1: missing)",
                            source, who, d_oh, d_oh2, d_hh, d_oe[0]);
            goto cleanup;
        }
        const double height = sqrt(d_oh * d_oh - 0.25 * d_hh * d_hh);
        if (nep == 1) {
            const double wh = d_oe[0] / height;
            sys->vsites[nv++] = (vkmd_vsite){.kind = VKMD_VSITE_AVERAGE3,
                                             .site = ep[0],
                                             .parents = {o, h[0], h[1]},
                                             .w = {1 - wh, 0.5 * wh, 0.5 * wh}};
        } else {
            const double oop = 54.735 * M_PI / 180.0;
            const double wh = -cos(oop) * d_oe[0] / height; /* away from the H atoms */
            const double theta = 2 * asin(0.5 * d_hh / d_oh);
            const double wc = sin(oop) * d_oe[0] / (d_oh * d_oh * sin(theta));
            for (int k = 0; k < 2; ++k)
                sys->vsites[nv++] = (vkmd_vsite){.kind = VKMD_VSITE_OUT_OF_PLANE,
                                                 .site = ep[k],
                                                 .parents = {o, h[0], h[1]},
                                                 .w = {0.5 * wh, 0.5 * wh, k == 0 ? -wc : wc}};
        }
        a = next;
    }
    sys->vsite_count = nv;
    res = vkmd_vsite_check(sys, source);

cleanup:
    free(first);
    free(list);
    free(fill);
    free(afirst);
    free(alist);
    if (res != VKMD_OK) {
        free(sys->vsites);
        sys->vsites = NULL;
        sys->vsite_count = 0;
    }
    return res;
}

vkmd_result vkmd_vsite_check(const vkmd_system *sys, const char *source)
{
    const int32_t n = sys->atom_count;
    if (sys->vsite_count == 0)
        return VKMD_OK;
    if (sys->vsite_count < 0 || !sys->vsites)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %d virtual sites but no table", source,
                         sys->vsite_count);
    uint8_t *role = calloc((size_t)n, 1); /* 1: site, 2: parent */
    if (!role)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: virtual sites", source);
    vkmd_result res = VKMD_OK;
    for (int32_t v = 0; v < sys->vsite_count && res == VKMD_OK; ++v) {
        const vkmd_vsite *s = &sys->vsites[v];
        const int32_t *p = s->parents;
        int ok = s->site >= 0 && s->site < n &&
                 (s->kind == VKMD_VSITE_AVERAGE3 || s->kind == VKMD_VSITE_OUT_OF_PLANE);
        for (int k = 0; k < 3 && ok; ++k)
            ok = p[k] >= 0 && p[k] < n && p[k] != s->site && isfinite(s->w[k]);
        ok = ok && p[0] != p[1] && p[0] != p[2] && p[1] != p[2];
        if (!ok) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: virtual site %d (atom %d, kind %d, parents %d %d %d) is "
                            "malformed",
                            source, v + 1, s->site + 1, s->kind, p[0] + 1, p[1] + 1, p[2] + 1);
            break;
        }
        if (role[s->site] || sys->atoms[s->site].mass != 0) {
            res =
                vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                          "%s: virtual site atom %d (%s) is listed twice, is a parent or has "
                          "mass %g (must be 0)",
                          source, s->site + 1, sys->atoms[s->site].name, sys->atoms[s->site].mass);
            break;
        }
        role[s->site] = 1;
    }
    for (int32_t v = 0; v < sys->vsite_count && res == VKMD_OK; ++v)
        for (int k = 0; k < 3; ++k) {
            const int32_t q = sys->vsites[v].parents[k];
            if (role[q] == 1 || !(sys->atoms[q].mass > 0)) {
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "%s: virtual site atom %d has parent atom %d (%s) that is "
                                "itself massless or a site (chains are not supported)",
                                source, sys->vsites[v].site + 1, q + 1, sys->atoms[q].name);
                break;
            }
        }
    free(role);
    return res;
}
