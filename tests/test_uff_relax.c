/* FIRE minimisation of many UFF replicas (sim/uff_fire.h,
 * shaders/uff_fire.comp) against RDKit's minimiser and the CPU double
 * reference FIRE (ref/ref_uff_fire.h):
 *   - 64 replicas of xylitol, every coordinate displaced by up to 0.1 A
 *     (vkmd_uff_perturb, seed 7), all relaxed at once on the device: every
 *     replica converges (max |F| < 1e-3 kcal/mol/A);
 *   - each replica's minimum energy (the double reference at the device's
 *     final coordinates) against RDKit's BFGS minimum from the SAME start
 *     (tests/data/uff/relax_xylitol_rdkit.txt, tests/oracles/uff_relax_rdkit.py):
 *     within 1e-3 kcal/mol, or else in a different local minimum: then its
 *     energy must be one of the minima RDKit found from some start (a real
 *     minimum, not a stalled point) and the count of such replicas is
 *     printed and bounded (xylitol's hydroxyl rotamers give several minima
 *     a few kcal/mol apart, and two minimisers' paths from a start 0.2 A off
 *     can end in different ones);
 *   - the device energy at the end against the double reference there
 *     (fp32 pass accuracy);
 *   - the CPU reference FIRE on 4 replicas: converges, same minimum as the
 *     device within 1e-3 kcal/mol when both reach the same basin;
 *   - two device runs give the same bits (fixed-order reductions);
 *   - the perturbation reproduces the published splitmix64 sequence;
 *   - a batch mixing 6 molecules of tests/data/uff/molecules.sdf (2
 *     perturbed replicas each, interleaved, so replicas of one molecule are
 *     not neighbours): every replica converges on the device and its
 *     minimum matches the CPU reference FIRE's from the same start;
 *   - bad parameters are refused; no validation error. */
#include "testlib.h"
#include "tolerance.h"
#include "ref/ref_uff.h"
#include "io/uff_load.h"
#include "ref/ref_uff_fire.h"
#include "system/uff_batch.h"
#include "sim/uff_fire.h"
#include "system/uff_molecule.h"
#include "system/uff_typing.h"
#include "io/sdf.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_TOL       TOL_RDKIT_ENERGY_ABS /* kcal/mol between two minimisers' minima */
#define FTOL          1e-3                 /* kcal/mol/A, max |F| */
#define MAX_REPLICAS  64
#define CPU_REPLICAS  4
#define MAX_OTHER_MIN 8 /* replicas allowed in another local minimum than RDKit's */

typedef struct rdkit_data {
    uint64_t seed;
    double amplitude;
    int replicas;
    double e_start[MAX_REPLICAS], e_min[MAX_REPLICAS];
} rdkit_data;

static int read_rdkit(rdkit_data *d)
{
    const char *path = VKMD_TEST_DATA_DIR "/uff/relax_xylitol_rdkit.txt";
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return 0;
    char line[256];
    int got = 0;
    unsigned long long seed = 0;
    memset(d, 0, sizeof *d);
    while (fgets(line, sizeof line, f)) {
        int r;
        double e0, e1;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "seed %llu", &seed) == 1)
            d->seed = seed;
        else if (sscanf(line, "amplitude_a %lf", &d->amplitude) == 1)
            continue;
        else if (sscanf(line, "replicas %d", &d->replicas) == 1)
            continue;
        else if (sscanf(line, "%d %lf %lf", &r, &e0, &e1) == 3 && r >= 0 && r < MAX_REPLICAS) {
            d->e_start[r] = e0;
            d->e_min[r] = e1;
            ++got;
        }
    }
    fclose(f);
    CHECK_MSG(d->replicas == MAX_REPLICAS && got == MAX_REPLICAS,
              "%s: %d replicas declared, %d read", path, d->replicas, got);
    return got == MAX_REPLICAS;
}

/* The first splitmix64 outputs for seed 0 (Vigna's reference), through the
 * perturbation: xyz 0, amplitude 1, replica r uses seed + golden (r + 1),
 * so replica 0 with seed -golden starts the state at 0. */
static void test_perturb(void)
{
    const uint64_t golden = 0x9E3779B97F4A7C15ull;
    double zero[3] = {0, 0, 0}, out[3];
    vkmd_uff_perturb(zero, 1, 1.0, (uint64_t)0 - golden, 0, out);
    const uint64_t expect[3] = {0xE220A8397B1DCDAFull, 0x6E789E6AA1B965F4ull,
                                0x06C45D188009454Full};
    for (int i = 0; i < 3; ++i) {
        const double u = (double)(expect[i] >> 11) * 0x1.0p-53;
        CHECK_MSG(out[i] == 2 * u - 1, "splitmix64 output %d: %.17g, expected %.17g", i, out[i],
                  2 * u - 1);
    }
}

