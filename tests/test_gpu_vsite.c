/* Virtual sites on the device (engine/forces/pass_vsite.c, shaders/vsite.comp)
 * against the CPU reference: a vacuum system of TIP4P-Ew and TIP5P waters
 * (tests/vsite_testsys.h, both site kinds) through the whole force field, in
 * each positions mode (fp32, split-float, split-int): every energy term to
 * 1e-5 relative, the total to 1e-5 of the summed term magnitudes (9 waters
 * in vacuum: the total is a small difference of large Coulomb terms, so it
 * is not held to the 1e-6 of a whole box), forces 1e-5 RMS-relative, the
 * sites' rows exactly zero, a repeat bitwise identical. Run again with
 * 32-bit fixed-point words (test_gpu_vsite_words in tests/CMakeLists.txt). */
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "ref/ref.h"
#include "testlib.h"
#include "tolerance.h"
#include "vk/context.h"
#include "vsite_testsys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                    const vkmd_ff_settings *s)
{
    const int32_t n = sys->atom_count;
    for (int i = 0; i < 3 * n; ++i)
        sys->positions[i] = (double)(float)sys->positions[i];
    printf("== %s: %d atoms, %d sites\n", label, n, sys->vsite_count);
    double *fr = calloc(3 * (size_t)n, sizeof *fr), *fa = calloc(3 * (size_t)n, sizeof *fa),
           *fb = calloc(3 * (size_t)n, sizeof *fb);
    vkmd_energy er, ea, eb;
    CHECK_OK(vkmd_ref_compute(sys, s, &er, fr));
    vkmd_forcefield *ff = NULL;
    const vkmd_forcefield_desc fd = {.settings = s};
    CHECK_OK(vkmd_forcefield_create(ctx, sys, &fd, &ff));
    if (ff) {
        CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &ea, fa));
        CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &eb, fb));
        const double got[] = {ea.bond, ea.angle, ea.lj_pair, ea.coulomb_real};
        const double want[] = {er.bond, er.angle, er.lj_pair, er.coulomb_real};
        static const char *const names[] = {"bond", "angle", "lj_pair", "coulomb"};
        double mag = 0;
        for (int t = 0; t < 4; ++t) {
            check_close(names[t], got[t], want[t], TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
            mag += fabs(want[t]);
        }
        const double td = fabs(ea.total - er.total);
        printf("  total %.8f vs %.8f: |diff| %.3g = %.3g of the summed magnitudes %.4g (limit "
               "%.0e)\n",
               ea.total, er.total, td, td / mag, mag, TOL_FP32_ENERGY_REL);
        CHECK(td <= TOL_FP32_ENERGY_REL * mag);
        const double rel = rms_rel_error(fa, fr, 3 * n);
        printf("  forces: RMS(F_gpu - F_ref)/RMS(F_ref) %.3g (limit %.0e), RMS(F_ref) %.4g\n", rel,
               TOL_FP32_FORCE_RMS, rms(fr, 3 * n));
        CHECK(rel <= TOL_FP32_FORCE_RMS);
        for (int32_t k = 0; k < sys->vsite_count; ++k)
            for (int c = 0; c < 3; ++c)
                CHECK(fa[3 * sys->vsites[k].site + c] == 0 && fr[3 * sys->vsites[k].site + c] == 0);
        const int same = !memcmp(fa, fb, sizeof *fa * 3 * (size_t)n) && ea.total == eb.total;
        printf("  repeated evaluation bitwise identical: %s\n", same ? "yes" : "NO");
        CHECK(same);
    }
    vkmd_forcefield_destroy(ctx, ff);
    free(fr);
    free(fa);
    free(fb);
}

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
        compare(ctx, label, &sys, &s);
        vkmd_system_destroy(&sys);
    }
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_vsite");
}
