/* The constraint set of a system (see constraints.h): SETTLE waters and
 * H-bond clusters.
 *
 * Surprises:
 * - A bond between two hydrogens is never a cluster constraint: with
 *   rigid_water = 0 and hbonds = 1 a TIP3P water's H-H bond would otherwise
 *   fix the angle that "flexible water" leaves free (and every water H would
 *   have two constrained partners).
 * - SETTLE as solved here (Miyamoto & Kollman) needs the two hydrogens of a
 *   water to have the same mass; a water that does not is reported. */
#include "system/constraints.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATER_GEOMETRY_TOL_A 1e-6

static void describe(const vkmd_system *sys, int32_t a, char *buf, size_t size)
{
    const vkmd_atom *at = &sys->atoms[a];
    snprintf(buf, size, "atom %d (%s, residue %s %d)", a + 1, at->name, at->res_name,
             at->res_index + 1);
}

/* Bonds by atom and angles by apex, so the per-water look-ups below stay
 * O(1) for boxes of millions of waters. */
typedef struct topo_index {
    int32_t *bond_first;  /* [atom_count + 1] */
    int32_t *bond;        /* [2 * bond_count] bond ids adjacent to each atom */
    int32_t *angle_first; /* [atom_count + 1] */
    int32_t *angle;       /* [angle_count] angle ids by apex */
} topo_index;

static void topo_index_free(topo_index *ix)
{
    free(ix->bond_first);
    free(ix->bond);
    free(ix->angle_first);
    free(ix->angle);
    memset(ix, 0, sizeof *ix);
}

/* Counting sort of `count` items onto atoms: item n is listed under each of
 * atoms[n * stride + e], e < ends. 0 on allocation failure. */
static int bucket(int32_t atom_count, int32_t count, int ends, const int32_t *atoms, int stride,
                  int32_t **out_first, int32_t **out_items)
{
    int32_t *first = calloc((size_t)atom_count + 1, sizeof *first);
    int32_t *items = malloc(((size_t)ends * count + 1) * sizeof *items);
    int32_t *fill = calloc((size_t)atom_count + 1, sizeof *fill);
    if (!first || !items || !fill) {
        free(first);
        free(items);
        free(fill);
        return 0;
    }
    for (int32_t n = 0; n < count; ++n)
        for (int e = 0; e < ends; ++e)
            ++first[atoms[(size_t)n * stride + e] + 1];
    for (int32_t a = 0; a < atom_count; ++a)
        first[a + 1] += first[a];
    for (int32_t n = 0; n < count; ++n)
        for (int e = 0; e < ends; ++e) {
            const int32_t a = atoms[(size_t)n * stride + e];
            items[first[a] + fill[a]++] = n;
        }
    free(fill);
    *out_first = first;
    *out_items = items;
    return 1;
}

static vkmd_result topo_index_build(const vkmd_system *sys, topo_index *ix)
{
    int32_t *bond_atoms = malloc(((size_t)2 * sys->bond_count + 1) * sizeof *bond_atoms);
    int32_t *apex = malloc(((size_t)sys->angle_count + 1) * sizeof *apex);
    int ok = bond_atoms && apex;
    if (ok) {
        for (int32_t n = 0; n < sys->bond_count; ++n) {
            bond_atoms[2 * n] = sys->bonds[n].i;
            bond_atoms[2 * n + 1] = sys->bonds[n].j;
        }
        for (int32_t n = 0; n < sys->angle_count; ++n)
            apex[n] = sys->angles[n].j;
        ok = bucket(sys->atom_count, sys->bond_count, 2, bond_atoms, 2, &ix->bond_first,
                    &ix->bond) &&
             bucket(sys->atom_count, sys->angle_count, 1, apex, 1, &ix->angle_first, &ix->angle);
    }
    free(bond_atoms);
    free(apex);
    if (!ok) {
        topo_index_free(ix);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: index of %d bonds, %d angles",
                         sys->bond_count, sys->angle_count);
    }
    return VKMD_OK;
}

/* r0 of the bond between a and b, or -1 if there is none. */
static double bond_r0(const vkmd_system *sys, const topo_index *ix, int32_t a, int32_t b)
{
    for (int32_t k = ix->bond_first[a]; k < ix->bond_first[a + 1]; ++k) {
        const vkmd_bond *bd = &sys->bonds[ix->bond[k]];
        if ((bd->i == a && bd->j == b) || (bd->i == b && bd->j == a))
            return bd->r0;
    }
    return -1;
}