/* Device FIRE of a batch mixing molecules against the CPU reference FIRE. */
static void test_mixed(vkmd_vk_context *ctx)
{
    static const char *const names[] = {"formic-acid",  "ethanol",          "benzene",
                                        "acetonitrile", "dimethyl-sulfide", "methyl-phosphate"};
    enum { NM = 6, PER = 2, NR = NM * PER };
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0;
    CHECK_OK(vkmd_sdf_read(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &count));
    vkmd_uff_typing ty[NM];
    vkmd_uff_terms terms[NM];
    const vkmd_uff_molecule *mol[NM] = {0};
    memset(ty, 0, sizeof ty);
    memset(terms, 0, sizeof terms);
    int found = 0;
    for (int k = 0; k < NM; ++k)
        for (int32_t i = 0; i < count; ++i)
            if (!strcmp(recs[i].name, names[k]) && !mol[k]) {
                mol[k] = &recs[i];
                found += vkmd_uff_setup(mol[k], NULL, &ty[k], &terms[k]) == VKMD_OK;
            }
    CHECK(found == NM);
    if (found != NM) {
        vkmd_uff_molecule_array_free(recs, count);
        return;
    }
    /* replica r is molecule r % NM: a molecule's replicas are not neighbours */
    int32_t rep_mol[NR], offset[NR + 1];
    offset[0] = 0;
    for (int r = 0; r < NR; ++r) {
        rep_mol[r] = r % NM;
        offset[r + 1] = offset[r] + mol[rep_mol[r]]->atom_count;
    }
    double *start = calloc(3 * (size_t)offset[NR], sizeof *start);
    double *x = calloc(3 * (size_t)offset[NR], sizeof *x);
    vkmd_uff_fire_result dev[NR];
    CHECK(start && x);
    for (int r = 0; start && r < NR; ++r)
        vkmd_uff_perturb(mol[rep_mol[r]]->positions, mol[rep_mol[r]]->atom_count, 0.1, 3,
                         (uint32_t)r, start + 3 * (size_t)offset[r]);
    const vkmd_uff_terms *tp[NM];
    for (int k = 0; k < NM; ++k)
        tp[k] = &terms[k];
    vkmd_uff_batch batch = {0};
    vkmd_uff_fire *fire = NULL;
    const vkmd_uff_fire_params params = {.ftol = FTOL};
    CHECK_OK(vkmd_uff_batch_build(tp, NM, rep_mol, NR, &batch));
    CHECK_OK(vkmd_uff_fire_create(ctx, &batch, &params, &fire));
    if (fire && start && x) {
        CHECK_OK(vkmd_uff_fire_run(ctx, fire, start, x, dev));
        double worst = 0;
        int converged = 0, steps_max = 0;
        for (int r = 0; r < NR; ++r) {
            double *xc = calloc(3 * (size_t)mol[rep_mol[r]]->atom_count, sizeof *xc);
            vkmd_uff_fire_result cpu;
            memcpy(xc, start + 3 * (size_t)offset[r],
                   3 * (size_t)mol[rep_mol[r]]->atom_count * sizeof *xc);
            CHECK_OK(vkmd_ref_uff_fire(&terms[rep_mol[r]], &params, xc, &cpu));
            vkmd_uff_energy e;
            CHECK_OK(vkmd_ref_uff_compute(&terms[rep_mol[r]], x + 3 * (size_t)offset[r], &e, NULL));
            const double d = fabs(e.total - cpu.energy_final);
            worst = fmax(worst, d);
            converged += dev[r].converged && cpu.converged;
            steps_max = dev[r].steps > steps_max ? dev[r].steps : steps_max;
            CHECK_MSG(d <= MIN_TOL, "mixed replica %d (%s): device minimum %.6f, cpu %.6f", r,
                      names[rep_mol[r]], e.total, cpu.energy_final);
            free(xc);
        }
        printf("mixed batch of %d molecules x %d: %d/%d converged on both (device at most %d "
               "steps); worst |E_dev - E_cpu| at the minima %.2e kcal/mol\n",
               NM, PER, converged, NR, steps_max, worst);
        CHECK(converged == NR);
    }
    vkmd_uff_fire_destroy(ctx, fire);
    vkmd_uff_batch_free(&batch);
    free(start);
    free(x);
    for (int k = 0; k < NM; ++k) {
        vkmd_uff_terms_free(&terms[k]);
        vkmd_uff_typing_free(&ty[k]);
    }
    vkmd_uff_molecule_array_free(recs, count);
}

