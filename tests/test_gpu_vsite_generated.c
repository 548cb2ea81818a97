/* Virtual sites on the device against the CPU reference on the TIP4P-Ew box
 * (308 waters, 1232 atoms) that tests/oracles/openmm_vsite.py builds at test
 * time (the openmm_vsite_generate fixture): the whole force field with PME,
 * fp32 and split-int positions, by test_gpu_forcefield_common.h's criteria
 * (1e-5). The reference itself is checked against OpenMM by
 * test_ref_openmm_vsite_generated. */
#include "test_gpu_forcefield_common.h"
#include "io/load.h"

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_vsite_generated", &ctx);
    if (early >= 0)
        return early;
    static const char *const modes[] = {"fp32", "split-int"};
    for (int m = 0; m < 2; ++m) {
        vkmd_system sys = {0};
        CHECK_OK(vkmd_system_load(VKMD_TEST_GEN_DIR "/tip4pew_box.prmtop", NULL, &sys));
        if (!sys.positions)
            break;
        CHECK(sys.vsite_count == 308);
        vkmd_ff_settings s = {0};
        CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
        CHECK_OK(vkmd_positions_mode_parse(modes[m], &s.positions));
        char label[64];
        snprintf(label, sizeof label, "tip4pew_box, %s", modes[m]);
        ff_compare_settings(ctx, label, &sys, 0, &s);
        vkmd_system_destroy(&sys);
    }
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_vsite_generated");
}
