/* vkmd_ref_compute as a whole: the breakdown adds up, the total force is the
 * sum of the per-term forces, non-periodic systems get no Ewald terms, the
 * net-charge term stays 0 (OpenMM 7.7 omits it), and bad input fails with a
 * clear message instead of returning numbers. */
#include "ref_testsys.h"
#include "testlib.h"

#include <stdio.h>

int main(void)
{
    vkmd_system sys;
    testsys_random(&sys, 12, 15.0, 7.0);
    sys.atoms[0].charge += 0.5; /* net charge +0.5 e */
    vkmd_ff_settings s = testsys_settings(7.0, 0.4, 16, 5);
    const int32_t n3 = 3 * sys.atom_count;
    double *f = calloc((size_t)n3, sizeof *f), *sum = calloc((size_t)n3, sizeof *sum);
    vkmd_energy e;
    CHECK_OK(vkmd_ref_compute(&sys, &s, &e, f));
    printf("periodic: bond %.6f angle %.6f dihedral %.6f (improper %.6f)\n"
           "  lj_pair %.6f lj14 %.6f disp %.6f | real %.6f recip %.6f self %.6f excl %.6f "
           "c14 %.6f net %.6f | total %.6f kcal/mol\n",
           e.bond, e.angle, e.dihedral, e.improper, e.lj_pair, e.lj14, e.lj_dispersion,
           e.coulomb_real, e.coulomb_recip, e.coulomb_self, e.coulomb_excl, e.coulomb14,
           e.coulomb_net_charge, e.total);
    double parts = e.bond + e.angle + e.dihedral + e.lj_pair + e.lj14 + e.lj_dispersion +
                   e.coulomb_real + e.coulomb_recip + e.coulomb_self + e.coulomb_excl + e.coulomb14;
    check_close("total = sum of parts", e.total, parts, 1e-14, 1e-12);
    check_close("net-charge term omitted", e.coulomb_net_charge, 0, 0, 0);
    CHECK(e.lj_dispersion < 0 && e.coulomb_self < 0 && e.coulomb_recip > 0);
    const testsys_term terms[] = {term_bonds,   term_angles, term_propers,  term_impropers,
                                  term_pairs14, term_pairs,  term_excluded, term_pme};
    for (size_t t = 0; t < sizeof terms / sizeof terms[0]; ++t)
        terms[t](&sys, &s, sum);
    double rel = rms_rel_error(f, sum, n3);
    printf("  total force vs sum of term forces: RMS rel diff %.3g\n", rel);
    CHECK(rel < 1e-14);

    printf("no dispersion correction when switched off\n");
    s.no_dispersion_correction = 1;
    vkmd_energy e2;
    CHECK_OK(vkmd_ref_compute(&sys, &s, &e2, NULL));
    check_close("dispersion off", e2.lj_dispersion, 0, 0, 0);
    check_close("total without dispersion", e2.total, e.total - e.lj_dispersion, 1e-13, 1e-12);
    s.no_dispersion_correction = 0;

    printf("resolved defaults work: cutoff 7 given, the rest from vkmd_ff_settings_resolve\n");
    vkmd_ff_settings sr = {0};
    sr.cutoff_a = 7.0;
    CHECK_OK(vkmd_ff_settings_resolve(&sr, &sys));
    printf("  alpha %.6f /A grid %d %d %d order %d\n", sr.ewald_alpha, sr.pme_grid[0],
           sr.pme_grid[1], sr.pme_grid[2], sr.pme_order);
    CHECK_OK(vkmd_ref_compute(&sys, &sr, &e2, f));

    printf("non-periodic: plain Coulomb, no Ewald terms, no dispersion\n");
    sys.box.periodic = 0;
    CHECK_OK(vkmd_ref_compute(&sys, &s, &e2, f));
    CHECK(e2.coulomb_recip == 0 && e2.coulomb_self == 0 && e2.coulomb_excl == 0 &&
          e2.lj_dispersion == 0 && e2.coulomb_net_charge == 0);
    double lj, coul;
    CHECK_OK(ref_nonbonded_pairs(&sys, &s, vkmd_ff_coulomb_k(&s), NULL, &lj, &coul));
    check_close("vacuum coulomb_real = plain pairs", e2.coulomb_real, coul, 1e-14, 0);
    double rel_fd = testsys_fd(&sys, &s, term_total, 1e-5, NULL, NULL);
    printf("  non-periodic total: FD rel RMS diff %.3g (limit 1e-6)\n", rel_fd);
    CHECK(rel_fd < 1e-6);
    sys.box.periodic = 1;

    printf("errors:\n");
    double *pos = sys.positions;
    sys.positions = NULL;
    CHECK(vkmd_ref_compute(&sys, &s, &e2, f) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  no coordinates: %s\n", vkmd_last_error());
    sys.positions = pos;
    double keep = pos[7];
    pos[7] = NAN;
    CHECK(vkmd_ref_compute(&sys, &s, &e2, f) == VKMD_ERROR_NUMERIC);
    printf("  NaN coordinate: %s\n", vkmd_last_error());
    pos[7] = keep;
    memcpy(&pos[3], &pos[0], 3 * sizeof *pos); /* two atoms on top of each other */
    vkmd_result r = vkmd_ref_compute(&sys, &s, &e2, f);
    CHECK(r == VKMD_ERROR_NUMERIC);
    printf("  overlapping atoms: %s -> %s\n", vkmd_result_str(r), vkmd_last_error());
    vkmd_ff_settings unresolved = {0};
    CHECK(vkmd_ref_compute(&sys, &unresolved, &e2, f) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  unresolved settings: %s\n", vkmd_last_error());

    free(f);
    free(sum);
    vkmd_system_destroy(&sys);
    return test_finish("test_ref_forcefield");
}
