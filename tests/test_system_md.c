/* Host-side MD preparation: hydrogen mass repartitioning (system/hmr.h) and
 * molecules (system/molecules.h).
 *   HMR on villin_vac (vacuum protein, every H bonded to a heavy atom): total
 *     mass unchanged, every H at the new mass, each heavy atom lighter by what
 *     its hydrogens gained; on water:216 nothing moves; 5 amu hydrogens would
 *     leave a methyl carbon at 0.03 amu: refused, masses unchanged; h <= 0
 *     refused.
 *   Molecules: water:216 has 216 three-atom molecules, villin_vac three
 *     (the protein and its two Cl- counter-ions); the
 *     groups are consistent (first/atoms/atom_molecule, ascending, walk and
 *     parent form a tree over bonds).
 *   make_whole: water:216 wrapped atom by atom into the box (waters split
 *     across the boundary), then some atoms moved by up to 2 more boxes:
 *     afterwards every O-H and H-H distance is the original one,
 *     every atom moved by whole box vectors only, and each molecule's first
 *     atom is in [0, L). A vacuum system is left alone. */
#include "testlib.h"
#include "io/load.h"
#include "system/hmr.h"
#include "system/molecules.h"
#include "system/water_box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double total_mass(const vkmd_system *sys)
{
    double m = 0;
    for (int32_t a = 0; a < sys->atom_count; ++a)
        m += sys->atoms[a].mass;
    return m;
}

static void test_hmr_villin(void)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop", NULL, &sys));
    if (test_failures)
        return;
    const int32_t n = sys.atom_count;
    double *before = malloc((size_t)n * sizeof *before);
    int32_t *h_of = calloc((size_t)n, sizeof *h_of); /* hydrogens bonded to each atom */
    CHECK(before && h_of);
    if (!before || !h_of)
        goto done;
    int32_t n_h = 0;
    for (int32_t a = 0; a < n; ++a) {
        before[a] = sys.atoms[a].mass;
        n_h += sys.atoms[a].element == 1;
    }
    for (int32_t b = 0; b < sys.bond_count; ++b) {
        const int32_t i = sys.bonds[b].i, j = sys.bonds[b].j;
        if (sys.atoms[i].element == 1 && sys.atoms[j].element > 1)
            ++h_of[j];
        if (sys.atoms[j].element == 1 && sys.atoms[i].element > 1)
            ++h_of[i];
    }
    const double m0 = total_mass(&sys);

    /* refused: 5 amu hydrogens leave a CH3 carbon at 12.01 - 3 x 3.99 */
    int32_t moved = -1;
    vkmd_result r = vkmd_system_repartition_hydrogen_mass(&sys, 5.0, &moved);
    printf("HMR to 5 amu: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(moved == 0);
    CHECK(strstr(vkmd_last_error(), "atom ") != NULL);
    int same = 1;
    for (int32_t a = 0; a < n; ++a)
        same &= sys.atoms[a].mass == before[a];
    printf("  masses unchanged after the refusal: %s\n", same ? "yes" : "NO");
    CHECK(same);
    r = vkmd_system_repartition_hydrogen_mass(&sys, 0.0, NULL);
    printf("HMR to 0 amu: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);

    CHECK_OK(vkmd_system_repartition_hydrogen_mass(&sys, 3.024, &moved));
    const double m1 = total_mass(&sys);
    printf("villin_vac: %d atoms, %d hydrogens, %d repartitioned to 3.024 amu; total mass %.9f -> "
           "%.9f amu (difference %.3g)\n",
           n, n_h, moved, m0, m1, m1 - m0);
    CHECK(moved == n_h);
    CHECK(fabs(m1 - m0) <= 1e-9 * m0);
    int bad_h = 0, bad_heavy = 0;
    double lightest = 1e300;
    for (int32_t a = 0; a < n; ++a) {
        const double m = sys.atoms[a].mass;
        if (sys.atoms[a].element == 1) {
            bad_h += m != 3.024;
        } else {
            double expect = before[a];
            for (int32_t b = 0; b < sys.bond_count; ++b) {
                const int32_t i = sys.bonds[b].i, j = sys.bonds[b].j;
                const int32_t h = i == a ? j : j == a ? i : -1;
                if (h >= 0 && sys.atoms[h].element == 1)
                    expect -= 3.024 - before[h];
            }
            bad_heavy += fabs(m - expect) > 1e-12;
            if (h_of[a] > 0 && m < lightest)
                lightest = m;
        }
    }
    printf("  hydrogens not at 3.024 amu: %d; heavy atoms off their expected mass: %d; lightest "
           "heavy atom with hydrogens: %.4f amu\n",
           bad_h, bad_heavy, lightest);
    CHECK(bad_h == 0);
    CHECK(bad_heavy == 0);
    CHECK(lightest > 1.0);
done:
    free(before);
    free(h_of);
    vkmd_system_destroy(&sys);
}

static void test_hmr_water(void)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &sys));
    if (test_failures)
        return;
    const double m0 = total_mass(&sys);
    int32_t moved = -1;
    CHECK_OK(vkmd_system_repartition_hydrogen_mass(&sys, 4.0, &moved));
    int changed = 0;
    for (int32_t a = 0; a < sys.atom_count; ++a)
        changed += sys.atoms[a].mass != (sys.atoms[a].element == 1 ? 1.007947 : 15.99943);
    printf("water:216 HMR: %d hydrogens moved, %d masses changed, total %.9f -> %.9f amu\n", moved,
           changed, m0, total_mass(&sys));
    CHECK(moved == 0);
    CHECK(changed == 0);
    vkmd_system_destroy(&sys);
}

