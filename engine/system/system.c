/* vkmd_system lifetime and consistency checks. */
#include "system/system.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void vkmd_system_destroy(vkmd_system *sys)
{
    if (!sys)
        return;
    free(sys->atoms);
    free(sys->lj_a);
    free(sys->lj_b);
    free(sys->bonds);
    free(sys->angles);
    free(sys->dihedrals);
    free(sys->pairs14);
    free(sys->exclusions);
    free(sys->waters);
    free(sys->urey_bradleys);
    free(sys->impropers_harmonic);
    free(sys->cmaps);
    for (int32_t m = 0; sys->cmap_maps && m < sys->cmap_map_count; ++m)
        free(sys->cmap_maps[m].grid);
    free(sys->cmap_maps);
    free(sys->lj14_a);
    free(sys->lj14_b);
    free(sys->vsites);
    free(sys->gb_radius);
    free(sys->gb_screen);
    free(sys->positions);
    free(sys->velocities);
    memset(sys, 0, sizeof *sys);
}

static int pair_cmp(const void *pa, const void *pb)
{
    const vkmd_pair *a = pa, *b = pb;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    if (a->j != b->j)
        return a->j < b->j ? -1 : 1;
    return 0;
}

static int in_range(const vkmd_system *sys, int32_t i)
{
    return i >= 0 && i < sys->atom_count;
}

vkmd_result vkmd_system_finalize(vkmd_system *sys, const char *source)
{
    const int32_t n = sys->atom_count;
    if (n <= 0)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: system has no atoms", source);
    for (int32_t a = 0; a < n; ++a) {
        const vkmd_atom *at = &sys->atoms[a];
        if (at->lj_type < 0 || at->lj_type >= sys->lj_type_count)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: atom %d (%s) has LJ type %d, expected 1..%d",
                             source, a + 1, at->name, at->lj_type + 1, sys->lj_type_count);
        if (!(at->mass >= 0) || !isfinite(at->charge))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: atom %d (%s) has mass %g / charge %g", source,
                             a + 1, at->name, at->mass, at->charge);
    }
    for (int32_t b = 0; b < sys->bond_count; ++b)
        if (!in_range(sys, sys->bonds[b].i) || !in_range(sys, sys->bonds[b].j))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: bond %d names an atom outside 1..%d", source,
                             b + 1, n);
    for (int32_t b = 0; b < sys->angle_count; ++b) {
        const vkmd_angle *t = &sys->angles[b];
        if (!in_range(sys, t->i) || !in_range(sys, t->j) || !in_range(sys, t->k))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: angle %d names an atom outside 1..%d", source,
                             b + 1, n);
    }
    for (int32_t b = 0; b < sys->dihedral_count; ++b) {
        const vkmd_dihedral *d = &sys->dihedrals[b];
        if (!in_range(sys, d->i) || !in_range(sys, d->j) || !in_range(sys, d->k) ||
            !in_range(sys, d->l))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: dihedral %d names an atom outside 1..%d",
                             source, b + 1, n);
    }
    for (int32_t b = 0; b < sys->pair14_count; ++b)
        if (!in_range(sys, sys->pairs14[b].i) || !in_range(sys, sys->pairs14[b].j))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: 1-4 pair %d names an atom outside 1..%d",
                             source, b + 1, n);
    for (int32_t b = 0; b < sys->urey_bradley_count; ++b)
        if (!in_range(sys, sys->urey_bradleys[b].i) || !in_range(sys, sys->urey_bradleys[b].j))
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s: Urey-Bradley term %d names an atom outside 1..%d", source, b + 1,
                             n);
    for (int32_t b = 0; b < sys->improper_harmonic_count; ++b) {
        const vkmd_improper_harmonic *d = &sys->impropers_harmonic[b];
        if (!in_range(sys, d->i) || !in_range(sys, d->j) || !in_range(sys, d->k) ||
            !in_range(sys, d->l))
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s: harmonic improper %d names an atom outside 1..%d", source, b + 1,
                             n);
    }
    for (int32_t b = 0; b < sys->cmap_count; ++b) {
        const vkmd_cmap *c = &sys->cmaps[b];
        if (!in_range(sys, c->i) || !in_range(sys, c->j) || !in_range(sys, c->k) ||
            !in_range(sys, c->l) || !in_range(sys, c->m))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: CMAP term %d names an atom outside 1..%d",
                             source, b + 1, n);
        if (c->map < 0 || c->map >= sys->cmap_map_count)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: CMAP term %d names map %d, expected 1..%d",
                             source, b + 1, c->map + 1, sys->cmap_map_count);
    }
    for (int32_t m = 0; m < sys->cmap_map_count; ++m)
        if (sys->cmap_maps[m].resolution < 4 || !sys->cmap_maps[m].grid)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: CMAP map %d has resolution %d, expected >= 4",
                             source, m + 1, sys->cmap_maps[m].resolution);
    for (int32_t w = 0; w < sys->water_count; ++w) {
        const vkmd_water *wt = &sys->waters[w];
        if (!in_range(sys, wt->o) || !in_range(sys, wt->h1) || !in_range(sys, wt->h2))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: water %d names an atom outside 1..%d", source,
                             w + 1, n);
    }
    /* Exclusions: i < j, sorted, unique. */
    int32_t m = 0;
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        vkmd_pair p = sys->exclusions[e];
        if (p.i > p.j) {
            int32_t t = p.i;
            p.i = p.j;
            p.j = t;
        }
        if (!in_range(sys, p.i) || !in_range(sys, p.j))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: exclusion %d names an atom outside 1..%d",
                             source, e + 1, n);
        if (p.i == p.j)
            continue;
        sys->exclusions[m++] = p;
    }
    if (m > 0) {
        qsort(sys->exclusions, (size_t)m, sizeof *sys->exclusions, pair_cmp);
        int32_t u = 1;
        for (int32_t e = 1; e < m; ++e)
            if (pair_cmp(&sys->exclusions[e], &sys->exclusions[u - 1]) != 0)
                sys->exclusions[u++] = sys->exclusions[e];
        m = u;
    }
    sys->exclusion_count = m;
    return VKMD_OK;
}

