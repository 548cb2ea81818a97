/* FIRE minimisation on the device with constraints (the minimiser's
 * constrained force f = m a_c and constrained moves, engine/sim/minimize.h):
 * water:216 with rigid SETTLE waters (perturbed by up to 0.2 A per
 * coordinate; the start is constrained first) and villin in vacuum with its
 * bonds to hydrogen held, against the reference FIRE with the reference
 * constraints (body and criteria in test_gpu_minimize_common.h). */
#include "test_gpu_minimize_common.h"

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_minimize_constrained", &ctx);
    if (early >= 0)
        return early;
    /* villin to 0.5 kcal/mol/A as in test_gpu_minimize.c (why there). */
    run_system(ctx, "water:216, rigid waters", "water:216", 0.2, 1, 1, VKMD_MINIMIZE_FORCE_TOL, 60,
               TOL_MIN_FINAL_ENERGY_REL);
    run_system(ctx, "villin (vacuum), H bonds", VKMD_TEST_DATA_DIR "/villin_vac.prmtop", 0.0, 1, 1,
               0.5, 60, TOL_MIN_FINAL_ENERGY_REL);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_minimize_constrained");
}
