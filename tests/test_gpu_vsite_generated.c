/* Virtual sites on the device against the CPU reference on the TIP4P-Ew box
 * (308 waters, 1232 atoms; fp32 and split-int positions) and the TIP5P box
 * (286 waters, 1430 atoms; fp32) that tests/oracles/openmm_vsite.py builds at
 * test time (the openmm_vsite_generate fixture): the whole force field with
 * PME, by test_gpu_forcefield_common.h's criteria
 * (1e-5). The reference itself is checked against OpenMM by
 * test_ref_openmm_vsite_generated. */
#include "test_gpu_forcefield_common.h"
#include "test_gpu_vsite_common.h"
#include "io/load.h"

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_vsite_generated", &ctx);
    if (early >= 0)
        return early;
    static const char *const modes[] = {"fp32", "split-int", "split-float"};
    static const char *const files[] = {"tip4pew_box", "tip4pew_box", "tip5p_box"};
    static const int32_t sites[] = {308, 308, 572};
    for (int m = 0; m < 3; ++m) {
        vkmd_system sys = {0};
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.prmtop", VKMD_TEST_GEN_DIR, files[m]);
        CHECK_OK(vkmd_system_load(path, NULL, &sys));
        if (!sys.positions)
            break;
        CHECK(sys.vsite_count == sites[m]);
        vkmd_ff_settings s = {0};
        CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
        CHECK_OK(vkmd_positions_mode_parse(modes[m], &s.positions));
        char label[64];
        snprintf(label, sizeof label, "%s, %s", files[m], modes[m]);
        if (sites[m] == 308)
            ff_compare_settings(ctx, label, &sys, 0, &s);
        else
            vsite_compare(ctx, label, &sys, &s);
        vkmd_system_destroy(&sys);
    }
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_vsite_generated");
}
