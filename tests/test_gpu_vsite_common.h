/* The GPU-vs-reference comparison of the virtual-site tests
 * (tests/test_gpu_vsite.c, tests/test_gpu_vsite_generated.c): every energy
 * term to 1e-5 relative (terms near zero, such as a water box's bonds and
 * angles, to TOL_FP32_ENERGY_ABS), the total to 1e-5 of the summed term
 * magnitudes (water boxes and small clusters: the total is a small difference
 * of large Coulomb terms), forces 1e-5 RMS-relative, the sites' rows exactly
 * zero on both sides, a repeat bitwise identical. Header-only. */
#ifndef VKMD_TESTS_GPU_VSITE_COMMON_H
#define VKMD_TESTS_GPU_VSITE_COMMON_H

#include "forces/forcefield.h"
#include "forces/positions.h"
#include "ref/ref.h"
#include "testlib.h"
#include "tolerance.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rounds sys->positions to float first (the device's inputs). */
static inline void vsite_compare(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
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
        const double got[] = {ea.bond,         ea.angle,         ea.lj_pair,      ea.lj_dispersion,
                              ea.coulomb_real, ea.coulomb_recip, ea.coulomb_self, ea.coulomb_excl};
        const double want[] = {er.bond,         er.angle,         er.lj_pair,      er.lj_dispersion,
                               er.coulomb_real, er.coulomb_recip, er.coulomb_self, er.coulomb_excl};
        static const char *const names[] = {"bond",          "angle",        "lj_pair",
                                            "lj_dispersion", "coulomb_real", "coulomb_recip",
                                            "coulomb_self",  "coulomb_excl"};
        double mag = 0;
        for (int t = 0; t < 8; ++t) {
            /* near-zero terms (a water box's bonds and angles): TOL_FP32_ENERGY_ABS */
            check_close(names[t], got[t], want[t], TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ABS);
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

#endif
