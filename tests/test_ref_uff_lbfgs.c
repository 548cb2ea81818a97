/* The CPU double reference L-BFGS (ref/ref_uff_lbfgs.h) against RDKit's
 * BFGS minimiser (tests/data/uff/lbfgs_rdkit.txt; see
 * tests/test_uff_lbfgs_common.h), from the same starts, default settings
 * (RDKit's forceTol 1e-4 test):
 *   - every one of the 57 records of tests/data/uff/molecules.sdf and 64
 *     perturbed xylitol replicas converges; its final energy is RDKit's
 *     minimum from the same start within 1e-4 kcal/mol, or else a minimum
 *     RDKit reaches from another start of the same molecule (counted,
 *     printed and bounded);
 *   - median iterations within 2x of RDKit's over each set (printed);
 *   - the line search never raises the energy (the energy trace falls);
 *   - a tighter force_tol lowers the final gradient; max_iterations 3
 *     stops unconverged at 3 iterations; bad parameters are refused. */
#include "test_uff_lbfgs_common.h"
#include "ref/ref_uff.h"
#include "ref/ref_uff_lbfgs.h"

#define MAX_OTHER 8 /* starts allowed to end in another RDKit minimum, per set */

static void report(const char *set, int *ours, int *theirs, int n, int other)
{
    const double mo = lb_median(ours, n), mt = lb_median(theirs, n);
    printf("%s: %d starts, median iterations vkmd (dense BFGS) %.1f (max %d), RDKit BFGS %.1f (max "
           "%d); %d in another RDKit minimum\n",
           set, n, mo, ours[n - 1], mt, theirs[n - 1], other);
    CHECK_MSG(mo <= TOL_LBFGS_ITERATIONS_RATIO * mt, "%s: median %.1f vs RDKit %.1f", set, mo, mt);
    CHECK_MSG(other <= MAX_OTHER, "%s: %d starts in another minimum", set, other);
}

