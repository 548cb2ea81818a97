/* The CHARMM terms on the device (shaders/common/bonded_terms.glsl: CMAP,
 * Urey-Bradley, harmonic impropers, 1-4 LJ tables) and the whole force field
 * against the CPU reference, on the chamber alanine dipeptide in vacuum and
 * in water that the openmm_charmm_generate fixture writes (the systems of
 * test_ref_openmm_charmm_generated). Criteria of test_gpu_forcefield_common.h:
 * each term within 1e-5 relative, forces 1e-5 RMS-relative, two evaluations
 * bitwise equal. */
#include "test_gpu_forcefield_common.h"
#include "io/load.h"

static void run(vkmd_vk_context *ctx, const char *name)
{
    char prmtop[1024], inpcrd[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_GEN_DIR, name);
    snprintf(inpcrd, sizeof inpcrd, "%s/%s.inpcrd", VKMD_TEST_GEN_DIR, name);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys));
    if (sys.positions) {
        printf("%s: %d Urey-Bradley, %d harmonic impropers, %d CMAP terms (%d maps), 1-4 LJ "
               "tables %s\n",
               name, sys.urey_bradley_count, sys.improper_harmonic_count, sys.cmap_count,
               sys.cmap_map_count, sys.lj14_a ? "yes" : "no");
        CHECK(sys.cmap_count > 0 && sys.urey_bradley_count > 0 && sys.improper_harmonic_count > 0 &&
              sys.lj14_a);
        ff_compare(ctx, name, &sys, 0);
    }
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_cmap_generated", &ctx);
    if (early >= 0)
        return early;
    run(ctx, "ala2_charmm");
    run(ctx, "ala2_charmm_solv");
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_cmap_generated");
}
