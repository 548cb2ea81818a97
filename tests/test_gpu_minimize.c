/* FIRE minimisation on the device without constraints: water:216
 * (perturbed by up to 0.2 A per coordinate: the built box is already near
 * a minimum) and villin in vacuum, against the reference FIRE (body and
 * criteria in test_gpu_minimize_common.h); also the refusal of a
 * velocities buffer whose w is not 1/m. */
#include "test_gpu_minimize_common.h"

/* velocities.w must hold 1/m: a zero is reported, naming the atom. */
static void check_bad_masses(vkmd_vk_context *ctx)
{
    fixture fx;
    if (fixture_open(ctx, "water:216", 0, 0, 0, 0, &fx)) {
        float zero[4] = {0, 0, 0, 0};
        CHECK_OK(vkmd_vk_buffer_upload(ctx, &fx.velocities, 16 * 7, zero, 16));
        vkmd_minimize_result r;
        vkmd_result res =
            vkmd_minimize_run(ctx, fx.ff, NULL, &fx.positions_ref, NULL, &fx.velocities, NULL, &r);
        printf("== velocities.w = 0 for atom 7: %s: %s\n", vkmd_result_str(res), vkmd_last_error());
        CHECK(res == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "atom 7"));
    }
    fixture_close(ctx, &fx);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_minimize", &ctx);
    if (early >= 0)
        return early;
    check_bad_masses(ctx);
    /* water:216 to the default tolerance; villin to 0.5 kcal/mol/A, which
     * keeps the test's time in bounds (its all-pairs vacuum evaluation is
     * the slow part on lavapipe: ~770 iterations instead of ~960) and stops
     * past the slope where tolerances of 1 to 3 kcal/mol/A end (between
     * iterations 300 and 540 the energy still falls ~0.15 kcal/mol per
     * iteration, so paths that cross a tolerance a few iterations apart end
     * up to 1.3 kcal/mol apart there). */
    run_system(ctx, "water:216", "water:216", 0.2, 0, 0, VKMD_MINIMIZE_FORCE_TOL, 60,
               TOL_MIN_FINAL_ENERGY_REL);
    run_system(ctx, "villin (vacuum)", VKMD_TEST_DATA_DIR "/villin_vac.prmtop", 0.0, 0, 0, 0.5, 60,
               TOL_MIN_FINAL_ENERGY_REL);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_minimize");
}