int main(void)
{
    static lb_data d;
    CHECK(lb_read(&d));
    vkmd_uff_molecule *recs = NULL;
    int32_t nrec = 0;
    CHECK_OK(vkmd_uff_molecule_load(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &nrec));
    CHECK(nrec == d.records);
    static int ours[LB_MAX_RECORDS], theirs[LB_MAX_RECORDS];
    int other = 0, n = 0, stalled = 0;
    for (int32_t k = 0; k < nrec && k < d.records; ++k) {
        vkmd_uff_typing ty = {0};
        vkmd_uff_terms t = {0};
        CHECK_OK(vkmd_uff_setup(&recs[k], NULL, &ty, &t));
        const int32_t na = recs[k].atom_count;
        double *x = malloc(sizeof *x * 3 * (size_t)na);
        memcpy(x, vkmd_uff_molecule_conformer(&recs[k], 0), sizeof *x * 3 * (size_t)na);
        vkmd_uff_relax_result r;
        double trace[8] = {0};
        CHECK_OK(vkmd_ref_uff_lbfgs(&t, NULL, x, &r, trace, 8));
        CHECK_MSG(r.converged, "record %d did not converge (%d iterations)", k, r.iterations);
        for (int i = 1; i < 8 && i < r.iterations; ++i)
            CHECK_MSG(trace[i] <= trace[i - 1], "record %d: energy rose at iteration %d", k, i + 1);
        const int c = lb_classify(r.energy_final, r.fmax, &d.rec[k], d.rec_extra[k], LB_REC_EXTRA);
        CHECK_MSG(c >= 0, "record %d: E %.8f, RDKit %.8f, not an RDKit minimum", k, r.energy_final,
                  d.rec[k].e_tight);
        other += c == 1;
        stalled += c == 2;
        if (c == 2)
            printf("record %d: RDKit stalls at %.6f kcal/mol (max |g| %.2f kcal/mol/A); vkmd "
                   "reaches %.6f (max |F| %.1e)\n",
                   k, d.rec[k].e_tight, d.rec[k].gmax_tight, r.energy_final, r.fmax);
        ours[n] = r.iterations;
        theirs[n] = d.rec[k].iterations;
        ++n;
        free(x);
        vkmd_uff_terms_free(&t);
        vkmd_uff_typing_free(&ty);
    }
    report("molecules.sdf records", ours, theirs, n, other);
    CHECK_MSG(stalled <= 1, "%d records where RDKit stalls", stalled);
    vkmd_uff_molecule_array_free(recs, nrec);

    /* Xylitol replicas. */
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &recs, &nrec));
    vkmd_uff_typing ty = {0};
    vkmd_uff_terms t = {0};
    CHECK_OK(vkmd_uff_setup(&recs[0], NULL, &ty, &t));
    const int32_t na = recs[0].atom_count;
    double *x = malloc(sizeof *x * 3 * (size_t)na);
    static int xo[LB_XYL_REPLICAS], xt[LB_XYL_REPLICAS];
    other = 0;
    for (int r = 0; r < LB_XYL_REPLICAS; ++r) {
        vkmd_uff_perturb(vkmd_uff_molecule_conformer(&recs[0], 0), na, LB_AMPLITUDE, LB_XYL_SEED,
                         (uint32_t)r, x);
        vkmd_uff_relax_result res;
        CHECK_OK(vkmd_ref_uff_lbfgs(&t, NULL, x, &res, NULL, 0));
        CHECK_MSG(res.converged, "xylitol %d did not converge", r);
        const int c = lb_classify(res.energy_final, res.fmax, &d.xyl[r], d.xyl, LB_XYL_REPLICAS);
        CHECK_MSG(c == 0 || c == 1, "xylitol %d: E %.8f, RDKit %.8f", r, res.energy_final,
                  d.xyl[r].e_tight);
        other += c == 1;
        xo[r] = res.iterations;
        xt[r] = d.xyl[r].iterations;
    }
    report("xylitol replicas", xo, xt, LB_XYL_REPLICAS, other);

    /* Settings: tighter tolerance, iteration cap, bad values. */
    vkmd_uff_relax_result loose, tight, capped;
    vkmd_uff_perturb(vkmd_uff_molecule_conformer(&recs[0], 0), na, LB_AMPLITUDE, LB_XYL_SEED, 0, x);
    CHECK_OK(vkmd_ref_uff_lbfgs(&t, NULL, x, &loose, NULL, 0));
    vkmd_uff_perturb(vkmd_uff_molecule_conformer(&recs[0], 0), na, LB_AMPLITUDE, LB_XYL_SEED, 0, x);
    CHECK_OK(
        vkmd_ref_uff_lbfgs(&t, &(vkmd_uff_lbfgs_params){.force_tol = 1e-7}, x, &tight, NULL, 0));
    printf("force_tol 1e-4: %d iterations, max |F| %.2e; 1e-7: %d iterations, max |F| %.2e "
           "kcal/mol/A\n",
           loose.iterations, loose.fmax, tight.iterations, tight.fmax);
    CHECK(tight.fmax < loose.fmax && tight.iterations > loose.iterations);
    vkmd_uff_perturb(vkmd_uff_molecule_conformer(&recs[0], 0), na, LB_AMPLITUDE, LB_XYL_SEED, 0, x);
    CHECK_OK(
        vkmd_ref_uff_lbfgs(&t, &(vkmd_uff_lbfgs_params){.max_iterations = 3}, x, &capped, NULL, 0));
    CHECK(!capped.converged && capped.iterations == 3 && capped.status == VKMD_UFF_RELAX_RUNNING);
    CHECK(vkmd_ref_uff_lbfgs(&t, &(vkmd_uff_lbfgs_params){.memory = 99}, x, &capped, NULL, 0) ==
          VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_ref_uff_lbfgs(&t, &(vkmd_uff_lbfgs_params){.force_tol = -1}, x, &capped, NULL, 0) ==
          VKMD_ERROR_INVALID_ARGUMENT);
    free(x);
    vkmd_uff_terms_free(&t);
    vkmd_uff_typing_free(&ty);
    vkmd_uff_molecule_array_free(recs, nrec);
    return test_finish("test_ref_uff_lbfgs");
}