/* first/atoms/atom_molecule consistent, atoms ascending per molecule, walk a
 * permutation of the molecule rooted at its first atom, parents bonded. */
static int molecules_consistent(const vkmd_system *sys, const vkmd_molecules *m)
{
    int ok = m->first[0] == 0 && m->first[m->count] == sys->atom_count;
    for (int32_t k = 0; k < m->count && ok; ++k) {
        ok &= m->first[k + 1] > m->first[k];
        ok &= m->walk[m->first[k]] == m->atoms[m->first[k]];
        ok &= m->parent[m->atoms[m->first[k]]] == -1;
        for (int32_t q = m->first[k]; q < m->first[k + 1]; ++q) {
            const int32_t a = m->atoms[q], w = m->walk[q];
            ok &= m->atom_molecule[a] == k && m->atom_molecule[w] == k;
            ok &= q == m->first[k] || m->atoms[q - 1] < a;
            if (q > m->first[k]) {
                const int32_t p = m->parent[w];
                int bonded = 0;
                for (int32_t b = 0; b < sys->bond_count; ++b)
                    bonded |= (sys->bonds[b].i == p && sys->bonds[b].j == w) ||
                              (sys->bonds[b].j == p && sys->bonds[b].i == w);
                ok &= bonded && m->atom_molecule[p] == k;
            }
        }
    }
    /* molecules numbered by their lowest atom */
    for (int32_t k = 1; k < m->count && ok; ++k)
        ok &= m->atoms[m->first[k - 1]] < m->atoms[m->first[k]];
    return ok;
}

