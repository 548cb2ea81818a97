/* The device quasi-Newton minimiser (sim/uff_lbfgs.h through
 * sim/uff_relax.h's vkmd_uff_relax_batch, shaders/uff_lbfgs.comp) against
 * its CPU double reference (ref/ref_uff_lbfgs.h) and RDKit
 * (tests/data/uff/lbfgs_rdkit.txt; see tests/test_uff_lbfgs_common.h):
 *   - one mixed batch of all 57 records of tests/data/uff/molecules.sdf,
 *     each from its own coordinates, default settings (dense BFGS, RDKit's
 *     forceTol 1e-4 test): every replica stops converged, its minimum is
 *     RDKit's from the same start within 1e-4 kcal/mol (the double
 *     reference energy at the device's final coordinates), or another RDKit
 *     minimum of that molecule, or lower than where RDKit stalls (printed,
 *     bounded); median iterations within 2x of RDKit's;
 *   - 64 perturbed xylitol replicas in one batch: the same criteria;
 *   - device against reference from the same 4 starts: energy after 1, 3
 *     and 10 iterations (max_iterations caps both), relative
 *     TOL_LBFGS_TRACE_REL; final minima within TOL_LBFGS_MINIMUM_ABS when
 *     both end in the same basin; iterations printed;
 *   - L-BFGS (memory 8) on 16 xylitol replicas: converges, minima are
 *     RDKit minima, energy after 3 iterations as the reference's;
 *   - two runs give the same bits; bad parameters refused; no validation
 *     error. */
#include "test_uff_lbfgs_common.h"
#include "ref/ref_uff.h"
#include "ref/ref_uff_lbfgs.h"
#include "sim/uff_relax.h"
#include "system/uff_batch.h"
#include "vk/context.h"

#define MAX_OTHER 8

static int check_set(const char *set, const vkmd_uff_relax_result *res, const double *e_ref,
                     const lb_rdkit_run *same, const lb_rdkit_run *others, int n_others_each,
                     int others_shared, int n)
{
    static int ours[128], theirs[128];
    int other = 0, stalled = 0;
    for (int i = 0; i < n; ++i) {
        CHECK_MSG(res[i].converged, "%s %d: not converged (%d iterations)", set, i,
                  res[i].iterations);
        const lb_rdkit_run *o = others_shared ? others : others + (size_t)i * n_others_each;
        const int c = lb_classify(e_ref[i], res[i].fmax, &same[i], o, n_others_each);
        CHECK_MSG(c >= 0,
                  "%s %d: E %.8f (device %.8f), RDKit %.8f; status %d after %d iterations, "
                  "max |F| %.2e",
                  set, i, e_ref[i], res[i].energy_final, same[i].e_tight, res[i].status,
                  res[i].iterations, res[i].fmax);
        other += c == 1;
        stalled += c == 2;
        ours[i] = res[i].iterations;
        theirs[i] = same[i].iterations;
    }
    const double mo = lb_median(ours, n), mt = lb_median(theirs, n);
    printf("%s on the device: %d replicas, median iterations %.1f (max %d), RDKit %.1f (max %d); "
           "%d in another RDKit minimum, %d below an RDKit stall\n",
           set, n, mo, ours[n - 1], mt, theirs[n - 1], other, stalled);
    CHECK_MSG(mo <= TOL_LBFGS_ITERATIONS_RATIO * mt, "%s: median %.1f vs RDKit %.1f", set, mo, mt);
    CHECK(other <= MAX_OTHER && stalled <= 1);
    return 0;
}

/* Reference energies at the device's final coordinates, replica by replica. */
static void ref_energies(const vkmd_uff_batch *b, const vkmd_uff_terms *const *mols,
                         const double *x, double *out)
{
    for (int32_t r = 0; r < b->replica_count; ++r) {
        vkmd_uff_energy e;
        CHECK_OK(vkmd_ref_uff_compute(mols[b->replica_molecule[r]],
                                      x + 3 * (size_t)b->replica_atom_offset[r], &e, NULL));
        out[r] = e.total;
    }
}