/* theta0 of the angle a-apex-b, or -1 if there is none. */
static double angle_theta0(const vkmd_system *sys, const topo_index *ix, int32_t a, int32_t apex,
                           int32_t b)
{
    for (int32_t k = ix->angle_first[apex]; k < ix->angle_first[apex + 1]; ++k) {
        const vkmd_angle *an = &sys->angles[ix->angle[k]];
        if ((an->i == a && an->k == b) || (an->i == b && an->k == a))
            return an->theta0;
    }
    return -1;
}

static vkmd_result build_waters(const vkmd_system *sys, const topo_index *ix,
                                vkmd_constraint_set *set, uint8_t *in_water)
{
    char who[96];
    if (sys->water_count == 0)
        return VKMD_OK;
    set->waters = malloc((size_t)sys->water_count * sizeof *set->waters);
    if (!set->waters)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: %d waters", sys->water_count);
    for (int32_t w = 0; w < sys->water_count; ++w) {
        const vkmd_water wt = sys->waters[w];
        const int32_t at[3] = {wt.o, wt.h1, wt.h2};
        for (int k = 0; k < 3; ++k) {
            if (!(sys->atoms[at[k]].mass > 0)) {
                describe(sys, at[k], who, sizeof who);
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "constraints: water %s has mass %g amu (must be > 0)", who,
                                 sys->atoms[at[k]].mass);
            }
        }
        const double m1 = sys->atoms[wt.h1].mass, m2 = sys->atoms[wt.h2].mass;
        if (fabs(m1 - m2) > 1e-12 * m1) {
            describe(sys, wt.h1, who, sizeof who);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water hydrogens of different mass at %s (%g and %g "
                             "amu); SETTLE needs equal hydrogen masses",
                             who, m1, m2);
        }
        const double r1 = bond_r0(sys, ix, wt.o, wt.h1);
        const double r2 = bond_r0(sys, ix, wt.o, wt.h2);
        if (r1 < 0 || r2 < 0) {
            describe(sys, r1 < 0 ? wt.h1 : wt.h2, who, sizeof who);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water hydrogen %s has no O-H bond in the topology", who);
        }
        if (!(r1 > 0) || !(r2 > 0)) {
            describe(sys, wt.o, who, sizeof who);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water %s has an O-H bond with r0 <= 0", who);
        }
        double d_hh = bond_r0(sys, ix, wt.h1, wt.h2);
        if (d_hh < 0) {
            const double theta0 = angle_theta0(sys, ix, wt.h1, wt.o, wt.h2);
            if (theta0 < 0) {
                describe(sys, wt.o, who, sizeof who);
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "constraints: water %s has neither an H-H bond nor an H-O-H "
                                 "angle to give its H-H distance",
                                 who);
            }
            d_hh = 2 * r1 * sin(0.5 * theta0);
        }
        if (!(d_hh > 0)) {
            describe(sys, wt.o, who, sizeof who);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water %s has an H-H distance <= 0", who);
        }
        if (w == 0) {
            set->water_d_oh = r1;
            set->water_d_hh = d_hh;
        }
        if (fabs(r1 - set->water_d_oh) > WATER_GEOMETRY_TOL_A ||
            fabs(r2 - set->water_d_oh) > WATER_GEOMETRY_TOL_A ||
            fabs(d_hh - set->water_d_hh) > WATER_GEOMETRY_TOL_A) {
            describe(sys, wt.o, who, sizeof who);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water %s has O-H %.8g / %.8g A and H-H %.8g A, the "
                             "first water %.8g and %.8g A (SETTLE needs one geometry)",
                             who, r1, r2, d_hh, set->water_d_oh, set->water_d_hh);
        }
        set->waters[w] = wt;
        in_water[wt.o] = in_water[wt.h1] = in_water[wt.h2] = 1;
    }
    set->water_count = sys->water_count;
    return VKMD_OK;
}

static int cmp_cluster(const void *a, const void *b)
{
    const int32_t ca = ((const vkmd_hcluster *)a)->center, cb = ((const vkmd_hcluster *)b)->center;
    return (ca > cb) - (ca < cb);
}

