/* The body shared by test_gpu_forcefield.c, its _generated twin and
 * test_gpu_testsys.c: one system through the whole device force field
 * (engine/forces/forcefield.h)
 * against the double-precision reference (vkmd_ref_compute), term by term:
 *   - each energy term within TOL_FP32_ENERGY_REL relative (terms that are
 *     exactly zero in the reference must be zero within 1e-9 kcal/mol);
 *   - the total within TOL_FP32_TOTAL_REL relative. When the total is a
 *     near-cancellation of its terms (villin in vacuum: -65 kcal/mol from
 *     terms summing to 5,900 in magnitude), 1e-6 of the total is below what
 *     fp32 terms can resolve (6e-8 each); the test then prints the plain
 *     relative error and checks 1e-6 of the summed magnitudes, and says so;
 *   - RMS(F_gpu - F_ref)/RMS(F_ref) <= TOL_FP32_FORCE_RMS and
 *     max |F_gpu - F_ref| <= TOL_FP32_FORCE_MAX * RMS(F_ref);
 *   - a second evaluation of the same coordinates bitwise identical.
 * Positions are rounded to float before the reference sees them, so the
 * comparison measures the device arithmetic, not the input rounding.
 * VKMD_TEST_POSITIONS=split-float|split-int runs it in another positions
 * mode (a test switch; the engine reads no such variable).
 *
 * ff_compare_far runs it with the coordinates moved far from the origin
 * after that rounding (the reference sees them exactly; fp32 positions then
 * round at the ulp of the coordinate): the split modes must meet the same
 * criteria there, and fp32 must miss the force criterion by 10x, so that
 * the comparison is shown to see what the split modes keep. */
#ifndef VKMD_TESTS_GPU_FORCEFIELD_COMMON_H
#define VKMD_TESTS_GPU_FORCEFIELD_COMMON_H