double vkmd_system_net_charge(const vkmd_system *sys)
{
    double q = 0;
    for (int32_t a = 0; a < sys->atom_count; ++a)
        q += sys->atoms[a].charge;
    return q;
}

int vkmd_system_is_excluded(const vkmd_system *sys, int32_t i, int32_t j)
{
    if (i > j) {
        int32_t t = i;
        i = j;
        j = t;
    }
    vkmd_pair key = {i, j};
    return bsearch(&key, sys->exclusions, (size_t)sys->exclusion_count, sizeof key, pair_cmp) !=
           NULL;
}

vkmd_result vkmd_system_check_coordinates(const vkmd_system *sys, double cutoff_a,
                                          const char *source)
{
    if (!sys->positions)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: the system has no coordinates (give --coords FILE: inpcrd, rst7 "
                         "or pdb)",
                         source);
    for (int32_t a = 0; a < 3 * sys->atom_count; ++a)
        if (!isfinite(sys->positions[a]))
            return vkmd_fail(VKMD_ERROR_NUMERIC, "%s: atom %d has a non-finite coordinate", source,
                             a / 3 + 1);
    if (sys->box.periodic) {
        for (int d = 0; d < 3; ++d) {
            if (!(sys->box.len[d] > 0))
                return vkmd_fail(VKMD_ERROR_PARSE, "%s: box edge %c is %g A, must be > 0", source,
                                 "xyz"[d], sys -> box.len[d]);
            if (sys->box.len[d] < 2 * cutoff_a)
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "%s: box edge %c = %.4f A is smaller than twice the cutoff "
                                 "(2 x %.4f A); use a larger box or a shorter --cutoff",
                                 source, "xyz"[d], sys -> box.len[d], cutoff_a);
        }
        /* A triclinic cell is thinner than its edges: the cutoff must fit
         * half the smallest distance between opposite faces. */
        const double width = vkmd_box_min_width(&sys->box);
        if (sys->box.triclinic && width < 2 * cutoff_a)
            return vkmd_fail(
                VKMD_ERROR_INVALID_ARGUMENT,
                "%s: triclinic box (edges %.4f %.4f %.4f A, angles %.4f %.4f %.4f "
                "degrees) is %.4f A wide between its closest faces, smaller than twice "
                "the cutoff (2 x %.4f A); use a larger box or a shorter --cutoff",
                source, sys->box.len[0], sys->box.len[1], sys->box.len[2], sys->box.angle_deg[0],
                sys->box.angle_deg[1], sys->box.angle_deg[2], width, cutoff_a);
    }
    return VKMD_OK;
}