static vkmd_result build_clusters(const vkmd_system *sys, vkmd_constraint_set *set,
                                  const uint8_t *in_water)
{
    char who[96], other[96];
    const int32_t n = sys->atom_count;
    /* partner[h]: the atom a hydrogen is constrained to; slot[c]: cluster of a center */
    int32_t *partner = malloc((size_t)n * sizeof *partner);
    int32_t *slot = malloc((size_t)n * sizeof *slot);
    vkmd_result res = VKMD_OK;
    if (!partner || !slot) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: H clusters for %d atoms", n);
        goto cleanup;
    }
    for (int32_t a = 0; a < n; ++a)
        partner[a] = slot[a] = -1;
    int32_t count = 0;
    for (int32_t b = 0; b < sys->bond_count; ++b) {
        const vkmd_bond *bd = &sys->bonds[b];
        const int hi = sys->atoms[bd->i].element == 1, hj = sys->atoms[bd->j].element == 1;
        if (hi == hj || in_water[bd->i] || in_water[bd->j])
            continue;
        const int32_t h = hi ? bd->i : bd->j, c = hi ? bd->j : bd->i;
        if (partner[h] >= 0) {
            describe(sys, h, who, sizeof who);
            describe(sys, c, other, sizeof other);
            if (partner[h] == c)
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "constraints: hydrogen %s is bonded to %s twice", who, other);
            else
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "constraints: hydrogen %s is bonded to two constrained partners, "
                                "atom %d and %s",
                                who, partner[h] + 1, other);
            goto cleanup;
        }
        partner[h] = c;
        if (slot[c] < 0)
            slot[c] = count++;
    }
    if (count == 0)
        goto cleanup;
    set->clusters = calloc((size_t)count, sizeof *set->clusters);
    if (!set->clusters) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: %d H clusters", count);
        goto cleanup;
    }
    for (int32_t k = 0; k < count; ++k)
        for (int q = 0; q < VKMD_HCLUSTER_MAX; ++q)
            set->clusters[k].h[q] = -1;
    for (int32_t b = 0; b < sys->bond_count; ++b) {
        const vkmd_bond *bd = &sys->bonds[b];
        const int hi = sys->atoms[bd->i].element == 1, hj = sys->atoms[bd->j].element == 1;
        if (hi == hj || in_water[bd->i] || in_water[bd->j])
            continue;
        const int32_t h = hi ? bd->i : bd->j, c = hi ? bd->j : bd->i;
        vkmd_hcluster *cl = &set->clusters[slot[c]];
        cl->center = c;
        if (cl->h_count == VKMD_HCLUSTER_MAX) {
            describe(sys, c, who, sizeof who);
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "constraints: %s has more than %d bonded hydrogens", who,
                            VKMD_HCLUSTER_MAX);
            goto cleanup;
        }
        if (!(bd->r0 > 0)) {
            describe(sys, h, who, sizeof who);
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "constraints: the bond of hydrogen %s has r0 = %g A (must be > 0)", who,
                            bd->r0);
            goto cleanup;
        }
        const int32_t at[2] = {h, c};
        for (int q = 0; q < 2; ++q) {
            if (!(sys->atoms[at[q]].mass > 0)) {
                describe(sys, at[q], who, sizeof who);
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "constraints: constrained %s has mass %g amu (must be > 0)", who,
                                sys->atoms[at[q]].mass);
                goto cleanup;
            }
        }
        /* insert in ascending hydrogen order */
        int q = cl->h_count++;
        while (q > 0 && cl->h[q - 1] > h) {
            cl->h[q] = cl->h[q - 1];
            cl->d[q] = cl->d[q - 1];
            --q;
        }
        cl->h[q] = h;
        cl->d[q] = bd->r0;
    }
    set->cluster_count = count;
    qsort(set->clusters, (size_t)count, sizeof *set->clusters, cmp_cluster);
cleanup:
    free(partner);
    free(slot);
    return res;
}

vkmd_result vkmd_constraints_build(const vkmd_system *sys, int rigid_water, int hbonds,
                                   vkmd_constraint_set *out)
{
    memset(out, 0, sizeof *out);
    topo_index ix = {0};
    uint8_t *in_water = calloc((size_t)sys->atom_count + 1, 1);
    vkmd_result res = VKMD_OK;
    if (!in_water) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: %d atoms", sys->atom_count);
        goto cleanup;
    }
    if (rigid_water && sys->water_count > 0) {
        VKMD_TRY(topo_index_build(sys, &ix));
        VKMD_TRY(build_waters(sys, &ix, out, in_water));
    }
    if (hbonds)
        VKMD_TRY(build_clusters(sys, out, in_water));
    out->constraint_count = 3 * out->water_count;
    for (int32_t k = 0; k < out->cluster_count; ++k)
        out->constraint_count += out->clusters[k].h_count;
cleanup:
    topo_index_free(&ix);
    free(in_water);
    if (res != VKMD_OK)
        vkmd_constraints_destroy(out);
    return res;
}

void vkmd_constraints_destroy(vkmd_constraint_set *set)
{
    free(set->waters);
    free(set->clusters);
    memset(set, 0, sizeof *set);
}

int64_t vkmd_constraints_dof(const vkmd_system *sys, const vkmd_constraint_set *set,
                             int com_removed)
{
    /* Virtual sites (massless, placed from their parents) carry none. */
    return 3 * ((int64_t)sys->atom_count - sys->vsite_count) - (set ? set->constraint_count : 0) -
           (com_removed ? 3 : 0);
}