#include "testlib.h"
#include "tolerance.h"
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "ref/ref.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ff_check_term(const char *name, double gpu, double ref)
{
    char label[64];
    snprintf(label, sizeof label, "%s (kcal/mol)", name);
    check_close(label, gpu, ref, TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
}

/* Every energy term and the total of the device (ea) against the reference
 * (er), as the file comment says. */
static void ff_check_energies(const vkmd_energy *pa, const vkmd_energy *pr)
{
    const vkmd_energy ea = *pa, er = *pr;
    ff_check_term("bond", ea.bond, er.bond);
    ff_check_term("angle", ea.angle, er.angle);
    ff_check_term("dihedral", ea.dihedral, er.dihedral);
    ff_check_term("improper", ea.improper, er.improper);
    ff_check_term("urey_bradley", ea.urey_bradley, er.urey_bradley);
    ff_check_term("improper_harmonic", ea.improper_harmonic, er.improper_harmonic);
    ff_check_term("cmap", ea.cmap, er.cmap);
    ff_check_term("lj_pair", ea.lj_pair, er.lj_pair);
    ff_check_term("lj14", ea.lj14, er.lj14);
    ff_check_term("lj_dispersion", ea.lj_dispersion, er.lj_dispersion);
    ff_check_term("coulomb_real", ea.coulomb_real, er.coulomb_real);
    ff_check_term("coulomb_recip", ea.coulomb_recip, er.coulomb_recip);
    ff_check_term("coulomb_self", ea.coulomb_self, er.coulomb_self);
    ff_check_term("coulomb_excl", ea.coulomb_excl, er.coulomb_excl);
    ff_check_term("coulomb_net_charge", ea.coulomb_net_charge, er.coulomb_net_charge);
    ff_check_term("coulomb14", ea.coulomb14, er.coulomb14);
    double mag = fabs(er.bond) + fabs(er.angle) + fabs(er.dihedral) + fabs(er.lj_pair) +
                 fabs(er.lj14) + fabs(er.lj_dispersion) + fabs(er.coulomb_real) +
                 fabs(er.coulomb_recip) + fabs(er.coulomb_self) + fabs(er.coulomb_excl) +
                 fabs(er.coulomb_net_charge) + fabs(er.coulomb14);
    double tdiff = fabs(ea.total - er.total);
    /* a cancellation: the total is below 1/50 of the summed magnitudes */
    if (fabs(er.total) * 50 < mag) {
        printf("  TOTAL %.6f vs %.6f: |diff| %.3g = %.3g of |total| (MISSES %.0e: the total is "
               "1/%.0f of the summed term magnitudes %.1f) = %.3g of the magnitudes (limit %.0e)\n",
               ea.total, er.total, tdiff, tdiff / fabs(er.total), TOL_FP32_TOTAL_REL,
               mag / fabs(er.total), mag, tdiff / mag, TOL_FP32_TOTAL_REL);
        CHECK(tdiff <= TOL_FP32_TOTAL_REL * mag);
    } else {
        check_close("TOTAL (kcal/mol)", ea.total, er.total, TOL_FP32_TOTAL_REL,
                    TOL_FP32_ENERGY_ZERO);
    }
}

/* The comparison (see the file comment) of sys with its positions rounded
 * to float (in place), then moved by shift A along x, y and z (on a copy);
 * positions: a VKMD_POSITIONS_* mode, or -1 for the given settings' or
 * VKMD_TEST_POSITIONS's. */
static void ff_compare_run(vkmd_vk_context *ctx, const char *label, vkmd_system *base,
                           int force_staging, const vkmd_ff_settings *given, int positions,
                           double shift)
{
    const int32_t n = base->atom_count;
    for (int i = 0; i < 3 * n; ++i)
        base->positions[i] = (double)(float)base->positions[i];
    vkmd_system shifted = *base, *sys = base;
    if (shift != 0.0) {
        shifted.positions = malloc(sizeof *shifted.positions * 3 * (size_t)n);
        for (int i = 0; i < 3 * n; ++i)
            shifted.positions[i] = base->positions[i] + shift;
        sys = &shifted;
    }
    vkmd_ff_settings s = {0};
    if (given)
        s = *given;
    else
        CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    /* VKMD_TEST_POSITIONS (fp32, split-float, split-int; the positions-mode
     * loop of tests/CMakeLists.txt): the same comparison in that mode. */
    const char *mode = getenv("VKMD_TEST_POSITIONS");
    if (positions >= 0)
        s.positions = positions;
    else if (mode && *mode)
        CHECK_OK(vkmd_positions_mode_parse(mode, &s.positions));
    /* fp32 far away: expected to miss (checked below) */
    const int expect_miss = shift != 0.0 && s.positions == VKMD_POSITIONS_FP32;
    printf("== %s: %d atoms, %s", label, n, sys->box.periodic ? "periodic" : "vacuum");
    if (sys->box.periodic)
        printf(", box %.3f x %.3f x %.3f A, cutoff %.1f A, alpha %.6f/A, PME grid %dx%dx%d",
               sys->box.len[0], sys->box.len[1], sys->box.len[2], s.cutoff_a, s.ewald_alpha,
               s.pme_grid[0], s.pme_grid[1], s.pme_grid[2]);
    printf(", positions %s%s", vkmd_positions_mode_name(s.positions),
           force_staging ? ", staged buffers" : "");
    if (shift != 0.0)
        printf(", every coordinate + %g A", shift);
    printf("\n");

    double *fref = calloc(3 * (size_t)n, sizeof(double));
    double *fa = calloc(3 * (size_t)n, sizeof(double));
    double *fb = calloc(3 * (size_t)n, sizeof(double));
    vkmd_energy er, ea, eb;
    CHECK_OK(vkmd_ref_compute(sys, &s, &er, fref));

    vkmd_forcefield *ff = NULL;
    const vkmd_forcefield_desc fd = {.settings = &s, .force_staging = force_staging};
    CHECK_OK(vkmd_forcefield_create(ctx, sys, &fd, &ff));
    if (!ff)
        goto done;
    printf("  device memory %.1f MiB\n", vkmd_forcefield_memory_bytes(ff) / 1048576.0);
    CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &ea, fa));
    CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &eb, fb));

    if (!expect_miss)
        ff_check_energies(&ea, &er);

    double rel = rms_rel_error(fa, fref, 3 * n), frms = rms(fref, 3 * n);
    double dmax = max_abs_error(fa, fref, 3 * n);
    printf("  forces: RMS(F_gpu - F_ref)/RMS(F_ref) %.3g (limit %.0e); max |dF| %.3g kcal/mol/A "
           "= %.3g RMS(F_ref) (limit %.0e); RMS(F_ref) %.4g kcal/mol/A\n",
           rel, TOL_FP32_FORCE_RMS, dmax, dmax / frms, TOL_FP32_FORCE_MAX, frms);
    if (expect_miss) {
        printf("  fp32 positions %g A out: energies not compared; the forces must miss their "
               "limit by 10x or more: %s\n",
               shift, rel > 10 * TOL_FP32_FORCE_RMS ? "they do" : "THEY DO NOT");
        CHECK(rel > 10 * TOL_FP32_FORCE_RMS);
    } else {
        CHECK(rel <= TOL_FP32_FORCE_RMS);
        CHECK(dmax <= TOL_FP32_FORCE_MAX * frms);
    }

    int same = !memcmp(fa, fb, 3 * (size_t)n * sizeof(double)) && !memcmp(&ea, &eb, sizeof ea);
    printf("  repeated evaluation bitwise identical: %s\n", same ? "yes" : "NO");
    CHECK(same);
    uint32_t builds = 0;
    CHECK_OK(vkmd_forcefield_neighbor_builds(ctx, ff, &builds));
    printf("  neighbour-list builds on the device: %u\n", builds);
    if (sys->box.periodic)
        CHECK(builds == 1); /* same coordinates twice: built once, then only checked */
done:
    vkmd_forcefield_destroy(ctx, ff);
    free(fref);
    free(fa);
    free(fb);
    if (sys != base)
        free(shifted.positions);
}

/* Runs the comparison with the given settings (NULL: the defaults, resolved
 * for the system); force_staging also exercises the discrete-GPU path. */
static inline void ff_compare_settings(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                                       int force_staging, const vkmd_ff_settings *given)
{
    ff_compare_run(ctx, label, sys, force_staging, given, -1, 0.0);
}

/* The comparison with every coordinate moved by shift A (the file comment);
 * positions as ff_compare_run. */
static inline void ff_compare_far(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                                  const vkmd_ff_settings *given, int positions, double shift)
{
    ff_compare_run(ctx, label, sys, 0, given, positions, shift);
}

static inline void ff_compare(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                              int force_staging)
{
    ff_compare_settings(ctx, label, sys, force_staging, NULL);
}

#endif