int main(void)
{
    test_perturb();
    rdkit_data rd;
    if (!read_rdkit(&rd))
        return test_finish("test_uff_relax");

    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0;
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &recs, &count));
    vkmd_uff_typing ty = {0};
    vkmd_uff_terms terms = {0};
    CHECK_OK(vkmd_uff_setup(&recs[0], NULL, &ty, &terms));
    const int32_t na = recs[0].atom_count, nr = rd.replicas;
    double *start = calloc(3 * (size_t)na * nr, sizeof *start);
    double *x1 = calloc(3 * (size_t)na * nr, sizeof *x1);
    double *x2 = calloc(3 * (size_t)na * nr, sizeof *x2);
    double *xc = calloc(3 * (size_t)na, sizeof *xc);
    vkmd_uff_fire_result *res1 = calloc((size_t)nr, sizeof *res1);
    vkmd_uff_fire_result *res2 = calloc((size_t)nr, sizeof *res2);
    CHECK(start && x1 && x2 && xc && res1 && res2);
    for (int32_t r = 0; r < nr; ++r)
        vkmd_uff_perturb(recs[0].positions, na, rd.amplitude, rd.seed, (uint32_t)r,
                         start + 3 * (size_t)r * na);

    /* Starts are the same as RDKit's: same start energy (double reference). */
    double worst_start = 0;
    for (int32_t r = 0; r < nr; ++r) {
        vkmd_uff_energy e;
        CHECK_OK(vkmd_ref_uff_compute(&terms, start + 3 * (size_t)r * na, &e, NULL));
        worst_start = fmax(worst_start, fabs(e.total - rd.e_start[r]) / fabs(rd.e_start[r]));
    }
    printf("starts: %d replicas, amplitude %.2f A, seed %llu; worst |E_start - RDKit| / |E| = "
           "%.2e\n",
           nr, rd.amplitude, (unsigned long long)rd.seed, worst_start);
    CHECK(worst_start <= TOL_RDKIT_ENERGY_REL);

    /* The distinct minima RDKit found from any start. */
    double minima[MAX_REPLICAS];
    int n_minima = 0;
    for (int32_t r = 0; r < nr; ++r) {
        int seen = 0;
        for (int k = 0; k < n_minima; ++k)
            seen |= fabs(minima[k] - rd.e_min[r]) <= MIN_TOL;
        if (!seen)
            minima[n_minima++] = rd.e_min[r];
    }
    printf("RDKit: %d distinct minima among %d replicas\n", n_minima, nr);

    /* CPU reference FIRE on a few replicas. */
    vkmd_uff_fire_params params = {.ftol = FTOL};
    vkmd_uff_fire_result cpu[CPU_REPLICAS];
    for (int32_t r = 0; r < CPU_REPLICAS; ++r) {
        memcpy(xc, start + 3 * (size_t)r * na, 3 * (size_t)na * sizeof *xc);
        CHECK_OK(vkmd_ref_uff_fire(&terms, &params, xc, &cpu[r]));
        printf("cpu FIRE replica %d: %s in %d steps, E %.6f -> %.6f (RDKit %.6f), max|F| %.2e\n", r,
               cpu[r].converged ? "converged" : "NOT converged", cpu[r].steps,
               cpu[r].energy_initial, cpu[r].energy_final, rd.e_min[r], cpu[r].fmax);
        CHECK(cpu[r].converged);
    }

    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_uff_relax", &ctx);
    if (early >= 0) {
        free(start), free(x1), free(x2), free(xc), free(res1), free(res2);
        vkmd_uff_terms_free(&terms);
        vkmd_uff_typing_free(&ty);
        vkmd_uff_molecule_array_free(recs, count);
        return early;
    }
    vkmd_uff_batch batch = {0};
    const vkmd_uff_terms *mols[1] = {&terms};
    CHECK_OK(vkmd_uff_batch_build(mols, 1, NULL, nr, &batch));
    vkmd_uff_fire *fire = NULL;
    CHECK_OK(vkmd_uff_fire_create(ctx, &batch, &params, &fire));
    if (fire) {
        CHECK_OK(vkmd_uff_fire_run(ctx, fire, start, x1, res1));
        const int32_t subs = vkmd_uff_fire_submissions(fire);
        int converged = 0, same = 0, other = 0, unknown = 0, steps_min = 1 << 30, steps_max = 0;
        double worst_same = 0, worst_gpu_ref = 0, fmax_worst = 0;
        for (int32_t r = 0; r < nr; ++r) {
            const vkmd_uff_fire_result *g = &res1[r];
            converged += g->converged;
            steps_min = g->steps < steps_min ? g->steps : steps_min;
            steps_max = g->steps > steps_max ? g->steps : steps_max;
            fmax_worst = fmax(fmax_worst, g->fmax);
            vkmd_uff_energy e;
            CHECK_OK(vkmd_ref_uff_compute(&terms, x1 + 3 * (size_t)r * na, &e, NULL));
            worst_gpu_ref = fmax(worst_gpu_ref, fabs(g->energy_final - e.total));
            const double d = fabs(e.total - rd.e_min[r]);
            if (d <= MIN_TOL) {
                ++same;
                worst_same = fmax(worst_same, d);
            } else {
                int known = 0;
                for (int k = 0; k < n_minima; ++k)
                    known |= fabs(minima[k] - e.total) <= MIN_TOL;
                other += known;
                unknown += !known;
                printf("  replica %d: FIRE minimum %.6f, RDKit's from the same start %.6f "
                       "(%s)\n",
                       r, e.total, rd.e_min[r],
                       known ? "another minimum RDKit also reaches" : "NOT a known minimum");
            }
            if (r < CPU_REPLICAS && fabs(cpu[r].energy_final - e.total) <= 10 * MIN_TOL)
                CHECK_MSG(fabs(cpu[r].energy_final - e.total) <= MIN_TOL,
                          "replica %d: cpu FIRE %.6f, device FIRE %.6f", r, cpu[r].energy_final,
                          e.total);
            if (r < CPU_REPLICAS)
                printf("device FIRE replica %d: %d steps, E %.6f -> %.6f (ref at its coordinates "
                       "%.6f; cpu FIRE %.6f)\n",
                       r, g->steps, g->energy_initial, g->energy_final, e.total,
                       cpu[r].energy_final);
        }
        printf("device: %d/%d converged (max|F| < %.0e kcal/mol/A; worst final max|F| %.2e) in "
               "%d..%d steps, %d host checks\n",
               converged, nr, FTOL, fmax_worst, steps_min, steps_max, subs);
        printf("minima vs RDKit from the same start: %d within %.0e kcal/mol (worst %.2e), %d in "
               "another known minimum, %d unknown\n",
               same, MIN_TOL, worst_same, other, unknown);
        printf("device energy vs double reference at the final coordinates: worst %.2e "
               "kcal/mol\n",
               worst_gpu_ref);
        CHECK(converged == nr);
        CHECK(unknown == 0);
        CHECK(other <= MAX_OTHER_MIN);
        CHECK(worst_gpu_ref <= TOL_UFF_RELAX_ENERGY_ABS);
    }
    vkmd_uff_fire_destroy(ctx, fire);

    /* Determinism: two runs of 100 steps (mid-descent, nothing converged
     * yet) from the same starts give the same bits. */
    const vkmd_uff_fire_params short_params = {.ftol = FTOL, .max_steps = 100};
    fire = NULL;
    CHECK_OK(vkmd_uff_fire_create(ctx, &batch, &short_params, &fire));
    if (fire) {
        CHECK_OK(vkmd_uff_fire_run(ctx, fire, start, x1, res1));
        CHECK_OK(vkmd_uff_fire_run(ctx, fire, start, x2, res2));
        int same_bits = !memcmp(x1, x2, 3 * (size_t)na * nr * sizeof *x1);
        for (int32_t r = 0; r < nr; ++r)
            same_bits &=
                res1[r].steps == res2[r].steps && res1[r].energy_final == res2[r].energy_final;
        printf("determinism: two 100-step runs of %d replicas %s (replica 0 at E %.6f, max|F| "
               "%.3e)\n",
               nr, same_bits ? "identical bit for bit" : "DIFFER", res1[0].energy_final,
               res1[0].fmax);
        CHECK(same_bits);
        CHECK(res1[0].steps == 100 && !res1[0].converged);
    }
    vkmd_uff_fire_destroy(ctx, fire);

    test_mixed(ctx);

    /* Bad parameters. */
    vkmd_uff_fire *bad = NULL;
    const vkmd_uff_fire_params bad_params = {.f_dec = 2};
    CHECK(vkmd_uff_fire_create(ctx, &batch, &bad_params, &bad) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);

    vkmd_uff_batch_free(&batch);
    printf("validation errors: %u (warnings %u)\n", vkmd_vk_context_validation_errors(ctx),
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    free(start), free(x1), free(x2), free(xc), free(res1), free(res2);
    vkmd_uff_terms_free(&terms);
    vkmd_uff_typing_free(&ty);
    vkmd_uff_molecule_array_free(recs, count);
    return test_finish("test_uff_relax");
}