static double dist(const double *x, int32_t a, int32_t b)
{
    const double d[3] = {x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1],
                         x[3 * b + 2] - x[3 * a + 2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static void test_molecules(void)
{
    vkmd_system water = {0}, villin = {0};
    vkmd_molecules mw = {0}, mv = {0};
    double *x = NULL;
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &water));
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop", NULL, &villin));
    if (test_failures)
        goto done;
    CHECK_OK(vkmd_molecules_build(&water, &mw));
    CHECK_OK(vkmd_molecules_build(&villin, &mv));
    if (test_failures)
        goto done;
    int three = 1;
    for (int32_t k = 0; k < mw.count; ++k)
        three &= mw.first[k + 1] - mw.first[k] == 3;
    /* villin_vac: the protein and its two Cl- counter-ions */
    int ions = mv.count == 3;
    for (int32_t k = 1; k < mv.count && ions; ++k)
        ions =
            mv.first[k + 1] - mv.first[k] == 1 && villin.atoms[mv.atoms[mv.first[k]]].element == 17;
    printf("water:216: %d molecules (all of 3 atoms: %s); villin_vac: %d molecules, the first of "
           "%d atoms, the others single Cl: %s\n",
           mw.count, three ? "yes" : "NO", mv.count, mv.count ? mv.first[1] : 0,
           ions ? "yes" : "NO");
    CHECK(mw.count == 216);
    CHECK(three);
    CHECK(ions && mv.first[1] == villin.atom_count - 2);
    CHECK(molecules_consistent(&water, &mw));
    CHECK(molecules_consistent(&villin, &mv));

    /* wrap every atom into the box on its own, then break one water further */
    const int32_t n = water.atom_count;
    const double *len = water.box.len;
    x = malloc((size_t)3 * n * sizeof *x);
    CHECK(x != NULL);
    if (!x)
        goto done;
    memcpy(x, water.positions, (size_t)3 * n * sizeof *x);
    for (int32_t i = 0; i < 3 * n; ++i)
        x[i] -= len[i % 3] * floor(x[i] / len[i % 3]);
    for (int32_t i = 0; i < 3 * n; i += 7) /* and some atoms by -2..2 boxes more */
        x[i] += len[i % 3] * (double)((i / 7) % 5 - 2);
    int split = 0;
    for (int32_t w = 0; w < water.water_count; ++w) {
        const vkmd_water *wt = &water.waters[w];
        split += dist(x, wt->o, wt->h1) > 1.0 || dist(x, wt->o, wt->h2) > 1.0;
    }
    vkmd_molecules_make_whole(&water, &mw, x);
    double worst_bond = 0, worst_shift = 0;
    int outside = 0;
    for (int32_t w = 0; w < water.water_count; ++w) {
        const vkmd_water *wt = &water.waters[w];
        const double *x0 = water.positions;
        worst_bond = fmax(worst_bond, fabs(dist(x, wt->o, wt->h1) - dist(x0, wt->o, wt->h1)));
        worst_bond = fmax(worst_bond, fabs(dist(x, wt->o, wt->h2) - dist(x0, wt->o, wt->h2)));
        worst_bond = fmax(worst_bond, fabs(dist(x, wt->h1, wt->h2) - dist(x0, wt->h1, wt->h2)));
        for (int c = 0; c < 3; ++c) {
            outside += x[3 * wt->o + c] < 0 || x[3 * wt->o + c] >= len[c];
            const int32_t at[3] = {wt->o, wt->h1, wt->h2};
            for (int q = 0; q < 3; ++q) {
                const double s = (x[3 * at[q] + c] - x0[3 * at[q] + c]) / len[c];
                worst_shift = fmax(worst_shift, fabs(s - nearbyint(s)));
            }
        }
    }
    printf("make_whole: %d of %d waters were split; afterwards largest bond-length change %.3g A, "
           "largest non-integer box shift %.3g boxes, first atoms outside [0, L): %d\n",
           split, water.water_count, worst_bond, worst_shift, outside);
    CHECK(split > 10);
    CHECK(worst_bond <= 1e-12);
    CHECK(worst_shift <= 1e-12);
    CHECK(outside == 0);

    /* vacuum: no-op */
    double *xv = malloc((size_t)3 * villin.atom_count * sizeof *xv);
    CHECK(xv != NULL);
    if (xv) {
        memcpy(xv, villin.positions, (size_t)3 * villin.atom_count * sizeof *xv);
        vkmd_molecules_make_whole(&villin, &mv, xv);
        CHECK(!memcmp(xv, villin.positions, (size_t)3 * villin.atom_count * sizeof *xv));
        free(xv);
    }
done:
    free(x);
    vkmd_molecules_destroy(&mw);
    vkmd_molecules_destroy(&mv);
    vkmd_system_destroy(&water);
    vkmd_system_destroy(&villin);
}

int main(void)
{
    test_hmr_villin();
    test_hmr_water();
    test_molecules();
    return test_finish("test_system_md");
}