int main(void)
{
    static lb_data d;
    CHECK(lb_read(&d));
    vkmd_uff_molecule *recs = NULL, *xyl = NULL;
    int32_t nrec = 0, nx = 0;
    CHECK_OK(vkmd_uff_molecule_load(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &nrec));
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &xyl, &nx));
    CHECK(nrec == d.records && nrec <= LB_MAX_RECORDS);
    static vkmd_uff_typing ty[LB_MAX_RECORDS + 1];
    static vkmd_uff_terms terms[LB_MAX_RECORDS + 1];
    const vkmd_uff_terms *mols[LB_MAX_RECORDS + 1];
    for (int32_t k = 0; k < nrec; ++k) {
        CHECK_OK(vkmd_uff_setup(&recs[k], NULL, &ty[k], &terms[k]));
        mols[k] = &terms[k];
    }
    CHECK_OK(vkmd_uff_setup(&xyl[0], NULL, &ty[nrec], &terms[nrec]));
    const vkmd_uff_terms *xt = &terms[nrec];
    const int32_t xa = xyl[0].atom_count;

    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_uff_lbfgs", &ctx);
    if (early >= 0) {
        for (int32_t k = 0; k <= nrec; ++k) {
            vkmd_uff_terms_free(&terms[k]);
            vkmd_uff_typing_free(&ty[k]);
        }
        vkmd_uff_molecule_array_free(recs, nrec);
        vkmd_uff_molecule_array_free(xyl, nx);
        return early;
    }

    /* 1. Every record in one mixed batch. */
    {
        static int32_t rep_mol[LB_MAX_RECORDS];
        for (int32_t k = 0; k < nrec; ++k)
            rep_mol[k] = k;
        vkmd_uff_batch b = {0};
        CHECK_OK(vkmd_uff_batch_build(mols, nrec, rep_mol, nrec, &b));
        double *x = calloc(3 * (size_t)b.atom_count, sizeof *x);
        double *xf = calloc(3 * (size_t)b.atom_count, sizeof *xf);
        for (int32_t k = 0; k < nrec; ++k)
            memcpy(x + 3 * (size_t)b.replica_atom_offset[k],
                   vkmd_uff_molecule_conformer(&recs[k], 0), sizeof *x * 3 * recs[k].atom_count);
        static vkmd_uff_relax_result res[LB_MAX_RECORDS];
        static double e_ref[LB_MAX_RECORDS];
        int32_t checks = 0;
        CHECK_OK(vkmd_uff_relax_batch(ctx, &b, NULL, x, xf, res, &checks));
        ref_energies(&b, mols, xf, e_ref);
        double worst = 0;
        for (int32_t k = 0; k < nrec; ++k) {
            const double dev = fabs(res[k].energy_final - e_ref[k]);
            worst = dev > worst ? dev : worst;
        }
        printf("records: %d host checks; device vs reference energy at the final coordinates: "
               "max %.2e kcal/mol\n",
               checks, worst);
        CHECK(worst < TOL_UFF_RELAX_ENERGY_ABS * 10);
        check_set("molecules.sdf records", res, e_ref, d.rec, &d.rec_extra[0][0], LB_REC_EXTRA, 0,
                  nrec);
        free(x);
        free(xf);
        vkmd_uff_batch_free(&b);
    }

    /* 2. 64 xylitol replicas. */
    vkmd_uff_batch xb = {0};
    const vkmd_uff_terms *xm[1] = {xt};
    CHECK_OK(vkmd_uff_batch_build(xm, 1, NULL, LB_XYL_REPLICAS, &xb));
    double *xs = calloc(3 * (size_t)xb.atom_count, sizeof *xs);
    double *xf = calloc(3 * (size_t)xb.atom_count, sizeof *xf);
    double *xf2 = calloc(3 * (size_t)xb.atom_count, sizeof *xf2);
    for (int r = 0; r < LB_XYL_REPLICAS; ++r)
        vkmd_uff_perturb(vkmd_uff_molecule_conformer(&xyl[0], 0), xa, LB_AMPLITUDE, LB_XYL_SEED,
                         (uint32_t)r, xs + 3 * (size_t)xb.replica_atom_offset[r]);
    {
        static vkmd_uff_relax_result res[LB_XYL_REPLICAS], res2[LB_XYL_REPLICAS];
        static double e_ref[LB_XYL_REPLICAS];
        CHECK_OK(vkmd_uff_relax_batch(ctx, &xb, NULL, xs, xf, res, NULL));
        ref_energies(&xb, xm, xf, e_ref);
        check_set("xylitol replicas", res, e_ref, d.xyl, d.xyl, LB_XYL_REPLICAS, 1,
                  LB_XYL_REPLICAS);
        CHECK_OK(vkmd_uff_relax_batch(ctx, &xb, NULL, xs, xf2, res2, NULL));
        CHECK_MSG(!memcmp(xf, xf2, sizeof *xf * 3 * (size_t)xb.atom_count),
                  "two runs differ in their final coordinates");
        for (int r = 0; r < LB_XYL_REPLICAS; ++r)
            CHECK(res[r].iterations == res2[r].iterations &&
                  res[r].evaluations == res2[r].evaluations);
    }

    /* 3. Device against reference, the first 4 starts: energy after k
     * iterations and the final minima. memory 0 (dense BFGS) and 8 (L-BFGS). */
    vkmd_uff_batch sb = {0};
    CHECK_OK(vkmd_uff_batch_build(xm, 1, NULL, 4, &sb));
    const int32_t caps[] = {1, 3, 10, 0};
    for (int mem = 0; mem <= 8; mem += 8) {
        for (int ci = 0; ci < 4; ++ci) {
            const vkmd_uff_relax_params rp = {.max_iterations = caps[ci], .memory = mem};
            const vkmd_uff_lbfgs_params lp = {.max_iterations = caps[ci], .memory = mem};
            static vkmd_uff_relax_result res[LB_XYL_REPLICAS];
            CHECK_OK(vkmd_uff_relax_batch(ctx, &sb, &rp, xs, xf, res, NULL));
            double worst = 0;
            int same = 0;
            for (int r = 0; r < 4; ++r) {
                double *x = malloc(sizeof *x * 3 * (size_t)xa);
                memcpy(x, xs + 3 * (size_t)sb.replica_atom_offset[r], sizeof *x * 3 * (size_t)xa);
                vkmd_uff_relax_result cpu;
                CHECK_OK(vkmd_ref_uff_lbfgs(xt, &lp, x, &cpu, NULL, 0));
                vkmd_uff_energy e;
                CHECK_OK(
                    vkmd_ref_uff_compute(xt, xf + 3 * (size_t)sb.replica_atom_offset[r], &e, NULL));
                const double rel = fabs(e.total - cpu.energy_final) / fabs(cpu.energy_final);
                if (caps[ci] > 0) {
                    worst = rel > worst ? rel : worst;
                    CHECK(res[r].iterations == caps[ci] && cpu.iterations == caps[ci]);
                } else {
                    CHECK(res[r].converged && cpu.converged);
                    if (fabs(e.total - cpu.energy_final) < TOL_LBFGS_MINIMUM_ABS)
                        ++same;
                    printf("  memory %d replica %d: device %d iterations (%d evaluations) to "
                           "%.6f; reference %d (%d) to %.6f kcal/mol\n",
                           mem, r, res[r].iterations, res[r].evaluations, e.total, cpu.iterations,
                           cpu.evaluations, cpu.energy_final);
                }
                free(x);
            }
            if (caps[ci] > 0) {
                printf("memory %d, %d iterations: device vs reference energy, max relative "
                       "%.2e\n",
                       mem, caps[ci], worst);
                CHECK_MSG(worst < TOL_LBFGS_TRACE_REL, "memory %d after %d iterations: %.2e", mem,
                          caps[ci], worst);
            } else {
                printf("memory %d: %d of 4 replicas in the reference's minimum\n", mem, same);
                CHECK(same >= 3);
            }
        }
    }

    vkmd_uff_batch_free(&sb);

    /* 4. Bad parameters. */
    CHECK(vkmd_uff_relax_batch(ctx, &xb, &(vkmd_uff_relax_params){.memory = 17}, xs, NULL, NULL,
                               NULL) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_uff_relax_batch(ctx, &xb, &(vkmd_uff_relax_params){.force_tol = -1}, xs, NULL, NULL,
                               NULL) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_uff_relax_batch(ctx, &xb, &(vkmd_uff_relax_params){.minimizer = 7}, xs, NULL, NULL,
                               NULL) == VKMD_ERROR_INVALID_ARGUMENT);

    printf("validation errors: %u (warnings %u)\n", vkmd_vk_context_validation_errors(ctx),
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    free(xs);
    free(xf);
    free(xf2);
    vkmd_uff_batch_free(&xb);
    vkmd_vk_context_destroy(ctx);
    for (int32_t k = 0; k <= nrec; ++k) {
        vkmd_uff_terms_free(&terms[k]);
        vkmd_uff_typing_free(&ty[k]);
    }
    vkmd_uff_molecule_array_free(recs, nrec);
    vkmd_uff_molecule_array_free(xyl, nx);
    return test_finish("test_gpu_uff_lbfgs");
}
