/* Batched UFF evaluation of many replicas (sim/uff_replicas.h): replicas of
 * two molecules, alternating and all of one molecule, evaluated in one batch
 * and in batches of 3 (the pass kept between batches of the same layout)
 * give the same bits per replica (fixed-point sums), agree with the double
 * reference per replica, count their dispatches, and return the details of
 * the debug replica only. */
#include "io/uff_load.h"
#include "ref/ref_uff.h"
#include "sim/uff_replicas.h"
#include "testlib.h"
#include "vk/context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REPS 8

static void run_case(vkmd_vk_context *ctx, const char *what, const vkmd_uff_terms *const *mols,
                     const vkmd_uff_molecule *const *recs, const int32_t *which)
{
    uint64_t seed = 7;
    double *xyz[REPS], *f1[REPS], *f3[REPS];
    vkmd_uff_replica reps[REPS];
    vkmd_uff_energy e1[REPS], e3[REPS];
    for (int r = 0; r < REPS; ++r) {
        const vkmd_uff_molecule *m = recs[which[r]];
        const size_t n = 3 * (size_t)m->atom_count;
        xyz[r] = malloc(n * sizeof(double));
        f1[r] = malloc(n * sizeof(double));
        f3[r] = malloc(n * sizeof(double));
        for (size_t k = 0; k < n; ++k)
            xyz[r][k] = m->positions[k] + 0.2 * (test_uniform(&seed) - 0.5);
        reps[r] = (vkmd_uff_replica){which[r], xyz[r]};
    }
    int32_t batches1 = 0, batches3 = 0, nd = 0, nd_none = -1;
    vkmd_uff_debug_record *dbg = NULL, *none = NULL;
    CHECK_OK(vkmd_uff_replicas_evaluate(ctx, mols, 2, reps, REPS, NULL, e1, f1, &none, &nd_none,
                                        &batches1));
    const vkmd_uff_replicas_desc d3 = {.replicas_per_batch = 3, .debug = 1, .debug_replica = 4};
    CHECK_OK(
        vkmd_uff_replicas_evaluate(ctx, mols, 2, reps, REPS, &d3, e3, f3, &dbg, &nd, &batches3));
    printf("%s: %d and %d dispatch(es), %d debug records of replica 5\n", what, batches1, batches3,
           nd);
    CHECK(batches1 == 1 && batches3 == 3);
    CHECK(none == NULL && nd_none == 0);
    CHECK(dbg != NULL && nd > 0);
    for (int32_t k = 0; dbg && k < nd; ++k)
        if (dbg[k].info.z == 1)
            CHECK(dbg[k].atoms.x < (uint32_t)recs[which[4]]->atom_count);
    double worst = 0;
    for (int r = 0; r < REPS; ++r) {
        const int32_t na = recs[which[r]]->atom_count;
        CHECK_MSG(e1[r].total == e3[r].total && e1[r].vdw == e3[r].vdw, "replica %d", r);
        CHECK(!memcmp(f1[r], f3[r], 3 * sizeof(double) * (size_t)na));
        vkmd_uff_energy ref;
        CHECK_OK(vkmd_ref_uff_compute(mols[which[r]], xyz[r], &ref, NULL));
        worst = fmax(worst, fabs(e1[r].total - ref.total) / fmax(1.0, fabs(ref.total)));
        free(xyz[r]);
        free(f1[r]);
        free(f3[r]);
    }
    printf("%s: worst total energy error against the reference %.2e (relative)\n", what, worst);
    CHECK(worst < 1e-4);
    free(dbg);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_uff_replicas", &ctx);
    if (early >= 0)
        return early;
    vkmd_uff_molecule *fa = NULL, *xy = NULL;
    int32_t nfa = 0, nxy = 0;
    vkmd_uff_typing ty[2];
    vkmd_uff_terms terms[2];
    memset(ty, 0, sizeof ty);
    memset(terms, 0, sizeof terms);
    CHECK_OK(vkmd_uff_molecule_load("formic-acid", &fa, &nfa));
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &xy, &nxy));
    if (fa && xy) {
        CHECK_OK(vkmd_uff_setup(&fa[0], NULL, &ty[0], &terms[0]));
        CHECK_OK(vkmd_uff_setup(&xy[0], NULL, &ty[1], &terms[1]));
        const vkmd_uff_terms *mols[2] = {&terms[0], &terms[1]};
        const vkmd_uff_molecule *recs[2] = {&fa[0], &xy[0]};
        const int32_t mixed[REPS] = {0, 1, 0, 1, 1, 0, 1, 0};
        const int32_t same[REPS] = {1, 1, 1, 1, 1, 1, 1, 1};
        run_case(ctx, "two molecules", mols, recs, mixed);
        run_case(ctx, "one molecule", mols, recs, same);
    }
    for (int k = 0; k < 2; ++k) {
        vkmd_uff_terms_free(&terms[k]);
        vkmd_uff_typing_free(&ty[k]);
    }
    vkmd_uff_molecule_array_free(fa, nfa);
    vkmd_uff_molecule_array_free(xy, nxy);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_uff_replicas");
}
