/* Virtual sites on the device (engine/forces/pass_vsite.c, shaders/vsite.comp)
 * against the CPU reference: a vacuum system of TIP4P-Ew and TIP5P waters
 * (tests/vsite_testsys.h, both site kinds) through the whole force field, in
 * each positions mode (fp32, split-float, split-int), by the criteria of
 * tests/test_gpu_vsite_common.h (1e-5). Run again with
 * 32-bit fixed-point words (test_gpu_vsite_words in tests/CMakeLists.txt). */
#include "test_gpu_vsite_common.h"
#include "vsite_testsys.h"

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_vsite", &ctx);
    if (early >= 0)
        return early;
    static const char *const modes[] = {"fp32", "split-float", "split-int"};
    for (int m = 0; m < 3; ++m) {
        vkmd_system sys;
        CHECK(vsite_testsys_build(&sys, 5, 4) == 0);
        vkmd_ff_settings s = {0};
        CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
        CHECK_OK(vkmd_positions_mode_parse(modes[m], &s.positions));
        char label[64];
        snprintf(label, sizeof label, "5 TIP4P-Ew + 4 TIP5P waters, %s", modes[m]);
        vsite_compare(ctx, label, &sys, &s);
        vkmd_system_destroy(&sys);
    }
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_vsite");
}
