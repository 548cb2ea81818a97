/* The whole force field on the device against the CPU reference on the
 * solvated proteins built at test time by tests/oracles/openmm_reference.py (the
 * openmm_generate fixture): villin_solv (8,867 atoms) and villin_big (villin
 * in a 6 nm box with 0.15 M NaCl, 20,783 atoms). Body and criteria in
 * test_gpu_forcefield_common.h. */
#include "test_gpu_forcefield_common.h"
#include "io/load.h"

static void run(vkmd_vk_context *ctx, const char *name)
{
    char prmtop[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_GEN_DIR, name);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, NULL, &sys));
    if (sys.positions)
        ff_compare(ctx, name, &sys, 0);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_forcefield_generated", &ctx);
    if (early >= 0)
        return early;
    run(ctx, "villin_solv");
    run(ctx, "villin_big");
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_forcefield_generated");
}
