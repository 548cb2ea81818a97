/* Non-bonded reference: hand-derived pair, cutoff, excluded-pair, self and
 * dispersion values; periodic images (a pair across the boundary equals the
 * same pair inside the box; a lattice translation of everything changes
 * nothing); the cell list against the O(N^2) search; the non-periodic path. */
#include "ref_testsys.h"
#include "testlib.h"

#include <stdio.h>

static void set_pos(vkmd_system *sys, int32_t a, double x, double y, double z)
{
    sys->positions[3 * a] = x;
    sys->positions[3 * a + 1] = y;
    sys->positions[3 * a + 2] = z;
}

int main(void)
{
    const double k = VKMD_COULOMB_K_OPENMM;
    vkmd_system sys;
    double f[6], lj, coul;

    /* Two atoms, +1 / -1 e, LJ type 0 (sigma 3.4, eps 0.11), box 20 A. */
    testsys_alloc(&sys, 2);
    sys.box.periodic = 1;
    sys.box.len[0] = sys.box.len[1] = sys.box.len[2] = 20;
    sys.atoms[0].charge = 1;
    sys.atoms[1].charge = -1;
    vkmd_ff_settings s = testsys_settings(9.0, 0.3, 20, 5);
    const double a = sys.lj_a[0], b = sys.lj_b[0];

    printf("pair at r = 3 inside the box, cutoff 9, alpha 0.3:\n"
           "  E_lj = A/3^12 - B/3^6, E_coul = -k erfc(0.9)/3 = -k 0.203091787577168/3\n");
    set_pos(&sys, 0, 5, 5, 5);
    set_pos(&sys, 1, 8, 5, 5);
    memset(f, 0, sizeof f);
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, f, &lj, &coul));
    check_close("LJ r=3", lj, a / pow(3, 12) - b / pow(3, 6), 1e-14, 0);
    check_close("erfc Coulomb r=3", coul, -k * 0.203091787577168 / 3, 1e-13, 0);
    double f_inside = f[0];
    printf("  the same pair across the x boundary (x = 18.5 and 1.5) gives the same E and F\n");
    set_pos(&sys, 0, 18.5, 5, 5);
    set_pos(&sys, 1, 1.5, 5, 5);
    double lj2, coul2;
    memset(f, 0, sizeof f);
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, f, &lj2, &coul2));
    check_close("LJ across boundary", lj2, lj, 1e-14, 0);
    check_close("Coulomb across boundary", coul2, coul, 1e-14, 0);
    check_close("F_x across boundary", f[0], f_inside, 1e-13, 0);
    printf("  and across a corner (all three edges at once)\n");
    set_pos(&sys, 0, 19, 19, 19);
    set_pos(&sys, 1, 19 + 3 / sqrt(3.0) - 20, 19 + 3 / sqrt(3.0) - 20, 19 + 3 / sqrt(3.0) - 20);
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, NULL, &lj2, &coul2));
    check_close("LJ across corner", lj2, lj, 1e-12, 0);
    check_close("Coulomb across corner", coul2, coul, 1e-12, 0);

    printf("pair at r = 9.5 > cutoff: E = 0 (plain truncation); at r = 8.99: LJ and erfc\n");
    set_pos(&sys, 0, 5, 5, 5);
    set_pos(&sys, 1, 14.5, 5, 5);
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, NULL, &lj, &coul));
    check_close("LJ beyond cutoff", lj, 0, 0, 0);
    check_close("Coulomb beyond cutoff", coul, 0, 0, 0);
    set_pos(&sys, 1, 13.99, 5, 5);
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, NULL, &lj, &coul));
    check_close("LJ just inside", lj, a / pow(8.99, 12) - b / pow(8.99, 6), 1e-13, 0);
    check_close("Coulomb just inside", coul, -k * erfc(0.3 * 8.99) / 8.99, 1e-13, 0);

    printf("excluded pair at r = 3: no pair term; correction -k q q erf(0.9)/3 = "
           "+k 0.796908212422832/3\n");
    set_pos(&sys, 1, 8, 5, 5);
    vkmd_pair ex = {0, 1};
    sys.exclusions = &ex;
    sys.exclusion_count = 1;
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, NULL, &lj, &coul));
    check_close("excluded LJ", lj, 0, 0, 0);
    check_close("excluded Coulomb", coul, 0, 0, 0);
    memset(f, 0, sizeof f);
    check_close("excl correction", ref_nonbonded_excluded(&sys, 0.3, k, f),
                k * 0.796908212422832 / 3, 1e-13, 0);
    printf("  an excluded pair 9.8 A apart (beyond the cutoff) still gets its correction\n");
    set_pos(&sys, 1, 14.8, 5, 5);
    check_close("excl correction r=9.8", ref_nonbonded_excluded(&sys, 0.3, k, NULL),
                k * erf(0.3 * 9.8) / 9.8, 1e-13, 0);
    sys.exclusions = NULL;
    sys.exclusion_count = 0;

    printf("self: -k alpha/sqrt(pi) (1 + 1) = -2k 0.3/sqrt(pi)\n");
    check_close("self", vkmd_ewald_self_energy(&sys, 0.3, k), -2 * k * 0.3 / sqrt(M_PI), 1e-14, 0);
    printf(
        "net charge of a +1/+1 pair: -k pi 4 / (2 8000 0.09) (computed; not part of the total)\n");
    sys.atoms[1].charge = 1;
    check_close("net charge", vkmd_ewald_net_charge_energy(&sys, 0.3, k),
                -k * M_PI * 4 / (2 * 8000 * 0.09), 1e-14, 0);

    printf("dispersion, 2 atoms of one type: 3 pairs (n(n+1)/2) over 3 interactions, so\n"
           "  E = 8 pi 2^2 (A/4/(9 9^9) - B/4/(3 9^3)) / 8000\n");
    check_close("dispersion 1 type", vkmd_ewald_dispersion_energy(&sys, 9.0),
                8 * M_PI * 4 * (a / 4 / (9 * pow(9, 9)) - b / 4 / (3 * pow(9, 3))) / 8000, 1e-14,
                0);
    vkmd_system_destroy(&sys);

    printf("dispersion against a direct average over all N(N+1)/2 atom pairs (i <= j), "
           "3 types, 48 atoms:\n");
    testsys_random(&sys, 12, 15.0, 7.0);
    {
        const int32_t n = sys.atom_count, nt = sys.lj_type_count;
        double sa = 0, sb = 0;
        for (int32_t i = 0; i < n; ++i)
            for (int32_t j = i; j < n; ++j) {
                int32_t t = sys.atoms[i].lj_type * nt + sys.atoms[j].lj_type;
                sa += sys.lj_a[t];
                sb += sys.lj_b[t];
            }
        sa /= n * (n + 1.0) / 2;
        sb /= n * (n + 1.0) / 2;
        double want =
            8 * M_PI * n * n * (sa / (36 * pow(7.0, 9)) - sb / (12 * pow(7.0, 3))) / pow(15, 3);
        check_close("dispersion 3 types", vkmd_ewald_dispersion_energy(&sys, 7.0), want, 1e-12, 0);
    }
    vkmd_system_destroy(&sys);

    printf("cell list vs O(N^2), 150 chains (600 atoms): box 28 A (3 cells/edge) and 40 A (4)\n");
    const double boxes[2] = {28.0, 40.0};
    for (int bi = 0; bi < 2; ++bi) {
        testsys_random(&sys, 150, boxes[bi], 0.0);
        vkmd_ff_settings s9 = testsys_settings(9.0, 0.35, 32, 5);
        const int32_t n3 = 3 * sys.atom_count;
        double *f1 = calloc((size_t)n3, sizeof *f1), *f2 = calloc((size_t)n3, sizeof *f2);
        double lj1, c1, lj2b, c2;
        CHECK_OK(ref_nonbonded_pairs(&sys, &s9, k, f1, &lj1, &c1));
        CHECK_OK(ref_nonbonded_pairs_n2(&sys, &s9, k, f2, &lj2b, &c2));
        check_close("cell list LJ", lj1, lj2b, 1e-12, 1e-12);
        check_close("cell list Coulomb", c1, c2, 1e-12, 1e-12);
        double rel = rms_rel_error(f1, f2, n3);
        printf("  box %.0f: force RMS rel diff %.3g\n", boxes[bi], rel);
        CHECK(rel < 1e-12);

        printf("  translation by the lattice vector (L, -2L, 3L): every term unchanged\n");
        vkmd_energy e1, e2;
        CHECK_OK(vkmd_ref_compute(&sys, &s9, &e1, f1));
        for (int32_t at = 0; at < sys.atom_count; ++at) {
            sys.positions[3 * at] += boxes[bi];
            sys.positions[3 * at + 1] -= 2 * boxes[bi];
            sys.positions[3 * at + 2] += 3 * boxes[bi];
        }
        CHECK_OK(vkmd_ref_compute(&sys, &s9, &e2, f2));
        check_close("translated total", e2.total, e1.total, 1e-11, 1e-9);
        check_close("translated PME", e2.coulomb_recip, e1.coulomb_recip, 1e-10, 1e-9);
        rel = rms_rel_error(f2, f1, n3);
        printf("  translated force RMS rel diff %.3g\n", rel);
        CHECK(rel < 1e-9);
        free(f1);
        free(f2);
        vkmd_system_destroy(&sys);
    }

    printf("non-periodic: plain Coulomb, no cutoff: q +1/-1 at r = 30: E = -k/30, LJ A/30^12 - "
           "B/30^6\n");
    testsys_alloc(&sys, 2);
    sys.atoms[0].charge = 1;
    sys.atoms[1].charge = -1;
    set_pos(&sys, 1, 30, 0, 0);
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, k, NULL, &lj, &coul));
    check_close("vacuum Coulomb", coul, -k / 30, 1e-14, 0);
    check_close("vacuum LJ", lj, sys.lj_a[0] / pow(30, 12) - sys.lj_b[0] / pow(30, 6), 1e-14, 0);
    vkmd_system_destroy(&sys);
    return test_finish("test_ref_nonbonded");
}
