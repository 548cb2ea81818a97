/* Langevin (BAOAB) dynamics of many UFF replicas on the device
 * (sim/uff_md.h, shaders/uff_md.comp):
 *   - the atomic weights of xylitol add up to C5H12O5;
 *   - Maxwell-Boltzmann start: every velocity is sqrt(kT/m) times the shared
 *     Philox Gaussians (core/philox.h; its known-answer vectors are in
 *     test_core_philox) under UFF's counter (step 0, replica, atom, stream
 *     1), and the temperature of the drawn velocities;
 *   - 8 xylitol replicas from the same coordinates at 300 K, friction
 *     20 / ps, dt 0.5 fs: 400 steps to equilibrate, then each replica's mean
 *     temperature over 3,000 steps within 15 % of 300 K and the mean over
 *     replicas within 4 % (66 degrees of freedom: 17 % per sample; the
 *     replicas' means were up to 9 % off over 3,000 steps, the soft modes
 *     exchanging energy with the bath slowly);
 *   - the same seed and start give the same bits; another seed does not;
 *     replicas with the same start part (the noise depends on the replica);
 *   - bad parameters refused; no validation error. Keeps under ~30 s on
 *     lavapipe. */
#include "testlib.h"
#include "tolerance.h"
#include "core/philox.h"
#include "io/uff_load.h"
#include "system/uff_batch.h"
#include "sim/uff_md.h"
#include "system/uff_molecule.h"
#include "system/uff_typing.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLICAS 8
#define TEMP_K   300.0

