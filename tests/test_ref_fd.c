/* Reference forces are minus the gradient of the reference energies, term by
 * term, and obey Newton's third law.
 *
 * System: 12 random 4-atom chains (48 atoms) in a 15 A periodic box, cutoff
 * 7 A, alpha 0.4 /A, PME grid 16, order 5 (see ref_testsys.h: molecules
 * straddle the boundary, no pair within 0.02 A of the cutoff).
 * Finite differences: central, h = 1e-5 A; truncation error ~h^2 E''' and
 * rounding ~1e-16 E / h keep the RMS relative difference below ~1e-8, so the
 * limit is 1e-6 (RMS(F - F_fd) / RMS(F_fd)).
 * Newton: |sum F| <= 1e-9 x max |F| x N for every pairwise or bonded term. PME
 * conserves momentum only up to interpolation error: its bound is 5e-3 x max
 * |F| at this grid (the figure is printed). */
#include "ref_testsys.h"
#include "testlib.h"

#include <stdio.h>

int main(void)
{
    vkmd_system sys;
    testsys_random(&sys, 12, 15.0, 7.0);
    vkmd_ff_settings s = testsys_settings(7.0, 0.4, 16, 5);
    struct {
        const char *name;
        testsys_term term;
        int momentum_exact;
    } terms[] = {
        {"bond", term_bonds, 1},
        {"angle", term_angles, 1},
        {"proper", term_propers, 1},
        {"improper", term_impropers, 1},
        {"1-4 LJ+Coulomb", term_pairs14, 1},
        {"LJ + real-space", term_pairs, 1},
        {"excluded erf", term_excluded, 1},
        {"PME reciprocal", term_pme, 0},
        {"total", term_total, 0},
    };
    const double h = 1e-5;
    for (size_t t = 0; t < sizeof terms / sizeof terms[0]; ++t) {
        double max_abs, rms_f;
        double rel = testsys_fd(&sys, &s, terms[t].term, h, &max_abs, &rms_f);
        double e = terms[t].term(&sys, &s, NULL);
        printf("%-16s E = %14.8f kcal/mol  RMS F = %10.5f  FD rel RMS diff %.3g  max |diff| %.3g\n",
               terms[t].name, e, rms_f, rel, max_abs);
        CHECK_MSG(rms_f > 0, "%s has no force to check", terms[t].name);
        CHECK_MSG(rel <= 1e-6, "%s: FD rel RMS diff %.3g > 1e-6", terms[t].name, rel);
        double max_f;
        double sum = testsys_force_sum(&sys, &s, terms[t].term, &max_f);
        double lim = terms[t].momentum_exact ? 1e-9 * max_f * sys.atom_count : 5e-3 * max_f;
        printf("%-16s |sum F| = %.3g (limit %.3g, max |F| %.4g)\n", terms[t].name, sum, lim, max_f);
        CHECK_MSG(sum <= lim, "%s: |sum F| = %.3g > %.3g", terms[t].name, sum, lim);
    }
    vkmd_system_destroy(&sys);
    return test_finish("test_ref_fd");
}
