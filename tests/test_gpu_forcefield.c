/* The whole force field on the device against the CPU reference: water:216
 * (the smallest box the 9 A cutoff allows), water:8000 (24,000 atoms), and the
 * committed OpenMM-checked systems (villin in vacuum, water, salt water, a
 * charged box). Body and criteria in test_gpu_forcefield_common.h. */
#include "test_gpu_forcefield_common.h"
#include "io/load.h"

/* Rigid-geometry water boxes (water:N and OpenMM's solvent boxes) sit at the
 * exact bond and angle minimum, where
 * those energies are ~1e-5 kcal/mol and a relative comparison means nothing:
 * displace every atom by up to 0.03 A (about the thermal bond stretch at
 * 300 K), as in a frame of a real run. Deterministic. */
static void jiggle(vkmd_system *sys)
{
    uint64_t st = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 3 * sys->atom_count; ++i) {
        st ^= st >> 12;
        st ^= st << 25;
        st ^= st >> 27;
        double u = (double)((st * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
        sys->positions[i] += 0.06 * (u - 0.5);
    }
}

static void run(vkmd_vk_context *ctx, const char *spec, const char *coords, int displace,
                int staged)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(spec, coords, &sys));
    if (sys.positions) {
        if (displace)
            jiggle(&sys);
        ff_compare(ctx, spec, &sys, staged);
    }
    vkmd_system_destroy(&sys);
}

/* A list created far too small overflows on the device; evaluate grows it
 * and repeats, and the result equals the one with the estimated capacity. */
static void check_growth(vkmd_vk_context *ctx)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load("water:216", NULL, &sys));
    if (!sys.positions)
        return;
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    vkmd_forcefield *small = NULL, *normal = NULL;
    const vkmd_forcefield_desc ds = {.settings = &s, .max_neighbors = 16};
    const vkmd_forcefield_desc dn = {.settings = &s};
    CHECK_OK(vkmd_forcefield_create(ctx, &sys, &ds, &small));
    CHECK_OK(vkmd_forcefield_create(ctx, &sys, &dn, &normal));
    vkmd_energy es, en;
    if (small && normal) {
        CHECK_OK(vkmd_forcefield_evaluate(ctx, small, NULL, &es, NULL));
        CHECK_OK(vkmd_forcefield_evaluate(ctx, normal, NULL, &en, NULL));
        printf("== list growth: capacity 16 entries per cluster -> total %.6f, estimated "
               "capacity -> %.6f kcal/mol (must be identical)\n",
               es.total, en.total);
        CHECK(es.total == en.total);
    }
    vkmd_forcefield_destroy(ctx, small);
    vkmd_forcefield_destroy(ctx, normal);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_forcefield", &ctx);
    if (early >= 0)
        return early;
    run(ctx, "water:216", NULL, 1, 0);
    run(ctx, VKMD_TEST_DATA_DIR "/villin_vac.prmtop", NULL, 0, 0);
    run(ctx, VKMD_TEST_DATA_DIR "/water_box.prmtop", NULL, 1, 1);
    run(ctx, VKMD_TEST_DATA_DIR "/water_nacl.prmtop", NULL, 1, 0);
    run(ctx, VKMD_TEST_DATA_DIR "/water_na_charged.prmtop", NULL, 1, 0);
    run(ctx, "water:8000", NULL, 1, 0);
    check_growth(ctx);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_forcefield");
}