static double temperature(const double *v, const double *mass, int32_t n)
{
    double ke = 0;
    for (int32_t i = 0; i < n; ++i)
        ke += 0.5 * mass[i] *
              (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
    return 2 * ke / VKMD_ACCEL_UNIT / (3.0 * n * VKMD_KB_KCAL_PER_MOL_K);
}

int main(void)
{
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0;
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &recs, &count));
    vkmd_uff_typing ty = {0};
    vkmd_uff_terms terms = {0};
    CHECK_OK(vkmd_uff_setup(&recs[0], NULL, &ty, &terms));
    const int32_t na = recs[0].atom_count, n = na * REPLICAS;
    double *mass = calloc((size_t)n, sizeof *mass), *xyz = calloc(3 * (size_t)n, sizeof *xyz);
    double *x1 = calloc(3 * (size_t)n, sizeof *x1), *x2 = calloc(3 * (size_t)n, sizeof *x2);
    double *vel = calloc(3 * (size_t)n, sizeof *vel);
    CHECK(mass && xyz && x1 && x2 && vel);
    CHECK_OK(vkmd_uff_masses(&recs[0], mass));
    double total = 0;
    for (int32_t a = 0; a < na; ++a)
        total += mass[a];
    printf("xylitol mass %.3f amu (C5H12O5: 152.146)\n", total);
    CHECK(fabs(total - 152.146) < 0.01);
    for (int32_t r = 0; r < REPLICAS; ++r) {
        memcpy(mass + (size_t)r * na, mass, (size_t)na * sizeof *mass);
        memcpy(xyz + 3 * (size_t)r * na, recs[0].positions, 3 * (size_t)na * sizeof *xyz);
    }

    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_uff_md", &ctx);
    if (early >= 0)
        return early;
    vkmd_uff_batch batch = {0};
    const vkmd_uff_terms *mols[1] = {&terms};
    CHECK_OK(vkmd_uff_batch_build(mols, 1, NULL, REPLICAS, &batch));
    const vkmd_uff_md_params params = {
        .dt_fs = 0.5, .temperature_k = TEMP_K, .friction_per_ps = 20, .seed = 11};
    vkmd_uff_md *md = NULL;
    CHECK_OK(vkmd_uff_md_create(ctx, &batch, mass, &params, &md));
    if (md) {
        CHECK_OK(vkmd_uff_md_set_state(ctx, md, xyz, NULL));
        CHECK_OK(vkmd_uff_md_read(ctx, md, NULL, vel, NULL));
        /* The start velocities, drawn on the host: the shared generator
         * under UFF's counter, rounded to float as uploaded. */
        const uint32_t key[2] = {(uint32_t)params.seed, (uint32_t)(params.seed >> 32)};
        double worst_v = 0;
        for (int32_t r = 0; r < REPLICAS; ++r) {
            for (int32_t a = 0; a < na; ++a) {
                const int32_t i = r * na + a;
                const uint32_t ctr[4] = {0, (uint32_t)r, (uint32_t)a, 1};
                uint32_t bits[4];
                double g[3];
                vkmd_philox4x32_10(ctr, key, bits);
                vkmd_philox_box_muller3(bits, g);
                const double s =
                    sqrt(VKMD_KB_KCAL_PER_MOL_K * TEMP_K * VKMD_ACCEL_UNIT / (float)mass[i]);
                for (int c = 0; c < 3; ++c)
                    worst_v = fmax(worst_v, fabs(vel[3 * i + c] - (float)(s * g[c])) /
                                                fmax(fabs(s * g[c]), 1e-12));
            }
        }
        printf("Maxwell-Boltzmann start vs shared Philox (step 0, replica, atom, stream 1): "
               "max relative difference %.3g over %d velocities\n",
               worst_v, 3 * n);
        CHECK(worst_v <= TOL_UFF_MD_START_REL);
        const double t0 = temperature(vel, mass, n);
        printf("Maxwell-Boltzmann start: %.1f K over %d atoms (target %.0f)\n", t0, n, TEMP_K);
        CHECK(fabs(t0 - TEMP_K) < 0.2 * TEMP_K);

        double tmean[REPLICAS];
        CHECK_OK(vkmd_uff_md_run(ctx, md, 400, tmean));
        printf("equilibration, 400 steps: replica 0 mean %.1f K\n", tmean[0]);
        CHECK_OK(vkmd_uff_md_run(ctx, md, 3000, tmean));
        double all = 0, worst = 0;
        for (int32_t r = 0; r < REPLICAS; ++r) {
            all += tmean[r] / REPLICAS;
            worst = fmax(worst, fabs(tmean[r] - TEMP_K) / TEMP_K);
            printf("  replica %d: mean temperature %.1f K over 3000 steps\n", r, tmean[r]);
        }
        vkmd_uff_energy e[REPLICAS];
        CHECK_OK(vkmd_uff_md_read(ctx, md, x1, NULL, e));
        printf("mean over replicas %.1f K (%.1f %% off), worst replica %.1f %% off; replica 0 "
               "potential %.3f kcal/mol after %lld steps\n",
               all, 100 * fabs(all - TEMP_K) / TEMP_K, 100 * worst, e[0].total,
               (long long)vkmd_uff_md_steps(md));
        CHECK(fabs(all - TEMP_K) <= 0.04 * TEMP_K);
        CHECK(worst <= 0.15);
        CHECK(isfinite(e[0].total) && e[0].total < 200);

        /* Reproducible: same seed and start, same bits; replicas part. */
        CHECK_OK(vkmd_uff_md_set_state(ctx, md, xyz, NULL));
        CHECK_OK(vkmd_uff_md_run(ctx, md, 100, NULL));
        CHECK_OK(vkmd_uff_md_read(ctx, md, x1, NULL, NULL));
        CHECK_OK(vkmd_uff_md_set_state(ctx, md, xyz, NULL));
        CHECK_OK(vkmd_uff_md_run(ctx, md, 60, NULL));
        CHECK_OK(vkmd_uff_md_run(ctx, md, 40, NULL));
        CHECK_OK(vkmd_uff_md_read(ctx, md, x2, NULL, NULL));
        const int same = !memcmp(x1, x2, 3 * (size_t)n * sizeof *x1);
        const int parted = memcmp(x1, x1 + 3 * (size_t)na, 3 * (size_t)na * sizeof *x1) != 0;
        printf("100 steps twice from the same state (once as 60 + 40): %s; replicas 0 and 1 "
               "%s\n",
               same ? "identical bits" : "DIFFER", parted ? "differ" : "IDENTICAL");
        CHECK(same);
        CHECK(parted);
    }
    vkmd_uff_md_destroy(ctx, md);
    md = NULL;
    const vkmd_uff_md_params other = {
        .dt_fs = 0.5, .temperature_k = TEMP_K, .friction_per_ps = 20, .seed = 12};
    CHECK_OK(vkmd_uff_md_create(ctx, &batch, mass, &other, &md));
    if (md) {
        CHECK_OK(vkmd_uff_md_set_state(ctx, md, xyz, NULL));
        CHECK_OK(vkmd_uff_md_run(ctx, md, 100, NULL));
        CHECK_OK(vkmd_uff_md_read(ctx, md, x2, NULL, NULL));
        const int differ = memcmp(x1, x2, 3 * (size_t)n * sizeof *x1) != 0;
        printf("seed 12 vs 11: %s\n", differ ? "different trajectories" : "SAME");
        CHECK(differ);
    }
    vkmd_uff_md_destroy(ctx, md);
    md = NULL;
    const vkmd_uff_md_params bad = {.dt_fs = -1};
    CHECK(vkmd_uff_md_create(ctx, &batch, mass, &bad, &md) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(md == NULL);

    vkmd_uff_batch_free(&batch);
    printf("validation errors: %u (warnings %u)\n", vkmd_vk_context_validation_errors(ctx),
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    free(mass), free(xyz), free(x1), free(x2), free(vel);
    vkmd_uff_terms_free(&terms);
    vkmd_uff_typing_free(&ty);
    vkmd_uff_molecule_array_free(recs, count);
    return test_finish("test_uff_md");
}
